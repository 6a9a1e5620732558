//! The status links' key, kept in the leads database (`installation_keys`, migration 0015) so that whatever copies
//! the leads copies it too: Litestream's replica, a backup, a restore on a new machine. A link e-mailed before the
//! machine was lost then still works after the restore. Made at the first start (256 bits from the operating
//! system); a key file of an earlier version (`DATABASE.link-key`) is taken into the database at the first start
//! and then removed, so the key lives in one place. Never printed.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

/// The key's name in `installation_keys`.
const NAME: &str = "status_links";
/// Bytes of a key this program makes; a shorter one found is refused.
const KEY_BYTES: usize = 32;

/// Where an earlier version kept the key, beside `database`: `truckins.db` -> `truckins.db.link-key`.
pub fn legacy_file(database: &Path) -> PathBuf {
    let mut name = database.file_name().unwrap_or_default().to_os_string();
    name.push(".link-key");
    database.with_file_name(name)
}

/// The key kept in the database, `None` when none is (yet: the server makes it at its start); an error when the
/// stored value is not a key. Reads only: `truckins check` looks with this.
pub fn stored(connection: &Connection) -> Result<Option<Vec<u8>>, String> {
    let value: Option<String> = connection
        .query_row(
            "SELECT value FROM installation_keys WHERE name = ?1",
            [NAME],
            |row| row.get(0),
        )
        .optional()
        .map_err(|error| format!("the status links' key cannot be read: {error}"))?;
    value
        .map(|hex| {
            decode_hex(&hex)
                .filter(|key| key.len() >= KEY_BYTES)
                .ok_or_else(|| "the status links' key in the database is not a key".to_string())
        })
        .transpose()
}

/// The installation's key: the one in the database; else the legacy file's, moved into the database; else a new
/// one. The writer's turn is the caller's to hold (this runs once, at start, before any lead).
pub fn load_or_create(connection: &Connection, database: &Path) -> Result<Vec<u8>, String> {
    let file = legacy_file(database);
    if let Some(key) = stored(connection)? {
        match read_legacy(&file) {
            Ok(Some(legacy)) if legacy != key => set_aside(&file),
            Ok(Some(_)) => remove_legacy(&file, "the database already holds the key"),
            Ok(None) | Err(_) => {}
        }
        return Ok(key);
    }
    let (key, made) = match read_legacy(&file)? {
        Some(key) => (key, false),
        None => {
            let mut key = vec![0u8; KEY_BYTES];
            getrandom::getrandom(&mut key).map_err(|error| format!("no random key: {error}"))?;
            (key, true)
        }
    };
    // OR IGNORE: a second process starting at the same moment may have stored its own; the one stored is read back.
    connection
        .execute(
            "INSERT OR IGNORE INTO installation_keys (name, value, created_at) VALUES (?1, ?2, ?3)",
            params![NAME, encode_hex(&key), crate::store::now()],
        )
        .map_err(|error| format!("the status links' key cannot be stored: {error}"))?;
    let key = stored(connection)?.ok_or("the status links' key was not stored")?;
    if made {
        rocket::info!("made the status links' key (kept in the leads database)");
    } else {
        remove_legacy(&file, "its key is now kept in the leads database");
    }
    Ok(key)
}

/// The key in an earlier version's file, `None` when there is no such file.
fn read_legacy(file: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read_to_string(file) {
        Ok(text) => decode_hex(text.trim())
            .filter(|key| key.len() >= KEY_BYTES)
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

/// Removes the legacy key file once the database holds the key: a secret kept in two places is one too many.
fn remove_legacy(file: &Path, why: &str) {
    match std::fs::remove_file(file) {
        Ok(()) => rocket::info!("removed {} ({why})", file.display()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => rocket::warn!(
            "{} could not be removed ({error}); it is no longer read: delete it",
            file.display()
        ),
    }
}

/// A key file that differs from the database's (a database restored from elsewhere): kept aside, not deleted, so
/// the owner can see which links it signed; the database's key is the one in use.
fn set_aside(file: &Path) {
    let mut aside = file.as_os_str().to_os_string();
    aside.push(".old");
    match std::fs::rename(file, &aside) {
        Ok(()) => rocket::warn!(
            "{} holds another key than the leads database: renamed to {} (the database's key signs the links; \
             links signed with the other one no longer work)",
            file.display(),
            Path::new(&aside).display()
        ),
        Err(error) => rocket::warn!(
            "{} holds another key than the leads database and could not be renamed ({error}); it is not read",
            file.display()
        ),
    }
}

fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
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

    fn scratch(name: &str) -> (PathBuf, Connection) {
        let dir = std::env::temp_dir().join(format!("truckins-key-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let database = dir.join("leads.db");
        let pool = crate::store::open(&database, 1).unwrap();
        drop(pool);
        (database.clone(), Connection::open(&database).unwrap())
    }

    #[test]
    fn a_key_is_made_once_and_read_back_the_same() {
        let (database, connection) = scratch("made");
        assert_eq!(stored(&connection).unwrap(), None);
        let first = load_or_create(&connection, &database).unwrap();
        assert_eq!(first.len(), KEY_BYTES);
        assert_eq!(load_or_create(&connection, &database).unwrap(), first);
        assert_eq!(stored(&connection).unwrap(), Some(first));
        assert!(!legacy_file(&database).exists());
    }

    #[test]
    fn a_legacy_key_file_is_taken_into_the_database_and_removed() {
        let (database, connection) = scratch("legacy");
        let file = legacy_file(&database);
        std::fs::write(&file, format!("{}\n", "ab".repeat(32))).unwrap();
        let key = load_or_create(&connection, &database).unwrap();
        assert_eq!(key, vec![0xab; 32]);
        assert!(
            !file.exists(),
            "the file is removed once the database holds the key"
        );
        assert_eq!(stored(&connection).unwrap(), Some(key));
    }

    #[test]
    fn a_legacy_file_that_holds_no_key_is_refused_not_replaced() {
        let (database, connection) = scratch("short");
        let file = legacy_file(&database);
        std::fs::write(&file, "short\n").unwrap();
        assert!(load_or_create(&connection, &database).is_err());
        assert!(file.exists());
        assert_eq!(stored(&connection).unwrap(), None);
    }
}
