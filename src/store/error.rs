//! What can go wrong in storage, and what each failure means: temporary (try again), a fault of the storage
//! (unavailable until someone acts), or neither; and what may be said about it in public.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no database connection is free: {0}")]
    Busy(#[from] r2d2::Error),
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The configured path no longer names the file the server has open: `reason` may be shown in public,
    /// `detail` (with the path) is for the log.
    #[error("{detail}")]
    Gone {
        reason: &'static str,
        detail: String,
    },
}

impl StoreError {
    /// A passing condition (every connection taken, or the file still locked after the busy timeout) rather than
    /// a fault: the same request may well succeed a moment later.
    pub fn is_temporary(&self) -> bool {
        match self {
            StoreError::Busy(_) => true,
            StoreError::Sqlite(error) => matches!(
                error.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            ),
            StoreError::Gone { .. } => false,
        }
    }

    /// The storage itself cannot take a lead (the file gone or replaced, read-only, the disk full or failing, the
    /// file damaged): the service is unavailable until someone acts, which is not a bug of the request or ours.
    pub fn is_storage_fault(&self) -> bool {
        use rusqlite::ErrorCode::*;
        match self {
            StoreError::Gone { .. } => true,
            StoreError::Busy(_) => false,
            StoreError::Sqlite(error) => matches!(
                error.sqlite_error_code(),
                Some(
                    ReadOnly
                        | SystemIoFailure
                        | DiskFull
                        | CannotOpen
                        | PermissionDenied
                        | DatabaseCorrupt
                        | NotADatabase
                        | FileLockingProtocolFailed
                        | NoLargeFileSupport
                )
            ),
        }
    }

    /// What may be said in public (`/healthz`) about the failure: the kind, never a path or SQL.
    pub fn public_reason(&self) -> &'static str {
        use rusqlite::ErrorCode::*;
        match self {
            StoreError::Gone { reason, .. } => reason,
            StoreError::Busy(_) => "no database connection is free",
            StoreError::Sqlite(error) => match error.sqlite_error_code() {
                Some(DatabaseBusy | DatabaseLocked) => "the database is locked by another program",
                Some(ReadOnly | PermissionDenied) => "the database is read-only for the server",
                Some(DiskFull) => "the disk is full",
                Some(SystemIoFailure) => "the disk reported an input/output error",
                Some(CannotOpen) => "the database file cannot be opened",
                Some(DatabaseCorrupt | NotADatabase) => "the database file is damaged",
                _ => "the database does not answer",
            },
        }
    }
}
