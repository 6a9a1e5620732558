-- Issue 36: a lead sent faster than a person types (the forms' `elapsed_ms` under 1.5 s) is stored, marked here,
-- rather than dropped: 1 for such a lead, 0 for every other and for every lead before this version. ADD COLUMN can
-- state the CHECK (SQLite checks it against the existing rows, all of which take the default): no rebuild.
ALTER TABLE leads ADD COLUMN suspected_spam INTEGER NOT NULL DEFAULT 0 CHECK (suspected_spam IN (0, 1));
