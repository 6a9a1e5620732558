use super::*;

fn certificate(not_before: i64, not_after: i64) -> Pem {
    let mut params = rcgen::CertificateParams::new(vec!["example.com".to_string()]).unwrap();
    params.not_before = time::OffsetDateTime::from_unix_timestamp(not_before).unwrap();
    params.not_after = time::OffsetDateTime::from_unix_timestamp(not_after).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let certificate = params.self_signed(&key).unwrap();
    Pem {
        chain: certificate.pem(),
        key: key.serialize_pem(),
    }
}

fn tls() -> Arc<Tls> {
    Tls::new(TlsSettings {
        tls_domains: vec!["example.com".into(), "www.example.com".into()],
        ..TlsSettings::default()
    })
}

#[test]
fn the_owner_hears_of_a_certificate_near_its_end_or_failing_for_a_day_and_not_before() {
    let tls = tls();
    let now = 1_800_000_000;
    assert_eq!(
        tls.concern(now),
        None,
        "nothing yet: the first attempt is under way"
    );
    tls.failed(now, "connection refused".into(), now + 2);
    assert_eq!(tls.concern(now + 3600), None);
    let missing = tls.concern(now + DAY).unwrap();
    assert!(missing.contains("No HTTPS certificate") && missing.contains("connection refused"));
    assert_eq!(tls.health(now)["certificate"], "missing");

    tls.succeeded();
    tls.install(&certificate(now - 10 * DAY, now + 80 * DAY))
        .unwrap();
    assert_eq!(tls.concern(now), None);
    assert_eq!(tls.health(now)["certificate"], "valid");
    assert_eq!(tls.health(now)["days_left"], 80);
    tls.failed(now, "rate limited".into(), now + 60);
    assert_eq!(tls.concern(now + 3600), None);
    assert!(
        tls.concern(now + DAY)
            .unwrap()
            .contains("has failed for 24 hours")
    );
    assert!(
        tls.concern(now + 67 * DAY)
            .unwrap()
            .contains("expires in 13 days")
    );
    assert_eq!(tls.health(now + 81 * DAY)["certificate"], "expired");
}

#[test]
fn a_bad_pem_is_refused_and_the_served_certificate_stays() {
    let tls = tls();
    let now = now();
    tls.install(&certificate(now - DAY, now + DAY)).unwrap();
    let bad = Pem {
        chain: "not a certificate".into(),
        key: "nor a key".into(),
    };
    assert!(tls.install(&bad).is_err());
    assert!(tls.validity().is_some());
}
