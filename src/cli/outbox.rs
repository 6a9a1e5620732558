//! `truckins outbox list|retry`: the lead notifications waiting, sent and failed (src/notify), and putting failed
//! ones (or any one) back in the queue. The running server picks a re-queued delivery up within a few seconds; it
//! keeps its delivery id, so a receiver that got it before can tell it is a repeat.

use std::io::Write;

use clap::Subcommand;
use rocket::figment::Figment;
use truckins::notify::outbox;

use super::leads::{clip, written_unless_closed};
use super::open_existing;
use super::out::say;

#[derive(Subcommand)]
pub enum OutboxCommand {
    /// Show deliveries, newest first: channel, lead, state, attempts, next try and last error.
    List {
        /// Only deliveries in this state.
        #[arg(long, value_parser = ["pending", "sent", "failed"])]
        state: Option<String>,
        /// How many to show.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Send a delivery again now (its id is the first column of `outbox list`), or every failed one.
    Retry {
        /// The delivery's id.
        #[arg(required_unless_present = "all_failed", conflicts_with = "all_failed")]
        id: Option<i64>,
        /// Every failed delivery.
        #[arg(long)]
        all_failed: bool,
    },
}

pub fn run(command: OutboxCommand, figment: &Figment) -> Result<(), String> {
    let (_, pool) = open_existing(figment)?;
    let connection = pool.get().map_err(|e| e.to_string())?;
    match command {
        OutboxCommand::List { state, limit } => {
            let rows =
                outbox::list(&connection, state.as_deref(), limit).map_err(|e| e.to_string())?;
            written_unless_closed(print(&rows), "the list")
        }
        OutboxCommand::Retry { id: Some(id), .. } => {
            match outbox::retry(&connection, id).map_err(|e| e.to_string())? {
                Some(before) => {
                    say!(
                        "delivery {id} ({before} before) is queued again; the server sends it within seconds"
                    );
                    Ok(())
                }
                None => Err(format!(
                    "no delivery has id {id} (see truckins outbox list)"
                )),
            }
        }
        OutboxCommand::Retry { id: None, .. } => {
            let count = outbox::retry_all_failed(&connection).map_err(|e| e.to_string())?;
            say!(
                "{count} failed deliveries are queued again; the server sends them within seconds"
            );
            Ok(())
        }
    }
}

fn print(rows: &[outbox::Listed]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "   id  channel    kind     lead  state     tries  created (UTC)        next try    last error"
    )?;
    let now = outbox::now_ms();
    for row in rows {
        let next = match row.next_attempt_ms {
            Some(at) if at <= now => "now".to_string(),
            Some(at) => in_words((at - now) / 1000),
            None => "-".to_string(),
        };
        writeln!(
            out,
            "{:>5}  {:<9}  {:<7}  {:>4}  {:<8}  {:>5}  {:<19}  {:<10}  {}",
            row.id,
            row.channel,
            row.kind,
            row.lead_id.map_or("-".to_string(), |id| id.to_string()),
            row.state,
            row.attempts,
            clip(row.created_at.get(..19).unwrap_or(&row.created_at), 19).replace('T', " "),
            next,
            clip(row.last_error.as_deref().unwrap_or("-"), 100)
        )?;
    }
    if rows.is_empty() {
        writeln!(out, "(no deliveries)")?;
    }
    out.flush()
}

/// `in 40 s`, `in 12 min`, `in 3 h`.
fn in_words(seconds: i64) -> String {
    if seconds <= 90 {
        format!("in {} s", seconds.max(1))
    } else if seconds <= 5400 {
        format!("in {} min", seconds / 60)
    } else {
        format!("in {} h", seconds / 3600)
    }
}
