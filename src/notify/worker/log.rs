//! What the worker says of each attempt in the log.

use crate::notify::outbox::{self, Due, Update};

/// One line in the log for an attempt that did not go through (and, at info level, one that did).
pub(super) fn log(due: &Due, update: &Update) {
    let about = match &due.about {
        outbox::About::Lead(lead) => format!("lead {}", lead.id),
        outbox::About::Report(_) => "report".into(),
        outbox::About::OptOut(_) => "opt-out".into(),
        outbox::About::Status(_, lead) => format!("lead {}", lead.id),
    };
    let (channel, id) = (due.channel.as_str(), due.id);
    match update {
        Update::Sent => rocket::info!("{about}: {channel} delivery {id} sent"),
        Update::RetryAt(at, reason) => rocket::warn!(
            "{about}: {channel} delivery {id} not sent (attempt {}), next try in {:.1} s: {reason}",
            due.attempts + 1,
            (at - outbox::now_ms()) as f64 / 1000.0
        ),
        Update::Failed(reason) => rocket::error!(
            "{about}: {channel} delivery {id} FAILED for good: {reason} (truckins outbox retry {id})"
        ),
        Update::Withheld(reason) => rocket::info!("{about}: {channel} delivery {id} {reason}"),
    }
}
