//! The contract between the server (`src/`) and the web app (`web/`): everything both sides must agree on, stated
//! once, here, in Rust.
//!
//! - [`forms`]: the forms: the prospects' (quote, contact) and the clients' (certificate request, first notice of
//!   loss, policy change), with their fields' limits, patterns, choices and the specification's messages, the rules
//!   the server checks that a pattern cannot say (a VIN's check digit, a date against today or now, in
//!   [`forms::calendar`]'s YYYY-MM-DD and HH:MM), the API endpoint each posts to, the thank-you page a browser without
//!   JavaScript lands on, the page the server fills in when something needs correcting, and the markers in that
//!   page.
//! - [`routes`]: the addresses of the site's own pages and the files of the error pages.
//! - [`answers`]: the server's own sentences to visitors (a body it cannot read, a lead it cannot store).
//! - [`locale`]: the site's languages, the Spanish pages' addresses and the Spanish of the forms' texts.
//! - [`sample`]: what marks the sample agency's facts (example addresses, fictional phone numbers).
//!
//! Data flow: the server uses these constants directly (validation, no-JS answers, error pages); `build.rs` calls
//! [`typescript`] and writes the result to `web/.generated/contract.ts`, which the web app imports as `@contract`
//! (labels, `maxLength`, `pattern`, endpoints, markers, paths). Changing a limit, a message or an address is one edit
//! here, and both sides follow on the next build.

pub mod answers;
pub mod forms;
pub mod locale;
pub mod routes;
pub mod sample;
mod spanish;
mod typescript;

pub use typescript::{typescript, typescript_for};
