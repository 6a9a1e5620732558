//! The sample agency's items that must not go live: a site built for a real address (a `base_url` that is not
//! reserved for examples) is refused while any remains, each named by file and field with why it must go. Built for
//! the sample address (development, the tests), the sample content is kept as it is.
//!
//! What marks an item as a sample: the content says so (`sample = true` on a testimonial, an author, an insurer, the address;
//! "sample" in a licence number), or the value is one reserved for fiction and examples (a 555 number, an
//! example.com address, a placeholder social link), as `contract::sample` recognises them.

use std::path::Path;

use contract::sample::{is_example_email, is_example_url, is_fictional_phone};

use crate::model::{Content, Site, Testimonial};
use crate::site::FACTS_FILE;
use crate::translations::FOLDER;

/// Whether the site is built for the sample's own address (or another reserved for examples), where sample content
/// is expected.
pub fn built_for_sample(site: &Site) -> bool {
    is_example_url(&site.base_url)
}

/// Refuses the sample items of the content folder `dir` (English `english`, Spanish `spanish`) when the site is
/// built for a real address: each one as `<file>: <field>: <what it is and why it must go>`.
pub fn refuse_samples(dir: &Path, english: &Content, spanish: &Content) -> Result<(), Vec<String>> {
    if built_for_sample(&english.site) {
        return Ok(());
    }
    let items = sample_items(dir, english, spanish);
    if items.is_empty() { Ok(()) } else { Err(items) }
}

/// Every sample item left in the content, whatever the address it is built for.
pub fn sample_items(dir: &Path, english: &Content, spanish: &Content) -> Vec<String> {
    items(dir, english, Some(spanish))
}

/// [`sample_items`], with the Spanish when it could be read.
pub(crate) fn items(dir: &Path, english: &Content, spanish: Option<&Content>) -> Vec<String> {
    let folder = Path::new(dir.file_name().unwrap_or_default());
    let facts = folder.join(FACTS_FILE).display().to_string();
    let mut items = Vec::new();
    let mut item = |file: &str, field: String, why: String| {
        items.push(format!("{file}: field `{field}`: {why}"));
    };
    let site = &english.site;

    let phone_why = |number: &str| {
        format!(
            "{number:?} is a number kept for fiction (area code 555, or 555-0100 to 555-0199): visitors who call it \
             reach no one; give the agency's number"
        )
    };
    for (field, number) in [("phone", &site.phone), ("phone_e164", &site.phone_e164)] {
        if is_fictional_phone(number) {
            item(&facts, field.into(), phone_why(number));
        }
    }
    if is_example_email(&site.email) {
        item(
            &facts,
            "email".into(),
            format!(
                "{:?} is at a domain reserved for examples: mail to it is lost; give the agency's address",
                site.email
            ),
        );
    }
    if site.address.sample {
        item(
            &facts,
            "address".into(),
            "marked `sample = true`: an invented address sends visitors and search engines to the wrong place; give \
             the agency's office, then remove the mark"
                .into(),
        );
    }
    for (index, license) in site.licenses.iter().enumerate() {
        if license.number.to_ascii_lowercase().contains("sample") {
            item(
                &facts,
                format!("licenses[{index}].number"),
                format!(
                    "{:?} is a sample licence number: shown as the agency's, it misleads visitors and regulators \
                     about who is licensed; give the number on the agency's {} licence",
                    license.number, license.state
                ),
            );
        }
    }
    if let Some(claims) = &site.claims {
        for (field, number) in [
            ("claims.phone", &claims.phone),
            ("claims.phone_e164", &claims.phone_e164),
        ] {
            if is_fictional_phone(number) {
                item(&facts, field.into(), phone_why(number));
            }
        }
    }
    for (network, url) in &site.social {
        if is_example_url(url) || url.contains("/your-") {
            item(
                &facts,
                format!("social.{network}"),
                format!(
                    "{url:?} is a placeholder: it leads visitors to someone else's page or to none; give the \
                     agency's own page, or leave the network out"
                ),
            );
        }
    }
    for (index, insurer) in site.insurers.iter().enumerate() {
        let invented = insurer.sample
            || is_fictional_phone(&insurer.claims_phone_e164)
            || is_example_url(&insurer.claims_url);
        if invented {
            item(
                &facts,
                format!("insurers[{index}]"),
                format!(
                    "{:?} is an invented insurer (marked `sample = true`, or its claims line or address is one kept \
                     for examples): a driver after an accident would call a number that reaches no one; list the \
                     insurers the agency places with, or none",
                    insurer.name
                ),
            );
        }
    }
    for (index, author) in site.authors.iter().enumerate() {
        if author.sample {
            item(
                &facts,
                format!("authors[{index}]"),
                format!(
                    "{:?} is marked `sample = true`, an invented author: posts signed by someone who does not exist \
                     claim expertise no one has; name the real writer (or the agency) here and in the posts",
                    author.name
                ),
            );
        }
    }
    let languages = [
        (folder.to_path_buf(), Some(english)),
        (folder.join(FOLDER), spanish),
    ];
    for (language_folder, content) in languages {
        let Some(content) = content else { continue };
        let file = language_folder
            .join("testimonials.toml")
            .display()
            .to_string();
        for (index, testimonial) in content.testimonials.iter().enumerate() {
            if testimonial.sample {
                item(
                    &file,
                    format!("testimonials[{index}]"),
                    fake_testimonial(testimonial),
                );
            }
        }
    }
    items
}

fn fake_testimonial(testimonial: &Testimonial) -> String {
    format!(
        "{:?}'s words are marked `sample = true`, invented: a testimonial from a client who does not exist is a fake \
         testimonial, unlawful under the FTC's rule on consumer reviews and testimonials (16 CFR Part 465); delete \
         it (with none left the home page goes without the section) or replace it with a real client's words, given \
         with their consent",
        testimonial.name
    )
}
