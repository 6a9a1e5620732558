//! Lead notifications: every accepted lead reaches the agency (an e-mail, a signed webhook) and, if wanted, the
//! visitor gets a confirmation, even when the mail relay or the CRM is down for a while.
//!
//! A lead's deliveries (one row per channel) are written by [`Outbox::enqueue`] in the lead's own transaction, so a
//! lead that was answered 201 always has them; [`worker`] sends them from the server process, first at once (woken
//! through the [`Outbox`]), then with growing, jittered waits for at least 24 h, and picks up whatever was pending
//! after any restart (at least once: a delivery's `key` stays the same so a receiver can drop a repeat).
//! The owner's report (`truckins report --email`) is queued in the same table as a delivery of kind `report` with
//! its message stored, and sent by the worker's e-mail lane like any other.
//! [`outbox`] is the table's SQL, [`mail`] the SMTP side (lettre) with the messages' words in [`compose`],
//! [`webhook`] the signed JSON POST, [`endpoints`] the relay's and the webhook's addresses read, [`settings`] the
//! checks and the start-up description of the settings.

pub mod compose;
pub mod first_copy;
pub mod mail;
pub mod outbox;
pub mod webhook;
pub mod worker;

use std::sync::Arc;

use rocket::tokio::sync::Notify;

use crate::config::Settings;
use crate::store::Source;
pub use worker::Worker;

/// Where a delivery goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The agency's e-mail about the lead, to `notify_to`.
    Email,
    /// The JSON POST to `webhook_url`.
    Webhook,
    /// The visitor's confirmation (`autoreply`).
    Autoreply,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Email, Channel::Webhook, Channel::Autoreply];

    /// As stored in `deliveries.channel`.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Webhook => "webhook",
            Channel::Autoreply => "autoreply",
        }
    }

    pub fn parse(text: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.as_str() == text)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What a delivery is about (`deliveries.kind`, migration 0007).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The lead itself, as it was submitted.
    Lead,
    /// The operation's details added to a quote later (`POST /api/leads/details`); never sent to the visitor.
    Details,
    /// The owner's report (`truckins report --email`): about no lead, its message stored with the delivery
    /// (migration 0008), sent by e-mail only.
    Report,
    /// A revocation of consent (src/consent): the agency's e-mail and webhook, about no lead, the revocation and the
    /// leads it named stored as the payload (migration 0011).
    OptOut,
    /// A lead's status changed (src/status): the webhook's `lead.status` event, the change stored as the payload
    /// (migration 0012).
    Status,
    /// A lead still `new` after `remind_after_minutes` of business hours: one more e-mail to the agency, with the
    /// same status links (migration 0012: at most one per lead).
    Reminder,
    /// A quote not won whose policy expires within `xdate_lead_days` (src/status/xdates.rs): the agency's e-mail to
    /// re-quote it, with the submission's link, and the webhook's `lead.xdate` event (migration 0017: one per lead
    /// and expiration, held by `leads.xdate_sent_for`).
    Xdate,
}

impl Kind {
    const ALL: [Kind; 7] = [
        Kind::Lead,
        Kind::Details,
        Kind::Report,
        Kind::OptOut,
        Kind::Status,
        Kind::Reminder,
        Kind::Xdate,
    ];

    /// As stored in `deliveries.kind`, and the webhook's `event`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Lead => "lead",
            Kind::Details => "details",
            Kind::Report => "report",
            Kind::OptOut => "opt_out",
            Kind::Status => "status",
            Kind::Reminder => "reminder",
            Kind::Xdate => "xdate",
        }
    }

    /// The webhook's `event` for news of this kind: the stored kind, but `lead.xdate` for an x-date (as a status
    /// change is `lead.status`), the names the webhook documents.
    pub fn event(self) -> &'static str {
        match self {
            Kind::Xdate => "lead.xdate",
            kind => kind.as_str(),
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// How long the agency's news of a document waits for the visit's other files (each is posted as it is chosen).
pub const DOCUMENTS_SETTLE_MS: i64 = 60_000;

/// What the lead pipeline needs of notifications: which deliveries a new lead gets, and a way to wake the worker
/// once they are committed. Cheap to clone; the worker holds the same wake-ups.
#[derive(Clone)]
pub struct Outbox {
    /// The channels whose lanes run: the confirmation's whenever e-mail is on, since a client's claim or change is
    /// confirmed whatever `autoreply` says.
    channels: Vec<Channel>,
    /// `autoreply`: whether the prospects' leads (quote, contact, certificate) get a confirmation too.
    autoreply: bool,
    wake: Arc<[Notify; 3]>,
    /// Leads whose deliveries were committed since the start: the worker tells a flood from it.
    committed: Arc<std::sync::atomic::AtomicU64>,
    /// The leads whose answers wait for their first copy off the machine by the agency's channels.
    first_copies: Arc<first_copy::FirstCopies>,
    /// How long the news of a document waits for the visit's other files: [`DOCUMENTS_SETTLE_MS`], half a second
    /// under the tests' clock.
    documents_settle_ms: i64,
}

impl Outbox {
    /// The channels the settings turn on (none: leads are only stored).
    pub fn new(settings: &Settings) -> Outbox {
        let mut channels = Vec::new();
        if settings.smtp_url.is_some() {
            channels.push(Channel::Email);
            channels.push(Channel::Autoreply);
        }
        if settings.webhook_url.is_some() {
            channels.push(Channel::Webhook);
        }
        Outbox {
            channels,
            autoreply: settings.autoreply,
            wake: Arc::new([Notify::new(), Notify::new(), Notify::new()]),
            committed: Arc::default(),
            first_copies: Arc::default(),
            documents_settle_ms: if settings.test_clock.is_some() {
                500
            } else {
                DOCUMENTS_SETTLE_MS
            },
        }
    }

    /// Whether any channel is on.
    pub fn is_active(&self) -> bool {
        !self.channels.is_empty()
    }

    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// Writes the deliveries of the new lead `lead_id` (of `source`) inside its transaction (see
    /// [`outbox::enqueue`]). A client's claim or change request is confirmed to them whenever they gave an address
    /// and e-mail is on: it is service they expect, not marketing, so `autoreply` does not turn it off (the
    /// anti-flood limit still applies); the prospects' leads only with `autoreply`. A claim's news to the agency is
    /// urgent: it goes ahead of every delivery waiting. A `suspected_spam` lead (sent faster than a person types,
    /// src/leads/pipeline.rs) gets no confirmation: a program must not be able to make the form mail an address it
    /// typed; the agency is told as of any lead, and its e-mail says why the lead is suspect.
    pub fn enqueue(
        &self,
        transaction: &rusqlite::Transaction<'_>,
        lead_id: i64,
        source: Source,
        visitor_email: &str,
        suspected_spam: bool,
    ) -> rusqlite::Result<()> {
        let service = matches!(source, Source::Claim | Source::Change);
        let confirm =
            (self.autoreply || service) && !suspected_spam && !visitor_email.trim().is_empty();
        let channels: Vec<Channel> = self
            .channels
            .iter()
            .copied()
            .filter(|&channel| channel != Channel::Autoreply || confirm)
            .collect();
        // A suspected-spam claim is still sent, but in its turn: a program must not be able to jump the queue.
        let urgent = source == Source::Claim && !suspected_spam;
        outbox::enqueue(transaction, lead_id, &channels, visitor_email, urgent)
    }

    /// Writes the agency's notifications of details added to lead `lead_id`, inside the transaction that stores them
    /// (see [`outbox::enqueue_details`]).
    pub fn enqueue_details(
        &self,
        transaction: &rusqlite::Transaction<'_>,
        lead_id: i64,
    ) -> rusqlite::Result<()> {
        outbox::enqueue_details(transaction, lead_id, &self.channels, 0)
    }

    /// The agency's news of a document added to a quote: its details' e-mail and webhook (which list the documents),
    /// [`DOCUMENTS_SETTLE_MS`] from now, so that the files of one visit make one message.
    pub fn enqueue_document(
        &self,
        transaction: &rusqlite::Transaction<'_>,
        lead_id: i64,
    ) -> rusqlite::Result<()> {
        outbox::enqueue_details(
            transaction,
            lead_id,
            &self.channels,
            self.documents_settle_ms,
        )
    }

    /// Tells the worker that deliveries were committed: the first attempt goes out now, not at its next poll.
    pub fn wake(&self) {
        self.committed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        for channel in &self.channels {
            // A permit is kept if the channel's loop is busy, so a wake-up is never lost.
            self.wake[channel.index()].notify_one();
        }
    }

    /// The first copies of leads by the agency's channels (`first_copy`), when any of them is on: `None` without
    /// e-mail or webhook to the agency.
    pub fn first_copies(&self) -> Option<&Arc<first_copy::FirstCopies>> {
        self.channels
            .iter()
            .any(|channel| matches!(channel, Channel::Email | Channel::Webhook))
            .then_some(&self.first_copies)
    }

    /// Wakes every lane for news that is not a lead (an alert, say): not counted as a lead, so no flood is seen.
    pub fn wake_news(&self) {
        for channel in &self.channels {
            self.wake[channel.index()].notify_one();
        }
    }

    /// Leads committed with deliveries since the start.
    pub(crate) fn committed(&self) -> u64 {
        self.committed.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn waker(&self, channel: Channel) -> &Notify {
        &self.wake[channel.index()]
    }
}
