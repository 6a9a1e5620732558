//! The webhook's JSON: a lead's news (`lead`, `details`, `lead.xdate`, the `test` event) with the lead's every stored
//! field (its schedules among them) and standing, a quote's documents and submission link; a status change's.

use serde_json::json;

use super::{Submission, submission, type_label};
use crate::consent::Standing;
use crate::store::Lead;

/// The webhook's body: the event (`lead`, `details` when a quote's details were added, `test`), the delivery's key
/// and the lead with every stored field (`suspected_spam` and the schedules among them), and its standing
/// (`do_not_contact`, `opted_out_before`: src/consent).
/// A status change is [`status_webhook_body`].
pub fn webhook_body(event: &str, key: &str, lead: Option<&Lead>, standing: &Standing) -> Vec<u8> {
    lead_webhook_body(event, key, lead, standing, None)
}

/// [`webhook_body`], with a quote's submission in the lead: its `documents` (names, sizes, SHA-256) and its
/// `submission_url`. An x-date (`lead.xdate`) also says the `policy_expiration` it is about, at the top.
pub fn lead_webhook_body(
    event: &str,
    key: &str,
    lead: Option<&Lead>,
    standing: &Standing,
    news: Option<&Submission>,
) -> Vec<u8> {
    let mut value = json!({ "event": event, "delivery": key });
    if let Some(lead) = lead {
        value["lead"] = json!(lead);
        value["lead"]["insurance_type_label"] =
            json!(lead.insurance_type.as_deref().map(type_label));
        value["lead"]["do_not_contact"] = json!(standing.do_not_contact);
        value["lead"]["opted_out_before"] = json!(standing.opted_out_before);
        if let Some(news) = news {
            submission::webhook_fields(&mut value["lead"], news);
        }
        if event == super::Kind::Xdate.event() {
            value["policy_expiration"] = json!(lead.policy_expiration);
        }
    }
    value.to_string().into_bytes()
}

/// The webhook's body of a status change: event `lead.status`, the delivery's key, the change (`lead_id`, `from`,
/// `to`, `changed_at`, `via`) and the lead as it is now, as in [`webhook_body`].
pub fn status_webhook_body(payload: &str, key: &str, lead: &Lead, standing: &Standing) -> Vec<u8> {
    let mut value: serde_json::Value = serde_json::from_str(payload).unwrap_or_else(|_| json!({}));
    let lead_body: serde_json::Value =
        serde_json::from_slice(&webhook_body("lead.status", key, Some(lead), standing))
            .unwrap_or_default();
    value["event"] = json!("lead.status");
    value["delivery"] = json!(key);
    value["lead"] = lead_body["lead"].clone();
    value.to_string().into_bytes()
}
