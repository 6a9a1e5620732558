//! `truckins report`: what the site earned over a range of days (visitors, pageviews and leads, by page, source,
//! campaign and device, and per day), as a table for the terminal, JSON, or one self-contained HTML file
//! (src/analytics/ counts and builds it); or, with `--email`, queued in the notifications' outbox as an e-mail to
//! `notify_to`, which the server sends like a lead's (src/notify/compose/report.rs words it).

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::out::say;
use rocket::figment::Figment;
use time::macros::format_description;
use truckins::analytics::{Range, Report, html, render, report};
use truckins::config::Settings;
use truckins::notify::compose::report::ReportMail;
use truckins::notify::outbox;
use truckins::store::DbPool;
use truckins::{clock, config};

/// Days in the report when --since is not given.
const DEFAULT_DAYS: i64 = 28;
/// The longest range a report covers (ten years and leap days).
const MAX_DAYS: i64 = 3_653;

#[derive(Clone, Copy, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned tables, for the terminal.
    #[default]
    Table,
    /// One JSON object: totals, pages, sources, campaigns, devices, days.
    Json,
    /// One HTML file with charts, readable on a phone, that fetches nothing.
    Html,
}

#[derive(clap::Args)]
pub struct ReportArgs {
    /// First day counted, YYYY-MM-DD (UTC) [default: 28 days up to --until].
    #[arg(long)]
    since: Option<String>,
    /// How many days are counted, up to --until (instead of --since), e.g. 7 for the last complete week.
    #[arg(long, conflicts_with = "since", value_parser = clap::value_parser!(i64).range(1..=MAX_DAYS))]
    days: Option<i64>,
    /// Last day counted, included, YYYY-MM-DD (UTC) [default: yesterday, the last complete day].
    #[arg(long)]
    until: Option<String>,
    /// What to write.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write the report to FILE (replaced whole) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Queue the report as an e-mail to `notify_to`, from `mail_from` (the HTML report, with the table as plain
    /// text), instead of writing it: the running server sends it within seconds and retries for 24 h like a lead's
    /// notification (`truckins outbox list` shows it).
    #[arg(long, conflicts_with_all = ["format", "output"])]
    email: bool,
}

pub fn run(args: ReportArgs, figment: &Figment) -> Result<(), String> {
    let settings = config::load(figment)?;
    // Before anything is read: without e-mail there is nothing to queue, and the run must say so and fail.
    if args.email {
        e_mail_configured(&settings)?;
    }
    if let Some(file) = &settings.test_clock {
        clock::use_test_clock(file);
    }
    let until = match &args.until {
        Some(text) => day("--until", text)?,
        // Complete days only: today's counts are still growing (a weekly report ends with a full day).
        None => {
            let today = clock::today();
            today.previous_day().unwrap_or(today)
        }
    };
    let range = match &args.since {
        Some(text) => Range {
            since: day("--since", text)?,
            until,
        },
        None => Range::last(args.days.unwrap_or(DEFAULT_DAYS), until),
    };
    if range.since > range.until {
        return Err(format!(
            "--since {} is after --until {}",
            range.since, range.until
        ));
    }
    // One row per day in the report: a range of centuries by a slip of the finger would print millions.
    if range.length() > MAX_DAYS {
        return Err(format!(
            "--since {} to --until {} is more than {MAX_DAYS} days; report ten years at most",
            range.since, range.until
        ));
    }
    let (path, pool) = super::open_existing(figment)?;
    let report = report::build(&pool, range)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    if args.email {
        return queue_e_mail(&settings, &pool, &report)
            .map_err(|error| format!("cannot queue the report in {}: {error}", path.display()));
    }
    let text = match args.format {
        Format::Table => render::table(&report),
        Format::Json => render::json(&report),
        Format::Html => html::page(&report),
    };
    match &args.output {
        Some(file) => write_whole(file, &text),
        None => {
            super::out::write(&text);
            Ok(())
        }
    }
}

/// The settings the e-mail needs, all set (their values were checked with the others by `config::load`).
fn e_mail_configured(settings: &Settings) -> Result<(), String> {
    let missing: Vec<&str> = [
        ("smtp_url", settings.smtp_url.is_none()),
        ("notify_to", settings.notify_to.is_empty()),
        ("mail_from", settings.mail_from.is_none()),
    ]
    .into_iter()
    .filter_map(|(key, unset)| unset.then_some(key))
    .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "cannot e-mail the report: e-mail is not configured ({} not set). Set smtp_url, notify_to and mail_from \
         (the settings file, or TRUCKINS_SMTP_URL, TRUCKINS_NOTIFY_TO and TRUCKINS_MAIL_FROM), as the server has them; \
         nothing was queued",
        missing.join(", ")
    ))
}

/// Renders the e-mail and queues it as one delivery of kind `report`; says what was queued and when it goes.
fn queue_e_mail(settings: &Settings, pool: &DbPool, report: &Report) -> Result<(), String> {
    let mail = ReportMail::new(report, &settings.notify_to);
    let connection = pool.get().map_err(|e| e.to_string())?;
    let id = outbox::enqueue_report(&connection, &mail.to_json()).map_err(|e| e.to_string())?;
    say!(
        "queued the report as delivery {id} (kind report, e-mail) to {}\nsubject: {}\nthe running server sends it \
         within seconds (if none is running, at its next start); truckins outbox list shows it",
        mail.to.join(", "),
        mail.subject
    );
    Ok(())
}

fn day(flag: &str, text: &str) -> Result<time::Date, String> {
    time::Date::parse(text.trim(), format_description!("[year]-[month]-[day]"))
        .map_err(|_| format!("{flag} must be a day such as 2026-11-01, not {text:?}"))
}

/// Writes `text` beside `file` and renames it over `file`: a reader (a web server, a mail job) never sees half.
/// Created readable by its owner only (0600, whatever the umask), like the backups and the leads export: the report
/// names the agency's campaigns and figures, and its campaign tags are visitors' text.
fn write_whole(file: &Path, text: &str) -> Result<(), String> {
    let mut partial = file.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&partial)
        .and_then(|mut out| out.write_all(text.as_bytes()))
        .and_then(|()| std::fs::rename(&partial, file))
        .map_err(|error| {
            let _ = std::fs::remove_file(&partial);
            format!("cannot write {}: {error}", file.display())
        })
}
