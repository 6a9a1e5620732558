//! Erasure: `truckins leads forget` (a person's request, by e-mail or phone) and the retention period (leads and
//! opt-outs older than `lead_retention_days`) erase the same way. A lead keeps what says nobody (its dates, form,
//! status, insurance type and number of trucks, its consent's wording and version, the attribution's hosts and
//! campaign tags, unless a tag or host holds the lead's own name, company, e-mail or phone) and loses every field that
//! could (a claim's or a change request's own fields, a quote's schedules and documents with the rest); its
//! deliveries lose their recipient and last error, and the agency's news of an opt-out that named it loses its
//! payload. A request also erases the identifier it was made by (the e-mail or the phone, in any spelling) elsewhere
//! ([`super::elsewhere`]: other leads, stored reports, visit counts); names and companies only in the person's own
//! rows. With `secure_delete` on every connection (see `store::pool`) the old bytes are overwritten in the file,
//! and a `TRUNCATE` checkpoint empties the WAL.

use hmac::{Hmac, KeyInit, Mac};
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use sha2::Sha256;

use super::elsewhere;
use super::revocations::OptOutNews;
use super::traces::Traces;
use crate::fields;
use crate::store::{self, DbPool, StoreError};

/// Whom a privacy request is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    /// Trimmed and lowercased, as leads and revocations store it.
    Email(String),
    /// E.164.
    Phone(String),
}

impl Identifier {
    /// An e-mail address by the forms' rule.
    pub fn email(raw: &str) -> Result<Identifier, String> {
        fields::email(raw)
            .map(Identifier::Email)
            .map_err(|message| format!("{raw:?}: {message}"))
    }

    /// A US phone number as people write it.
    pub fn phone(raw: &str) -> Result<Identifier, String> {
        match fields::optional_phone(raw) {
            Ok(Some(phone)) => Ok(Identifier::Phone(phone)),
            Ok(None) | Err(_) => Err(format!(
                "{raw:?}: {}",
                contract::forms::PHONE.invalid_message()
            )),
        }
    }

    /// The keyed hash kept of it: HMAC-SHA256 of `email:ADDRESS` or `phone:+1...` with the database's own key, in
    /// hex. The same person asking again gives the same hash; the hash alone gives back nobody.
    fn hash(&self, key: &[u8]) -> String {
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
        match self {
            Identifier::Email(email) => mac.update(format!("email:{email}").as_bytes()),
            Identifier::Phone(phone) => mac.update(format!("phone:{phone}").as_bytes()),
        }
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

impl Identifier {
    /// The identifier alone, as a trace to look for.
    fn traces(&self) -> Traces {
        let mut traces = Traces::default();
        match self {
            Identifier::Email(email) => traces.add_email(email),
            Identifier::Phone(phone) => traces.add_phone(phone),
        }
        traces
    }
}

impl std::fmt::Display for Identifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Identifier::Email(email) => f.write_str(email),
            Identifier::Phone(phone) => f.write_str(phone),
        }
    }
}

/// What a privacy request found, and erased unless it was a dry run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Erasure {
    /// The leads it matched (erased now, or to be).
    pub leads: Vec<i64>,
    /// The revocations it matched.
    pub revocations: Vec<i64>,
    /// Earlier requests about the same identifier (recognised by its hash).
    pub earlier_requests: Vec<String>,
}

/// Erases every lead and revocation of `identifier` at `now`, and records the request (its date, the counts and the
/// identifier's keyed hash); with `dry_run`, only says what it would erase. One transaction.
pub fn forget(
    pool: &DbPool,
    identifier: &Identifier,
    dry_run: bool,
    now: &str,
) -> Result<Erasure, StoreError> {
    store::write(pool, |transaction| {
        let (lead_sql, revocation_sql) = match identifier {
            Identifier::Email(_) => (
                "SELECT id FROM leads WHERE lower(trim(email)) = ?1 AND erased_at IS NULL ORDER BY id",
                "SELECT id FROM revocations WHERE email = ?1 AND erased_at IS NULL ORDER BY id",
            ),
            Identifier::Phone(_) => (
                "SELECT id FROM leads WHERE phone = ?1 AND erased_at IS NULL ORDER BY id",
                "SELECT id FROM revocations WHERE phone = ?1 AND erased_at IS NULL ORDER BY id",
            ),
        };
        let value = identifier.to_string();
        let leads = ids(transaction, lead_sql, &value)?;
        let revocations = ids(transaction, revocation_sql, &value)?;
        let key: Vec<u8> = transaction
            .query_row("SELECT key FROM privacy_key WHERE id = 1", [], |row| {
                row.get(0)
            })
            .optional()?
            .unwrap_or_default();
        let hash = identifier.hash(&key);
        let earlier_requests = transaction
            .prepare(
                "SELECT requested_at FROM privacy_requests WHERE identifier_hash = ?1 ORDER BY id",
            )?
            .query_map([&hash], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        let erasure = Erasure {
            leads,
            revocations,
            earlier_requests,
        };
        if dry_run {
            return Ok(erasure);
        }
        erase_leads(transaction, &erasure.leads, now)?;
        erase_revocations(transaction, &erasure.revocations, now)?;
        erase_news(transaction, &erasure.leads, Some(identifier))?;
        // Beyond the person's own rows, only the identifier the request was made by is looked for: a name or a
        // company is a sequence of ordinary words ("Hot Shot Trucking", "None"), found in pages, campaign tags and
        // other people's leads that are not about this person at all.
        let identifier = identifier.traces();
        elsewhere::erase_in_other_rows(transaction, &identifier)?;
        elsewhere::erase_in_payloads(transaction, &identifier)?;
        elsewhere::erase_in_visit_counts(transaction, &identifier)?;
        transaction.execute(
            "INSERT INTO privacy_requests (requested_at, reason, identifier_hash, leads, revocations) \
             VALUES (?1, 'request', ?2, ?3, ?4)",
            params![now, hash, erasure.leads.len() as i64, erasure.revocations.len() as i64],
        )?;
        Ok(erasure)
    })
}

/// A lead's name, e-mail, phone and company.
type LeadNames = (String, String, Option<String>, Option<String>);

fn add_lead(traces: &mut Traces, (name, email, phone, company): LeadNames) {
    traces.add_name(&name);
    traces.add_email(&email);
    if let Some(phone) = phone {
        traces.add_phone(&phone);
    }
    if let Some(company) = company {
        traces.add_name(&company);
    }
}

fn ids(connection: &Connection, sql: &str, value: &str) -> rusqlite::Result<Vec<i64>> {
    connection
        .prepare(sql)?
        .query_map([value], |row| row.get(0))?
        .collect()
}

/// `https://www.google.com` of `https://www.google.com/search?q=...`: where a visit came from, without the path
/// or query that may say who. `None` for what is no absolute URL.
pub fn host_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    // Credentials before an `@` say who.
    let host = host.rsplit('@').next().unwrap_or(host);
    let scheme_ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    (scheme_ok && !host.is_empty()).then(|| format!("{scheme}://{host}"))
}

/// Erases the personal fields of `leads` (see the module's doc) at `now`, their schedules and documents, and their
/// deliveries' recipient and last error (an SMTP refusal may quote the address).
pub fn erase_leads(
    transaction: &Transaction<'_>,
    leads: &[i64],
    now: &str,
) -> rusqlite::Result<()> {
    let mut read = transaction.prepare_cached(
        "SELECT page_url, referrer, landing_page, name, email, phone, company FROM leads WHERE id = ?1",
    )?;
    let mut erase = transaction.prepare_cached(
        "UPDATE leads SET name = '', email = '', phone = NULL, company = NULL, dot_number = NULL, subject = NULL, \
         message = NULL, ip = NULL, user_agent = NULL, page_url = ?2, referrer = ?3, landing_page = ?4, \
         gclid = NULL, submission_id = NULL, carrier_snapshot = NULL, insured_name = NULL, \
         certificate_holder = NULL, holder_address = NULL, additional_insured = NULL, \
         waiver_of_subrogation = NULL, needed_by = NULL, notes = NULL, mc_number = NULL, \
         years_in_business = NULL, radius = NULL, operating_states = NULL, commodities = NULL, \
         commodities_other = NULL, hazmat = NULL, power_units = NULL, trailers = NULL, drivers = NULL, \
         current_insurer = NULL, policy_expiration = NULL, effective_date = NULL, claims_3y = NULL, \
         best_time_to_call = NULL, vehicle_schedule = NULL, driver_schedule = NULL, loss_history = NULL, \
         xdate_sent_for = NULL, details_token_sha256 = NULL, request = NULL, erased_at = ?5 WHERE id = ?1",
    )?;
    let mut deliveries = transaction.prepare_cached(
        "UPDATE deliveries SET recipient = NULL, last_error = NULL WHERE lead_id = ?1",
    )?;
    for &id in leads {
        type Read = (Option<String>, Option<String>, Option<String>, LeadNames);
        let read: Option<Read> = read
            .query_row([id], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    (row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?),
                ))
            })
            .optional()?;
        let Some((page, referrer, landing, names)) = read else {
            continue;
        };
        let mut traces = Traces::default();
        add_lead(&mut traces, names);
        // A host that names the person (`zelda-quixote.example`) goes too.
        let host = |url: Option<String>| {
            url.as_deref()
                .and_then(host_of)
                .filter(|host| !traces.holds(host))
        };
        erase.execute(params![id, host(page), host(referrer), host(landing), now])?;
        erase_own_tags(transaction, id, &traces)?;
        // Its documents (loss runs name drivers and claimants): the rows deleted, their pages overwritten.
        store::documents::erase(transaction, id)?;
        deliveries.execute([id])?;
    }
    Ok(())
}

/// The campaign tags are kept (they say nobody) unless one holds the lead's own name, company, e-mail or phone
/// (`utm_term=maria@example.com`, `utm_content=Maria Lopez`): that tag is erased whole.
fn erase_own_tags(transaction: &Transaction<'_>, id: i64, traces: &Traces) -> rusqlite::Result<()> {
    let tags: [Option<String>; 5] = transaction
        .prepare_cached(
            "SELECT utm_source, utm_medium, utm_campaign, utm_term, utm_content FROM leads WHERE id = ?1",
        )?
        .query_row([id], |row| {
            Ok([row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?])
        })?;
    let kept = tags.map(|tag| tag.filter(|tag| !traces.holds(tag)));
    transaction
        .prepare_cached(
            "UPDATE leads SET utm_source = ?2, utm_medium = ?3, utm_campaign = ?4, utm_term = ?5, \
             utm_content = ?6 WHERE id = ?1",
        )?
        .execute(params![id, kept[0], kept[1], kept[2], kept[3], kept[4]])?;
    Ok(())
}

/// Erases whom `revocations` were about (identifiers, note, and the web form's evidence) at `now`: their date and
/// way stay.
pub fn erase_revocations(
    transaction: &Transaction<'_>,
    revocations: &[i64],
    now: &str,
) -> rusqlite::Result<()> {
    let mut erase = transaction.prepare_cached(
        "UPDATE revocations SET email = NULL, phone = NULL, note = NULL, ip = NULL, user_agent = NULL, \
         page_url = NULL, erased_at = ?2 WHERE id = ?1",
    )?;
    for &id in revocations {
        erase.execute(params![id, now])?;
    }
    Ok(())
}

/// The payload left of the agency's news of an opt-out once erased.
pub const ERASED_NEWS: &str = r#"{"erased":true}"#;

/// Erases the agency's news of opt-outs (kind `opt_out`) that named one of `leads`, or `identifier`: their payload
/// becomes [`ERASED_NEWS`], their last error goes. Returns how many.
pub fn erase_news(
    transaction: &Transaction<'_>,
    leads: &[i64],
    identifier: Option<&Identifier>,
) -> rusqlite::Result<usize> {
    let mut statement = transaction
        .prepare("SELECT id, payload FROM deliveries WHERE kind = 'opt_out' AND payload <> ?1")?;
    let found: Vec<(i64, String)> = statement
        .query_map([ERASED_NEWS], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut erased = 0;
    for (id, payload) in found {
        let names = match serde_json::from_str::<OptOutNews>(&payload) {
            Ok(news) => {
                news.leads.iter().any(|lead| leads.contains(&lead.id))
                    || match identifier {
                        Some(Identifier::Email(email)) => {
                            news.revocation.email.as_deref() == Some(email.as_str())
                        }
                        Some(Identifier::Phone(phone)) => {
                            news.revocation.phone.as_deref() == Some(phone.as_str())
                        }
                        None => false,
                    }
            }
            // A payload this version cannot read is erased rather than kept whole.
            Err(_) => true,
        };
        if names {
            transaction.execute(
                "UPDATE deliveries SET payload = ?2, last_error = NULL WHERE id = ?1",
                params![id, ERASED_NEWS],
            )?;
            erased += 1;
        }
    }
    Ok(erased)
}

/// Empties the WAL into the database file and truncates it (`PRAGMA wal_checkpoint(TRUNCATE)`), so that erased
/// bytes are in neither. True when done; false when a reader of another process kept it from finishing (it is
/// done at a later checkpoint). Not for a replicated database: Litestream checkpoints it.
pub fn checkpoint(pool: &DbPool) -> Result<bool, StoreError> {
    let connection = pool.get()?;
    let busy: i64 =
        connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    Ok(busy == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_keeps_its_scheme_and_host_only() {
        assert_eq!(
            host_of("https://www.google.com/search?q=maria+lopez").as_deref(),
            Some("https://www.google.com")
        );
        assert_eq!(
            host_of("https://user:secret@example.com:8443/x#y").as_deref(),
            Some("https://example.com:8443")
        );
        assert_eq!(host_of("/get-quote?utm_source=x"), None);
        assert_eq!(host_of("not a url"), None);
    }

    #[test]
    fn the_hash_is_keyed_and_stable() {
        let email = Identifier::email(" Maria@Example.com ").unwrap();
        assert_eq!(email, Identifier::Email("maria@example.com".into()));
        assert_eq!(email.hash(b"key"), email.hash(b"key"));
        assert_ne!(email.hash(b"key"), email.hash(b"other key"));
        let phone = Identifier::phone("(214) 555-0199").unwrap();
        assert_eq!(phone, Identifier::Phone("+12145550199".into()));
        assert_eq!(phone.hash(b"key").len(), 64);
        assert!(Identifier::phone("555").is_err());
        assert!(Identifier::email("not an address").is_err());
    }
}
