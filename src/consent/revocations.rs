//! The `revocations` table (migration 0011): a revocation stored with the agency's news of it (one transaction), the
//! list the CLI prints, and what revocations mean for a lead: its [`Standing`] (do not contact, or an opt-out before
//! its fresh consent) and whether its visitor's confirmation is withheld.

use std::collections::HashMap;

use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::store::{self, DbPool, Lead, Source, StoreError, Via};

/// One stored revocation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Revocation {
    pub id: i64,
    /// RFC 3339, UTC.
    pub created_at: String,
    /// How it reached the agency: `web`, `phone`, `text`, `email` or `letter`.
    pub channel: String,
    /// Trimmed and lowercased.
    pub email: Option<String>,
    /// E.164 (`+12145550199`).
    pub phone: Option<String>,
    pub note: Option<String>,
    /// The web form's evidence: the request's IP address, user agent and page.
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
    /// When a privacy request or the retention period erased whom it was about.
    pub erased_at: Option<String>,
}

/// A revocation to store.
#[derive(Debug, Clone, Default)]
pub struct NewRevocation {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub note: Option<String>,
    pub via: Via,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub page_url: Option<String>,
}

/// A lead the revocation names, as the agency's news of it lists them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Named {
    pub id: i64,
    pub source: String,
    pub created_at: String,
    pub name: String,
}

/// The agency's news of a revocation, stored as the payload of its deliveries (kind `opt_out`): the revocation and
/// the leads it matched when it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptOutNews {
    pub revocation: Revocation,
    pub leads: Vec<Named>,
}

const COLUMNS: &str =
    "id, created_at, channel, email, phone, note, ip, user_agent, page_url, erased_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Revocation> {
    Ok(Revocation {
        id: row.get(0)?,
        created_at: row.get(1)?,
        channel: row.get(2)?,
        email: row.get(3)?,
        phone: row.get(4)?,
        note: row.get(5)?,
        ip: row.get(6)?,
        user_agent: row.get(7)?,
        page_url: row.get(8)?,
        erased_at: row.get(9)?,
    })
}

/// Queues the agency's news of a revocation (its JSON, [`OptOutNews`]) in the revocation's own transaction: the
/// caller's outbox (`notify::outbox::enqueue_opt_out`), so that consent hands the news over and knows nothing of how
/// it is sent.
pub type Announce = dyn Fn(&rusqlite::Transaction<'_>, &str) -> rusqlite::Result<()> + Send + Sync;

/// Stores `new` at `now` and, in the same transaction, the agency's news of it (`announce`: the outbox's e-mail and
/// webhook, never a visitor's confirmation). Returns the stored revocation.
pub fn record(
    transaction: &rusqlite::Transaction<'_>,
    new: &NewRevocation,
    now: &str,
    announce: &Announce,
) -> rusqlite::Result<Revocation> {
    transaction.execute(
        "INSERT INTO revocations (created_at, channel, email, phone, note, ip, user_agent, page_url) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            now,
            new.via,
            new.email,
            new.phone,
            new.note,
            new.ip,
            new.user_agent,
            new.page_url
        ],
    )?;
    let revocation = transaction.query_row(
        &format!("SELECT {COLUMNS} FROM revocations WHERE id = ?1"),
        [transaction.last_insert_rowid()],
        from_row,
    )?;
    let news = OptOutNews {
        leads: matching_leads(transaction, new.email.as_deref(), new.phone.as_deref())?,
        revocation: revocation.clone(),
    };
    let payload = serde_json::to_string(&news).map_err(|error| {
        rusqlite::Error::ToSqlConversionFailure(
            Box::new(error) as Box<dyn std::error::Error + Send + Sync>
        )
    })?;
    announce(transaction, &payload)?;
    Ok(revocation)
}

/// [`record`]s `new` now, in a write of its own, committed into the file at the configured path.
pub fn store(
    pool: &DbPool,
    new: &NewRevocation,
    news: &Announce,
) -> Result<Revocation, StoreError> {
    store::write(pool, |transaction| {
        Ok(record(transaction, new, &store::now(), news)?)
    })
}

/// The leads not erased whose e-mail or phone is `email` or `phone`, newest first.
fn matching_leads(
    connection: &Connection,
    email: Option<&str>,
    phone: Option<&str>,
) -> rusqlite::Result<Vec<Named>> {
    let mut statement = connection.prepare(
        "SELECT id, source, created_at, name FROM leads WHERE erased_at IS NULL \
         AND ((?1 IS NOT NULL AND lower(trim(email)) = ?1) OR (?2 IS NOT NULL AND phone = ?2)) ORDER BY id DESC",
    )?;
    let rows = statement.query_map(params![email, phone], |row| {
        Ok(Named {
            id: row.get(0)?,
            source: row.get::<_, Source>(1)?.as_str().to_string(),
            created_at: row.get(2)?,
            name: row.get(3)?,
        })
    })?;
    rows.collect()
}

/// Every revocation made on or after `since` (an RFC 3339 prefix such as `2026-11-01`), oldest first.
pub fn list(connection: &Connection, since: Option<&str>) -> rusqlite::Result<Vec<Revocation>> {
    let mut statement = connection.prepare(&format!(
        "SELECT {COLUMNS} FROM revocations WHERE (?1 IS NULL OR created_at >= ?1) ORDER BY id"
    ))?;
    let rows = statement.query_map([since], from_row)?;
    rows.collect()
}

/// What the revocations say about one lead, as `leads list` and both exports show it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// The first revocation of its e-mail or phone made after its consent: the agency must not call, text or
    /// e-mail it.
    pub do_not_contact: Option<String>,
    /// The last revocation made before it: the lead's own fresh consent came after, and the agency sees the history.
    pub opted_out_before: Option<String>,
}

/// The moment a lead's consent (or, without one, its request) was given: revocations are placed against it.
pub(crate) fn consented_at(lead: &Lead) -> &str {
    lead.consent_at
        .as_deref()
        .filter(|_| lead.consent_given)
        .unwrap_or(&lead.created_at)
}

/// A stored time stamp, for comparing (two texts of RFC 3339 may differ in their fraction's digits).
pub(crate) fn moment(text: &str) -> OffsetDateTime {
    OffsetDateTime::parse(text, &Rfc3339).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// The revocations' dates by identifier, each list oldest first.
#[derive(Default)]
pub struct Dates {
    by_email: HashMap<String, Vec<String>>,
    by_phone: HashMap<String, Vec<String>>,
}

impl Dates {
    /// Every revocation not erased: a small table, read whole once per list or export.
    pub fn load(connection: &Connection) -> rusqlite::Result<Dates> {
        let mut dates = Dates::default();
        let mut statement = connection.prepare(
            "SELECT email, phone, created_at FROM revocations WHERE erased_at IS NULL ORDER BY created_at",
        )?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let (email, phone, at): (Option<String>, Option<String>, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            if let Some(email) = email {
                dates.by_email.entry(email).or_default().push(at.clone());
            }
            if let Some(phone) = phone {
                dates.by_phone.entry(phone).or_default().push(at);
            }
        }
        Ok(dates)
    }

    /// The dates of the revocations of `lead`'s e-mail or phone, oldest first.
    fn of(&self, lead: &Lead) -> Vec<&str> {
        let email = lead.email.trim().to_lowercase();
        let mut found: Vec<&str> = self
            .by_email
            .get(&email)
            .into_iter()
            .chain(
                lead.phone
                    .as_ref()
                    .and_then(|phone| self.by_phone.get(phone)),
            )
            .flatten()
            .map(String::as_str)
            .collect();
        found.sort_by_key(|at| moment(at));
        found.dedup();
        found
    }

    /// `lead`'s standing.
    pub fn standing(&self, lead: &Lead) -> Standing {
        if lead.erased_at.is_some() {
            return Standing::default();
        }
        let consent = moment(consented_at(lead));
        let dates = self.of(lead);
        Standing {
            do_not_contact: dates
                .iter()
                .find(|at| moment(at) > consent)
                .map(|at| at.to_string()),
            opted_out_before: dates
                .iter()
                .rev()
                .find(|at| moment(at) <= consent)
                .map(|at| at.to_string()),
        }
    }
}

/// The standing of each of `leads`, in their order.
pub fn standings(connection: &Connection, leads: &[Lead]) -> rusqlite::Result<Vec<Standing>> {
    let dates = Dates::load(connection)?;
    Ok(leads.iter().map(|lead| dates.standing(lead)).collect())
}

/// Why the visitor's confirmation of `lead` must not be sent: the date its address opted out, when that was after
/// the lead's consent, or at any time for a lead that gave none (a message, a certificate request). A quote with
/// fresh consent after an opt-out is new consent, and is confirmed.
pub fn withheld_since(connection: &Connection, lead: &Lead) -> rusqlite::Result<Option<String>> {
    let email = lead.email.trim().to_lowercase();
    let mut statement = connection.prepare_cached(
        "SELECT created_at FROM revocations WHERE email = ?1 AND erased_at IS NULL ORDER BY created_at",
    )?;
    let dates: Vec<String> = statement
        .query_map([email], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    if !lead.consent_given {
        return Ok(dates.into_iter().next());
    }
    let consent = moment(consented_at(lead));
    Ok(dates.into_iter().find(|at| moment(at) > consent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead(consent_at: Option<&str>) -> Lead {
        Lead {
            created_at: "2026-03-01T10:00:00Z".into(),
            email: "Maria@Example.com".into(),
            phone: Some("+12145550199".into()),
            consent_given: consent_at.is_some(),
            consent_at: consent_at.map(str::to_string),
            ..Lead::default()
        }
    }

    fn dates(list: &[(&str, &str)]) -> Dates {
        let mut dates = Dates::default();
        for (identifier, at) in list {
            let map = if identifier.starts_with('+') {
                &mut dates.by_phone
            } else {
                &mut dates.by_email
            };
            map.entry(identifier.to_string())
                .or_default()
                .push(at.to_string());
        }
        dates
    }

    #[test]
    fn a_revocation_after_consent_is_do_not_contact_and_one_before_is_history() {
        let dates = dates(&[
            ("maria@example.com", "2026-02-01T00:00:00Z"),
            ("+12145550199", "2026-04-01T00:00:00.5Z"),
            ("maria@example.com", "2026-05-01T00:00:00Z"),
        ]);
        let standing = dates.standing(&lead(Some("2026-03-01T10:00:00Z")));
        assert_eq!(
            standing.do_not_contact.as_deref(),
            Some("2026-04-01T00:00:00.5Z")
        );
        assert_eq!(
            standing.opted_out_before.as_deref(),
            Some("2026-02-01T00:00:00Z")
        );
        let unrelated = Lead {
            email: "other@example.com".into(),
            phone: None,
            ..lead(Some("2026-03-01T10:00:00Z"))
        };
        assert_eq!(dates.standing(&unrelated), Standing::default());
        let erased = Lead {
            erased_at: Some("2026-06-01T00:00:00Z".into()),
            ..lead(None)
        };
        assert_eq!(dates.standing(&erased), Standing::default());
    }

    #[test]
    fn times_compare_as_moments_not_as_text() {
        // As text, "10:00:00.5Z" sorts before "10:00:00Z"; as moments it is later.
        let dates = dates(&[("maria@example.com", "2026-03-01T10:00:00.5Z")]);
        let standing = dates.standing(&lead(Some("2026-03-01T10:00:00Z")));
        assert!(standing.do_not_contact.is_some(), "{standing:?}");
    }
}
