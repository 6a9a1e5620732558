//! The ACME account and the certificate in the leads database (migration 0016): read at start, before the HTTPS
//! port is served, so that a stored certificate is served at once; written as the ACME task obtains them.

use rusqlite::{Connection, OptionalExtension, params};

use super::Pem;
use super::der::Validity;
use crate::store::DbPool;

/// The key of a certificate: its names as `tls_domains` lists them.
pub fn names_key(domains: &[String]) -> String {
    domains.join(",")
}

/// The stored certificate for these names from this directory, with its validity, if any.
pub fn certificate(
    connection: &Connection,
    directory: &str,
    domains: &[String],
) -> rusqlite::Result<Option<(Pem, Validity)>> {
    connection
        .query_row(
            "SELECT chain_pem, key_pem, not_before, not_after FROM tls_certificates
             WHERE directory = ?1 AND domains = ?2",
            params![directory, names_key(domains)],
            |row| {
                Ok((
                    Pem {
                        chain: row.get(0)?,
                        key: row.get(1)?,
                    },
                    Validity {
                        not_before: row.get(2)?,
                        not_after: row.get(3)?,
                    },
                ))
            },
        )
        .optional()
}

/// The ACME account's credentials (instant-acme's JSON) for this directory, if one was made.
pub fn account(connection: &Connection, directory: &str) -> rusqlite::Result<Option<String>> {
    connection
        .query_row(
            "SELECT credentials FROM tls_accounts WHERE directory = ?1",
            [directory],
            |row| row.get(0),
        )
        .optional()
}

fn now_text() -> String {
    super::der::date(super::now())
}

/// Keeps the account made on this directory.
pub fn save_account(pool: &DbPool, directory: &str, credentials: &str) -> Result<(), String> {
    crate::store::write(pool, |transaction| {
        transaction.execute(
            "INSERT OR REPLACE INTO tls_accounts (directory, credentials, created_at) VALUES (?1, ?2, ?3)",
            params![directory, credentials, now_text()],
        )?;
        Ok(())
    })
    .map_err(|error| format!("the ACME account could not be stored: {error}"))
}

/// Keeps the certificate just obtained, in the place of the one it renews.
pub fn save_certificate(
    pool: &DbPool,
    directory: &str,
    domains: &[String],
    pem: &Pem,
    validity: Validity,
) -> Result<(), String> {
    crate::store::write(pool, |transaction| {
        transaction.execute(
            "INSERT OR REPLACE INTO tls_certificates
             (directory, domains, chain_pem, key_pem, not_before, not_after, obtained_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                directory,
                names_key(domains),
                pem.chain,
                pem.key,
                validity.not_before,
                validity.not_after,
                now_text()
            ],
        )?;
        Ok(())
    })
    .map_err(|error| format!("the certificate could not be stored: {error}"))
}

/// Reads through the pool (the tables exist: the store migrated them at start).
pub fn stored_certificate(
    pool: &DbPool,
    directory: &str,
    domains: &[String],
) -> Result<Option<(Pem, Validity)>, String> {
    let connection = pool
        .get()
        .map_err(|error| format!("the database: {error}"))?;
    certificate(&connection, directory, domains)
        .map_err(|error| format!("the stored certificate cannot be read: {error}"))
}

pub fn stored_account(pool: &DbPool, directory: &str) -> Result<Option<String>, String> {
    let connection = pool
        .get()
        .map_err(|error| format!("the database: {error}"))?;
    account(&connection, directory)
        .map_err(|error| format!("the stored ACME account cannot be read: {error}"))
}
