//! The Spanish of the contract's English texts: every field message, choice label and form sentence of
//! [`crate::forms`], as the server answers them and `contract.es.ts` gives them to the Spanish pages.

/// (English, Spanish) pairs.
const TEXTS: &[(&str, &str)] = &[];

/// The Spanish of `english`, when the table has it.
pub(crate) fn text(english: &str) -> Option<&'static str> {
    TEXTS
        .iter()
        .find(|(en, _)| *en == english)
        .map(|(_, es)| *es)
}
