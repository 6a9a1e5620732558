-- Page views counted by the server (src/analytics/). No IP address, user agent, cookie or full referrer is stored:
-- `visitor` is 64 bits of a hash of the day's salt (random, kept in memory only, a new one each day), the IP address
-- and the user agent, so one person counts once a day and cannot be recognised from one day to the next.
--
-- One row per day, visitor, page and way in, with its number of views; kept 90 days, then folded into
-- analytics_daily. Text columns hold '' rather than NULL when empty, so that the primary key merges repeated views.
CREATE TABLE analytics_visits (
    -- YYYY-MM-DD, UTC.
    day TEXT NOT NULL,
    visitor INTEGER NOT NULL,
    -- The path answered, without its query.
    path TEXT NOT NULL,
    -- The host of the other site that linked here, without `www.` ('' when none, or when the link was on this site).
    referrer TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    device TEXT NOT NULL CHECK (device IN ('phone', 'tablet', 'desktop')),
    -- 1 when the view came from outside the site (no referrer, or another site's); 0 for a click within it.
    entry INTEGER NOT NULL CHECK (entry IN (0, 1)),
    views INTEGER NOT NULL,
    PRIMARY KEY (day, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device, entry)
) WITHOUT ROWID;

-- The days older than 90 days, as totals: one row per day and value of a dimension, `total` (value ''), `page` (a
-- path), `source`, `campaign` or `device`; `visitors` counts each visitor of that day once per value.
CREATE TABLE analytics_daily (
    day TEXT NOT NULL,
    dimension TEXT NOT NULL CHECK (dimension IN ('total', 'page', 'source', 'campaign', 'device')),
    value TEXT NOT NULL,
    views INTEGER NOT NULL,
    visitors INTEGER NOT NULL,
    PRIMARY KEY (day, dimension, value)
) WITHOUT ROWID;
