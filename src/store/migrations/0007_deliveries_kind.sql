-- What a delivery is about (issue 13): the lead itself, the details added to a quote later, or (reserved for a later
-- change) the owner's report, which belongs to no lead. UNIQUE (lead_id, channel) held for the lead's own
-- notifications only: each details post is notified again. Rebuilt by SQLite's 12-step procedure like 0006 (foreign
-- keys off around the transaction, see migrations.rs); ids, keys and states are copied as they are.
CREATE TABLE deliveries_new (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'lead' CHECK (kind IN ('lead', 'details', 'report')),
    channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook', 'autoreply')),
    recipient TEXT,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    queued_ms INTEGER NOT NULL,
    next_attempt_ms INTEGER NOT NULL,
    last_attempt_at TEXT,
    last_error TEXT,
    sent_at TEXT,
    CHECK (lead_id IS NOT NULL OR kind = 'report')
);
INSERT INTO deliveries_new (
    id, key, lead_id, kind, channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at
)
SELECT
    id, key, lead_id, 'lead', channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at
FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_new RENAME TO deliveries;
CREATE UNIQUE INDEX deliveries_lead_channel ON deliveries (lead_id, channel) WHERE kind = 'lead';
CREATE INDEX deliveries_pending ON deliveries (channel, next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_autoreply ON deliveries (recipient, created_ms) WHERE channel = 'autoreply';
