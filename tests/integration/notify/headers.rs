//! Visitor text in the agency's headers (issue 36; the name, also in Reply-To, cannot hold `=` or `?`): an RFC 2047 encoded word typed into the form is sent as text,
//! encoded by lettre, so a mail program (here Python's `email` package, as the SMTP server decodes each header)
//! shows the characters typed, never a decoding into a right-to-left override, a line break or a `Bcc:` line.

use super::{mailed, post, quote};

const TYPED: &str = "=?utf-8?q?=E2=80=AEdiaS_=0D=0ABcc:_victim@x.com?=";

#[test]
fn an_encoded_word_typed_by_a_visitor_reaches_the_subject_as_typed() {
    let (_dir, _database, smtp, server) = mailed("notify-headers");
    let mut body = quote("eve@example.com", "headers-1");
    body["company"] = serde_json::json!(TYPED);
    let reply = post(server.port, "/api/leads/quote", &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let mail = smtp.wait_for_mails(1).remove(0);
    let headers = mail["headers"].as_object().unwrap();
    assert!(!headers.contains_key("bcc"), "{headers:?}");
    let subject = headers["subject"].as_str().unwrap();
    for bad in ['\r', '\n', '\u{202E}'] {
        assert!(!subject.contains(bad), "{subject:?}");
    }
    // What the visitor typed, shown literally (an invisible word joiner keeps it from being an encoded word).
    assert!(
        subject.replace('\u{2060}', "").contains(TYPED),
        "{subject:?}"
    );
    // Nothing of the visitor's went into the raw header as an encoded word of theirs.
    let raw = mail["raw"].as_str().unwrap();
    let head = raw.split("\r\n\r\n").next().unwrap();
    assert!(!head.contains("=?utf-8?q?=E2"), "{head}");
}
