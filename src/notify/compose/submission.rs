//! What the agency's news of a quote says of its whole submission (issue 39): the signed link to the one printable
//! page of it (src/submission) and a one-line summary (vehicles, drivers, losses and their total, documents), in the
//! e-mail's text and HTML parts; and the documents (names, sizes, SHA-256, never the bytes) with the link in the
//! webhook's JSON. An x-date's e-mail opens with why it came.

use serde_json::{Value, json};

use super::{Kind, xdate};
use crate::store::documents::Document;
use crate::store::{Lead, Source};
use contract::forms::documents::size_text;

use crate::text::{dollars, escape_html};

/// A quote's submission as its news carries it.
#[derive(Debug, Clone, Default)]
pub struct Submission {
    /// The signed page's whole address; `None` without the installation's key (the e-mail then says how to see
    /// the submission on the server).
    pub link: Option<String>,
    /// Its documents, oldest first.
    pub documents: Vec<Document>,
}

/// Whether the agency's news of `kind` about `lead` carries its submission: a quote's details and x-date always, a
/// quote's other news once it has details or documents; never an erased lead's (there is nothing left to show).
pub fn wanted(lead: &Lead, kind: Kind, documents: &[Document]) -> bool {
    lead.source == Source::Quote
        && lead.erased_at.is_none()
        && (matches!(kind, Kind::Details | Kind::Xdate)
            || lead.details_at.is_some()
            || !documents.is_empty())
}

/// A quote's submission for the agency's news of `due` about `lead`: the page's link signed by `links` (valid 30 days
/// from now) and the documents read with the delivery; `None` when that news does not carry it.
pub fn of_due(
    links: Option<&crate::links::Signer>,
    due: &crate::notify::outbox::Due,
    lead: &Lead,
) -> Option<Submission> {
    wanted(lead, due.kind, &due.documents).then(|| Submission {
        link: links.map(|signer| signer.submission_link(lead.id, crate::clock::now_utc())),
        documents: due.documents.clone(),
    })
}

/// `Vehicles 2, drivers 1, losses 3 totalling $52,500, documents 1`.
pub fn summary(lead: &Lead, documents: &[Document]) -> String {
    let count = |rows: Option<usize>| rows.unwrap_or(0);
    let vehicles = count(lead.vehicle_schedule.as_ref().map(|rows| rows.0.len()));
    let drivers = count(lead.driver_schedule.as_ref().map(|rows| rows.0.len()));
    let losses = lead
        .loss_history
        .as_ref()
        .map(|rows| rows.0.as_slice())
        .unwrap_or_default();
    let losses = if losses.is_empty() {
        "losses 0".to_string()
    } else {
        format!(
            "losses {} totalling {}",
            losses.len(),
            dollars(crate::store::schedules::losses_total(losses))
        )
    };
    format!(
        "Vehicles {vehicles}, drivers {drivers}, {losses}, documents {}",
        documents.len()
    )
}

/// What to do without a link: the server's own copy of the submission.
fn without_link(lead: &Lead) -> String {
    format!(
        "(no link: the links' key could not be read) run `truckins leads show {}` on the server",
        lead.id
    )
}

/// The submission's lines of the plain-text part.
pub fn text(lead: &Lead, kind: Kind, submission: &Submission) -> String {
    let mut out = String::new();
    if kind == Kind::Xdate {
        out.push_str(&format!("\n{}\n", xdate::why(lead)));
    }
    out.push_str(&format!(
        "\nThe whole submission, one printable page: {}\n{}\n",
        submission
            .link
            .clone()
            .unwrap_or_else(|| without_link(lead)),
        summary(lead, &submission.documents)
    ));
    for document in &submission.documents {
        out.push_str(&format!(
            "  Document: {} ({})\n",
            super::one_line(&document.file_name),
            size_text(document.size as usize, false)
        ));
    }
    out
}

/// The submission's paragraph of the HTML part, every value escaped.
pub fn html(lead: &Lead, kind: Kind, submission: &Submission) -> String {
    let mut out = String::new();
    if kind == Kind::Xdate {
        out.push_str(&format!(
            "<p><strong>{}</strong></p>",
            escape_html(&xdate::why(lead))
        ));
    }
    let link = match &submission.link {
        Some(link) => format!(
            "<a href=\"{}\" style=\"font-weight:bold\">Open the whole submission (one printable page)</a>",
            escape_html(link)
        ),
        None => escape_html(&without_link(lead)),
    };
    out.push_str(&format!(
        "<p>{link}<br>{}</p>",
        escape_html(&summary(lead, &submission.documents))
    ));
    out
}

/// Adds the submission to the webhook's lead: `documents` (id, file name, media type, size, SHA-256, when; no
/// bytes) and `submission_url` when there is a link.
pub fn webhook_fields(lead: &mut Value, submission: &Submission) {
    lead["documents"] = json!(
        submission
            .documents
            .iter()
            .map(|document| json!({
                "id": document.id,
                "file_name": document.file_name,
                "media_type": document.media_type,
                "size": document.size,
                "sha256": document.sha256,
                "created_at": document.created_at,
            }))
            .collect::<Vec<_>>()
    );
    if let Some(link) = &submission.link {
        lead["submission_url"] = json!(link);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Loss, Rows, Vehicle};

    #[test]
    fn the_summary_counts_each_list_and_totals_the_losses() {
        let loss = |amount| Loss {
            date: "2024-01-02".into(),
            kind: "cargo".into(),
            amount,
            description: None,
        };
        let lead = Lead {
            source: Source::Quote,
            vehicle_schedule: Some(Rows(vec![Vehicle::default(), Vehicle::default()])),
            loss_history: Some(Rows(vec![loss(12_500), loss(40_000)])),
            ..Lead::default()
        };
        assert_eq!(
            summary(&lead, &[]),
            "Vehicles 2, drivers 0, losses 2 totalling $52,500, documents 0"
        );
        assert_eq!(
            summary(&Lead::default(), &[]),
            "Vehicles 0, drivers 0, losses 0, documents 0"
        );
    }

    #[test]
    fn only_a_quote_s_news_carries_its_submission() {
        let quote = Lead {
            source: Source::Quote,
            ..Lead::default()
        };
        assert!(wanted(&quote, Kind::Details, &[]));
        assert!(wanted(&quote, Kind::Xdate, &[]));
        assert!(!wanted(&quote, Kind::Lead, &[]), "no details yet");
        let detailed = Lead {
            details_at: Some("2026-03-02T15:00:00Z".into()),
            ..quote.clone()
        };
        assert!(wanted(&detailed, Kind::Lead, &[]));
        let erased = Lead {
            erased_at: Some("2026-03-02T15:00:00Z".into()),
            ..detailed.clone()
        };
        assert!(!wanted(&erased, Kind::Details, &[]));
        let contact = Lead {
            source: Source::Contact,
            ..Lead::default()
        };
        assert!(!wanted(&contact, Kind::Details, &[]));
    }
}
