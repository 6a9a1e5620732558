//! Obtaining and renewing the certificate, in the background: the server never waits for the CA. A stored
//! certificate still valid is served at once and not ordered again before two thirds of its life (so a restart,
//! a restore or a new machine costs Let's Encrypt nothing); a failed attempt is tried again after a growing wait
//! (2 s, doubling, at most an hour: within Let's Encrypt's five failed validations per name an hour once the
//! first hour is past). Each attempt answers HTTP-01 and TLS-ALPN-01, the names of the order sharing them out by
//! turns (an attempt that failed with one type tries the other next), so either port being reachable suffices.
//! Where the CA publishes renewal information (ARI, RFC 9773; Let's Encrypt does), it is asked when it would have
//! the certificate renewed, as often as it says (between an hour and a day): a window it moves earlier (a
//! revocation coming, say) is followed, and the new order names the certificate it replaces.

use std::sync::Arc;
use std::time::Duration;

use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, CertificateIdentifier, ChallengeType,
    Identifier, NewAccount, NewOrder, OrderStatus, RetryPolicy,
};
use rocket::tokio;
use rustls::pki_types::Der;

use super::client::AcmeHttp;
use super::der::Validity;
use super::{Pem, Tls, now, store};
use crate::store::DbPool;

/// The first wait after a failure; each later one doubles.
const FIRST_RETRY: i64 = 2;
/// The longest wait between attempts.
const LONGEST_RETRY: i64 = 3600;
/// How long the ACME server may take to validate the challenges and to issue.
const VALIDATION: Duration = Duration::from_secs(90);

/// How long after a failed or impossible look at the CA's renewal information the next one is (seconds).
const ARI_AGAIN: i64 = 6 * 3600;
/// The most and least the CA's own hint for the next look is followed.
const ARI_HINT: (u64, u64) = (3600, 86_400);

/// What the CA's renewal information said, and when to ask it again.
#[derive(Default)]
struct Ari {
    check_at: i64,
    /// The served certificate, as the new order names the one it replaces (only when the CA has ARI).
    replaces: Option<CertificateIdentifier<'static>>,
}

/// The moment in ARI's suggested window `[start, end]` this certificate is renewed at: a point spread by the
/// certificate's serial number (the same at each look while the window stays, as RFC 9773 asks of a random one).
pub fn ari_moment(start: i64, end: i64, serial: &[u8]) -> i64 {
    let spread = serial.iter().fold(0u64, |hash, &byte| {
        hash.wrapping_mul(31).wrapping_add(u64::from(byte))
    });
    let length = (end - start).max(0) as u64;
    start + (spread % (length + 1)) as i64
}

/// When a certificate is renewed: two thirds into its life (day 60 of Let's Encrypt's 90, day 4 of a 6-day one).
pub fn renew_at(validity: Validity) -> i64 {
    validity.not_before + (validity.not_after - validity.not_before) * 2 / 3
}

/// The wait before attempt `failures + 1`.
pub fn retry_wait(failures: u32) -> i64 {
    let doublings = failures.saturating_sub(1).min(20);
    (FIRST_RETRY << doublings).min(LONGEST_RETRY)
}

/// Installs the stored certificate when it is still valid (before any port is served), then keeps the certificate
/// valid in a task of its own.
pub fn start(tls: Arc<Tls>, pool: DbPool) {
    let settings = &tls.settings;
    match store::stored_certificate(&pool, &settings.acme_directory, &settings.tls_domains) {
        Ok(Some((pem, validity))) if validity.not_after > now() => {
            if let Err(why) = tls.install(&pem) {
                rocket::warn!("the stored certificate is not served: {why}");
            }
        }
        Ok(_) => {}
        Err(why) => rocket::warn!("{why}"),
    }
    tokio::spawn(keep_valid(tls, pool));
}

async fn keep_valid(tls: Arc<Tls>, pool: DbPool) {
    let http = match AcmeHttp::new(&tls.settings) {
        Ok(http) => http,
        Err(why) => {
            // The settings were checked at start; a CA file that became unreadable since is said, not retried.
            tls.failed(now(), why.clone(), i64::MAX);
            rocket::error!("no certificate can be obtained: {why}");
            return;
        }
    };
    let mut failures: u32 = 0;
    let mut ari = Ari::default();
    loop {
        if tls.validity().is_some() && now() >= ari.check_at {
            ari = renewal_info(&tls, &pool, &http).await;
        }
        let due = tls.renew_at().unwrap_or(0);
        let wait = due - now();
        if wait > 0 {
            // At most a day at a time (a clock that jumps, a VPS resumed, is caught up with), and no later than
            // the next look at the renewal information.
            let wake = wait.min(86_400).min((ari.check_at - now()).max(1));
            tokio::time::sleep(Duration::from_secs(wake as u64)).await;
            continue;
        }
        let attempt = obtain(&tls, &pool, &http, failures, ari.replaces.take()).await;
        tls.withdraw_challenges();
        match attempt {
            Ok(validity) => {
                failures = 0;
                ari = Ari::default();
                tls.succeeded();
                println!(
                    "certificate obtained for {} (valid until {}, renewed after {})",
                    tls.settings.tls_domains.join(", "),
                    super::der::date(validity.not_after),
                    super::der::date(renew_at(validity))
                );
            }
            Err(why) => {
                failures = failures.saturating_add(1);
                let wait = retry_wait(failures);
                tls.failed(now(), why.clone(), now() + wait);
                eprintln!(
                    "truckins: the certificate for {} could not be obtained (attempt {failures}, next in {wait} s): {why}",
                    tls.settings.tls_domains.join(", ")
                );
                tokio::time::sleep(Duration::from_secs(wait as u64)).await;
            }
        }
    }
}

/// The CA's renewal information about the served certificate: its suggested moment kept in [`Tls`] (renewal
/// comes then if that is before two thirds of the life). A CA without ARI, a certificate without an authority key
/// identifier, or a CA that cannot be reached: renewal stays at two thirds, and it is asked again later.
async fn renewal_info(tls: &Tls, pool: &DbPool, http: &AcmeHttp) -> Ari {
    let later = |seconds: i64| Ari {
        check_at: now() + seconds,
        replaces: None,
    };
    let Some((key_id, serial)) = tls.leaf().and_then(|leaf| super::der::ari_parts(&leaf)) else {
        return later(86_400);
    };
    let identifier =
        CertificateIdentifier::new(Der::from_slice(&key_id), Der::from_slice(&serial)).into_owned();
    let account = match account(tls, pool, http).await {
        Ok(account) => account,
        Err(_) => return later(ARI_AGAIN),
    };
    match account.renewal_info(&identifier).await {
        Ok((info, hint)) => {
            let window = info.suggested_window;
            let at = ari_moment(
                window.start.unix_timestamp(),
                window.end.unix_timestamp(),
                &serial,
            );
            tls.set_ari_renew_at(Some(at));
            Ari {
                check_at: now() + hint.as_secs().clamp(ARI_HINT.0, ARI_HINT.1) as i64,
                replaces: Some(identifier),
            }
        }
        Err(instant_acme::Error::Unsupported(_)) => later(86_400),
        Err(error) => {
            rocket::warn!("the CA's renewal information could not be read: {error}");
            later(ARI_AGAIN)
        }
    }
}

/// The account of this directory: the stored one, or a new one (stored at once, so it is made only once).
async fn account(tls: &Tls, pool: &DbPool, http: &AcmeHttp) -> Result<Account, String> {
    let directory = &tls.settings.acme_directory;
    let stored = {
        let (pool, directory) = (pool.clone(), directory.clone());
        tokio::task::spawn_blocking(move || store::stored_account(&pool, &directory))
            .await
            .map_err(|e| e.to_string())??
    };
    if let Some(json) = stored {
        let credentials: AccountCredentials = serde_json::from_str(&json)
            .map_err(|e| format!("the stored ACME account cannot be read: {e}"))?;
        return Account::builder_with_http(Box::new(http.clone()))
            .from_credentials(credentials)
            .await
            .map_err(|e| format!("ACME directory {directory}: {e}"));
    }
    let contact = tls
        .settings
        .acme_email
        .as_ref()
        .map(|email| format!("mailto:{email}"));
    let contacts: Vec<&str> = contact.iter().map(String::as_str).collect();
    let (account, credentials) = Account::builder_with_http(Box::new(http.clone()))
        .create(
            &NewAccount {
                contact: &contacts,
                terms_of_service_agreed: true,
                only_return_existing: false,
            },
            directory.clone(),
            None,
        )
        .await
        .map_err(|e| format!("ACME account at {directory}: {e}"))?;
    let json = serde_json::to_string(&credentials).map_err(|e| e.to_string())?;
    let (pool, directory) = (pool.clone(), directory.clone());
    tokio::task::spawn_blocking(move || store::save_account(&pool, &directory, &json))
        .await
        .map_err(|e| e.to_string())??;
    Ok(account)
}

/// One attempt: an order for every name, its challenges answered, the certificate issued, stored and served.
async fn obtain(
    tls: &Arc<Tls>,
    pool: &DbPool,
    http: &AcmeHttp,
    failures: u32,
    replaces: Option<CertificateIdentifier<'static>>,
) -> Result<Validity, String> {
    let account = account(tls, pool, http).await?;
    let domains = tls.settings.tls_domains.clone();
    let identifiers: Vec<Identifier> = domains.iter().cloned().map(Identifier::Dns).collect();
    let acme = |e: instant_acme::Error| format!("ACME: {e}");
    // A renewal names the certificate it replaces where the CA has ARI (only on the first attempt: a CA that
    // refuses it, the certificate being replaced already, gets a plain order next time).
    let new_order = match replaces {
        Some(replaces) => NewOrder::new(&identifiers).replaces(replaces),
        None => NewOrder::new(&identifiers),
    };
    let mut order = account.new_order(&new_order).await.map_err(acme)?;
    let mut authorizations = order.authorizations();
    let mut index = 0usize;
    while let Some(authorization) = authorizations.next().await {
        let mut authorization = authorization.map_err(acme)?;
        match authorization.status {
            AuthorizationStatus::Pending => {}
            AuthorizationStatus::Valid => continue,
            other => return Err(format!("ACME: an authorization is {other:?}")),
        }
        let name = authorization.identifier().to_string();
        let http01_first = (index + failures as usize).is_multiple_of(2);
        index += 1;
        let types = if http01_first {
            [ChallengeType::Http01, ChallengeType::TlsAlpn01]
        } else {
            [ChallengeType::TlsAlpn01, ChallengeType::Http01]
        };
        let chosen = types
            .into_iter()
            .find(|kind| authorization.challenges.iter().any(|c| c.r#type == *kind))
            .ok_or_else(|| format!("ACME offers neither HTTP-01 nor TLS-ALPN-01 for {name}"))?;
        let mut challenge = authorization
            .challenge(chosen.clone())
            .ok_or_else(|| format!("ACME: no {chosen:?} challenge for {name}"))?;
        let key_authorization = challenge.key_authorization();
        if chosen == ChallengeType::Http01 {
            tls.offer_http01(
                challenge.token.clone(),
                key_authorization.as_str().to_string(),
            );
        } else {
            tls.offer_alpn01(
                name.to_ascii_lowercase(),
                alpn_certificate(&name, key_authorization.digest().as_ref())?,
            );
        }
        challenge.set_ready().await.map_err(acme)?;
    }
    let retries = RetryPolicy::new()
        .initial_delay(Duration::from_millis(250))
        .backoff(1.5)
        .timeout(VALIDATION);
    let status = order.poll_ready(&retries).await.map_err(acme)?;
    if status != OrderStatus::Ready {
        return Err(format!(
            "ACME: the order is {status:?}: the challenges were not validated"
        ));
    }
    let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
    let mut params = rcgen::CertificateParams::new(domains.clone()).map_err(|e| e.to_string())?;
    params.distinguished_name = rcgen::DistinguishedName::new();
    let csr = params.serialize_request(&key).map_err(|e| e.to_string())?;
    order.finalize_csr(csr.der()).await.map_err(acme)?;
    let chain = order.poll_certificate(&retries).await.map_err(acme)?;
    let pem = Pem {
        chain,
        key: key.serialize_pem(),
    };
    let (_, validity) = pem.certified()?;
    let directory = tls.settings.acme_directory.clone();
    {
        let (pool, pem) = (pool.clone(), pem.clone());
        tokio::task::spawn_blocking(move || {
            store::save_certificate(&pool, &directory, &domains, &pem, validity)
        })
        .await
        .map_err(|e| e.to_string())??;
    }
    tls.install(&pem)
}

/// TLS-ALPN-01's self-signed certificate for `name`, carrying the key authorization's digest (RFC 8737).
fn alpn_certificate(name: &str, digest: &[u8]) -> Result<Arc<rustls::sign::CertifiedKey>, String> {
    let mut params =
        rcgen::CertificateParams::new(vec![name.to_string()]).map_err(|e| e.to_string())?;
    params.custom_extensions = vec![rcgen::CustomExtension::new_acme_identifier(digest)];
    let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
    let certificate = params.self_signed(&key).map_err(|e| e.to_string())?;
    let pem = Pem {
        chain: certificate.pem(),
        key: key.serialize_pem(),
    };
    Ok(pem.certified()?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renewal_comes_two_thirds_into_the_life_and_retries_grow_to_an_hour() {
        let validity = Validity {
            not_before: 0,
            not_after: 90 * 86_400,
        };
        assert_eq!(renew_at(validity), 60 * 86_400);
        assert_eq!(retry_wait(1), 2);
        assert_eq!(retry_wait(2), 4);
        assert_eq!(retry_wait(6), 64);
        assert_eq!(retry_wait(40), 3600);
    }

    #[test]
    fn the_moment_in_the_window_is_within_it_and_the_same_at_each_look() {
        let (start, end) = (1_800_000_000, 1_800_000_000 + 2 * 86_400);
        let first = ari_moment(start, end, &[0x04, 0x51, 0x9f]);
        assert!((start..=end).contains(&first));
        assert_eq!(ari_moment(start, end, &[0x04, 0x51, 0x9f]), first);
        assert_ne!(ari_moment(start, end, &[0x04, 0x51, 0xa0]), first);
        assert_eq!(ari_moment(start, start, &[9]), start);
        assert_eq!(
            ari_moment(end, start, &[9]),
            end,
            "a window backwards is its start"
        );
    }
}
