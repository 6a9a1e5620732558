//! The built-in HTTPS's certificate, as stored in the leads database (src/tls/store.rs): ✓ valid with its date and
//! renewal, ✗ missing or expired (what to look at), – without `tls_domains` (a proxy in front does HTTPS).

use std::path::Path;

use rusqlite::OpenFlags;

use super::Check;
use crate::config::tls::TlsSettings;
use crate::tls::{der, store};

pub fn check(database: &Path, settings: &TlsSettings, now: i64) -> Check {
    const NAME: &str = "certificate";
    if !settings.enabled() {
        return Check::skip(NAME, "tls_domains unset: HTTPS is a proxy's in front");
    }
    let names = settings.tls_domains.join(", ");
    let missing = |why: &str| {
        Check::fail(
            NAME,
            format!(
                "no certificate for {names} {why}: the server obtains one at start from {} (ports {} and {} must \
                 reach it from the Internet, the names must point at this machine); see /healthz's `tls`",
                settings.acme_directory, settings.http_port, settings.https_port
            ),
        )
    };
    let connection = match rusqlite::Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) {
        Ok(connection) => connection,
        Err(_) => return missing("yet (no database)"),
    };
    match store::certificate(&connection, &settings.acme_directory, &settings.tls_domains) {
        Ok(Some((_, validity))) if validity.not_after <= now => Check::fail(
            NAME,
            format!(
                "the certificate for {names} expired on {}: renewal has failed; see /healthz's `tls` and the log",
                der::date(validity.not_after)
            ),
        ),
        Ok(Some((_, validity))) => Check::ok(
            NAME,
            format!(
                "{names}: valid until {} ({} days), renewed after {}",
                der::date(validity.not_after),
                (validity.not_after - now) / 86_400,
                der::date(crate::tls::acme::renew_at(validity))
            ),
        ),
        // No table yet (a database this version has not started on) or no row: the same to the owner.
        Ok(None) | Err(_) => missing("yet"),
    }
}
