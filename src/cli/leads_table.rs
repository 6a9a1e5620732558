//! `truckins leads list`'s table: one line a lead, newest first, with what the agency must know before calling at the
//! start of its last column (erased, do not contact, suspected spam). Kept apart from the other leads commands
//! (src/cli/leads.rs) for its size. Whatever a visitor typed is printed through [`clip`], as text.

use std::collections::HashMap;
use std::io::Write;

use truckins::consent::Standing;
use truckins::store;

use super::leads::clip;

/// `leads list`: one line a lead, newest first.
pub(super) fn print(
    leads: &[store::Lead],
    standings: &[Standing],
    notified: &HashMap<i64, String>,
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "   id  created (UTC)         source    status     lang  name                      email                         notified          about"
    )?;
    for (index, lead) in leads.iter().enumerate() {
        let about = match lead.source {
            store::Source::Quote => format!(
                "{} x{}",
                lead.insurance_type.as_deref().unwrap_or("-"),
                lead.vehicle_count
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
            store::Source::Contact => lead.subject.clone().unwrap_or_default(),
            // What the certificate desk needs at a glance: for whom, by when, and what it must say.
            store::Source::Coi => {
                let mut about = format!(
                    "COI {} for {}, by {}",
                    lead.insured_name.as_deref().unwrap_or("-"),
                    lead.certificate_holder.as_deref().unwrap_or("-"),
                    lead.needed_by.as_deref().unwrap_or("-")
                );
                if lead.additional_insured == Some(true) {
                    about.push_str(", AI");
                }
                if lead.waiver_of_subrogation == Some(true) {
                    about.push_str(", WOS");
                }
                about
            }
            // A client's claim or change: its reference, then when and where, or what and from when.
            store::Source::Claim | store::Source::Change => {
                let request = lead.request.clone().unwrap_or_default();
                let field = |name: &str| request.get(name).unwrap_or("-").to_string();
                let reference = lead.source.reference(lead.id).unwrap_or_default();
                if lead.source == store::Source::Claim {
                    format!(
                        "{reference} loss {} {} in {}, {}",
                        field("loss_date"),
                        field("loss_time"),
                        field("loss_city"),
                        field("loss_state")
                    )
                } else {
                    format!(
                        "{reference} {} from {}",
                        field("change_kind"),
                        field("effective_date")
                    )
                }
            }
        };
        // A quote whose visitor added the operation's details (the export has each of them).
        let about = match (&lead.details_at, &lead.radius) {
            (Some(_), radius) => format!(
                "{about}; details: {} {}",
                radius.as_deref().unwrap_or("-"),
                lead.operating_states.as_deref().unwrap_or("")
            ),
            (None, _) => about,
        };
        // The census's name for the quote's DOT number, when it had one at submission.
        let about = match &lead.carrier_snapshot {
            Some(carrier) => format!("{about}; {}", carrier.summary()),
            None => about,
        };
        // First what the agency must not do: call, text or e-mail someone who opted out after consenting.
        let standing = standings.get(index).cloned().unwrap_or_default();
        let about = match (
            &standing.do_not_contact,
            &standing.opted_out_before,
            &lead.erased_at,
        ) {
            (_, _, Some(at)) => format!("ERASED {}; {about}", at.get(..10).unwrap_or(at)),
            (Some(at), _, _) => format!(
                "DO NOT CONTACT (opted out {}); {about}",
                at.get(..10).unwrap_or(at)
            ),
            (None, Some(at), _) => format!(
                "{about}; opted out {} before this consent",
                at.get(..10).unwrap_or(at)
            ),
            (None, None, None) => about,
        };
        // Sent faster than a person types (issue 36): kept, and shown first so that nobody calls it unawares.
        let about = if lead.suspected_spam {
            format!("SUSPECTED SPAM; {about}")
        } else {
            about
        };
        writeln!(
            out,
            "{:>5}  {:<20}  {:<8}  {:<9}  {:<4}  {:<24}  {:<28}  {:<16}  {}",
            lead.id,
            clip(lead.created_at.get(..19).unwrap_or(&lead.created_at), 19).replace('T', " "),
            clip(lead.source.as_str(), 8),
            clip(lead.status.as_str(), 9),
            // The language it was sent in: `es` is called back in Spanish.
            lead.language.to_string(),
            clip(&lead.name, 24),
            clip(&lead.email, 28),
            clip(notified.get(&lead.id).map_or("-", String::as_str), 16),
            clip(&about, 56)
        )?;
    }
    if leads.is_empty() {
        writeln!(out, "(no leads)")?;
    }
    out.flush()
}
