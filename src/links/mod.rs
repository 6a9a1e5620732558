//! The signed links of the agency's e-mail that move a lead on ("Contacted", "Quoted", ...): each names the lead,
//! the status and an expiry, signed with HMAC-SHA256 under a key of this installation. The key is made at the first
//! start and kept in the leads database ([`key`]), never printed; without it nobody can make a link, so
//! the pages need no login. A link carries no personal data: only the lead's number.

pub mod key;
pub mod submission;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use crate::store::Status;

/// How long a link works after its e-mail was sent.
pub const VALID_DAYS: i64 = 30;
/// The links' path, before the lead and the status: `/lead-status/12/contacted?until=...&sig=...`.
pub const PREFIX: &str = contract::routes::LEAD_STATUS;
/// Hex digits of the signature in a link: 128 bits, as hard to guess as the key and half as long to read.
const SIGNATURE_DIGITS: usize = 32;

/// The installation's signer as Rocket state (made by the status links' stage; `None` when its key could not be
/// read or made): the agency's e-mail takes its links from here.
#[derive(Clone, Default)]
pub struct Installed(pub Option<Signer>);

/// Makes and checks links; cheap to clone.
#[derive(Clone)]
pub struct Signer {
    key: Vec<u8>,
    /// The site's public address, without a trailing slash.
    base_url: String,
}

/// What a link's signature and expiry say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Valid,
    /// Signed by us, but its 30 days are over.
    Expired,
    /// Not signed by us: tampered with, cut short, or made up.
    Invalid,
}

impl Signer {
    /// A signer with the installation's key ([`key`]) for links to `base_url`.
    pub fn with_key(key: &[u8], base_url: &str) -> Signer {
        Signer {
            key: key.to_vec(),
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }

    /// The signature of a link to move `lead` to `status` until `until`: the first [`SIGNATURE_DIGITS`] lower-case
    /// hex digits of its HMAC.
    fn signature(&self, lead: i64, status: Status, until: i64) -> String {
        self.mac(&format!("lead-status\n{lead}\n{status}\n{until}"))
    }

    /// The first [`SIGNATURE_DIGITS`] lower-case hex digits of the HMAC of `message`. Each kind of link signs a
    /// message starting with its own word (`lead-status`, `lead-submission`, `lead-document`), so no signature of
    /// one kind is ever valid as another's.
    fn mac(&self, message: &str) -> String {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key)
            .expect("HMAC takes a key of any length");
        mac.update(message.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .take(SIGNATURE_DIGITS / 2)
            .collect()
    }

    /// The path and query of the link moving `lead` to `status`, valid for [`VALID_DAYS`] from `now`.
    pub fn path(&self, lead: i64, status: Status, now: OffsetDateTime) -> String {
        let until = until_from(now);
        Link {
            lead,
            status,
            until,
            signature: self.signature(lead, status, until),
        }
        .path()
    }

    /// The whole link (the site's public address and [`Signer::path`]).
    pub fn link(&self, lead: i64, status: Status, now: OffsetDateTime) -> String {
        format!("{}{}", self.base_url, self.path(lead, status, now))
    }

    /// Whether `link`'s signature signs its lead, status and expiry, and the expiry is not past at `now`. The
    /// signature is compared in constant time (a guesser learns nothing from how long a refusal takes), and checked
    /// before the expiry: an expired link is told apart only when it is ours.
    pub fn check(&self, link: &Link, now: OffsetDateTime) -> Check {
        let expected = self.signature(link.lead, link.status, link.until);
        judge(&expected, &link.signature, link.until, now)
    }
}

/// A link's [`Check`]: its `signature` against the `expected` one (in constant time), then its expiry `until`.
fn judge(expected: &str, signature: &str, until: i64, now: OffsetDateTime) -> Check {
    if !same_bytes(expected.as_bytes(), signature.as_bytes()) {
        return Check::Invalid;
    }
    if now.unix_timestamp() > until {
        Check::Expired
    } else {
        Check::Valid
    }
}

/// When a link made at `now` stops working: [`VALID_DAYS`] later.
fn until_from(now: OffsetDateTime) -> i64 {
    now.unix_timestamp() + VALID_DAYS * 86_400
}

/// A link as the server writes it: `/lead-status/<lead>/<status>?until=<until>&sig=<signature>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub lead: i64,
    pub status: Status,
    /// Unix time after which the link no longer works.
    pub until: i64,
    /// [`SIGNATURE_DIGITS`] lower-case hex digits: the key of its "already used" record.
    pub signature: String,
}

impl Link {
    /// The link named by `path` and `query` as they came (not percent-decoded), only when its values are spelled
    /// exactly as the server writes them: decimal numbers without sign or leading zeros, the status's own word, the
    /// signature in lower-case hex of its exact length, `until` and `sig` once each. Any other spelling of those is
    /// refused rather than read: HMAC checks the values, not the text, so upper-case hex, `until=0...`, `%2B` or a
    /// lead `01` would each be another working address of one link, each able to replay it once more if its use were
    /// recorded by the text as sent. Other parameters (a mail provider's click tracking appends `utm_source=...`) and
    /// the parameters' order are ignored: the use is recorded by the signature, whose one spelling this keeps.
    pub fn parse(path: &str, query: Option<&str>) -> Option<Link> {
        let (lead, status) = path.strip_prefix(PREFIX)?.split_once('/')?;
        let (until, signature) = signed_query(query)?;
        let link = Link {
            lead: canonical_number(lead)?,
            status: status.parse().ok()?,
            until,
            signature,
        };
        // Whatever parsing let through (a status spelled otherwise, say), the path must be the one the server
        // writes for these values.
        (format!("{PREFIX}{}/{}", link.lead, link.status) == path).then_some(link)
    }

    /// The path and query of the link, as the e-mail and the confirmation form carry it.
    pub fn path(&self) -> String {
        format!(
            "{PREFIX}{}/{}?until={}&sig={}",
            self.lead, self.status, self.until, self.signature
        )
    }
}

/// A link's `until` and `sig`, each once and spelled as the server writes them (see [`Link::parse`]); other
/// parameters ignored.
fn signed_query(query: Option<&str>) -> Option<(i64, String)> {
    let (mut until, mut signature) = (None, None);
    for parameter in query?.split('&') {
        let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
        let slot = match name {
            "until" => &mut until,
            "sig" => &mut signature,
            _ => continue,
        };
        // A second `until` or `sig` is refused: which one counts would be a guess.
        if slot.replace(value).is_some() {
            return None;
        }
    }
    let signature: &str = signature?;
    let is_signature = signature.len() == SIGNATURE_DIGITS
        && signature
            .bytes()
            .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
    is_signature.then_some(())?;
    Some((canonical_number(until?)?, signature.to_string()))
}

/// A non-negative decimal number written as Rust writes it: digits only, no sign, no leading zero.
fn canonical_number(text: &str) -> Option<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|number| *number >= 0 && number.to_string() == text)
}

/// Whether `a` and `b` hold the same bytes, in a time that depends on their lengths only (a signature's length is
/// no secret): every byte is compared, the differences gathered without a branch, and `black_box` keeps the
/// compiler from turning the loop back into an early exit.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let difference = a.iter().zip(b).fold(0u8, |gathered, (x, y)| {
        gathered | std::hint::black_box(x ^ y)
    });
    std::hint::black_box(difference) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(seconds).unwrap()
    }

    fn parts(path: &str) -> Link {
        let (path, query) = path.split_once('?').unwrap();
        Link::parse(path, Some(query)).expect("a link as the server writes it")
    }

    #[test]
    fn a_link_checks_for_30_days_and_only_as_made() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test/");
        let made = at(1_700_000_000);
        let link = signer.link(12, Status::Contacted, made);
        assert!(link.starts_with("https://agency.test/lead-status/12/contacted?until="));
        let link = parts(&signer.path(12, Status::Contacted, made));
        assert_eq!(link.until, 1_700_000_000 + 30 * 86_400);
        let check = |changed: &dyn Fn(&mut Link), now| {
            let mut link = link.clone();
            changed(&mut link);
            signer.check(&link, now)
        };
        assert_eq!(check(&|_| {}, made), Check::Valid);
        assert_eq!(check(&|_| {}, at(link.until)), Check::Valid);
        assert_eq!(check(&|_| {}, at(link.until + 1)), Check::Expired);
        // Another lead, another status, a later expiry, a changed digit, a cut signature, another key.
        assert_eq!(check(&|l| l.lead = 13, made), Check::Invalid);
        assert_eq!(check(&|l| l.status = Status::Won, made), Check::Invalid);
        assert_eq!(check(&|l| l.until += 86_400, made), Check::Invalid);
        let flip = |l: &mut Link| {
            let first = if l.signature.starts_with('0') {
                "1"
            } else {
                "0"
            };
            l.signature.replace_range(..1, first);
        };
        assert_eq!(check(&flip, made), Check::Invalid);
        assert_eq!(check(&|l| l.signature.truncate(30), made), Check::Invalid);
        assert_eq!(
            check(&|l| l.signature = l.signature.to_uppercase(), made),
            Check::Invalid
        );
        let other = Signer::with_key(&[8; 32], "https://agency.test");
        assert_eq!(other.check(&link, made), Check::Invalid);
    }

    #[test]
    fn a_link_s_values_are_read_only_as_the_server_spells_them() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test");
        let path = signer.path(12, Status::NotAFit, at(1_700_000_000));
        let link = parts(&path);
        assert_eq!(link.path(), path);
        let sig = &link.signature;
        let until = link.until;
        let upper = sig.to_uppercase();
        let letter = sig.find(|c: char| c.is_ascii_alphabetic()).unwrap();
        let one_upper = format!(
            "{}{}{}",
            &sig[..letter],
            sig[letter..=letter].to_uppercase(),
            &sig[letter + 1..]
        );
        for other in [
            format!("/lead-status/012/not_a_fit?until={until}&sig={sig}"),
            format!("/lead-status/+12/not_a_fit?until={until}&sig={sig}"),
            format!("/lead-status/%31%32/not_a_fit?until={until}&sig={sig}"),
            format!("/lead-status/12/Not_A_Fit?until={until}&sig={sig}"),
            format!("/lead-status/12/not_a_fit?until=0{until}&sig={sig}"),
            format!("/lead-status/12/not_a_fit?until=%2B{until}&sig={sig}"),
            format!("/lead-status/12/not_a_fit?until=+{until}&sig={sig}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={upper}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={one_upper}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={sig}0"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={sig}&sig={sig}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={sig}&until={until}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig={sig}&sig"),
            format!("/lead-status/12/not_a_fit?until={until}"),
            format!("/lead-status/12/not_a_fit?sig={sig}"),
            format!("/lead-status/12/not_a_fit?until={until}&sig=%{}", &sig[1..]),
            format!("/lead-status/-12/not_a_fit?until={until}&sig={sig}"),
        ] {
            let (path, query) = other.split_once('?').unwrap();
            assert_eq!(Link::parse(path, Some(query)), None, "{other}");
        }
        assert_eq!(Link::parse("/lead-status/12/not_a_fit", None), None);
        // Parameters added by a mail provider's click tracking, and another order, name the same link.
        for same in [
            format!("{path}&utm_source=mail&utm_medium=email"),
            format!("/lead-status/12/not_a_fit?utm_source=x&until={until}&x&sig={sig}"),
            format!("/lead-status/12/not_a_fit?sig={sig}&until={until}"),
        ] {
            let (path, query) = same.split_once('?').unwrap();
            assert_eq!(
                Link::parse(path, Some(query)).as_ref(),
                Some(&link),
                "{same}"
            );
        }
    }

    #[test]
    fn same_bytes_compares_every_byte() {
        assert!(same_bytes(b"", b""));
        assert!(same_bytes(b"abc", b"abc"));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"xbc"));
        assert!(!same_bytes(b"abc", b"abcd"));
        assert!(!same_bytes(b"a", b"A"));
    }
}
