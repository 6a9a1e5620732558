//! The command line: its top-level options and commands, one file per command (`serve`, `leads`, `carriers`,
//! `optout`, `outbox`, `notify`, `report`, `backup`, `healthcheck`, `check`), and what they share (the configuration
//! of `--config FILE` with `--database` on top, the existing leads database).
//! Doc comments on the fields below are the `--help` text.

pub mod backup;
pub mod carriers;
pub mod check;
pub mod healthcheck;
pub mod leads;
mod leads_schedules;
mod leads_table;
pub mod notify;
pub mod optout;
pub mod out;
pub mod outbox;
pub mod report;
pub mod serve;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use rocket::figment::Figment;
use truckins::config;
use truckins::store;

#[derive(Parser)]
#[command(
    name = "truckins",
    version,
    about = "The trucking insurance agency's website and lead engine"
)]
pub struct Cli {
    /// The settings file, read by every command: flat TOML keys, as in deploy/truckins.toml. A file named here
    /// must exist [default: /etc/truckins/truckins.toml if it exists, else Rocket.toml in the working directory or
    /// the file named by ROCKET_CONFIG].
    #[arg(long, global = true, value_name = "FILE", env = "TRUCKINS_CONFIG")]
    pub config: Option<PathBuf>,

    /// The SQLite file holding the leads [default: truckins.db in the working directory; also `database` in
    /// the settings file or TRUCKINS_DATABASE].
    #[arg(long, global = true)]
    pub database: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Serve the website and the leads API (what runs when no command is given).
    Serve(serve::ServeArgs),
    /// Work with the leads the forms collected.
    #[command(subcommand)]
    Leads(leads::LeadsCommand),
    /// Opt-outs (consent taken back): record one received by phone, text, e-mail or letter; list them all.
    #[command(subcommand)]
    Optout(optout::OptoutCommand),
    /// Work with the FMCSA carrier census behind the quote form's DOT lookup.
    #[command(subcommand)]
    Carriers(carriers::CarriersCommand),
    /// The lead notifications (e-mail, webhook, confirmations): list them, send failed ones again.
    #[command(subcommand)]
    Outbox(outbox::OutboxCommand),
    /// Check the notification settings by sending a test e-mail and webhook.
    #[command(subcommand)]
    Notify(notify::NotifyCommand),
    /// What the site earned over a range of days: visitors, pageviews and leads by page, source, campaign and
    /// device, and per day (pages counted by the server itself, without cookies; see the privacy policy).
    Report(report::ReportArgs),
    /// Copy the leads database to FILE, consistently, even while the site is serving (SQLite's online backup).
    /// The copy is readable by its owner only.
    Backup {
        /// Where to write the copy; must not exist yet.
        file: PathBuf,
    },
    /// Exit 0 if the server on this machine answers GET /healthz with 200: it answers, and a lead could be stored
    /// now (for container health checks). Otherwise one line with the reason, and a non-zero exit.
    Healthcheck {
        /// The port the server listens on [default: the configured port].
        #[arg(long)]
        port: Option<u16>,
    },
    /// The preflight before the site takes traffic, with the settings serve would use: one line per check (✓, ✗ or
    /// – with why) for the public address, the proxy settings, the mail relay, the webhook, the database's folder
    /// and disk, backups, the replica, the census, the links' key, the clock and the time zone the business hours
    /// are counted in. Exits non-zero on any ✗. Sends no
    /// e-mail unless --send-test, and changes nothing (one temporary file is made and removed in the database's
    /// folder).
    Check(check::CheckArgs),
}

/// No command is `serve` with no flags.
impl Default for Command {
    fn default() -> Self {
        Command::Serve(serve::ServeArgs::default())
    }
}

/// A command line clap could not read, as one line like every other start-up error: what is wrong and the values
/// that would be right.
pub fn one_line(error: &clap::Error) -> String {
    let text = error.to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| {
            !line.is_empty()
                && !line.starts_with("For more information")
                && !line.starts_with("Usage:")
        })
        .collect();
    parts.join(" ").trim_start_matches("error: ").to_string()
}

/// Every configuration source, the settings file of `--config` (or its default) among them, with `--database`
/// over them.
pub fn figment(file: Option<PathBuf>, database: Option<PathBuf>) -> Figment {
    let figment = config::figment_with(config::SettingsFile::choose(file));
    match database {
        Some(database) => figment.merge(("database", database)),
        None => figment,
    }
}

/// The leads database of the configuration, which must exist already.
fn open_existing(figment: &Figment) -> Result<(PathBuf, store::DbPool), String> {
    let settings = config::load(figment)?;
    let path = settings.database;
    if !path.exists() {
        return Err(format!(
            "no leads database at {} (use --database, `database` in the settings file, or TRUCKINS_DATABASE)",
            path.display()
        ));
    }
    // A command's few writes never checkpoint: the server does, or Litestream when the file is replicated (which
    // the command may not know: `replica_socket` is often set for the service alone).
    let pool = store::open_with(&path, 1, store::Checkpoints::Never)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((path, pool))
}
