-- The message a delivery carries when it is not made from a lead at the time of sending: the owner's report (kind
-- `report`, `truckins report --email`), rendered once when it is queued and stored as JSON (subject, text, html,
-- to), so that every attempt sends the very report that was queued. Lead and details deliveries keep no payload:
-- they are written from the lead as it is when sent. A report goes by e-mail only (never to the webhook or as the
-- visitor's confirmation), which the CHECK holds. A column added with a CHECK is checked against the rows already
-- there, which all satisfy it (no report was queued before this version).
ALTER TABLE deliveries ADD COLUMN payload TEXT
    CHECK ((kind = 'report') = (payload IS NOT NULL AND json_valid(payload)) AND (kind <> 'report' OR channel = 'email'));
