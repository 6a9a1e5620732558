//! Tests of the visit counts that need more room than the module they test: the classification's lists, and the
//! collector with its thread, the folding of old days and the report over both tables, on a real database file.

mod caps;
mod classify;
mod counting;
mod measure;
