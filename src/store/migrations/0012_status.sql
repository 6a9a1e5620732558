-- Issue 26: the agency works its leads from the e-mail.

-- A fifth outcome, `not_a_fit` (the e-mail's "Not a fit"): the leads table again, its status CHECK widened (12-step
-- rebuild, foreign keys off while migrations run; the deliveries, status changes and revocations that name a lead
-- keep their ids).
CREATE TABLE leads_new (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('quote', 'contact', 'coi')),
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'quoted', 'won', 'lost', 'not_a_fit')),
    created_at TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT,
    company TEXT,
    insurance_type TEXT,
    vehicle_count INTEGER,
    dot_number TEXT,
    subject TEXT,
    message TEXT,
    consent_given INTEGER NOT NULL DEFAULT 0,
    consent_text TEXT,
    consent_version TEXT,
    consent_at TEXT,
    ip TEXT,
    user_agent TEXT,
    page_url TEXT,
    utm_source TEXT,
    utm_medium TEXT,
    utm_campaign TEXT,
    utm_term TEXT,
    utm_content TEXT,
    gclid TEXT,
    referrer TEXT,
    landing_page TEXT,
    submission_id TEXT,
    carrier_snapshot TEXT,
    -- The certificate request.
    insured_name TEXT,
    certificate_holder TEXT,
    holder_address TEXT,
    additional_insured INTEGER,
    waiver_of_subrogation INTEGER,
    -- YYYY-MM-DD.
    needed_by TEXT,
    notes TEXT,
    -- A quote's details, replaced whole by each later post.
    mc_number TEXT,
    years_in_business INTEGER,
    radius TEXT CHECK (radius IN ('local', 'regional', 'long_haul')),
    operating_states TEXT,
    commodities TEXT,
    commodities_other TEXT,
    hazmat INTEGER,
    power_units INTEGER,
    trailers INTEGER,
    drivers INTEGER,
    current_insurer TEXT,
    policy_expiration TEXT,
    effective_date TEXT,
    claims_3y INTEGER,
    best_time_to_call TEXT,
    details_at TEXT,
    -- SHA-256 (hex) of the quote's details token; the token itself is only ever in the 201 answer.
    details_token_sha256 TEXT,
    language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es')),
    erased_at TEXT
);
INSERT INTO leads_new (
    id, source, status, created_at, name, email, phone, company, insurance_type, vehicle_count, dot_number, subject,
    message, consent_given, consent_text, consent_version, consent_at, ip, user_agent, page_url, utm_source,
    utm_medium, utm_campaign, utm_term, utm_content, gclid, referrer, landing_page, submission_id, carrier_snapshot,
    insured_name, certificate_holder, holder_address, additional_insured, waiver_of_subrogation, needed_by, notes,
    mc_number, years_in_business, radius, operating_states, commodities, commodities_other, hazmat, power_units,
    trailers, drivers, current_insurer, policy_expiration, effective_date, claims_3y, best_time_to_call, details_at,
    details_token_sha256, language, erased_at
)
SELECT
    id, source, status, created_at, name, email, phone, company, insurance_type, vehicle_count, dot_number, subject,
    message, consent_given, consent_text, consent_version, consent_at, ip, user_agent, page_url, utm_source,
    utm_medium, utm_campaign, utm_term, utm_content, gclid, referrer, landing_page, submission_id, carrier_snapshot,
    insured_name, certificate_holder, holder_address, additional_insured, waiver_of_subrogation, needed_by, notes,
    mc_number, years_in_business, radius, operating_states, commodities, commodities_other, hazmat, power_units,
    trailers, drivers, current_insurer, policy_expiration, effective_date, claims_3y, best_time_to_call, details_at,
    details_token_sha256, language, erased_at
FROM leads;
DROP TABLE leads;
ALTER TABLE leads_new RENAME TO leads;
CREATE UNIQUE INDEX leads_submission ON leads (source, submission_id);
CREATE INDEX leads_created_at ON leads (created_at);
CREATE INDEX leads_status ON leads (status);
CREATE UNIQUE INDEX leads_details_token ON leads (details_token_sha256) WHERE details_token_sha256 IS NOT NULL;

-- Every status change: when, from what to what, and how it was made (`link`: a signed link of the agency's e-mail,
-- whose signature is kept so that a second use of one link changes nothing; `cli`: `truckins leads status`).
CREATE TABLE status_changes (
    id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    from_status TEXT NOT NULL,
    to_status TEXT NOT NULL,
    -- RFC 3339 UTC, as every stored time.
    changed_at TEXT NOT NULL,
    via TEXT NOT NULL CHECK (via = 'link' OR via = 'cli'),
    link TEXT,
    CHECK ((via = 'link') = (link IS NOT NULL))
);
CREATE INDEX status_changes_lead ON status_changes (lead_id, id);
CREATE UNIQUE INDEX status_changes_link ON status_changes (link) WHERE link IS NOT NULL;

-- The deliveries table again (12-step rebuild, as 0011), with two kinds: `status`, a status change told to the
-- webhook (`lead.status`, the change in `payload`), and `reminder`, the agency's e-mail about a lead still new after
-- `remind_after_minutes` of business hours, at most one per lead.
CREATE TABLE deliveries_new (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (id) ON DELETE CASCADE,
    kind TEXT NOT NULL DEFAULT 'lead'
        CHECK (kind IN ('lead', 'details', 'report', 'opt_out', 'status', 'reminder')),
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
    CHECK ((kind IN ('report', 'opt_out', 'status')) = (payload IS NOT NULL AND json_valid(payload))),
    CHECK (kind <> 'report' OR channel = 'email'),
    CHECK (kind <> 'opt_out' OR channel <> 'autoreply'),
    CHECK (kind <> 'status' OR channel = 'webhook'),
    CHECK (kind <> 'reminder' OR channel = 'email')
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
CREATE UNIQUE INDEX deliveries_one_reminder ON deliveries (lead_id) WHERE kind = 'reminder';
CREATE INDEX deliveries_pending ON deliveries (next_attempt_ms) WHERE state = 'pending';
CREATE INDEX deliveries_autoreply ON deliveries (recipient, created_ms) WHERE channel = 'autoreply';
