-- The leads table: one row per accepted submission, with its consent evidence and attribution.
CREATE TABLE leads (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('quote', 'contact')),
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
    submission_id TEXT
);
CREATE UNIQUE INDEX leads_submission ON leads (source, submission_id);
CREATE INDEX leads_created_at ON leads (created_at);
CREATE INDEX leads_status ON leads (status);
