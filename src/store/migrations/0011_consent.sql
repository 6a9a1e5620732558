-- Consent taken back, and privacy requests (issue 25).
--
-- A revocation: someone asked not to be contacted at an e-mail address, a phone number or both, through the web form
-- (`web`, with the request's IP, user agent and page as evidence) or another way the agency recorded (`truckins optout
-- add --via`). E-mail addresses are stored trimmed and lowercased, phone numbers in E.164, so that they compare with
-- the leads' own. `erased_at`: a privacy request or the retention period erased who it was about; the date and the
-- way stay.
CREATE TABLE revocations (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    channel TEXT NOT NULL
        CHECK (channel = 'web' OR channel = 'phone' OR channel = 'text' OR channel = 'email' OR channel = 'letter'),
    email TEXT,
    phone TEXT,
    note TEXT,
    ip TEXT,
    user_agent TEXT,
    page_url TEXT,
    erased_at TEXT,
    CHECK (email IS NOT NULL OR phone IS NOT NULL OR erased_at IS NOT NULL)
);
CREATE INDEX revocations_email ON revocations (email) WHERE email IS NOT NULL;
CREATE INDEX revocations_phone ON revocations (phone) WHERE phone IS NOT NULL;

-- What `truckins leads forget` and the retention period did: when, why, how many rows, and for a person's request a
-- keyed hash (HMAC-SHA256 with `privacy_key`) of the identifier, so that a repeat is recognised without keeping it.
CREATE TABLE privacy_requests (
    id INTEGER PRIMARY KEY,
    requested_at TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason = 'request' OR reason = 'retention'),
    identifier_hash TEXT,
    leads INTEGER NOT NULL,
    revocations INTEGER NOT NULL,
    CHECK ((reason = 'request') = (identifier_hash IS NOT NULL))
);
CREATE INDEX privacy_requests_identifier ON privacy_requests (identifier_hash) WHERE identifier_hash IS NOT NULL;
-- The key of those hashes: made once, here, from SQLite's random source; never printed.
CREATE TABLE privacy_key (id INTEGER PRIMARY KEY CHECK (id = 1), key BLOB NOT NULL);
INSERT INTO privacy_key (id, key) VALUES (1, randomblob(32));

-- When a lead's personal fields were erased (a privacy request or the retention period): what is left says nobody.
ALTER TABLE leads ADD COLUMN erased_at TEXT;

-- The deliveries table again (12-step rebuild, as 0010), with the agency's news of an opt-out (kind `opt_out`: no
-- lead, the revocation in `payload`, e-mail and webhook only) and a confirmation held back because its address opted
-- out (state `withheld`).
CREATE TABLE deliveries_new (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'lead'
        CHECK (kind = 'lead' OR kind = 'details' OR kind = 'report' OR kind = 'opt_out'),
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
    CHECK (lead_id IS NOT NULL OR kind = 'report' OR kind = 'opt_out'),
    CHECK ((kind = 'report' OR kind = 'opt_out') = (payload IS NOT NULL AND json_valid(payload))),
    CHECK (kind <> 'report' OR channel = 'email'),
    CHECK (kind <> 'opt_out' OR channel <> 'autoreply')
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
