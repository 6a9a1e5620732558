//! A quote's details token and the details added through it (issue 13, part 2). Only the token's SHA-256 is stored
//! (`leads.details_token_sha256`): the token itself is in the quote's 201 answer alone, so a copy of the database
//! cannot be used to change a lead. The token is as old as its lead (`created_at`), and taken for 24 hours.

use rusqlite::{OptionalExtension, params};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{DbPool, StoreError, write};

/// What a quote's visitor added about the operation; `None` where they left a field empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    pub mc_number: Option<String>,
    pub years_in_business: Option<i64>,
    pub radius: Option<String>,
    pub operating_states: Option<String>,
    pub commodities: Option<String>,
    pub commodities_other: Option<String>,
    pub hazmat: Option<bool>,
    pub power_units: Option<i64>,
    pub trailers: Option<i64>,
    pub drivers: Option<i64>,
    pub current_insurer: Option<String>,
    pub policy_expiration: Option<String>,
    pub effective_date: Option<String>,
    pub claims_3y: Option<i64>,
    pub best_time_to_call: Option<String>,
    /// The vehicles, drivers and losses (issue 39), replaced with the rest.
    pub schedules: super::schedules::Schedules,
}

/// How long after its quote a details token is taken.
pub const TOKEN_LIFETIME: time::Duration = time::Duration::hours(24);

/// A new token: 128 random bits from the operating system, as 32 hex digits.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `text` can be a token [`new_token`] made (checked before anything is looked up).
pub fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The SHA-256 of a token, as stored.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.trim().to_ascii_lowercase().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Stores the hash of lead `id`'s token, in the lead's own transaction.
pub fn set_token(
    transaction: &rusqlite::Transaction<'_>,
    id: i64,
    token: &str,
) -> rusqlite::Result<()> {
    transaction
        .execute(
            "UPDATE leads SET details_token_sha256 = ?1 WHERE id = ?2",
            params![token_hash(token), id],
        )
        .map(drop)
}

/// What became of details posted with a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// Stored on this lead, replacing any given before.
    Lead(i64),
    /// No lead has this token.
    Unknown,
    /// The token's quote is older than [`TOKEN_LIFETIME`].
    Expired,
}

/// The lead whose token this is, if it is young at `now`: [`Added::Lead`] with its id, else why not (the details'
/// and the documents' posts answer alike).
pub fn lead_of_token(
    transaction: &rusqlite::Transaction<'_>,
    token: &str,
    now: OffsetDateTime,
) -> rusqlite::Result<Added> {
    let found: Option<(i64, String)> = transaction
        .query_row(
            "SELECT id, created_at FROM leads WHERE details_token_sha256 = ?1",
            [token_hash(token)],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    let Some((id, created_at)) = found else {
        return Ok(Added::Unknown);
    };
    // A time stamp that cannot be read is not taken as young.
    let young = OffsetDateTime::parse(&created_at, &Rfc3339)
        .is_ok_and(|created| now - created <= TOKEN_LIFETIME);
    Ok(if young {
        Added::Lead(id)
    } else {
        Added::Expired
    })
}

/// Puts `details` on the lead whose token this is (all of them: a later post replaces every field) and runs `also`
/// in the same transaction (the agency's notifications of them), unless the token is unknown or expired at `now`.
pub fn add(
    pool: &DbPool,
    token: &str,
    details: &Details,
    now: OffsetDateTime,
    also: impl FnOnce(&rusqlite::Transaction<'_>, i64) -> rusqlite::Result<()>,
) -> Result<Added, StoreError> {
    write(pool, |transaction| {
        let id = match lead_of_token(transaction, token, now)? {
            Added::Lead(id) => id,
            refused => return Ok(refused),
        };
        transaction.execute(
            "UPDATE leads SET mc_number = ?1, years_in_business = ?2, radius = ?3, operating_states = ?4, \
             commodities = ?5, commodities_other = ?6, hazmat = ?7, power_units = ?8, trailers = ?9, drivers = ?10, \
             current_insurer = ?11, policy_expiration = ?12, effective_date = ?13, claims_3y = ?14, \
             best_time_to_call = ?15, details_at = ?16 WHERE id = ?17",
            params![
                details.mc_number,
                details.years_in_business,
                details.radius,
                details.operating_states,
                details.commodities,
                details.commodities_other,
                details.hazmat,
                details.power_units,
                details.trailers,
                details.drivers,
                details.current_insurer,
                details.policy_expiration,
                details.effective_date,
                details.claims_3y,
                details.best_time_to_call,
                super::now(),
                id
            ],
        )?;
        let (vehicles, drivers, losses) = details.schedules.columns();
        transaction.execute(
            "UPDATE leads SET vehicle_schedule = ?1, driver_schedule = ?2, loss_history = ?3 WHERE id = ?4",
            params![vehicles, drivers, losses, id],
        )?;
        also(transaction, id)?;
        Ok(Added::Lead(id))
    })
}
