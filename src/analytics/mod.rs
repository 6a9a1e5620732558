//! Visits: the pages the server answers to people, counted without cookies and without keeping anything that
//! identifies a person, and the owner's report that joins them to the leads.
//!
//! ```text
//! src/server/answer.rs ──every request it answers, and the file the site served──> Collector::answered
//!     (collector.rs: a GET of an HTML page answered 200 or 304 to a browser is copied into the worker's buffer;
//!     nothing else happens on the request's path)
//!   └─ the collector's thread (counter.rs), every 10 s and at the server's stop: programs left out, device,
//!      referrer host, campaign tags (classify.rs), visitor key from the day's salt (in memory only) -> rows written
//!      in one transaction (store.rs: analytics_visits, 90 days; older days folded into analytics_daily once a day)
//! truckins report ──> report.rs (visits + the leads' attribution, per page, source, campaign, device, day)
//!   └─ render.rs (table, JSON) or html.rs (one self-contained file)
//! ```
//!
//! What is counted and kept is stated for visitors in `content/pages/privacy.md`; a change here changes it there.

mod caps;
pub mod classify;
pub mod collector;
mod counter;
pub mod html;
mod record;
pub mod render;
pub mod report;
pub mod store;
#[cfg(test)]
mod tests;

use std::sync::Arc;

pub use collector::Collector;
pub use report::{Range, Report};

use crate::config::Settings;

/// The collector for the server, when `analytics` is on: none when off, when the application has no database (it
/// then does not start anyway), or when its thread cannot start (said once; the site serves all the same).
pub fn start(
    settings: &Settings,
    rocket: &rocket::Rocket<rocket::Orbit>,
) -> Option<Arc<Collector>> {
    if !settings.analytics {
        return None;
    }
    let pool = rocket.state::<crate::store::DbPool>()?.clone();
    let public = settings
        .base_url
        .as_deref()
        .unwrap_or(crate::site::build_base_url())
        .trim();
    let own_hosts = classify::host_of(public).into_iter().collect();
    match Collector::start(pool, settings.trusted_proxies.clone(), own_hosts) {
        Ok(collector) => Some(Arc::new(collector)),
        Err(error) => {
            eprintln!(
                "truckins: page views will not be counted: the counting thread could not start ({error})"
            );
            None
        }
    }
}
