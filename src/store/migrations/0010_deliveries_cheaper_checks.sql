-- The same deliveries table, cheaper to write in a lead's transaction (issue 12's benchmark). SQLite evaluates a
-- CHECK of the form `x IN ('a', 'b', 'c')` by building a temporary table of the list on every row written, which
-- made the two deliveries of a lead cost more than the lead itself; the same rules written with `=` and `OR` cost
-- next to nothing. The worker's index of pending deliveries is ordered by time alone (all channels in one run of
-- entries), so a lead's deliveries add entries to one page of it instead of two; each lane keeps its own channel's
-- rows as it reads that index in order. Rebuilt by SQLite's 12-step procedure like 0007 (foreign keys off around the
-- transaction, see migrations.rs); ids, keys, states and payloads are copied as they are.
CREATE TABLE deliveries_new (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'lead' CHECK (kind = 'lead' OR kind = 'details' OR kind = 'report'),
    channel TEXT NOT NULL CHECK (channel = 'email' OR channel = 'webhook' OR channel = 'autoreply'),
    recipient TEXT,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state = 'pending' OR state = 'sent' OR state = 'failed'),
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    queued_ms INTEGER NOT NULL,
    next_attempt_ms INTEGER NOT NULL,
    last_attempt_at TEXT,
    last_error TEXT,
    sent_at TEXT,
    payload TEXT,
    CHECK (lead_id IS NOT NULL OR kind = 'report'),
    CHECK ((kind = 'report') = (payload IS NOT NULL AND json_valid(payload)) AND (kind <> 'report' OR channel = 'email'))
);
INSERT INTO deliveries_new (
    id, key, lead_id, kind, channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at, payload
)
SELECT
    id, key, lead_id, kind, channel, recipient, state, attempts, created_at, created_ms, queued_ms, next_attempt_ms,
    last_attempt_at, last_error, sent_at, payload
FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_new RENAME TO deliveries;
CREATE UNIQUE INDEX deliveries_lead_channel ON deliveries (lead_id, channel) WHERE kind = 'lead';
CREATE INDEX deliveries_pending ON deliveries (next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_autoreply ON deliveries (recipient, created_ms) WHERE channel = 'autoreply';
