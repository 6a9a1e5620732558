//! The signed links to a quote's whole submission (issue 39): the agency's one page of it,
//! `/lead-submission/<lead>?until=..&sig=..`, and each of its documents, `/lead-documents/<lead>/<document>?until=..&sig=..`.
//! Signed like the status links (the installation's key, [`VALID_DAYS`](super::VALID_DAYS), read only as the server
//! spells them, compared in constant time), each over a message of its own kind (`lead-submission`,
//! `lead-document`), so that no status link's signature opens a submission, nor a page's a document, nor the
//! reverse. A document's link carries its page's expiry: it works as long as the page that listed it.

use time::OffsetDateTime;

use super::{Check, Signer, canonical_number, judge, signed_query, until_from};

/// The page's path before the lead: `/lead-submission/12?until=...&sig=...`.
pub const PAGE_PREFIX: &str = contract::routes::LEAD_SUBMISSION;
/// A document's path before the lead and the document: `/lead-documents/12/3?until=...&sig=...`.
pub const DOCUMENT_PREFIX: &str = contract::routes::LEAD_DOCUMENTS;

/// A link to a lead's submission page, or to one of its documents, as the server writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionLink {
    pub lead: i64,
    /// The document's id for a document's link; `None` for the page.
    pub document: Option<i64>,
    /// Unix time after which the link no longer works.
    pub until: i64,
    pub signature: String,
}

impl Signer {
    /// The signature of the page of `lead` (no `document`) or of one of its documents, until `until`.
    fn submission_signature(&self, lead: i64, document: Option<i64>, until: i64) -> String {
        match document {
            None => self.mac(&format!("lead-submission\n{lead}\n{until}")),
            Some(document) => self.mac(&format!("lead-document\n{lead}\n{document}\n{until}")),
        }
    }

    /// The page of `lead`'s submission, valid for 30 days from `now`: its path and query.
    pub fn submission_path(&self, lead: i64, now: OffsetDateTime) -> String {
        self.signed(lead, None, until_from(now)).path()
    }

    /// The whole link to `lead`'s submission page (the site's public address and [`Signer::submission_path`]).
    pub fn submission_link(&self, lead: i64, now: OffsetDateTime) -> String {
        format!("{}{}", self.base_url, self.submission_path(lead, now))
    }

    /// The path of `document` of `lead`, working until `until` (its page's own expiry).
    pub fn document_path(&self, lead: i64, document: i64, until: i64) -> String {
        self.signed(lead, Some(document), until).path()
    }

    fn signed(&self, lead: i64, document: Option<i64>, until: i64) -> SubmissionLink {
        SubmissionLink {
            lead,
            document,
            until,
            signature: self.submission_signature(lead, document, until),
        }
    }

    /// Whether `link` is signed by this key for its lead (and document) and expiry, and not expired at `now`.
    pub fn check_submission(&self, link: &SubmissionLink, now: OffsetDateTime) -> Check {
        let expected = self.submission_signature(link.lead, link.document, link.until);
        judge(&expected, &link.signature, link.until, now)
    }
}

impl SubmissionLink {
    /// The page's link named by `path` and `query` as they came, only when spelled as the server writes it (see
    /// [`super::Link::parse`]: one spelling of each value, other parameters ignored).
    pub fn parse_page(path: &str, query: Option<&str>) -> Option<SubmissionLink> {
        let lead = canonical_number(path.strip_prefix(PAGE_PREFIX)?)?;
        let (until, signature) = signed_query(query)?;
        Some(SubmissionLink {
            lead,
            document: None,
            until,
            signature,
        })
    }

    /// A document's link named by `path` and `query` as they came, as [`SubmissionLink::parse_page`] reads a page's.
    pub fn parse_document(path: &str, query: Option<&str>) -> Option<SubmissionLink> {
        let (lead, document) = path.strip_prefix(DOCUMENT_PREFIX)?.split_once('/')?;
        let (until, signature) = signed_query(query)?;
        Some(SubmissionLink {
            lead: canonical_number(lead)?,
            document: Some(canonical_number(document)?),
            until,
            signature,
        })
    }

    /// The path and query of the link.
    pub fn path(&self) -> String {
        match self.document {
            None => format!(
                "{PAGE_PREFIX}{}?until={}&sig={}",
                self.lead, self.until, self.signature
            ),
            Some(document) => format!(
                "{DOCUMENT_PREFIX}{}/{document}?until={}&sig={}",
                self.lead, self.until, self.signature
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Link, VALID_DAYS};
    use super::*;
    use crate::store::Status;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(seconds).unwrap()
    }

    fn split(path: &str) -> (&str, Option<&str>) {
        let (path, query) = path.split_once('?').unwrap();
        (path, Some(query))
    }

    #[test]
    fn a_submission_link_checks_for_30_days_for_its_lead_only() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test/");
        let made = at(1_700_000_000);
        let link = signer.submission_link(12, made);
        assert!(link.starts_with("https://agency.test/lead-submission/12?until="));
        let path = signer.submission_path(12, made);
        let (p, q) = split(&path);
        let page = SubmissionLink::parse_page(p, q).expect("the page's link as written");
        assert_eq!(page.path(), path);
        assert_eq!(page.until, 1_700_000_000 + VALID_DAYS * 86_400);
        assert_eq!(signer.check_submission(&page, made), Check::Valid);
        assert_eq!(signer.check_submission(&page, at(page.until)), Check::Valid);
        assert_eq!(
            signer.check_submission(&page, at(page.until + 1)),
            Check::Expired
        );
        let changed = |change: &dyn Fn(&mut SubmissionLink)| {
            let mut link = page.clone();
            change(&mut link);
            signer.check_submission(&link, made)
        };
        assert_eq!(changed(&|l| l.lead = 13), Check::Invalid);
        assert_eq!(changed(&|l| l.until += 1), Check::Invalid);
        assert_eq!(changed(&|l| l.document = Some(1)), Check::Invalid);
        assert_eq!(
            changed(&|l| l.signature.replace_range(
                ..1,
                if l.signature.starts_with('0') {
                    "1"
                } else {
                    "0"
                }
            )),
            Check::Invalid
        );
        let other = Signer::with_key(&[8; 32], "https://agency.test");
        assert_eq!(other.check_submission(&page, made), Check::Invalid);
    }

    #[test]
    fn a_document_link_names_its_lead_and_document_and_no_link_of_one_kind_opens_another() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test");
        let made = at(1_700_000_000);
        let page_path = signer.submission_path(12, made);
        let (p, q) = split(&page_path);
        let page = SubmissionLink::parse_page(p, q).unwrap();
        let document_path = signer.document_path(12, 3, page.until);
        assert!(
            document_path.starts_with("/lead-documents/12/3?until="),
            "{document_path}"
        );
        let (p, q) = split(&document_path);
        let document = SubmissionLink::parse_document(p, q).unwrap();
        assert_eq!(document.path(), document_path);
        assert_eq!(signer.check_submission(&document, made), Check::Valid);
        for other in [
            SubmissionLink {
                document: Some(4),
                ..document.clone()
            },
            SubmissionLink {
                lead: 13,
                ..document.clone()
            },
            // The page's signature on a document's address, and a document's on the page's.
            SubmissionLink {
                signature: page.signature.clone(),
                ..document.clone()
            },
            SubmissionLink {
                signature: document.signature.clone(),
                ..page.clone()
            },
        ] {
            assert_eq!(
                signer.check_submission(&other, made),
                Check::Invalid,
                "{other:?}"
            );
        }
        // A status link's signature for the same lead and expiry opens neither, and theirs no status link.
        let status = signer.path(12, Status::Won, made);
        let (p, q) = split(&status);
        let status = Link::parse(p, q).unwrap();
        let borrowed = SubmissionLink {
            signature: status.signature.clone(),
            ..page.clone()
        };
        assert_eq!(signer.check_submission(&borrowed, made), Check::Invalid);
        let borrowed = Link {
            signature: page.signature.clone(),
            ..status
        };
        assert_eq!(signer.check(&borrowed, made), Check::Invalid);
    }

    #[test]
    fn submission_links_are_read_only_as_the_server_spells_them() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test");
        let path = signer.submission_path(12, at(1_700_000_000));
        let (p, q) = split(&path);
        let page = SubmissionLink::parse_page(p, q).unwrap();
        let (sig, until) = (&page.signature, page.until);
        let upper = sig.to_uppercase();
        for other in [
            format!("/lead-submission/012?until={until}&sig={sig}"),
            format!("/lead-submission/+12?until={until}&sig={sig}"),
            format!("/lead-submission/%31%32?until={until}&sig={sig}"),
            format!("/lead-submission/12/?until={until}&sig={sig}"),
            format!("/lead-submission/12?until=0{until}&sig={sig}"),
            format!("/lead-submission/12?until={until}&sig={upper}"),
            format!("/lead-submission/12?until={until}&sig={sig}&sig={sig}"),
            format!("/lead-submission/12?until={until}"),
            format!("/lead-submission/12?sig={sig}"),
            format!("/lead-submission/-12?until={until}&sig={sig}"),
        ] {
            let (p, q) = split(&other);
            assert_eq!(SubmissionLink::parse_page(p, q), None, "{other}");
        }
        assert_eq!(
            SubmissionLink::parse_page("/lead-submission/12", None),
            None
        );
        for other in [
            format!("/lead-documents/12?until={until}&sig={sig}"),
            format!("/lead-documents/12/03?until={until}&sig={sig}"),
            format!("/lead-documents/12/3/?until={until}&sig={sig}"),
            format!("/lead-documents/12/3/4?until={until}&sig={sig}"),
            format!("/lead-documents/12/x?until={until}&sig={sig}"),
        ] {
            let (p, q) = split(&other);
            assert_eq!(SubmissionLink::parse_document(p, q), None, "{other}");
        }
        // A mail provider's tracking parameters and another order name the same link.
        let tracked = format!("/lead-submission/12?utm_source=mail&sig={sig}&until={until}");
        let (p, q) = split(&tracked);
        assert_eq!(SubmissionLink::parse_page(p, q), Some(page));
    }
}
