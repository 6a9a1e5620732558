-- Issue 37: the installation's own keys live with the leads, so that Litestream copies them and a restore brings
-- them back: the status links' key (`status_links`), until now a file beside the database that no replica held.
-- `value` is the key in lower-case hex. Read once at start; never shown.
CREATE TABLE installation_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
