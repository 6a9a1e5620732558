//! The files of the home page's sections: `home.toml` (the hero and the "why" cards), `testimonials.toml` and
//! `faq.toml` (general questions, the first four on the home page), each with the fixed number of entries the
//! page's layout is made for (testimonials: three, or none at all).

use std::path::Path;

use crate::fields::{check_count, check_description};
use crate::files::read_toml;
use crate::model::{Faq, FaqFile, Home, Testimonial, Testimonials};
use crate::problems::Problems;

pub(crate) fn load_home(dir: &Path, problems: &mut Problems) -> Option<Home> {
    let file = dir.join("home.toml");
    let home: Home = read_toml(&file, problems)?;
    check_count("why", home.why.len(), 4, " cards", &file, problems);
    check_description(&home.description, "description", &file, problems);
    Some(home)
}

/// The testimonials: three, or none when the file is gone or lists none (the home page then goes without them).
pub(crate) fn load_testimonials(dir: &Path, problems: &mut Problems) -> Option<Vec<Testimonial>> {
    let file = dir.join("testimonials.toml");
    if !file.exists() {
        return Some(Vec::new());
    }
    let Testimonials { testimonials } = read_toml(&file, problems)?;
    problems.check(matches!(testimonials.len(), 0 | 3), &file, || {
        format!(
            "field `testimonials`: expected exactly 3 (the home page's row), or none, found {}",
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
    check_count("faq", faq.len(), 6, " entries", &file, problems);
    Some(faq)
}
