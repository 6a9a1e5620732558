//! The settings file (issue 35), through the real binary with nothing else in its environment but PATH and HOME:
//!
//! - `--config FILE` and `TRUCKINS_CONFIG=FILE` each give `leads list` the database, the relay with its password,
//!   the addresses and the time zone, and it lists a lead stored before;
//! - a secret in a file others may read is refused (the secret, the file, its mode and the fix named; the password
//!   never), an unknown key is refused naming the key and the file, a named file that is not there is refused;
//! - `check` with the file: the settings line names it, the time_zone line is ✓ with the zone and the business
//!   hours, and ✗ with the fix when time_zone is unset on a machine in UTC (`TZ=UTC`).
//!
//! Nothing waits: each run is a process that has exited.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output};

use crate::check::Run;
use crate::common::process::{TempDir, truckins};
use crate::durability::{insert, stored_lead};
use truckins::store;

/// The relay's password, which no message may show.
const PASSWORD: &str = "s3cret-relay-pw";

/// A folder with a leads database holding one lead, and a settings file naming it (the relay with a password, the
/// addresses, the agency's zone) plus `extra` lines, at `mode`.
struct Setup {
    dir: TempDir,
    file: PathBuf,
}

impl Setup {
    fn new(label: &str, extra: &str, mode: u32) -> Setup {
        let dir = TempDir::new(label);
        let database = dir.sub("data").join("leads.db");
        let pool = store::open(&database, 1).expect("the store opens");
        insert(&pool, &stored_lead("Avery Stone", "avery@example.com"));
        drop(pool);
        let file = dir.sub("etc").join("truckins.toml");
        let text = format!(
            "database = \"{}\"\nsmtp_url = \"smtp://mailer:{PASSWORD}@127.0.0.1:2525\"\n\
             notify_to = [\"owner@realagency.com\"]\nmail_from = \"Leads <leads@realagency.com>\"\n{extra}",
            database.display()
        );
        std::fs::write(&file, text).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        Setup { dir, file }
    }

    /// The binary in the setup's folder with a clean environment: PATH and HOME, and nothing else.
    fn command(&self) -> Command {
        let mut command = truckins(self.dir.path());
        command.env_clear();
        for name in ["PATH", "HOME"] {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        command
    }
}

fn run(mut command: Command, args: &[&str]) -> Output {
    command.args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The run failed with one line on standard error holding each of `words`, and never the password.
fn assert_refused(output: &Output, words: &[&str]) {
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "must fail: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr:?}");
    for word in words {
        assert!(stderr.contains(word), "{word:?} in {stderr:?}");
    }
    assert!(
        !stderr.contains(PASSWORD),
        "the password is shown: {stderr}"
    );
}

#[test]
fn leads_list_reads_the_file_named_by_the_flag_or_the_variable() {
    let setup = Setup::new("config-list", "time_zone = \"America/Chicago\"\n", 0o600);
    let config = setup.file.to_str().unwrap();
    let by_flag = run(setup.command(), &["--config", config, "leads", "list"]);
    let mut command = setup.command();
    command.env("TRUCKINS_CONFIG", config);
    let by_variable = run(command, &["leads", "list"]);
    for (how, output) in [("--config", by_flag), ("TRUCKINS_CONFIG", by_variable)] {
        assert!(output.status.success(), "{how}: {}", text(&output.stderr));
        let table = text(&output.stdout);
        assert!(table.contains("Avery Stone"), "{how}: {table}");
    }
}

#[test]
fn a_secret_in_a_file_others_may_read_is_refused_without_showing_it() {
    let setup = Setup::new("config-mode", "", 0o644);
    let config = setup.file.to_str().unwrap();
    let refused = run(setup.command(), &["--config", config, "leads", "list"]);
    let fix = format!("chmod 600 {config}; chown truckins {config}");
    assert_refused(
        &refused,
        &["smtp_url's password", config, "mode 0644", &fix],
    );
}

#[test]
fn an_unknown_key_and_a_missing_file_are_refused_naming_them() {
    let setup = Setup::new("config-unknown", "ip_limt = 3\n", 0o600);
    let config = setup.file.to_str().unwrap();
    let refused = run(setup.command(), &["--config", config, "leads", "list"]);
    assert_refused(&refused, &["unknown setting `ip_limt`", config]);

    let missing = setup.dir.path().join("nowhere.toml");
    let missing = missing.to_str().unwrap();
    let refused = run(setup.command(), &["--config", missing, "leads", "list"]);
    assert_refused(&refused, &[missing, "not found"]);
    let mut command = setup.command();
    command.env("TRUCKINS_CONFIG", missing);
    let refused = run(command, &["report"]);
    assert_refused(&refused, &[missing, "TRUCKINS_CONFIG", "not found"]);
}

/// `truckins --config FILE check` with `TZ` as given, as a checklist.
fn check(setup: &Setup, tz: &str) -> Run {
    let mut command = setup.command();
    command.env("TZ", tz);
    let output = run(
        command,
        &["--config", setup.file.to_str().unwrap(), "check"],
    );
    Run {
        passed: output.status.success(),
        stdout: text(&output.stdout),
        stderr: text(&output.stderr),
    }
}

#[test]
fn check_names_the_file_and_the_zone_the_business_hours_are_counted_in() {
    let setup = Setup::new("config-check", "time_zone = \"America/Chicago\"\n", 0o600);
    let run = check(&setup, "UTC");
    assert_eq!(run.mark("settings"), '✓', "{}", run.stdout);
    let file = setup.file.display().to_string();
    assert!(
        run.line("settings")
            .contains(&format!("{file} (named by --config)")),
        "{}",
        run.stdout
    );
    assert_eq!(run.mark("time_zone"), '✓', "{}", run.stdout);
    // The hours as built from content/facts.toml, in day ranges (e.g. Monday-Friday 08:00-18:00, ...).
    crate::common::install_built();
    let hours = truckins::preflight::business_hours(truckins::hours::WeekHours::built());
    assert!(
        run.line("time_zone").contains(&format!(
            "America/Chicago: business hours {hours} are counted in it"
        )),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains(PASSWORD), "{}", run.stdout);
}

#[test]
fn check_fails_the_time_zone_line_when_unset_on_a_machine_in_utc() {
    let setup = Setup::new("config-utc", "", 0o600);
    let run = check(&setup, "UTC");
    assert_eq!(run.mark("time_zone"), '✗', "{}", run.stdout);
    let line = run.line("time_zone");
    assert!(
        line.contains("time_zone is unset")
            && line.contains(&format!(
                "add time_zone = \"America/Chicago\" (the agency's zone) to the settings file {}",
                setup.file.display()
            )),
        "{line}"
    );
    assert!(
        !run.passed && run.stderr.contains("time_zone"),
        "{}",
        run.stderr
    );
}
