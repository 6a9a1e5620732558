//! `truckins carriers import FILE.csv`: FMCSA's census into the carriers database, with a progress bar (rows/s)
//! on a terminal and a plain line every few seconds otherwise (a log, a cron mail); then what was imported and
//! which lines could not be read.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::out::say;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use rocket::figment::Figment;
use truckins::carriers::import;
use truckins::config;

#[derive(Subcommand)]
pub enum CarriersCommand {
    /// Load FMCSA's Motor Carrier Census (the census CSV FMCSA publishes) for the quote form's DOT lookup. Replaces
    /// the previous census as a whole once the new one is complete; lookups go on answering from the old one
    /// meanwhile. Rows that cannot be read are counted and listed by line number.
    Import {
        /// The census CSV file.
        file: PathBuf,
        /// The carriers database to write [default: `carriers_database`, or carriers.db beside the leads database].
        #[arg(long)]
        carriers_database: Option<PathBuf>,
        /// Replace what is at the carriers database's path even when it is not a census, or is a census with more
        /// than twice the carriers of the new one.
        #[arg(long)]
        force: bool,
    },
}

/// Plain progress lines, at most this often, when standard error is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

pub fn run(command: CarriersCommand, figment: &Figment) -> Result<(), String> {
    let CarriersCommand::Import {
        file,
        carriers_database,
        force,
    } = command;
    let settings = config::load(figment)?;
    let target = carriers_database.unwrap_or_else(|| settings.carriers_database());
    let size = std::fs::metadata(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?
        .len();
    eprintln!("importing {} into {}", file.display(), target.display());

    let started = Instant::now();
    let rate = |rows: u64| rows as f64 / started.elapsed().as_secs_f64().max(0.001);
    let report = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(size).with_style(
            ProgressStyle::with_template("{bar:40} {percent:>3}% {msg} (eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let report = import::import_with(&file, &target, force, |rows, bytes| {
            bar.set_position(bytes);
            bar.set_message(format!("{rows} rows, {:.0} rows/s", rate(rows)));
        });
        bar.finish_and_clear();
        report
    } else {
        let mut last = Instant::now();
        import::import_with(&file, &target, force, |rows, bytes| {
            if last.elapsed() >= PLAIN_EVERY {
                last = Instant::now();
                eprintln!(
                    "{rows} rows ({:.0}%), {:.0} rows/s",
                    bytes as f64 * 100.0 / size.max(1) as f64,
                    rate(rows)
                );
            }
        })
    }?;

    for (line, reason) in &report.malformed_lines {
        eprintln!("line {line}: skipped, {reason}");
    }
    if report.malformed > report.malformed_lines.len() as u64 {
        eprintln!(
            "... and {} more malformed rows",
            report.malformed - report.malformed_lines.len() as u64
        );
    }
    say!(
        "imported {} carriers from {} rows in {:.1} s ({:.0} rows/s); {} malformed rows skipped, {} repeated DOT \
         numbers (the last row kept); census now at {}",
        report.carriers,
        report.rows,
        report.elapsed.as_secs_f64(),
        report.rows as f64 / report.elapsed.as_secs_f64().max(0.001),
        report.malformed,
        report.duplicates,
        target.display()
    );
    Ok(())
}
