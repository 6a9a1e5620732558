//! The `truckins` command: serves the site (the default) and lets the agency work with its leads.

use std::io::Write;
use std::net::IpAddr;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rocket::figment::Figment;
use truckins::config;
use truckins::leads::{export, store};

// Serving a page allocates and frees many small buffers on one worker thread and frees some on another (Rocket hands
// each request to a task of its own); mimalloc does that with less work and contention than glibc's allocator
// (bench/RESULTS.md has the figures). Statically linked: the binary still runs on its own.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "truckins",
    version,
    about = "The trucking insurance agency's website and lead engine"
)]
struct Cli {
    /// The SQLite file holding the leads [default: truckins.db in the working directory; also `database` in
    /// Rocket.toml or TRUCKINS_DATABASE].
    #[arg(long, global = true)]
    database: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the website and the leads API (what runs when no command is given).
    Serve(ServeArgs),
    /// Work with the leads the forms collected.
    #[command(subcommand)]
    Leads(LeadsCommand),
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
}

#[derive(clap::Args, Default)]
struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1; also `address` in Rocket.toml, ROCKET_ADDRESS or TRUCKINS_ADDRESS].
    #[arg(long)]
    address: Option<IpAddr>,
    /// Port to listen on [default: 8000; also `port` in Rocket.toml, ROCKET_PORT or TRUCKINS_PORT].
    #[arg(long, short)]
    port: Option<u16>,
    /// Lead submissions accepted per client IP per 10 minutes, both forms together [default: 20].
    #[arg(long)]
    ip_limit: Option<usize>,
    /// The site's public address, e.g. https://www.example.com, for canonical links and the sitemap
    /// [default: the one the site was built with].
    #[arg(long)]
    base_url: Option<String>,
    /// A reverse proxy whose X-Forwarded-For is believed; repeat for several [default: none].
    #[arg(long = "trusted-proxy")]
    trusted_proxies: Vec<IpAddr>,
    /// Request log format: text or json [default: text].
    #[arg(long, value_parser = ["text", "json"])]
    log_format: Option<String>,
}

#[derive(Subcommand)]
enum LeadsCommand {
    /// Write leads as CSV (safe to open in a spreadsheet) or JSON, newest first.
    Export {
        /// csv or json.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Only leads created on or after this date (YYYY-MM-DD, UTC).
        #[arg(long, value_parser = parse_date)]
        since: Option<String>,
        /// Only leads with this status.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(store::STATUSES))]
        status: Option<String>,
        /// Write to this file instead of standard output (a new file is readable by its owner only).
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Show recent leads as a table.
    List {
        /// How many leads to show.
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Only leads with this status.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(store::STATUSES))]
        status: Option<String>,
    },
    /// Move a lead to another status: new, contacted, quoted, won or lost.
    Status {
        /// The lead's id (the first column of `leads list`).
        id: i64,
        /// The new status.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(store::STATUSES))]
        status: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    Csv,
    Json,
}

fn parse_date(text: &str) -> Result<String, String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(text, format)
        .map(|_| text.to_string())
        .map_err(|_| format!("{text:?} is not a date like 2026-11-01"))
}

// A plain `main` rather than `#[rocket::main]`: the configuration is checked (with one-line errors) before the
// runtime exists, and the runtime is then sized from that checked configuration.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => error.exit(), // --help and --version
        Err(error) => {
            // One line, like every other start-up error: what is wrong and the values that would be right.
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
            eprintln!(
                "truckins: {} (see truckins --help)",
                parts.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let mut figment = config::figment();
    if let Some(database) = &cli.database {
        figment = figment.merge(("database", database));
    }
    let result = match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Serve(args) => serve(args, figment),
        Command::Leads(command) => leads(command, &figment),
        Command::Backup { file } => backup(&figment, &file),
        Command::Healthcheck { port } => healthcheck(&figment, port),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("truckins: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: ServeArgs, mut figment: Figment) -> Result<(), String> {
    if let Some(address) = args.address {
        figment = figment.merge(("address", address));
    }
    if let Some(port) = args.port {
        figment = figment.merge(("port", port));
    }
    if let Some(limit) = args.ip_limit {
        figment = figment.merge(("ip_limit", limit));
    }
    if let Some(base_url) = args.base_url {
        figment = figment.merge(("base_url", base_url));
    }
    if !args.trusted_proxies.is_empty() {
        figment = figment.merge(("trusted_proxies", args.trusted_proxies));
    }
    if let Some(format) = args.log_format {
        figment = figment.merge(("log_format", format));
    }
    let settings = config::load(&figment)?;
    println!(
        "truckins {} starting with:\n{}",
        env!("CARGO_PKG_VERSION"),
        config::describe(&figment, &settings)
    );
    let rocket_config =
        rocket::Config::try_from(&figment).map_err(|e| format!("invalid setting: {e}"))?;
    let runtime = rocket::tokio::runtime::Builder::new_multi_thread()
        .worker_threads(rocket_config.workers.max(1))
        .max_blocking_threads(rocket_config.max_blocking.max(1))
        .thread_name("truckins-worker")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(truckins::server::serve(figment, settings))
}

/// The leads database of the configuration, which must exist already.
fn open_existing(figment: &Figment) -> Result<(PathBuf, store::DbPool), String> {
    let settings = config::load(figment)?;
    let path = settings.database;
    if !path.exists() {
        return Err(format!(
            "no leads database at {} (use --database or TRUCKINS_DATABASE)",
            path.display()
        ));
    }
    let pool = store::open(&path, 1).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((path, pool))
}

fn backup(figment: &Figment, file: &std::path::Path) -> Result<(), String> {
    if file.exists() {
        return Err(format!(
            "{} exists already; choose a new file name",
            file.display()
        ));
    }
    let (path, pool) = open_existing(figment)?;
    // Written beside the target and renamed into place only once checked: a failed backup leaves no file that
    // looks like a backup.
    let partial = file.with_file_name(format!(
        "{}.partial",
        file.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let result = copy_database(&pool, &path, &partial).and_then(|done| {
        std::fs::rename(&partial, file)
            .map_err(|e| format!("cannot move the copy to {}: {e}", file.display()))?;
        Ok(done)
    });
    match result {
        Ok((leads, milliseconds)) => {
            println!(
                "backed up {leads} leads from {} to {} in {milliseconds} ms",
                path.display(),
                file.display()
            );
            Ok(())
        }
        Err(message) => {
            let _ = std::fs::remove_file(&partial);
            Err(message)
        }
    }
}

/// Copies the database into `target` with SQLite's online backup and checks the copy; returns its lead count
/// and the time it took.
fn copy_database(
    pool: &store::DbPool,
    path: &std::path::Path,
    target: &std::path::Path,
) -> Result<(i64, u128), String> {
    let _ = std::fs::remove_file(target);
    let started = std::time::Instant::now();
    let source = pool.get().map_err(|e| e.to_string())?;
    // A copy of every lead: readable by its owner only, like the database.
    store::create_private(target)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let mut copy = rusqlite::Connection::open(target)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let backup = rusqlite::backup::Backup::new(&source, &mut copy).map_err(|e| e.to_string())?;
    // The whole file in one step, inside one read transaction: with WAL the site keeps writing leads meanwhile,
    // whereas a copy made in small steps starts over whenever a lead is written between two steps, and under
    // steady traffic might never finish. Busy or locked (a checkpoint at that moment) is retried for a while.
    let gave_up_at = started + std::time::Duration::from_secs(60);
    loop {
        match backup.step(-1) {
            Ok(rusqlite::backup::StepResult::Done) => break,
            Ok(_) if std::time::Instant::now() < gave_up_at => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Ok(_) => return Err(format!("{} stayed locked for a minute", path.display())),
            Err(e) => return Err(format!("backup of {} failed: {e}", path.display())),
        }
    }
    drop(backup);
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    if check != "ok" {
        return Err(format!(
            "the copy of {} failed its integrity check: {check}",
            path.display()
        ));
    }
    let leads: i64 = copy
        .query_row("SELECT COUNT(*) FROM leads", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    Ok((leads, started.elapsed().as_millis()))
}

fn healthcheck(figment: &Figment, port: Option<u16>) -> Result<(), String> {
    use std::io::Read;
    let configured: rocket::Config =
        rocket::Config::try_from(figment).map_err(|e| e.to_string())?;
    let port = port.unwrap_or(configured.port);
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let timeout = std::time::Duration::from_secs(3);
    let mut stream = std::net::TcpStream::connect_timeout(&address, timeout)
        .map_err(|e| format!("nothing answers on {address}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    match answer.lines().next() {
        Some(line) if line.contains(" 200 ") => Ok(()),
        line => {
            // The server's reason, from its JSON body, when it gave one.
            let reason = answer
                .split_once("\r\n\r\n")
                .and_then(|(_, body)| serde_json::from_str::<serde_json::Value>(body).ok())
                .and_then(|body| body["reason"].as_str().map(|r| format!(": {r}")))
                .unwrap_or_default();
            Err(format!(
                "unhealthy: {}{reason}",
                line.unwrap_or("no answer")
            ))
        }
    }
}

fn leads(command: LeadsCommand, figment: &Figment) -> Result<(), String> {
    let (_, pool) = open_existing(figment)?;
    match command {
        LeadsCommand::Export {
            format,
            since,
            status,
            output,
        } => {
            let filter = store::LeadFilter {
                since,
                status,
                limit: None,
            };
            let leads = store::list(&pool, &filter).map_err(|e| e.to_string())?;
            let mut out: Box<dyn Write> = match &output {
                // Created readable by its owner only, whatever the umask: it holds every lead's contact details.
                Some(file) => Box::new(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .create(true)
                        .truncate(true)
                        .mode(0o600)
                        .open(file)
                        .map_err(|e| format!("cannot write {}: {e}", file.display()))?,
                ),
                None => Box::new(std::io::stdout().lock()),
            };
            let written = match format {
                ExportFormat::Csv => export::write_csv(&leads, &mut out),
                ExportFormat::Json => export::write_json(&leads, &mut out),
            };
            written_unless_closed(written.and_then(|()| out.flush()), "the export")?;
            if let Some(file) = output {
                eprintln!("wrote {} leads to {}", leads.len(), file.display());
            }
            Ok(())
        }
        LeadsCommand::List { limit, status } => {
            let leads = store::list(
                &pool,
                &store::LeadFilter {
                    since: None,
                    status,
                    limit: Some(limit),
                },
            )
            .map_err(|e| e.to_string())?;
            written_unless_closed(print_table(&leads), "the list")
        }
        LeadsCommand::Status { id, status } => {
            if store::set_status(&pool, id, &status).map_err(|e| e.to_string())? {
                println!("lead {id} is now {status}");
                Ok(())
            } else {
                Err(format!("no lead has id {id}"))
            }
        }
    }
}

/// The outcome of writing `what`, where a reader that stopped early (`| head`) is no failure: what it wanted was
/// written.
fn written_unless_closed(result: std::io::Result<()>, what: &str) -> Result<(), String> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.map_err(|e| format!("cannot write {what}: {e}")),
    }
}

/// `leads list`: one line a lead, newest first.
fn print_table(leads: &[store::Lead]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "   id  created (UTC)         source    status     name                      email                         about"
    )?;
    for lead in leads {
        let about = match lead.source.as_str() {
            "quote" => format!(
                "{} x{}",
                lead.insurance_type.as_deref().unwrap_or("-"),
                lead.vehicle_count
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
            _ => lead.subject.clone().unwrap_or_default(),
        };
        writeln!(
            out,
            "{:>5}  {:<20}  {:<8}  {:<9}  {:<24}  {:<28}  {}",
            lead.id,
            clip(lead.created_at.get(..19).unwrap_or(&lead.created_at), 19).replace('T', " "),
            clip(&lead.source, 8),
            clip(&lead.status, 9),
            clip(&lead.name, 24),
            clip(&lead.email, 28),
            clip(&about, 40)
        )?;
    }
    if leads.is_empty() {
        writeln!(out, "(no leads)")?;
    }
    out.flush()
}

/// `text` on one line of at most `width` characters. Whatever a visitor typed (or an older version stored) is shown
/// as text, never as terminal control sequences: line breaks and tabs as spaces, other control and bidirectional
/// characters as U+FFFD.
fn clip(text: &str, width: usize) -> String {
    let text = export::printable(text).replace(['\n', '\t'], " ");
    let text = text.as_str();
    if text.chars().count() <= width {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(width - 1).collect::<String>())
    }
}
