//! A quote's documents (issue 39): loss runs, a declarations page, photos, uploaded with the quote's details token
//! and kept in the leads database (`lead_documents`, migration 0017), so the replica and the backups hold them and
//! erasure deletes them with the lead's personal fields. At most [`MAX_PER_LEAD`] per lead, each at most
//! [`MAX_BYTES`]; what a file is (PDF, JPEG or PNG) is judged by the caller from its bytes.

use rusqlite::{OptionalExtension, params};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::details::{Added, lead_of_token};
use super::{DbPool, StoreError, write};

/// The largest document taken: a scanned loss run of several years fits.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Documents per lead.
pub const MAX_PER_LEAD: i64 = 10;

/// A stored document, without its bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Document {
    pub id: i64,
    pub lead_id: i64,
    pub file_name: String,
    pub media_type: String,
    pub size: i64,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    pub created_at: String,
}

/// What became of an upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upload {
    Stored(Document),
    /// No lead has this token.
    Unknown,
    /// The token's quote is older than the token's lifetime.
    Expired,
    /// The lead has [`MAX_PER_LEAD`] documents already.
    Full,
}

/// Stores `bytes` as a document of the lead whose token this is, unless the token is unknown or expired at `now`
/// or the lead is full; `also` runs in the same transaction with the lead's id (the agency's news of it).
pub fn add(
    pool: &DbPool,
    token: &str,
    file: (&str, &str, &[u8]),
    now: OffsetDateTime,
    also: impl FnOnce(&rusqlite::Transaction<'_>, i64) -> rusqlite::Result<()>,
) -> Result<Upload, StoreError> {
    let (file_name, media_type, bytes) = file;
    let sha256: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    write(pool, |transaction| {
        let lead_id = match lead_of_token(transaction, token, now)? {
            Added::Lead(id) => id,
            Added::Unknown => return Ok(Upload::Unknown),
            Added::Expired => return Ok(Upload::Expired),
        };
        let count: i64 = transaction.query_row(
            "SELECT count(*) FROM lead_documents WHERE lead_id = ?1",
            [lead_id],
            |row| row.get(0),
        )?;
        if count >= MAX_PER_LEAD {
            return Ok(Upload::Full);
        }
        let created_at = super::now();
        also(transaction, lead_id)?;
        transaction.execute(
            "INSERT INTO lead_documents (lead_id, file_name, media_type, size, sha256, bytes, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![lead_id, file_name, media_type, bytes.len() as i64, sha256, bytes, created_at],
        )?;
        Ok(Upload::Stored(Document {
            id: transaction.last_insert_rowid(),
            lead_id,
            file_name: file_name.to_string(),
            media_type: media_type.to_string(),
            size: bytes.len() as i64,
            sha256: sha256.clone(),
            created_at,
        }))
    })
}

const COLUMNS: &str = "id, lead_id, file_name, media_type, size, sha256, created_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Document> {
    Ok(Document {
        id: row.get(0)?,
        lead_id: row.get(1)?,
        file_name: row.get(2)?,
        media_type: row.get(3)?,
        size: row.get(4)?,
        sha256: row.get(5)?,
        created_at: row.get(6)?,
    })
}

/// Lead `lead_id`'s documents, oldest first, without their bytes.
pub fn list(connection: &rusqlite::Connection, lead_id: i64) -> rusqlite::Result<Vec<Document>> {
    connection
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM lead_documents WHERE lead_id = ?1 ORDER BY id"
        ))?
        .query_map([lead_id], from_row)?
        .collect()
}

/// Document `id` of lead `lead_id`, with its bytes as uploaded; `None` if the lead has no such document.
pub fn get(
    connection: &rusqlite::Connection,
    lead_id: i64,
    id: i64,
) -> rusqlite::Result<Option<(Document, Vec<u8>)>> {
    connection
        .query_row(
            &format!("SELECT {COLUMNS}, bytes FROM lead_documents WHERE lead_id = ?1 AND id = ?2"),
            params![lead_id, id],
            |row| Ok((from_row(row)?, row.get(7)?)),
        )
        .optional()
}

/// Deletes every document of lead `lead_id` (erasure: `secure_delete` overwrites their pages); returns how many.
pub fn erase(transaction: &rusqlite::Transaction<'_>, lead_id: i64) -> rusqlite::Result<usize> {
    transaction.execute("DELETE FROM lead_documents WHERE lead_id = ?1", [lead_id])
}
