-- Issue 28: existing clients report a claim (source 'claim') and ask for a policy change (source 'change').

-- The leads table again, its source CHECK widened and a `request` column for each form's own fields (12-step
-- rebuild, foreign keys off while migrations run; the deliveries, status changes and revocations that name a lead
-- keep their ids). A driver's license number is never among them: the form never asks it.
CREATE TABLE leads_new (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('quote', 'contact', 'coi', 'claim', 'change')),
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
    erased_at TEXT,
    -- A claim's or a policy change's own fields, validated, as one JSON object of text values (store/request.rs).
    request TEXT CHECK (request IS NULL OR json_valid(request))
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

-- A claim's notifications to the agency go ahead of every other delivery waiting (notify/worker): marked here, and
-- found through an index of their own, so the lane's look for them reads only them.
ALTER TABLE deliveries ADD COLUMN urgent INTEGER NOT NULL DEFAULT 0 CHECK (urgent IN (0, 1));
CREATE INDEX deliveries_urgent ON deliveries (next_attempt_ms) WHERE state = 'pending' AND urgent = 1;
