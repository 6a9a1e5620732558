-- Issue 39: a submission an underwriter can quote.

-- A quote's schedules, sent with its details and replaced whole with them: JSON arrays of rows (src/store/schedules.rs),
-- NULL when none was sent. Personal (drivers' names and dates of birth): erased with the lead's other fields.
ALTER TABLE leads ADD COLUMN vehicle_schedule TEXT CHECK (vehicle_schedule IS NULL OR json_valid(vehicle_schedule));
ALTER TABLE leads ADD COLUMN driver_schedule TEXT CHECK (driver_schedule IS NULL OR json_valid(driver_schedule));
ALTER TABLE leads ADD COLUMN loss_history TEXT CHECK (loss_history IS NULL OR json_valid(loss_history));
-- The policy expiration (YYYY-MM-DD) the agency was last reminded to re-quote for: one x-date e-mail per expiration,
-- a new one if a later post of the details names another date.
ALTER TABLE leads ADD COLUMN xdate_sent_for TEXT;

-- A quote's documents (loss runs, a declarations page), as uploaded: kept with the leads so that the replica and the
-- backups hold them, erased (the rows deleted, `secure_delete` overwriting their pages) with the lead's personal
-- fields, never served at a public address.
CREATE TABLE lead_documents (
    id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    -- The name the browser gave, cleaned (src/leads): shown to the agency and used as the download's name.
    file_name TEXT NOT NULL,
    -- Judged from the bytes: application/pdf, image/jpeg or image/png.
    media_type TEXT NOT NULL CHECK (media_type = 'application/pdf' OR media_type = 'image/jpeg' OR media_type = 'image/png'),
    size INTEGER NOT NULL CHECK (size = length(bytes)),
    sha256 TEXT NOT NULL,
    bytes BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX lead_documents_lead ON lead_documents (lead_id, id);

-- The deliveries table again (12-step rebuild, as 0012), with the kind `xdate`: the agency's e-mail and the webhook's
-- `lead.xdate` event, `xdate_lead_days` before a quote's policy expires (src/status/xdates.rs).
CREATE TABLE deliveries_new (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'lead'
        CHECK (kind = 'lead' OR kind = 'details' OR kind = 'report' OR kind = 'opt_out' OR kind = 'status'
            OR kind = 'reminder' OR kind = 'xdate'),
    channel TEXT NOT NULL CHECK (channel = 'email' OR channel = 'webhook' OR channel = 'autoreply'),
    recipient TEXT,
    state TEXT NOT NULL DEFAULT 'pending'
        CHECK (state = 'pending' OR state = 'sent' OR state = 'failed' OR state = 'withheld'),
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    queued_ms INTEGER NOT NULL,
    next_attempt_ms INTEGER NOT NULL,
    last_attempt_at TEXT,
    last_error TEXT,
    sent_at TEXT,
    payload TEXT,
    urgent INTEGER NOT NULL DEFAULT 0 CHECK (urgent = 0 OR urgent = 1),
    CHECK (lead_id IS NOT NULL OR kind = 'report' OR kind = 'opt_out'),
    CHECK ((kind = 'report' OR kind = 'opt_out' OR kind = 'status') = (payload IS NOT NULL AND json_valid(payload))),
    CHECK (kind <> 'report' OR channel = 'email'),
    CHECK (kind <> 'opt_out' OR channel <> 'autoreply'),
    CHECK (kind <> 'status' OR channel = 'webhook'),
    CHECK (kind <> 'reminder' OR channel = 'email'),
    CHECK (kind <> 'xdate' OR channel <> 'autoreply')
);
INSERT INTO deliveries_new (
    id, key, lead_id, kind, channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at, payload, urgent
)
SELECT
    id, key, lead_id, kind, channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at, payload, urgent
FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_new RENAME TO deliveries;
CREATE UNIQUE INDEX deliveries_lead_channel ON deliveries (lead_id, channel) WHERE kind = 'lead';
CREATE UNIQUE INDEX deliveries_one_reminder ON deliveries (lead_id) WHERE kind = 'reminder';
CREATE INDEX deliveries_pending ON deliveries (next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_autoreply ON deliveries (recipient, created_ms) WHERE channel = 'autoreply';
CREATE INDEX deliveries_urgent ON deliveries (next_attempt_ms) WHERE state = 'pending' AND urgent = 1;
-- The x-dates still to come: quotes with a policy expiration (src/status/xdates.rs looks them up once a minute).
CREATE INDEX leads_policy_expiration ON leads (policy_expiration) WHERE policy_expiration IS NOT NULL;
