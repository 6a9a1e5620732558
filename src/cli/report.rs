//! `truckins report`: what the site earned over a range of days (visitors, pageviews and leads, by page, source,
//! campaign and device, and per day), as a table for the terminal, JSON, or one self-contained HTML file
//! (src/analytics/ counts and builds it).

use std::path::{Path, PathBuf};

use rocket::figment::Figment;
use time::macros::format_description;
use truckins::analytics::{Range, html, render, report};
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
    /// Last day counted, included, YYYY-MM-DD (UTC) [default: yesterday, the last complete day].
    #[arg(long)]
    until: Option<String>,
    /// What to write.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write the report to FILE (replaced whole) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
}

pub fn run(args: ReportArgs, figment: &Figment) -> Result<(), String> {
    let settings = config::load(figment)?;
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
        None => Range::last(DEFAULT_DAYS, until),
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
    let text = match args.format {
        Format::Table => render::table(&report),
        Format::Json => render::json(&report),
        Format::Html => html::page(&report),
    };
    match &args.output {
        Some(file) => write_whole(file, &text),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn day(flag: &str, text: &str) -> Result<time::Date, String> {
    time::Date::parse(text.trim(), format_description!("[year]-[month]-[day]"))
        .map_err(|_| format!("{flag} must be a day such as 2026-11-01, not {text:?}"))
}

/// Writes `text` beside `file` and renames it over `file`: a reader (a web server, a mail job) never sees half.
fn write_whole(file: &Path, text: &str) -> Result<(), String> {
    let mut partial = file.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, file))
        .map_err(|error| {
            let _ = std::fs::remove_file(&partial);
            format!("cannot write {}: {error}", file.display())
        })
}
