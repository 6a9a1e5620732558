//! `truckins leads export|list|status|forget|proof`: leads written as CSV or JSON, shown as a table (the table printer
//! is here), moved to another status, erased on a person's request, or one lead's proof of consent printed. Whatever a
//! visitor typed is printed as text, never as terminal control sequences.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use rocket::figment::Figment;
use truckins::consent::{self, Standing, forget, proof};
use truckins::leads::export;
use truckins::notify::outbox;
use truckins::store;

use super::open_existing;
use super::out::say;

#[derive(Subcommand)]
pub enum LeadsCommand {
    /// Write leads as CSV (safe to open in a spreadsheet) or JSON, newest first.
    Export {
        /// csv or json.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Only leads created on or after this date (YYYY-MM-DD, UTC).
        #[arg(long, value_parser = parse_date)]
        since: Option<String>,
        /// Only leads with this status.
        #[arg(long, value_enum)]
        status: Option<store::Status>,
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
        #[arg(long, value_enum)]
        status: Option<store::Status>,
    },
    /// Show one lead: every field, its status history (when and how each change was made) and its notifications.
    Show {
        /// The lead's id (the first column of `leads list`).
        id: i64,
    },
    /// Move a lead to another status: new, contacted, quoted, won, lost or not_a_fit (kept in its history, and told
    /// to the webhook as a `lead.status` event).
    Status {
        /// The lead's id (the first column of `leads list`).
        id: i64,
        /// The new status.
        #[arg(value_enum)]
        status: store::Status,
    },
    /// A person's privacy request: erase the personal fields of every lead and opt-out with this e-mail address or
    /// phone number (name, e-mail, phone, company, messages, IP, user agent, details, carrier record), keeping the
    /// dates, form, status, insurance type and campaign tags. A record of the request is kept: its date, the counts
    /// and a keyed hash of the identifier (never the identifier).
    Forget {
        /// The e-mail address to forget.
        #[arg(long, conflicts_with = "phone", required_unless_present = "phone")]
        email: Option<String>,
        /// The phone number to forget (US formats).
        #[arg(long)]
        phone: Option<String>,
        /// Only say what would be erased.
        #[arg(long)]
        dry_run: bool,
    },
    /// Print one lead's proof of consent: the exact words shown, their version and language, the form and page, the
    /// time (UTC), IP and user agent, the DOT question, and every opt-out since.
    Proof {
        /// The lead's id (the first column of `leads list`).
        id: i64,
        /// text, json, or html (one self-contained page that prints on one sheet).
        #[arg(long, value_enum, default_value_t = ProofFormat::Text)]
        format: ProofFormat,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProofFormat {
    Text,
    Json,
    Html,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Csv,
    Json,
}

pub(super) fn parse_date(text: &str) -> Result<String, String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(text, format)
        .map(|_| text.to_string())
        .map_err(|_| format!("{text:?} is not a date like 2026-11-01"))
}

pub fn run(command: LeadsCommand, figment: &Figment) -> Result<(), String> {
    let (_, pool) = open_existing(figment)?;
    let standings_of = |leads: &[store::Lead]| -> Result<Vec<Standing>, String> {
        let connection = pool.get().map_err(|e| e.to_string())?;
        consent::standings(&connection, leads).map_err(|e| e.to_string())
    };
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
            let standings = standings_of(&leads)?;
            let documents = {
                let connection = pool.get().map_err(|e| e.to_string())?;
                let of = |lead: &store::Lead| store::documents::list(&connection, lead.id);
                leads
                    .iter()
                    .map(of)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())?
            };
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
                ExportFormat::Csv => export::write_csv(&leads, &standings, &documents, &mut out),
                ExportFormat::Json => export::write_json(&leads, &standings, &documents, &mut out),
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
            // Whether each lead's notifications went out (src/notify).
            let ids: Vec<i64> = leads.iter().map(|lead| lead.id).collect();
            let notified = pool
                .get()
                .map_err(|e| e.to_string())
                .and_then(|c| outbox::summaries(&c, &ids).map_err(|e| e.to_string()))?;
            let standings = standings_of(&leads)?;
            written_unless_closed(
                super::leads_table::print(&leads, &standings, &notified),
                "the list",
            )
        }
        LeadsCommand::Forget {
            email,
            phone,
            dry_run,
        } => {
            let identifier = match (email, phone) {
                (Some(email), _) => forget::Identifier::email(&email)?,
                (None, Some(phone)) => forget::Identifier::phone(&phone)?,
                (None, None) => return Err("give --email or --phone".into()),
            };
            let settings = truckins::config::load(figment)?;
            forget_one(&pool, &identifier, dry_run, &settings)
        }
        LeadsCommand::Proof { id, format } => {
            let connection = pool.get().map_err(|e| e.to_string())?;
            let Some(proof) = proof::of(&connection, id).map_err(|e| e.to_string())? else {
                return Err(format!("no lead has id {id}"));
            };
            let text = match format {
                ProofFormat::Text => proof::text(&proof),
                ProofFormat::Json => {
                    let mut json =
                        serde_json::to_string_pretty(&proof).map_err(|e| e.to_string())?;
                    json.push('\n');
                    json
                }
                ProofFormat::Html => proof::html(&proof),
            };
            let mut out = std::io::stdout().lock();
            written_unless_closed(
                out.write_all(text.as_bytes()).and_then(|()| out.flush()),
                "the proof",
            )
        }
        LeadsCommand::Status { id, status } => {
            let settings = truckins::config::load(figment)?;
            let channels = truckins::notify::Outbox::new(&settings).channels().to_vec();
            let connection = pool.get().map_err(|e| e.to_string())?;
            let outcome = truckins::status::change(
                &connection,
                id,
                status,
                store::ChangedBy::Cli,
                None,
                &channels,
            )
            .map_err(|e| e.to_string())?;
            match outcome {
                truckins::status::Outcome::Changed { from, .. } => {
                    say!("lead {id} is now {status} (was {from})");
                    if channels.contains(&truckins::notify::Channel::Webhook) {
                        say!("the webhook gets a lead.status event (the running server sends it)");
                    }
                    Ok(())
                }
                truckins::status::Outcome::Already { .. }
                | truckins::status::Outcome::LinkUsed { .. } => {
                    say!("lead {id} is already {status}: nothing changed");
                    Ok(())
                }
                truckins::status::Outcome::NoLead => Err(format!("no lead has id {id}")),
            }
        }
        LeadsCommand::Show { id } => {
            let connection = pool.get().map_err(|e| e.to_string())?;
            let Some(lead) = store::get(&connection, id).map_err(|e| e.to_string())? else {
                return Err(format!("no lead has id {id}"));
            };
            let history = truckins::status::history(&connection, id).map_err(|e| e.to_string())?;
            let deliveries = outbox::of_lead(&connection, id).map_err(|e| e.to_string())?;
            let standing = consent::standings(&connection, std::slice::from_ref(&lead))
                .map_err(|e| e.to_string())?
                .pop()
                .unwrap_or_default();
            let documents = store::documents::list(&connection, id).map_err(|e| e.to_string())?;
            let shown = show(&lead, &standing, &history, &deliveries, &documents);
            written_unless_closed(shown, "the lead")
        }
    }
}

/// `leads forget`: erases (or with `dry_run` counts) what `identifier` names, then empties the WAL so that the bytes
/// are gone from the files too, unless Litestream checkpoints this database.
fn forget_one(
    pool: &store::DbPool,
    identifier: &forget::Identifier,
    dry_run: bool,
    settings: &truckins::config::Settings,
) -> Result<(), String> {
    let erasure =
        forget::forget(pool, identifier, dry_run, &store::now()).map_err(|e| e.to_string())?;
    let list = |ids: &[i64]| {
        ids.iter()
            .map(|id| format!("#{id}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let verb = if dry_run { "would erase" } else { "erased" };
    say!(
        "{verb} {} leads{} and {} opt-outs{}",
        erasure.leads.len(),
        if erasure.leads.is_empty() {
            String::new()
        } else {
            format!(" ({})", list(&erasure.leads))
        },
        erasure.revocations.len(),
        if erasure.revocations.is_empty() {
            String::new()
        } else {
            format!(" ({})", list(&erasure.revocations))
        },
    );
    if !erasure.earlier_requests.is_empty() {
        say!(
            "the same identifier was forgotten before, on {}",
            erasure.earlier_requests.join(", ")
        );
    }
    if dry_run {
        say!("nothing was changed (--dry-run)");
        return Ok(());
    }
    say!(
        "kept: a record of this request (its date, the counts and a keyed hash of the identifier)"
    );
    if settings.replica_socket.is_some() {
        say!(
            "the database is replicated: Litestream checkpoints the WAL within its checkpoint interval (a minute), and \
             the replica's history and the daily backups keep the old pages until they age out (30 days)"
        );
        return Ok(());
    }
    match forget::checkpoint(pool).map_err(|e| e.to_string())? {
        true => say!(
            "the database file and its WAL no longer hold it; the daily backups do until they age out (30 days)"
        ),
        false => say!(
            "the WAL could not be emptied now (another process was reading): run `truckins leads forget` again, \
             or it is emptied at the server's next checkpoint"
        ),
    }
    Ok(())
}

/// The outcome of writing `what`, where a reader that stopped early (`| head`) is no failure: what it wanted was
/// written.
pub(super) fn written_unless_closed(result: std::io::Result<()>, what: &str) -> Result<(), String> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.map_err(|e| format!("cannot write {what}: {e}")),
    }
}

/// `leads show`: the lead's fields (as the agency's e-mail groups them), its schedules and documents, its history
/// and its deliveries.
fn show(
    lead: &store::Lead,
    standing: &Standing,
    history: &[truckins::status::Change],
    deliveries: &[outbox::Listed],
    documents: &[store::documents::Document],
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let plain = |text: &str| truckins::text::printable(text).replace('\t', " ");
    writeln!(
        out,
        "Lead #{}: {} ({}), {}\nstatus: {}",
        lead.id,
        plain(&lead.name),
        lead.source,
        // Stored text too: an older version's row may hold anything, shown as text, never run by the terminal.
        plain(&truckins::clock::readable(&lead.created_at)),
        lead.status
    )?;
    if let Some(note) = truckins::notify::compose::standing_note(standing) {
        writeln!(out, "{note}")?;
    }
    if let Some(note) = truckins::notify::compose::suspected_spam_note(lead) {
        writeln!(out, "{note}")?;
    }
    if let Some(at) = &lead.erased_at {
        writeln!(out, "ERASED on {}: its personal fields are gone", plain(at))?;
    }
    for (title, rows) in truckins::notify::compose::sections(lead) {
        writeln!(out, "\n{title}")?;
        for (label, value) in rows {
            let mut lines = plain(&value)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
                .into_iter();
            writeln!(
                out,
                "  {:<16} {}",
                format!("{label}:"),
                lines.next().unwrap_or_default()
            )?;
            for line in lines {
                writeln!(out, "  {:<16} {line}", "")?;
            }
        }
    }
    super::leads_schedules::print(&mut out, lead, documents)?;
    writeln!(out, "\nHistory")?;
    writeln!(
        out,
        "  {}  received ({})",
        plain(&truckins::clock::readable(&lead.created_at)),
        lead.source
    )?;
    for change in history {
        let how = match change.via {
            store::ChangedBy::Link => "by a link in the agency's e-mail",
            store::ChangedBy::Cli => "by truckins leads status",
        };
        writeln!(
            out,
            "  {}  {} -> {}  {how}",
            plain(&truckins::clock::readable(&change.at)),
            change.from,
            change.to
        )?;
    }
    writeln!(out, "\nNotifications")?;
    if deliveries.is_empty() {
        writeln!(out, "  (none)")?;
    }
    for delivery in deliveries {
        writeln!(
            out,
            "  #{:<5} {:<9} {:<9} {:<8} attempts {:<3} queued {}{}",
            delivery.id,
            delivery.kind,
            delivery.channel,
            delivery.state,
            delivery.attempts,
            plain(&truckins::clock::readable(&delivery.created_at)),
            delivery
                .last_error
                .as_deref()
                .map(|error| format!("  last error: {}", clip(error, 80)))
                .unwrap_or_default()
        )?;
    }
    out.flush()
}

/// `text` on one line of at most `width` characters. Whatever a visitor typed (or an older version stored) is shown
/// as text, never as terminal control sequences: line breaks and tabs as spaces, other control and bidirectional
/// characters as U+FFFD.
pub(super) fn clip(text: &str, width: usize) -> String {
    let text = truckins::text::printable(text).replace(['\n', '\t'], " ");
    let text = text.as_str();
    if text.chars().count() <= width {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(width - 1).collect::<String>())
    }
}
