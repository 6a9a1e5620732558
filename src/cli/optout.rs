//! `truckins optout add|list`: opt-outs received by phone, text, e-mail or letter recorded like the site's own (the
//! agency's e-mail and webhook go out from the running server's worker within seconds), and every opt-out listed as a
//! table, CSV or JSON.

use std::io::Write;

use clap::{Subcommand, ValueEnum};
use rocket::figment::Figment;
use truckins::config;
use truckins::consent::{NewRevocation, Revocation, revocations};
use truckins::leads::export::neutralise;
use truckins::leads::validate;
use truckins::notify::Outbox;
use truckins::store::Via;
use truckins::text::{printable, us_phone};

use super::leads::{clip, parse_date, written_unless_closed};
use super::open_existing;
use super::out::say;

#[derive(Subcommand)]
pub enum OptoutCommand {
    /// Record an opt-out the agency received another way than the site's form: a call, a STOP text, an e-mail or a
    /// letter. Give the phone number, the e-mail address or both. The leads with either are then do_not_contact.
    Add {
        /// The phone number to stop calling and texting (US formats, as people write it).
        #[arg(long)]
        phone: Option<String>,
        /// The e-mail address to stop writing to.
        #[arg(long)]
        email: Option<String>,
        /// How it reached the agency.
        #[arg(long, value_enum)]
        via: Received,
        /// Anything worth keeping with it ("called on 2026-11-26, spoke to Ana").
        #[arg(long)]
        note: Option<String>,
    },
    /// List the opt-outs, oldest first: the site's and those recorded with `optout add`.
    List {
        /// Only those made on or after this date (YYYY-MM-DD, UTC).
        #[arg(long, value_parser = parse_date)]
        since: Option<String>,
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
}

/// The ways an opt-out reaches the agency besides the site's form (`web`, which only the site records).
#[derive(Clone, Copy, ValueEnum)]
pub enum Received {
    Phone,
    Text,
    Email,
    Letter,
}

impl From<Received> for Via {
    fn from(received: Received) -> Via {
        match received {
            Received::Phone => Via::Phone,
            Received::Text => Via::Text,
            Received::Email => Via::Email,
            Received::Letter => Via::Letter,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Csv,
    Json,
}

pub fn run(command: OptoutCommand, figment: &Figment) -> Result<(), String> {
    match command {
        OptoutCommand::Add {
            phone,
            email,
            via,
            note,
        } => add(figment, phone, email, via.into(), note),
        OptoutCommand::List { since, format } => {
            let (_, pool) = open_existing(figment)?;
            let connection = pool.get().map_err(|e| e.to_string())?;
            let list =
                revocations::list(&connection, since.as_deref()).map_err(|e| e.to_string())?;
            let mut out = std::io::stdout().lock();
            let written = match format {
                ListFormat::Table => table(&list, &mut out),
                ListFormat::Csv => csv(&list, &mut out),
                ListFormat::Json => serde_json::to_writer_pretty(&mut out, &list)
                    .map_err(std::io::Error::from)
                    .and_then(|()| writeln!(out)),
            };
            written_unless_closed(written.and_then(|()| out.flush()), "the list")
        }
    }
}

fn add(
    figment: &Figment,
    phone: Option<String>,
    email: Option<String>,
    via: Via,
    note: Option<String>,
) -> Result<(), String> {
    let phone = match phone.as_deref().map(validate::optional_phone) {
        None => None,
        Some(Ok(phone)) => phone,
        Some(Err(message)) => {
            return Err(format!(
                "--phone {:?}: {message}",
                phone.unwrap_or_default()
            ));
        }
    };
    let email = match email.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        None => None,
        Some(raw) => {
            Some(validate::email(raw).map_err(|message| format!("--email {raw:?}: {message}"))?)
        }
    };
    if phone.is_none() && email.is_none() {
        return Err("give --phone, --email or both: what to stop contacting".into());
    }
    let note = note
        .map(|note| validate::sanitize(&note))
        .filter(|note| !note.is_empty());
    let settings = config::load(figment)?;
    let (_, pool) = open_existing(figment)?;
    let channels = Outbox::new(&settings).channels().to_vec();
    let new = NewRevocation {
        email,
        phone,
        note,
        via,
        ..NewRevocation::default()
    };
    let announced = channels.clone();
    let news = move |transaction: &rusqlite::Transaction<'_>, payload: &str| {
        truckins::notify::outbox::enqueue_opt_out(transaction, payload, &announced)
    };
    let revocation = revocations::store(&pool, &new, &news)
        .map_err(|e| format!("the opt-out was not recorded: {e}"))?;
    let connection = pool.get().map_err(|e| e.to_string())?;
    let leads = matching(&connection, &revocation).map_err(|e| e.to_string())?;
    say!(
        "recorded opt-out {} ({} by {}) at {}",
        revocation.id,
        who(&revocation),
        via.described(),
        revocation.created_at
    );
    match leads.len() {
        0 => say!("no lead has this phone number or e-mail address"),
        n => say!(
            "{n} leads with it are now do_not_contact: {}",
            leads.join(", ")
        ),
    }
    if channels.is_empty() {
        say!("no notification channel is configured: nobody else is told");
    } else {
        say!(
            "the agency's e-mail and webhook go out from the running server within seconds (truckins outbox list)"
        );
    }
    Ok(())
}

/// `#12, #40`: the leads with the revocation's phone or e-mail.
fn matching(
    connection: &rusqlite::Connection,
    revocation: &Revocation,
) -> rusqlite::Result<Vec<String>> {
    let mut statement = connection.prepare(
        "SELECT id FROM leads WHERE erased_at IS NULL AND ((?1 IS NOT NULL AND lower(trim(email)) = ?1) \
         OR (?2 IS NOT NULL AND phone = ?2)) ORDER BY id",
    )?;
    let ids = statement.query_map(
        rusqlite::params![revocation.email, revocation.phone],
        |row| row.get::<_, i64>(0),
    )?;
    ids.map(|id| id.map(|id| format!("#{id}"))).collect()
}

/// `(214) 555-0199, maria@example.com`.
fn who(revocation: &Revocation) -> String {
    let mut who: Vec<String> = revocation
        .phone
        .as_deref()
        .map(|phone| us_phone(phone).unwrap_or_else(|| phone.to_string()))
        .into_iter()
        .collect();
    who.extend(revocation.email.clone());
    if who.is_empty() {
        return "(erased)".into();
    }
    printable(&who.join(", ")).into_owned()
}

fn table(list: &[Revocation], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "   id  made (UTC)            via     phone            email                           note"
    )?;
    for revocation in list {
        let phone = revocation
            .phone
            .as_deref()
            .map(|phone| us_phone(phone).unwrap_or_else(|| phone.to_string()));
        let email = match (&revocation.email, &revocation.erased_at) {
            (Some(email), _) => email.clone(),
            (None, Some(at)) => format!("(erased {})", at.get(..10).unwrap_or(at)),
            (None, None) => "-".into(),
        };
        writeln!(
            out,
            "{:>5}  {:<20}  {:<6}  {:<15}  {:<30}  {}",
            revocation.id,
            clip(
                revocation
                    .created_at
                    .get(..19)
                    .unwrap_or(&revocation.created_at),
                19
            )
            .replace('T', " "),
            revocation.channel,
            clip(phone.as_deref().unwrap_or("-"), 15),
            clip(&email, 30),
            clip(revocation.note.as_deref().unwrap_or(""), 40)
        )?;
    }
    if list.is_empty() {
        writeln!(out, "(no opt-outs)")?;
    }
    Ok(())
}

/// RFC 4180 CSV, each cell guarded as the leads' export guards it (formulas behind an apostrophe, phones as people
/// write them).
fn csv(list: &[Revocation], out: &mut dyn Write) -> std::io::Result<()> {
    let mut writer = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::CRLF)
        .from_writer(out);
    writer.write_record([
        "id",
        "created_at",
        "channel",
        "phone",
        "email",
        "note",
        "ip",
        "user_agent",
        "page_url",
        "erased_at",
    ])?;
    for revocation in list {
        let text = |value: &Option<String>| {
            neutralise(printable(value.as_deref().unwrap_or("")).into_owned())
        };
        let phone = revocation
            .phone
            .as_deref()
            .and_then(us_phone)
            .unwrap_or_else(|| text(&revocation.phone));
        writer.write_record([
            revocation.id.to_string(),
            revocation.created_at.clone(),
            revocation.channel.clone(),
            phone,
            text(&revocation.email),
            text(&revocation.note),
            text(&revocation.ip),
            text(&revocation.user_agent),
            text(&revocation.page_url),
            text(&revocation.erased_at),
        ])?;
    }
    writer.flush()
}
