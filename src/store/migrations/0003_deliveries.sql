-- The outbox: one row per notification of a lead (the agency's e-mail, the webhook, the visitor's confirmation),
-- written in the lead's own transaction and sent by the server's delivery worker (src/notify), with retries.
-- `key` is the delivery's id for the receiver (X-Truckins-Delivery, the e-mail's Message-ID): the same on every
-- attempt, so a repeat after a crash can be recognised (128 random bits: unique without an index). Times the worker
-- compares are Unix milliseconds.
CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook', 'autoreply')),
    -- Whom it goes to when that matters for a limit: the visitor's address (lowercase) for an autoreply.
    recipient TEXT,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    -- When the current round of attempts began (creation, or the last `truckins outbox retry`): retries stop 24 h on.
    queued_ms INTEGER NOT NULL,
    next_attempt_ms INTEGER NOT NULL,
    last_attempt_at TEXT,
    last_error TEXT,
    sent_at TEXT,
    UNIQUE (lead_id, channel)
);
-- Partial indexes, so that a lead's transaction adds little to them: the worker looks only at pending deliveries,
-- the confirmations' limit only at confirmations.
CREATE INDEX deliveries_pending ON deliveries (channel, next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_autoreply ON deliveries (recipient, created_ms) WHERE channel = 'autoreply';
