-- Certificate of insurance requests (source 'coi') and the operation's details a quote's visitor adds later (issue 13).
-- The source's CHECK cannot be altered in place: the table is rebuilt by SQLite's 12-step procedure
-- (https://www.sqlite.org/lang_altertable.html#otheralter), with foreign keys off around this transaction
-- (migrations.rs), so that dropping the old table does not cascade to `deliveries`. Ids are copied as they are, the
-- indexes made again, and `deliveries.lead_id` names the new table once it is renamed to `leads`.
CREATE TABLE leads_new (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('quote', 'contact', 'coi')),
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'quoted', 'won', 'lost')),
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
    details_token_sha256 TEXT
);
INSERT INTO leads_new (
    id, source, status, created_at, name, email, phone, company, insurance_type, vehicle_count, dot_number, subject,
    message, consent_given, consent_text, consent_version, consent_at, ip, user_agent, page_url, utm_source,
    utm_medium, utm_campaign, utm_term, utm_content, gclid, referrer, landing_page, submission_id, carrier_snapshot
)
SELECT
    id, source, status, created_at, name, email, phone, company, insurance_type, vehicle_count, dot_number, subject,
    message, consent_given, consent_text, consent_version, consent_at, ip, user_agent, page_url, utm_source,
    utm_medium, utm_campaign, utm_term, utm_content, gclid, referrer, landing_page, submission_id, carrier_snapshot
FROM leads;
DROP TABLE leads;
ALTER TABLE leads_new RENAME TO leads;
CREATE UNIQUE INDEX leads_submission ON leads (source, submission_id);
CREATE INDEX leads_created_at ON leads (created_at);
CREATE INDEX leads_status ON leads (status);
CREATE UNIQUE INDEX leads_details_token ON leads (details_token_sha256) WHERE details_token_sha256 IS NOT NULL;
