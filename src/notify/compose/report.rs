//! The owner's report as an e-mail (`truckins report --email`): rendered once, when it is queued (a subject with the
//! days and the totals, the report's table as the plain-text part, its self-contained HTML file as the HTML part),
//! stored with its delivery as JSON, and made into the message at each attempt, so every attempt sends the report
//! that was queued, to the addresses it was queued for.

use lettre::Message;
use lettre::message::{Mailbox, MultiPart};
use serde::{Deserialize, Serialize};

use super::{AutoSubmitted, domain};
use crate::analytics::report::Totals;
use crate::analytics::{Report, html, render};
use crate::text::thousands;

/// The report's message, as stored in `deliveries.payload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportMail {
    pub subject: String,
    pub text: String,
    pub html: String,
    /// `notify_to` when it was queued.
    pub to: Vec<String>,
}

impl ReportMail {
    pub fn new(report: &Report, to: &[String]) -> ReportMail {
        ReportMail {
            subject: subject(&report.totals),
            text: render::table(report),
            html: html::page(report),
            to: to.to_vec(),
        }
    }

    /// As stored (an empty string, which the table's CHECK refuses, only if serde could fail on strings).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `Website report: 2026-11-16 to 2026-11-22 — 1,234 visitors, 12 leads`: the figures the owner looks for first, so
/// the inbox line alone says how the week went.
pub fn subject(totals: &Totals) -> String {
    format!(
        "Website report: {} to {} \u{2014} {}, {}",
        totals.since,
        totals.until,
        counted(totals.visitors, "visitor"),
        counted(totals.leads, "lead")
    )
}

/// `1 lead`, `0 leads`, `1,234 visitors`.
fn counted(count: i64, noun: &str) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("{} {noun}{plural}", thousands(count))
}

/// The e-mail of a queued report (`payload` as [`ReportMail::to_json`] wrote it): from the agency's address, to each
/// address it was queued for, its Message-ID made of the delivery key (the same on every attempt), marked as sent by
/// a program (`Auto-Submitted`) so that no out-of-office answers it.
pub fn message(payload: &str, key: &str, from: &Mailbox) -> Result<Message, String> {
    let mail: ReportMail = serde_json::from_str(payload)
        .map_err(|e| format!("the queued report cannot be read: {e}"))?;
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(mail.subject)
        .message_id(Some(format!("<{key}@{}>", domain(from))))
        .header(AutoSubmitted);
    for to in &mail.to {
        let to: Mailbox = to
            .parse()
            .map_err(|e| format!("the report's recipient {to:?} is not an e-mail address ({e})"))?;
        builder = builder.to(to);
    }
    builder
        .multipart(MultiPart::alternative_plain_html(mail.text, mail.html))
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn totals(visitors: i64, leads: i64) -> Totals {
        Totals {
            since: "2026-11-16".into(),
            until: "2026-11-22".into(),
            visitors,
            pageviews: visitors * 3,
            leads,
            leads_by_form: BTreeMap::new(),
            conversion_rate: None,
        }
    }

    #[test]
    fn the_subject_says_the_days_and_the_totals() {
        assert_eq!(
            subject(&totals(1234, 12)),
            "Website report: 2026-11-16 to 2026-11-22 \u{2014} 1,234 visitors, 12 leads"
        );
        assert_eq!(
            subject(&totals(1, 1)),
            "Website report: 2026-11-16 to 2026-11-22 \u{2014} 1 visitor, 1 lead"
        );
    }

    #[test]
    fn the_e_mail_carries_the_speed_to_lead_and_the_funnel() {
        use crate::analytics::report::{
            CampaignFunnel, FunnelCounts, SourceFunnel, SourceSpeed, SpeedFigures,
        };
        let mut report = Report {
            totals: totals(10, 2),
            pages: Vec::new(),
            sources: Vec::new(),
            campaigns: Vec::new(),
            devices: Vec::new(),
            days: Vec::new(),
            speed: Default::default(),
            funnel: Default::default(),
        };
        let figures = SpeedFigures {
            leads: 2,
            answered: 1,
            untouched: 1,
            median_minutes: Some(30.0),
            within_5_minutes: 0,
            within_60_minutes: 1,
            within_1_business_day: 1,
            share_within_5_minutes: Some(0.0),
            share_within_60_minutes: Some(0.5),
            share_within_1_business_day: Some(0.5),
        };
        report.speed.time_zone = "America/Chicago".into();
        report.speed.business_day_minutes = 600;
        report.speed.overall = figures.clone();
        report.speed.sources.push(SourceSpeed {
            source: "tagged-source".into(),
            figures,
        });
        let counts = FunnelCounts {
            visitors: 10,
            leads: 2,
            contacted: 1,
            quoted: 1,
            won: 1,
        };
        report.funnel.sources.push(SourceFunnel {
            source: "tagged-source".into(),
            counts,
        });
        report.funnel.campaigns.push(CampaignFunnel {
            campaign: "a-campaign".into(),
            counts,
        });
        let mail = ReportMail::new(&report, &["owner@agency.example".into()]);
        for part in [&mail.text, &mail.html] {
            for words in [
                "Speed to lead",
                "America/Chicago",
                "tagged-source",
                "Funnel by source",
                "Funnel by campaign",
                "a-campaign",
                "50.0%",
            ] {
                assert!(part.contains(words), "{words} in {part}");
            }
        }
    }

    #[test]
    fn a_queued_report_becomes_its_e_mail_with_both_parts_to_each_recipient() {
        let mail = ReportMail {
            subject: subject(&totals(20, 2)),
            text: "Site report\nvisitors 20\n".into(),
            html: "<!doctype html><title>Site report</title><p>20 visitors</p>".into(),
            to: vec![
                "owner@agency.example".into(),
                "Desk <desk@agency.example>".into(),
            ],
        };
        let payload = mail.to_json();
        let from: Mailbox = "Leads <leads@agency.example>".parse().unwrap();
        let first = message(&payload, "abc", &from).unwrap();
        let raw = String::from_utf8(first.formatted()).unwrap();
        assert!(raw.contains("Message-ID: <abc@agency.example>"), "{raw}");
        assert!(raw.contains("Auto-Submitted: auto-generated"), "{raw}");
        assert!(
            raw.contains("text/plain") && raw.contains("text/html"),
            "{raw}"
        );
        assert_eq!(first.envelope().to().len(), 2);
        assert_eq!(
            first.envelope().from().map(ToString::to_string),
            Some("leads@agency.example".into())
        );
        let broken = message("{", "abc", &from).unwrap_err();
        assert!(broken.contains("cannot be read"), "{broken}");
        let mut wrong = mail.clone();
        wrong.to = vec!["not an address".into()];
        assert!(message(&wrong.to_json(), "abc", &from).is_err());
    }
}
