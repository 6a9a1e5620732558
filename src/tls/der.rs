//! A certificate's validity read from its DER (X.509's `tbsCertificate.validity`), and what ARI names it by (its
//! serial number and authority key identifier): the few bytes renewal needs, read by a small walker rather than a
//! whole X.509 parser (and its half-dozen crates).

use rustls::pki_types::CertificateDer;

/// When a certificate starts and stops being valid, in Unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Validity {
    pub not_before: i64,
    pub not_after: i64,
}

/// One DER element: its tag and contents, and what follows it.
fn element(bytes: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = bytes.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count]
            .iter()
            .fold(0usize, |length, &byte| (length << 8) | usize::from(byte));
        (length, &rest[count..])
    };
    if rest.len() < length {
        return None;
    }
    Some((tag, &rest[..length], &rest[length..]))
}

const SEQUENCE: u8 = 0x30;
const VERSION: u8 = 0xa0;
const UTC_TIME: u8 = 0x17;
const GENERALIZED_TIME: u8 = 0x18;

/// The validity of `certificate`, or why it could not be read.
pub fn validity(certificate: &CertificateDer<'_>) -> Result<Validity, String> {
    read(certificate.as_ref())
        .ok_or_else(|| "the certificate's validity cannot be read".to_string())
}

/// The fields of a certificate's `tbsCertificate` from its serial number on (past the version, when there is one).
fn signed_fields(der: &[u8]) -> Option<&[u8]> {
    let (SEQUENCE, certificate, _) = element(der)? else {
        return None;
    };
    let (SEQUENCE, tbs, _) = element(certificate)? else {
        return None;
    };
    let (tag, _, after) = element(tbs)?;
    Some(if tag == VERSION { after } else { tbs })
}

fn read(der: &[u8]) -> Option<Validity> {
    let mut rest = signed_fields(der)?;
    // serialNumber, signature, issuer, then validity.
    for _ in 0..3 {
        rest = element(rest)?.2;
    }
    let (SEQUENCE, validity, _) = element(rest)? else {
        return None;
    };
    let (before_tag, before, rest) = element(validity)?;
    let (after_tag, after, _) = element(rest)?;
    Some(Validity {
        not_before: time_of(before_tag, before)?,
        not_after: time_of(after_tag, after)?,
    })
}

const INTEGER: u8 = 0x02;
const BOOLEAN: u8 = 0x01;
const OCTET_STRING: u8 = 0x04;
const OBJECT_IDENTIFIER: u8 = 0x06;
/// `[3]`, the extensions of a version 3 certificate.
const EXTENSIONS: u8 = 0xa3;
/// `[0]`, the keyIdentifier of an AuthorityKeyIdentifier.
const KEY_IDENTIFIER: u8 = 0x80;
/// 2.5.29.35, the authority key identifier extension.
const AUTHORITY_KEY_IDENTIFIER: &[u8] = &[0x55, 0x1d, 0x23];

/// What ARI (RFC 9773) names a certificate by: its authority key identifier's `keyIdentifier` and its serial
/// number, each as the bytes of its DER contents. `None` without an authority key identifier (a self-signed one).
pub fn ari_parts(der: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let (INTEGER, serial, mut rest) = element(signed_fields(der)?)? else {
        return None;
    };
    while !rest.is_empty() {
        let (tag, contents, after) = element(rest)?;
        rest = after;
        if tag != EXTENSIONS {
            continue;
        }
        let (SEQUENCE, mut extensions, _) = element(contents)? else {
            return None;
        };
        while !extensions.is_empty() {
            let (SEQUENCE, extension, after) = element(extensions)? else {
                return None;
            };
            extensions = after;
            let (OBJECT_IDENTIFIER, oid, fields) = element(extension)? else {
                return None;
            };
            if oid != AUTHORITY_KEY_IDENTIFIER {
                continue;
            }
            // `critical`, when present, then the value.
            let (mut tag, mut value, after) = element(fields)?;
            if tag == BOOLEAN {
                (tag, value, _) = element(after)?;
            }
            if tag != OCTET_STRING {
                return None;
            }
            let (SEQUENCE, identifier, _) = element(value)? else {
                return None;
            };
            let (KEY_IDENTIFIER, key_id, _) = element(identifier)? else {
                return None;
            };
            return Some((key_id.to_vec(), serial.to_vec()));
        }
    }
    None
}

/// UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime (`YYYYMMDDHHMMSSZ`), as X.509 requires them.
fn time_of(tag: u8, text: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(text).ok()?;
    let digits = text.strip_suffix('Z')?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (year, rest) = match (tag, digits.len()) {
        (UTC_TIME, 12) => {
            let short: i32 = digits[..2].parse().ok()?;
            (
                if short < 50 {
                    2000 + short
                } else {
                    1900 + short
                },
                &digits[2..],
            )
        }
        (GENERALIZED_TIME, 14) => (digits[..4].parse().ok()?, &digits[4..]),
        _ => return None,
    };
    let field = |at: usize| rest[at..at + 2].parse::<u8>().ok();
    let month = time::Month::try_from(field(0)?).ok()?;
    let date = time::Date::from_calendar_date(year, month, field(2)?).ok()?;
    let time = time::Time::from_hms(field(4)?, field(6)?, field(8)?).ok()?;
    Some(
        time::PrimitiveDateTime::new(date, time)
            .assume_utc()
            .unix_timestamp(),
    )
}

/// A Unix time as RFC 3339 (UTC), for `/healthz`, the log and `truckins check`.
pub fn date(unix: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|at| {
            at.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| unix.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_validity_rcgen_wrote() {
        let mut params = rcgen::CertificateParams::new(vec!["example.com".to_string()]).unwrap();
        params.not_before = time::macros::datetime!(2026-01-02 03:04:05 UTC);
        params.not_after = time::macros::datetime!(2051-04-01 00:00:00 UTC);
        let key = rcgen::KeyPair::generate().unwrap();
        let certificate = params.self_signed(&key).unwrap();
        let validity = validity(certificate.der()).unwrap();
        assert_eq!(date(validity.not_before), "2026-01-02T03:04:05Z");
        assert_eq!(date(validity.not_after), "2051-04-01T00:00:00Z");
    }

    #[test]
    fn ari_names_a_certificate_by_its_issuer_key_and_serial() {
        let issuer_key = rcgen::KeyPair::generate().unwrap();
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.key_identifier_method = rcgen::KeyIdMethod::PreSpecified(vec![7, 8, 9, 10]);
        let issuer = rcgen::Issuer::new(ca, issuer_key);
        let mut leaf = rcgen::CertificateParams::new(vec!["example.com".to_string()]).unwrap();
        leaf.use_authority_key_identifier_extension = true;
        leaf.serial_number = Some(rcgen::SerialNumber::from_slice(&[0x01, 0x02, 0x03]));
        let key = rcgen::KeyPair::generate().unwrap();
        let certificate = leaf.signed_by(&key, &issuer).unwrap();
        assert_eq!(
            ari_parts(certificate.der()),
            Some((vec![7, 8, 9, 10], vec![0x01, 0x02, 0x03]))
        );
        // Self-signed, without the extension: nothing to name it by.
        let alone = rcgen::CertificateParams::new(vec!["example.com".to_string()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        assert_eq!(ari_parts(alone.der()), None);
        assert_eq!(ari_parts(&[0x30, 0x03, 0x30, 0x01, 0x02]), None);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [
            &b""[..],
            &[0x30],
            &[0x30, 0x84, 0xff, 0xff, 0xff, 0xff],
            &[0x30, 0x03, 0x30, 0x01, 0x02],
            &[0x30, 0x82, 0x00],
        ] {
            assert!(validity(&CertificateDer::from(bytes.to_vec())).is_err());
        }
        assert_eq!(time_of(UTC_TIME, b"991301000000Z"), None);
        assert_eq!(time_of(UTC_TIME, b"49123123595Z"), None);
    }
}
