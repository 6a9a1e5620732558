-- The carrier a quote's DOT number matched in the census when the lead was stored (JSON: legal name, city, state,
-- power units, drivers, operation, hazmat, MCS-150 date), kept as it was then: a later import does not change it.
ALTER TABLE leads ADD COLUMN carrier_snapshot TEXT;
