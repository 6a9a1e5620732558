//! The insurers the agency places with (content/facts.toml's `[[insurers]]`, written by build.rs as
//! `id\tname\tclaims_phone\tclaims_url` lines): the claim form's insurer is one of their ids or `not_sure`, and a
//! claim's confirmation gives the chosen insurer's claims line. The agency's own around-the-clock claims line, when
//! the content has one (`[claims]`), is `claims-line.txt` (`name\tphone`, or empty).

/// One insurer as the content lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insurer {
    pub id: &'static str,
    pub name: &'static str,
    pub claims_phone: &'static str,
    pub claims_url: &'static str,
}

fn insurers_text() -> &'static str {
    crate::built::text("insurers.txt")
}
fn claims_line_text() -> &'static str {
    crate::built::text("claims-line.txt")
}

/// Every insurer of the content, in its order.
pub fn all() -> impl Iterator<Item = Insurer> {
    insurers_text().lines().filter_map(|line| {
        let mut parts = line.split('\t');
        Some(Insurer {
            id: parts.next()?,
            name: parts.next()?,
            claims_phone: parts.next().unwrap_or(""),
            claims_url: parts.next().unwrap_or(""),
        })
    })
}

/// The insurer with this id.
pub fn find(id: &str) -> Option<Insurer> {
    all().find(|insurer| insurer.id == id)
}

/// The agency's around-the-clock claims line (its name and phone), when the content has one.
pub fn claims_line() -> Option<(&'static str, &'static str)> {
    claims_line_text()
        .trim()
        .split_once('\t')
        .filter(|(_, phone)| !phone.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_id_is_a_value_the_contract_takes() {
        for insurer in all() {
            assert!(
                contract::forms::claim::is_insurer_value(insurer.id),
                "{}",
                insurer.id
            );
            assert_eq!(find(insurer.id), Some(insurer));
        }
        assert_eq!(find(contract::forms::claim::INSURER_NOT_SURE), None);
    }
}
