//! `truckins check`: the preflight of `src/preflight/` with the settings `serve` would use, printed as a checklist
//! (or one JSON object for a monitor), exiting non-zero when any check failed. Settings that cannot be read are a
//! failed check of their own, so a monitor gets its JSON then too.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::out::say;
use rocket::figment::Figment;
use truckins::config;
use truckins::preflight::{self, Check, Options, Report};

#[derive(Clone, Copy, Default, clap::ValueEnum)]
pub enum Format {
    /// One line per check, starting with ✓ (right), ✗ (wrong) or – (not configured or not applicable).
    #[default]
    Text,
    /// One JSON object: {"ok": bool, "checks": [{"name", "status": "ok"|"fail"|"skip", "detail"}]}.
    Json,
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// What to print.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also send a test e-mail to notify_to through the relay; without it no e-mail is sent.
    #[arg(long)]
    send_test: bool,
    /// The folder of the daily backups (deploy/truckins-backup.service writes leads-*.db there); the newest *.db
    /// in it must be at most 48 hours old.
    #[arg(long, value_name = "DIR", default_value = "/var/backups/truckins")]
    backups: PathBuf,
}

pub fn run(args: CheckArgs, figment: &Figment) -> Result<(), String> {
    let report = match settings(figment) {
        Ok((settings, listen, sources)) => {
            let options = Options {
                listen,
                backups: args.backups,
                send_test: args.send_test,
                settings_file: config::files_read(figment)
                    .into_iter()
                    .next()
                    .map(|(path, _)| path),
            };
            let runtime = rocket::tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the runtime: {e}"))?;
            // The mailer is made and dropped inside the runtime: lettre's pool closes its connections in a task.
            let mut report = runtime.block_on(preflight::run(&settings, &options));
            report.checks.insert(0, Check::ok("settings", sources));
            report
        }
        Err(why) => Report::new(vec![Check::fail("settings", why)]),
    };
    match args.format {
        Format::Text => super::out::write(&report.text()),
        Format::Json => say!("{}", report.json()),
    }
    let failed = report.failed();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} checks failed: {}",
            failed.len(),
            report.checks.len(),
            failed.join(", ")
        ))
    }
}

/// The checked settings, the address `serve` would listen on, and where the settings were read from.
fn settings(figment: &Figment) -> Result<(config::Settings, SocketAddr, String), String> {
    let settings = config::load(figment)?;
    let rocket: rocket::Config =
        rocket::Config::try_from(figment).map_err(|e| format!("invalid setting: {e}"))?;
    let files: Vec<String> = config::files_read(figment)
        .into_iter()
        .map(|(_, described)| described)
        .collect();
    let sources = if files.is_empty() {
        format!(
            "read and checked, as serve reads them: no settings file (neither --config, TRUCKINS_CONFIG nor {}) \
             and no Rocket.toml, so the defaults and the environment",
            config::DEFAULT_FILE
        )
    } else {
        format!(
            "read and checked, as serve reads them: {} and the environment",
            files.join(", ")
        )
    };
    Ok((
        settings,
        SocketAddr::new(rocket.address, rocket.port),
        sources,
    ))
}
