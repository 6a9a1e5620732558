//! The files of the home page's sections: `home.toml` (the hero and the "why" cards), `testimonials.toml` and
//! `faq.toml` (general questions, the first four on the home page), each with the fixed number of entries the
//! page's layout is made for.

use std::path::Path;

use crate::fields::check_description;
use crate::files::read_toml;
use crate::model::{Faq, FaqFile, Home, Testimonial, Testimonials};
use crate::problems::Problems;

pub(crate) fn load_home(dir: &Path, problems: &mut Problems) -> Option<Home> {
    let file = dir.join("home.toml");
    let home: Home = read_toml(&file, problems)?;
    problems.check(home.why.len() == 4, &file, || {
        format!(
            "field `why`: expected exactly 4 cards, found {}",
            home.why.len()
        )
    });
    check_description(&home.description, "description", &file, problems);
    Some(home)
}

pub(crate) fn load_testimonials(dir: &Path, problems: &mut Problems) -> Option<Vec<Testimonial>> {
    let file = dir.join("testimonials.toml");
    let Testimonials { testimonials } = read_toml(&file, problems)?;
    problems.check(testimonials.len() == 3, &file, || {
        format!(
            "field `testimonials`: expected exactly 3, found {}",
            testimonials.len()
        )
    });
    for (i, entry) in testimonials.iter().enumerate() {
        problems.check((1..=5).contains(&entry.rating), &file, || {
            format!(
                "testimonial {}: field `rating`: {} is not from 1 to 5",
                i + 1,
                entry.rating
            )
        });
    }
    Some(testimonials)
}

pub(crate) fn load_faq(dir: &Path, problems: &mut Problems) -> Option<Vec<Faq>> {
    let file = dir.join("faq.toml");
    let FaqFile { faq } = read_toml(&file, problems)?;
    problems.check(faq.len() == 6, &file, || {
        format!(
            "field `faq`: expected exactly 6 entries, found {}",
            faq.len()
        )
    });
    Some(faq)
}
