//! The signed links of the agency's e-mail that move a lead on ("Contacted", "Quoted", ...): each names the lead,
//! the status and an expiry, signed with HMAC-SHA256 under a key of this installation. The key is made at the first
//! start, kept in a file beside the database (mode 0600) and never printed; without it nobody can make a link, so
//! the pages need no login. A link carries no personal data: only the lead's number.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use crate::leads::store::Status;

/// How long a link works after its e-mail was sent.
pub const VALID_DAYS: i64 = 30;
/// The links' path, before the lead and the status: `/lead-status/12/contacted?until=...&sig=...`.
pub const PREFIX: &str = "/lead-status/";
/// Hex digits of the signature in a link: 128 bits, as hard to guess as the key and half as long to read.
const SIGNATURE_DIGITS: usize = 32;

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

/// The file of the key beside `database`: `truckins.db` -> `truckins.db.link-key`.
pub fn key_file(database: &Path) -> PathBuf {
    let mut name = database.file_name().unwrap_or_default().to_os_string();
    name.push(".link-key");
    database.with_file_name(name)
}

impl Signer {
    /// The key of `database`'s installation, made now when there is none (256 bits from the operating system,
    /// written as hex to a new file readable by its owner only).
    pub fn load_or_create(database: &Path, base_url: &str) -> Result<Signer, String> {
        let file = key_file(database);
        let key = match read_key(&file)? {
            Some(key) => {
                if let Ok(found) = std::fs::metadata(&file)
                    && found.permissions().mode() & 0o077 != 0
                {
                    rocket::warn!(
                        "the status links' key {} can be read by other users of this machine: chmod 600 it",
                        file.display()
                    );
                }
                key
            }
            None => create(&file)?,
        };
        Ok(Signer {
            key,
            base_url: base_url.trim_end_matches('/').to_string(),
        })
    }

    /// A signer with this key (tests).
    pub fn with_key(key: &[u8], base_url: &str) -> Signer {
        Signer {
            key: key.to_vec(),
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }

    fn signature(&self, lead: i64, status: Status, until: i64) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key)
            .expect("HMAC takes a key of any length");
        mac.update(format!("lead-status\n{lead}\n{status}\n{until}").as_bytes());
        mac
    }

    /// The path and query of the link moving `lead` to `status`, valid for [`VALID_DAYS`] from `now`.
    pub fn path(&self, lead: i64, status: Status, now: OffsetDateTime) -> String {
        let until = now.unix_timestamp() + VALID_DAYS * 86_400;
        let digest = self.signature(lead, status, until).finalize().into_bytes();
        let signature: String = digest
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .take(SIGNATURE_DIGITS / 2)
            .collect();
        path_with(lead, status, until, &signature)
    }

    /// The whole link (the site's public address and [`Signer::path`]).
    pub fn link(&self, lead: i64, status: Status, now: OffsetDateTime) -> String {
        format!("{}{}", self.base_url, self.path(lead, status, now))
    }

    /// Whether `signature` signs `lead`, `status` and `until`, and `until` is not past at `now`. The signature is
    /// compared in constant time, and checked before the expiry: an expired link is told apart only when it is ours.
    pub fn check(
        &self,
        lead: i64,
        status: Status,
        until: i64,
        signature: &str,
        now: OffsetDateTime,
    ) -> Check {
        let Some(bytes) = decode_hex(signature).filter(|b| b.len() * 2 == SIGNATURE_DIGITS) else {
            return Check::Invalid;
        };
        if self
            .signature(lead, status, until)
            .verify_truncated_left(&bytes)
            .is_err()
        {
            return Check::Invalid;
        }
        if now.unix_timestamp() > until {
            Check::Expired
        } else {
            Check::Valid
        }
    }
}

/// The path and query of a link from its parts (the signature as it came, checked by the caller).
pub fn path_with(lead: i64, status: Status, until: i64, signature: &str) -> String {
    format!("{PREFIX}{lead}/{status}?until={until}&sig={signature}")
}

/// The key kept in `file`, `None` when there is no such file (yet); an error when it cannot be read or holds no key.
/// Reads only: the server makes a missing key at its start, `truckins check` just looks.
pub fn read_key(file: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read_to_string(file) {
        Ok(text) => decode_hex(text.trim())
            .filter(|key| key.len() >= 32)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "{} does not hold a key (64 hex digits): delete it and start again to make a new one (links \
                     already sent stop working)",
                    file.display()
                )
            }),
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(None)
        }
        Err(error) => Err(format!("cannot read {}: {error}", file.display())),
    }
}

/// Writes a new key to `file`, readable by its owner only; when another process made it first, reads that one.
fn create(file: &Path) -> Result<Vec<u8>, String> {
    let mut key = vec![0u8; 32];
    getrandom::getrandom(&mut key).map_err(|error| format!("no random key: {error}"))?;
    let hex: String = key.iter().map(|byte| format!("{byte:02x}")).collect();
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)
        .and_then(|mut out| {
            out.write_all(format!("{hex}\n").as_bytes())?;
            out.sync_all()
        });
    match written {
        Ok(()) => {
            rocket::info!("made the status links' key {}", file.display());
            Ok(key)
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            let text = std::fs::read_to_string(file)
                .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
            decode_hex(text.trim()).ok_or_else(|| format!("{} does not hold a key", file.display()))
        }
        Err(error) => Err(format!(
            "cannot write the status links' key {}: {error}",
            file.display()
        )),
    }
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&text[at..at + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(seconds).unwrap()
    }

    fn parts(path: &str) -> (i64, Status, i64, String) {
        let rest = path.strip_prefix(PREFIX).unwrap();
        let (route, query) = rest.split_once('?').unwrap();
        let (lead, status) = route.split_once('/').unwrap();
        let (until, sig) = query.split_once('&').unwrap();
        (
            lead.parse().unwrap(),
            status.parse().unwrap(),
            until.strip_prefix("until=").unwrap().parse().unwrap(),
            sig.strip_prefix("sig=").unwrap().to_string(),
        )
    }

    #[test]
    fn a_link_checks_for_30_days_and_only_as_made() {
        let signer = Signer::with_key(&[7; 32], "https://agency.test/");
        let made = at(1_700_000_000);
        let link = signer.link(12, Status::Contacted, made);
        assert!(link.starts_with("https://agency.test/lead-status/12/contacted?until="));
        let (lead, status, until, sig) = parts(&signer.path(12, Status::Contacted, made));
        assert_eq!(until, 1_700_000_000 + 30 * 86_400);
        let check =
            |lead, status, until, sig: &str, now| signer.check(lead, status, until, sig, now);
        assert_eq!(check(lead, status, until, &sig, made), Check::Valid);
        assert_eq!(check(lead, status, until, &sig, at(until)), Check::Valid);
        assert_eq!(
            check(lead, status, until, &sig, at(until + 1)),
            Check::Expired
        );
        // Another lead, another status, a later expiry, a changed digit, a cut signature, another key.
        assert_eq!(check(13, status, until, &sig, made), Check::Invalid);
        assert_eq!(check(lead, Status::Won, until, &sig, made), Check::Invalid);
        assert_eq!(
            check(lead, status, until + 86_400, &sig, made),
            Check::Invalid
        );
        let flipped = format!(
            "{}{}",
            if sig.starts_with('0') { "1" } else { "0" },
            &sig[1..]
        );
        assert_eq!(check(lead, status, until, &flipped, made), Check::Invalid);
        assert_eq!(check(lead, status, until, &sig[..30], made), Check::Invalid);
        assert_eq!(check(lead, status, until, "zz", made), Check::Invalid);
        let other = Signer::with_key(&[8; 32], "https://agency.test");
        assert_eq!(other.check(lead, status, until, &sig, made), Check::Invalid);
    }

    #[test]
    fn the_key_is_made_once_private_and_kept() {
        let dir = std::env::temp_dir().join(format!("truckins-links-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let database = dir.join("leads.db");
        let first = Signer::load_or_create(&database, "https://a.test").unwrap();
        let file = key_file(&database);
        assert_eq!(file, dir.join("leads.db.link-key"));
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let again = Signer::load_or_create(&database, "https://a.test").unwrap();
        assert_eq!(first.key, again.key);
        std::fs::write(&file, "not hex").unwrap();
        assert!(Signer::load_or_create(&database, "https://a.test").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
