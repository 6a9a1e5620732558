//! The `truckins` command: serves the site (the default) and lets the agency work with its leads.

use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use truckins::leads::{export, store};

#[derive(Parser)]
#[command(
    name = "truckins",
    version,
    about = "The trucking insurance agency's website and lead engine"
)]
struct Cli {
    /// The SQLite file holding the leads [default: truckins.db in the working directory, or Rocket.toml's
    /// `database`].
    #[arg(long, global = true, env = "TRUCKINS_DATABASE")]
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
}

#[derive(clap::Args, Default)]
struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1, or Rocket.toml / ROCKET_ADDRESS].
    #[arg(long, env = "TRUCKINS_ADDRESS")]
    address: Option<IpAddr>,
    /// Port to listen on [default: 8000, or Rocket.toml / ROCKET_PORT].
    #[arg(long, short, env = "TRUCKINS_PORT")]
    port: Option<u16>,
    /// Lead submissions accepted per client IP per 10 minutes, both forms together [default: 20].
    #[arg(long, env = "TRUCKINS_IP_LIMIT")]
    ip_limit: Option<usize>,
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
        /// Write to this file instead of standard output.
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

#[rocket::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let database = cli.database;
    match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Serve(args) => serve(args, database).await,
        Command::Leads(command) => match leads(command, database) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("truckins: {message}");
                ExitCode::FAILURE
            }
        },
    }
}

async fn serve(args: ServeArgs, database: Option<PathBuf>) -> ExitCode {
    let mut figment = rocket::Config::figment();
    if let Some(address) = args.address {
        figment = figment.merge(("address", address));
    }
    if let Some(port) = args.port {
        figment = figment.merge(("port", port));
    }
    if let Some(limit) = args.ip_limit {
        figment = figment.merge(("ip_limit", limit));
    }
    if let Some(database) = database {
        figment = figment.merge(("database", database));
    }
    match truckins::rocket_with(figment).launch().await {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("truckins could not serve: {error}");
            ExitCode::FAILURE
        }
    }
}

fn leads(command: LeadsCommand, database: Option<PathBuf>) -> Result<(), String> {
    let settings: truckins::leads::LeadSettings = rocket::Config::figment()
        .extract()
        .map_err(|e| format!("invalid configuration: {e}"))?;
    let path = database.unwrap_or(settings.database);
    if !path.exists() {
        return Err(format!(
            "no leads database at {} (use --database or TRUCKINS_DATABASE)",
            path.display()
        ));
    }
    let pool = store::open(&path, 1).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
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
                Some(file) => Box::new(
                    std::fs::File::create(file)
                        .map_err(|e| format!("cannot write {}: {e}", file.display()))?,
                ),
                None => Box::new(std::io::stdout().lock()),
            };
            let written = match format {
                ExportFormat::Csv => export::write_csv(&leads, &mut out),
                ExportFormat::Json => export::write_json(&leads, &mut out),
            };
            match written.and_then(|()| out.flush()) {
                // The reader stopped early (`| head`): what it wanted was written.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                result => result.map_err(|e| format!("cannot write the export: {e}"))?,
            }
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
            println!(
                "{:>5}  {:<20}  {:<8}  {:<9}  {:<24}  {:<28}  {}",
                "id", "created (UTC)", "source", "status", "name", "email", "about"
            );
            for lead in &leads {
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
                println!(
                    "{:>5}  {:<20}  {:<8}  {:<9}  {:<24}  {:<28}  {}",
                    lead.id,
                    lead.created_at
                        .get(..19)
                        .unwrap_or(&lead.created_at)
                        .replace('T', " "),
                    lead.source,
                    lead.status,
                    clip(&lead.name, 24),
                    clip(&lead.email, 28),
                    clip(&about, 40)
                );
            }
            if leads.is_empty() {
                println!("(no leads)");
            }
            Ok(())
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

fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(width - 1).collect::<String>())
    }
}
