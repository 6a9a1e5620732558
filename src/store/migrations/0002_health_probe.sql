-- Written by the health check inside a transaction it always rolls back, so it stays empty.
CREATE TABLE health_probe (id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL);
