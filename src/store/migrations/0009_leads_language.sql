-- The language a lead was sent in (issue 15): 'en' for the English pages and every lead before this version, 'es'
-- for the Spanish pages, so the agency calls a Spanish speaker back in Spanish. ADD COLUMN can state the CHECK
-- (SQLite checks it against the existing rows, all of which take the default), so no rebuild is needed.
ALTER TABLE leads ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es'));
