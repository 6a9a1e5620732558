//! The `truckins` command: serves the site (the default) and lets the agency work with its leads.
//! This file parses the command line, hands the command to its file under `src/cli/` and turns the outcome into
//! an exit code: 0 done, 1 failed (one line saying why), 2 a command line that could not be read.

mod cli;

use std::process::ExitCode;

use clap::Parser;
use cli::{Cli, Command};

// Serving a page allocates and frees many small buffers on one worker thread and frees some on another (Rocket hands
// each request to a task of its own); mimalloc does that with less work and contention than glibc's allocator
// (bench/RESULTS.md has the figures). Statically linked: the binary still runs on its own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// A plain `main` rather than `#[rocket::main]`: the configuration is checked (with one-line errors) before the
// runtime exists, and the runtime is then sized from that checked configuration.
fn main() -> ExitCode {
    // The site and facts the build made (crates/embedded), handed to the server before anything reads them.
    truckins::built::install(truckins::built::Built {
        texts: embedded::TEXTS,
        file: embedded::file,
        names: embedded::names,
    });
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => error.exit(), // --help and --version
        Err(error) => {
            eprintln!("truckins: {} (see truckins --help)", cli::one_line(&error));
            return ExitCode::from(2);
        }
    };
    let figment = cli::figment(cli.config, cli.database);
    // The agency's time zone becomes the process's (`TZ`) before any command runs, so that every local time (the
    // business hours, the agency's day) is in it. Here and nowhere later: setting the environment while another
    // thread may read it is undefined behaviour, and Rocket's runtime, the pool and the workers all start below.
    if let Err(message) = apply_time_zone(&figment) {
        eprintln!("truckins: {message}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command.unwrap_or_default() {
        Command::Serve(args) => cli::serve::run(args, figment),
        Command::Leads(command) => cli::leads::run(command, &figment),
        Command::Optout(command) => cli::optout::run(command, &figment),
        Command::Carriers(command) => cli::carriers::run(command, &figment),
        Command::Outbox(command) => cli::outbox::run(command, &figment),
        Command::Notify(command) => cli::notify::run(command, &figment),
        Command::Report(args) => cli::report::run(args, &figment),
        Command::Backup { file } => cli::backup::run(&figment, &file),
        Command::Healthcheck { port } => cli::healthcheck::run(&figment, port),
        Command::Check(args) => cli::check::run(args, &figment),
    };
    // Output that could not be written (other than to a reader that stopped early) fails the command.
    match result.and_then(|()| cli::out::failure().map_or(Ok(()), Err)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("truckins: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The `time_zone` setting, if set, made the process's (src/hours.rs checks it). A value of another type is left to
/// the command's own reading of the settings, which names it with the rest.
fn apply_time_zone(figment: &rocket::figment::Figment) -> Result<(), String> {
    match figment.extract_inner::<Option<String>>("time_zone") {
        Ok(Some(name)) => truckins::hours::use_time_zone(&name),
        Ok(None) | Err(_) => Ok(()),
    }
}
