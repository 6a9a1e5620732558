-- Built-in HTTPS (issue 38): the ACME account and the certificate live with the leads, so that Litestream copies
-- them and a restored database (or a new machine holding only it) serves the same certificate at once, without a
-- new order. One account per ACME directory; one certificate per directory and set of names (comma-separated, in
-- the order of `tls_domains`), replaced at each renewal. The private keys are as private as the leads (the file is
-- 0600).
CREATE TABLE tls_accounts (
    directory TEXT PRIMARY KEY,
    credentials TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE tls_certificates (
    directory TEXT NOT NULL,
    domains TEXT NOT NULL,
    chain_pem TEXT NOT NULL,
    key_pem TEXT NOT NULL,
    not_before INTEGER NOT NULL,
    not_after INTEGER NOT NULL,
    obtained_at TEXT NOT NULL,
    PRIMARY KEY (directory, domains)
);
