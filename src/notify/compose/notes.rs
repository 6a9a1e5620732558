//! What the agency's e-mail says before the lead's fields, and `truckins leads show` under its title: whether the
//! lead may be contacted (its standing, src/consent) and whether it is suspected spam (issue 36: sent faster than a
//! person types, kept rather than dropped, src/leads/pipeline.rs), with the subject's mark for the latter.

use crate::consent::Standing;
use crate::store::Lead;

/// What the agency's e-mail about a suspected-spam lead starts its subject with, before anything else (a claim's
/// urgency, `[ES] `), so that one inbox rule can set such leads aside.
pub const SUSPECTED_SPAM: &str = "[Suspected spam] ";

/// `subject` as the agency's e-mail about `lead` shows it: marked when the lead is suspected spam.
pub fn marked(lead: &Lead, subject: String) -> String {
    if lead.suspected_spam {
        format!("{SUSPECTED_SPAM}{subject}")
    } else {
        subject
    }
}

/// What the revocations say of the lead (src/consent), first in the agency's e-mail: whether it may be contacted.
pub fn standing_note(standing: &Standing) -> Option<String> {
    match (&standing.do_not_contact, &standing.opted_out_before) {
        (Some(at), _) => Some(format!(
            "DO NOT CONTACT: this phone number or e-mail address opted out on {at}, after this request's consent."
        )),
        (None, Some(at)) => Some(format!(
            "History: this phone number or e-mail address opted out on {at}; this request's consent is newer."
        )),
        (None, None) => None,
    }
}

/// Why a suspected-spam lead is suspect, and what was not done because of it; `None` for any other lead.
pub fn suspected_spam_note(lead: &Lead) -> Option<&'static str> {
    lead.suspected_spam.then_some(
        "SUSPECTED SPAM: this form was sent faster than a person types, as a program sends it (or a browser that \
         filled it in). It was kept so that no person is lost; no confirmation was sent to the address it gives.",
    )
}

/// Every note about `lead`, in the order the agency reads them: first what it must not do, then what to doubt.
pub fn notes(lead: &Lead, standing: &Standing) -> Vec<String> {
    standing_note(standing)
        .into_iter()
        .chain(suspected_spam_note(lead).map(str::to_string))
        .collect()
}
