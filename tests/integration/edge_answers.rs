//! What hyper answers by itself carries the security headers (issue 36): a malformed request line (400), a URI
//! too long (414) and more header fields than hyper takes (431) never reach the application, and each answer has
//! every security header a page of the site has, with the same value, through the real binary.

use crate::common::process::{Http, Server, TempDir};

/// The security headers (src/security.rs) every answer of the site carries; HSTS is off in the tests.
const SECURITY_HEADERS: [&str; 7] = [
    "content-security-policy",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "permissions-policy",
    "cross-origin-opener-policy",
    "cross-origin-resource-policy",
];

#[test]
fn hyper_s_own_400_414_and_431_carry_the_security_headers() {
    let dir = TempDir::new("edge-answers");
    let database = dir.path().join("leads.db");
    let server = Server::start(
        dir.path(),
        "edge-answers",
        &["--database", database.to_str().unwrap()],
    );
    let page = server.http().get("/", &[]).unwrap();
    assert_eq!(page.status, 200);

    let too_many_fields: String = (0..200).map(|n| format!("X-Field-{n}: a\r\n")).collect();
    let cases = [
        (
            "a malformed request line",
            b"NOT HTTP AT ALL\r\n\r\n".to_vec(),
            400,
        ),
        (
            "a malformed header",
            b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n".to_vec(),
            400,
        ),
        (
            "an over-long URI",
            format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000)).into_bytes(),
            414,
        ),
        (
            "too many header fields",
            format!("GET / HTTP/1.1\r\nHost: x\r\n{too_many_fields}\r\n").into_bytes(),
            431,
        ),
    ];
    for (what, request, status) in cases {
        let reply = Http::connect(server.port)
            .unwrap()
            .send_raw(&request)
            .unwrap_or_else(|e| panic!("{what}: no answer: {e}"));
        assert_eq!(reply.status, status, "{what}: {:?}", reply.headers);
        for name in SECURITY_HEADERS {
            assert_eq!(
                reply.header(name),
                page.header(name),
                "{what}: {name} in {:?}",
                reply.headers
            );
        }
        assert!(reply.closes(), "{what}: the connection is closed after it");
        assert!(reply.body.is_empty(), "{what}");
    }

    // After a good request on the same connection (hyper's answer then follows ours in the stream). The malformed
    // request is sent only once our whole answer has been read: hyper has written all of it by then, so its 400 is
    // a write of its own, as on a connection of a real client, whatever hyper does with writes that it could join.
    let mut http = Http::connect(server.port).unwrap();
    http.write_raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(http.read_reply().unwrap().status, 200);
    http.write_raw(b"NOT HTTP\r\n\r\n").unwrap();
    let after = http.read_reply().unwrap();
    assert_eq!(after.status, 400);
    for name in SECURITY_HEADERS {
        assert_eq!(after.header(name), page.header(name), "{name}");
    }
    drop(server);
}
