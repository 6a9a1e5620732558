//! `truckins leads xdates`: the coming x-dates (src/status/xdates.rs), soonest first: the lead, who, the current
//! insurer, the policy's expiration, the day the agency's re-quote e-mail is (or was) due and whether it went.
//! Whatever a visitor typed is printed through [`clip`], as text.

use std::io::Write;

use rocket::figment::Figment;
use truckins::store;

use super::leads::{clip, written_unless_closed};

pub(super) fn run(pool: &store::DbPool, figment: &Figment, days: u32) -> Result<(), String> {
    let settings = truckins::config::load(figment)?;
    // The tests' clock, as the server reads it: the agency's today is the one its x-dates were counted from.
    if let Some(file) = &settings.test_clock {
        truckins::clock::use_test_clock(file);
    }
    let connection = pool.get().map_err(|e| e.to_string())?;
    let today = truckins::clock::local_today();
    let coming =
        truckins::status::xdates::coming(&connection, today, days, settings.xdate_lead_days)
            .map_err(|e| e.to_string())?;
    written_unless_closed(
        print(&coming, days, settings.xdate_lead_days),
        "the x-dates",
    )
}

fn print(
    coming: &[truckins::status::xdates::Coming],
    days: u32,
    lead_days: u32,
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "   id  who                               current insurer       expires     e-mail due  sent"
    )?;
    for xdate in coming {
        let who = match xdate.company.as_deref().filter(|c| !c.trim().is_empty()) {
            Some(company) => format!("{company} ({})", xdate.name),
            None => xdate.name.clone(),
        };
        writeln!(
            out,
            "{:>5}  {:<32}  {:<20}  {:<10}  {:<10}  {}",
            xdate.id,
            clip(&who, 32),
            clip(xdate.current_insurer.as_deref().unwrap_or("-"), 20),
            clip(&xdate.policy_expiration, 10),
            xdate.due.map_or("off".to_string(), |due| due.to_string()),
            xdate.told.as_deref().unwrap_or("no")
        )?;
    }
    if coming.is_empty() {
        writeln!(
            out,
            "(no policy of a lead not won expires in the next {days} days)"
        )?;
    }
    if lead_days == 0 {
        writeln!(out, "x-date e-mails are off (xdate_lead_days = 0)")?;
    }
    out.flush()
}
