//! `truckins notify test`: sends a test e-mail and a test webhook with the settings the server would use, and says
//! for each exactly what failed (host unreachable, TLS, authentication refused, recipient rejected, the receiver's
//! answer), so the agency can check a relay or a CRM hook before the first lead depends on it.

use super::out::say;
use clap::Subcommand;
use rocket::figment::Figment;
use truckins::config;
use truckins::notify::{mail::Mailer, webhook::Webhook};

#[derive(Subcommand)]
pub enum NotifyCommand {
    /// Send a test e-mail to notify_to and a signed test event to webhook_url, with the live settings.
    Test,
}

pub fn run(command: NotifyCommand, figment: &Figment) -> Result<(), String> {
    let NotifyCommand::Test = command;
    let settings = config::load(figment)?;
    if settings.smtp_url.is_none() && settings.webhook_url.is_none() {
        return Err(
            "no notifications are configured: set smtp_url, mail_from and notify_to for e-mail, \
             webhook_url and webhook_secret for a webhook"
                .into(),
        );
    }
    let runtime = rocket::tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut failed = Vec::new();
    // Made and dropped inside the runtime: lettre's connection pool closes its connections in a task of its own.
    runtime.block_on(async {
        if let Some(mail) = Mailer::new(&settings)? {
            report("e-mail", mail.test().await, &mut failed);
        }
        if let Some(webhook) = Webhook::new(&settings)? {
            report("webhook", webhook.test().await, &mut failed);
        }
        Ok::<(), String>(())
    })?;
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("the test failed for: {}", failed.join(", ")))
    }
}

fn report(channel: &'static str, result: Result<String, String>, failed: &mut Vec<&'static str>) {
    match result {
        Ok(what) => say!("{channel}: ok: {what}"),
        Err(why) => {
            say!("{channel}: FAILED: {why}");
            failed.push(channel);
        }
    }
}
