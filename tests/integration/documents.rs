//! A quote's documents (issue 39): `POST /api/leads/documents` through the real binary, multipart bodies written by
//! hand. A PDF, a JPEG and a PNG are kept byte for byte; a program named `x.pdf`, a ZIP and an empty file are not, a
//! file over 10 MiB is refused (before its body when its length says so, and when it arrives), and the server keeps
//! serving; unknown and day-old tokens are 404 and 410, the 11th document of a quote 422; a plain form post gets the
//! details page with what arrived on top. `leads forget` leaves none of a document's bytes, nor the schedules', in
//! the database file or its WAL; uploads per address are limited.

use std::io::Write;
use std::path::Path;
use std::thread;

use serde_json::json;

use crate::common::process::{Http, Reply, TempDir};
use crate::consent::files_holding;
use crate::notify::support::wait_until;
use crate::notify::{cli, post, quote, serve};

const DOCUMENTS: &str = "/api/leads/documents";
const BOUNDARY: &str = "----truckins-test-7MA4YWxkTrZu0gW";
const MIB: usize = 1024 * 1024;

/// A small PDF a reader opens: one blank page, `title` in its information dictionary, the cross-reference table's
/// offsets counted.
fn pdf(title: &str) -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>".to_string(),
        format!("<< /Title ({title}) /Producer (truckins tests) >>"),
    ];
    let mut bytes = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::new();
    for (n, object) in objects.iter().enumerate() {
        offsets.push(bytes.len());
        bytes.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", n + 1).as_bytes());
    }
    let xref = bytes.len();
    bytes.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        bytes.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    bytes.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    bytes
}

/// A `multipart/form-data` body: the text fields, then the file part (its name, stated type and bytes) if any.
fn multipart(fields: &[(&str, &str)], file: Option<(&str, &str, &[u8])>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        )
        .unwrap();
    }
    if let Some((file_name, content_type, bytes)) = file {
        write!(
            body,
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\n\
             Content-Type: {content_type}\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{BOUNDARY}--\r\n").unwrap();
    body
}

/// Posts `body` as multipart, asking for `accept` (a program's JSON, or a browser's page).
fn send(port: u16, body: &[u8], accept: &str) -> Reply {
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    Http::connect(port)
        .unwrap()
        .send(
            "POST",
            DOCUMENTS,
            &[("Content-Type", &content_type), ("Accept", accept)],
            Some(body),
        )
        .expect("an answer")
}

/// A program's upload of one file with `token`.
pub(super) fn upload(
    port: u16,
    token: &str,
    name: &str,
    content_type: &str,
    bytes: &[u8],
) -> Reply {
    let body = multipart(
        &[("details_token", token)],
        Some((name, content_type, bytes)),
    );
    send(port, &body, "application/json")
}

/// A quote posted: its id and details token.
fn quoted(port: u16, email: &str, submission: &str) -> (i64, String) {
    let reply = post(port, "/api/leads/quote", &quote(email, submission));
    assert_eq!(reply.status, 201, "{}", reply.text());
    let body = reply.json();
    (
        body["id"].as_i64().unwrap(),
        body["details_token"].as_str().unwrap().to_string(),
    )
}

/// Lead `lead`'s documents as stored: (name, media type, bytes), oldest first.
fn stored(database: &Path, lead: i64) -> Vec<(String, String, Vec<u8>)> {
    let connection = rusqlite::Connection::open(database).unwrap();
    let mut statement = connection
        .prepare("SELECT file_name, media_type, bytes FROM lead_documents WHERE lead_id = ?1 ORDER BY id")
        .unwrap();
    statement
        .query_map([lead], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn set_clock(clock: &Path, time: &str) {
    let partial = clock.with_extension("partial");
    std::fs::write(&partial, time).unwrap();
    std::fs::rename(&partial, clock).unwrap();
}

/// Sends a request head and then `length` bytes of body (as one piece, or chunked without a length) from another
/// thread, and reads the answer meanwhile: the server may answer before taking all of it.
fn send_large(port: u16, length: usize, chunked: bool) -> Reply {
    let mut http = Http::connect(port).unwrap();
    let mut writer = http.try_clone_writer();
    let head = format!(
        "POST {DOCUMENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n{}\r\n",
        if chunked {
            "Transfer-Encoding: chunked\r\n".to_string()
        } else {
            format!("Content-Length: {length}\r\n")
        }
    );
    let sender = thread::spawn(move || {
        writer.write_all(head.as_bytes())?;
        let piece = vec![b'A'; 64 * 1024];
        let mut sent = 0;
        while sent < length {
            let n = piece.len().min(length - sent);
            if chunked {
                write!(writer, "{n:x}\r\n")?;
                writer.write_all(&piece[..n])?;
                writer.write_all(b"\r\n")?;
            } else {
                writer.write_all(&piece[..n])?;
            }
            sent += n;
        }
        if chunked {
            writer.write_all(b"0\r\n\r\n")?;
        }
        Ok::<_, std::io::Error>(())
    });
    let reply = http
        .read_reply()
        .expect("an answer before or after the body");
    // The server stops reading: the rest of the body may be refused by a closed connection.
    let _ = sender.join();
    reply
}

#[test]
fn documents_are_judged_by_their_bytes_and_limited_by_count_size_and_token() {
    let dir = TempDir::new("documents");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    set_clock(&clock, "2026-03-02T12:00:00Z");
    let env = [("TRUCKINS_TEST_CLOCK", clock.to_str().unwrap().to_string())];
    let server = serve(&database, "documents", &env, &[]);
    let port = server.port;
    let (first, token) = quoted(port, "fleet@documents.example", "documents-1");
    let (second, second_token) = quoted(port, "other@documents.example", "documents-2");

    // A PDF, named with the path some browsers send: 201, its bytes as they came.
    let loss_runs = pdf("Loss runs 2021-2025");
    let reply = upload(
        port,
        &token,
        "C:\\scans\\loss runs 2025.pdf",
        "application/pdf",
        &loss_runs,
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let body = reply.json();
    assert!(body["id"].as_i64().unwrap() > 0);
    assert_eq!(body["file_name"], "loss runs 2025.pdf");
    assert_eq!(body["size"], loss_runs.len());
    assert_eq!(body["media_type"], "application/pdf");
    // A JPEG and a PNG, whatever they are called and said to be.
    let jpeg =
        b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9".to_vec();
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00".to_vec();
    let reply = upload(
        port,
        &token,
        "truck.jpeg",
        "application/octet-stream",
        &jpeg,
    );
    assert_eq!(reply.json()["media_type"], "image/jpeg", "{}", reply.text());
    let reply = upload(port, &token, "declarations.pdf", "application/pdf", &png);
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(
        reply.json()["file_name"],
        "declarations.pdf.png",
        "opens as what it is"
    );
    assert_eq!(
        stored(&database, first),
        vec![
            (
                "loss runs 2025.pdf".to_string(),
                "application/pdf".to_string(),
                loss_runs.clone()
            ),
            ("truck.jpeg".to_string(), "image/jpeg".to_string(), jpeg),
            (
                "declarations.pdf.png".to_string(),
                "image/png".to_string(),
                png.clone()
            ),
        ]
    );

    // A program named like a PDF and stated as one, a ZIP: 415, in the language the post names.
    let program =
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00".to_vec();
    let reply = upload(port, &token, "x.pdf", "application/pdf", &program);
    assert_eq!(reply.status, 415, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Unsupported Media Type");
    assert!(
        reply.json()["message"]
            .as_str()
            .unwrap()
            .contains("PDF, JPEG or PNG")
    );
    let spanish = multipart(
        &[("details_token", &token), ("locale", "es")],
        Some(("x.pdf", "application/pdf", &program)),
    );
    let reply = send(port, &spanish, "application/json");
    assert_eq!(reply.status, 415);
    assert!(
        reply.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("Envíe un archivo PDF")
    );
    let reply = upload(
        port,
        &token,
        "runs.zip",
        "application/zip",
        b"PK\x03\x04\x14\x00\x00\x00",
    );
    assert_eq!(reply.status, 415, "{}", reply.text());
    // No file, an empty one, no token: 422 naming the field.
    let reply = send(
        port,
        &multipart(&[("details_token", &token)], None),
        "application/json",
    );
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert_eq!(
        reply.json()["errors"]["file"],
        "Please choose a file to send"
    );
    let reply = upload(port, &token, "", "application/octet-stream", b"");
    assert_eq!(
        reply.json()["errors"]["file"],
        "Please choose a file to send",
        "an input left empty"
    );
    let reply = upload(port, &token, "empty.pdf", "application/pdf", b"");
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json()["errors"]["file"],
        "This file is empty: please choose another"
    );
    let reply = send(
        port,
        &multipart(&[], Some(("a.pdf", "application/pdf", &loss_runs))),
        "*/*",
    );
    assert_eq!(reply.status, 422);
    assert!(reply.json()["errors"]["details_token"].is_string());
    // Not multipart at all: 415.
    let reply = post(port, DOCUMENTS, &json!({ "details_token": token }));
    assert_eq!(reply.status, 415, "{}", reply.text());
    // Tokens: unknown or malformed 404, as for the details.
    for unknown in ["0123456789abcdef0123456789abcdef", "not-a-token"] {
        let reply = upload(port, unknown, "a.pdf", "application/pdf", &loss_runs);
        assert_eq!(reply.status, 404, "{unknown}: {}", reply.text());
        assert_eq!(reply.json()["error"], "Not Found");
    }
    assert_eq!(
        stored(&database, first).len(),
        3,
        "nothing refused was kept"
    );

    // Ten a quote: the 11th is refused with the reason.
    for n in 4..=10 {
        let reply = upload(
            port,
            &token,
            &format!("run-{n}.pdf"),
            "application/pdf",
            &pdf("more"),
        );
        assert_eq!(reply.status, 201, "document {n}: {}", reply.text());
    }
    let reply = upload(port, &token, "run-11.pdf", "application/pdf", &pdf("more"));
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert!(
        reply.json()["errors"]["file"]
            .as_str()
            .unwrap()
            .contains("at most 10 documents")
    );
    assert_eq!(stored(&database, first).len(), 10);

    // 10 MiB exactly is taken; a byte more is not (413), nor 11 MiB said in the head or sent chunked, and the
    // server goes on serving after each.
    let mut largest = pdf("largest");
    largest.resize(10 * MIB, b' ');
    let reply = upload(
        port,
        &second_token,
        "large.pdf",
        "application/pdf",
        &largest,
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    largest.push(b' ');
    let reply = upload(
        port,
        &second_token,
        "larger.pdf",
        "application/pdf",
        &largest,
    );
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert!(
        reply.json()["message"]
            .as_str()
            .unwrap()
            .contains("at most 10 MB")
    );
    for chunked in [false, true] {
        let reply = send_large(port, 11 * MIB, chunked);
        assert_eq!(reply.status, 413, "chunked {chunked}: {}", reply.text());
        assert!(reply.closes(), "the rest of the body is not read");
        let health = Http::connect(port).unwrap().get("/healthz", &[]).unwrap();
        assert_eq!(health.status, 200);
    }
    // Every other route keeps its own limit.
    let padded = json!({ "name": "x".repeat(100 * 1024) });
    assert_eq!(post(port, "/api/leads/quote", &padded).status, 413);
    assert_eq!(stored(&database, second).len(), 1);
    assert_eq!(
        stored(&database, second)[0].2.len(),
        10 * MIB,
        "stored whole"
    );

    // A plain form post gets the details page: what arrived on top (its name escaped), or why not.
    let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let body = multipart(
        &[("details_token", &second_token)],
        Some(("<cab> & trailer.png", "image/png", &png)),
    );
    let reply = send(port, &body, browser);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert!(
        reply
            .header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    let page = reply.text();
    let received = format!(
        "Received: &lt;cab&gt; &amp; trailer.png ({} bytes)",
        png.len()
    );
    assert!(page.contains(&received), "{page}");
    assert!(page.contains(&second_token), "the form keeps its token");
    let body = multipart(
        &[("details_token", &second_token), ("locale", "es")],
        Some(("x.pdf", "application/pdf", &program)),
    );
    let reply = send(port, &body, browser);
    assert_eq!(reply.status, 415);
    assert!(
        reply.text().contains("Envíe un archivo PDF, JPEG o PNG"),
        "{}",
        reply.text()
    );
    assert!(reply.text().contains("lang=\"es\""));

    // A day and a second after the quotes, their tokens take nothing: 410.
    set_clock(&clock, "2026-03-03T12:00:01Z");
    let reply = upload(
        port,
        &second_token,
        "late.pdf",
        "application/pdf",
        &loss_runs,
    );
    assert_eq!(reply.status, 410, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Gone");
    assert_eq!(stored(&database, second).len(), 2);
}

#[test]
fn forget_erases_a_quote_s_documents_and_schedules_from_the_database_files() {
    let dir = TempDir::new("documents-forget");
    let database = dir.path().join("leads.db");
    let server = serve(
        &database,
        "serve",
        &[("TRUCKINS_ANALYTICS", "false".to_string())],
        &[],
    );
    let (hers, token) = quoted(
        server.port,
        "ines.quarrington@forget.example",
        "docs-forget-1",
    );
    let (theirs, their_token) = quoted(server.port, "someone@else.example", "docs-forget-2");
    let reply = upload(
        server.port,
        &token,
        "runs.pdf",
        "application/pdf",
        &pdf("Marker-Qx7Loss-Runs-Ines"),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let reply = upload(
        server.port,
        &their_token,
        "runs.pdf",
        "application/pdf",
        &pdf("Marker-Kept-Z9"),
    );
    assert_eq!(reply.status, 201);
    // Her schedules, as the details store them.
    let connection = rusqlite::Connection::open(&database).unwrap();
    connection
        .execute(
            "UPDATE leads SET vehicle_schedule = ?2, driver_schedule = ?3, loss_history = ?4 WHERE id = ?1",
            rusqlite::params![
                hers,
                r#"[{"year":2020,"make":"Peterbilt","vin":"1XPBDP9X1LD000001"}]"#,
                r#"[{"name":"Drivername Wqzv","date_of_birth":"1980-01-01"}]"#,
                r#"[{"date":"2024-03-15","kind":"cargo","amount":12500,"description":"Lossnote Wqzv"}]"#,
            ],
        )
        .unwrap();
    drop(connection);
    for marker in ["marker-qx7loss", "wqzv", "marker-kept-z9"] {
        assert!(
            !files_holding(&database, marker).is_empty(),
            "{marker} is in the files at first"
        );
    }

    let (ok, text) = cli(
        dir.path(),
        &database,
        &[
            "leads",
            "forget",
            "--email",
            "ines.quarrington@forget.example",
        ],
        &[],
    );
    assert!(ok && text.contains("erased 1 leads"), "{text}");
    assert!(
        text.contains("no longer hold it"),
        "the WAL was emptied: {text}"
    );
    assert!(
        stored(&database, hers).is_empty(),
        "her document's row is gone"
    );
    for marker in ["marker-qx7loss", "wqzv"] {
        assert_eq!(
            files_holding(&database, marker),
            Vec::<String>::new(),
            "{marker}"
        );
    }
    let connection = rusqlite::Connection::open(&database).unwrap();
    let schedules: (Option<String>, Option<String>, Option<String>) = connection
        .query_row(
            "SELECT vehicle_schedule, driver_schedule, loss_history FROM leads WHERE id = ?1",
            [hers],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .unwrap();
    assert_eq!(schedules, (None, None, None));
    // Someone else's document stays, byte for byte.
    assert_eq!(stored(&database, theirs)[0].2, pdf("Marker-Kept-Z9"));
}

#[test]
fn uploads_are_limited_per_address_and_a_browser_is_told_so_on_the_page() {
    let dir = TempDir::new("documents-limit");
    let database = dir.path().join("leads.db");
    let server = serve(&database, "serve", &[], &["--ip-limit", "2"]);
    let (_, token) = quoted(server.port, "fleet@limit.example", "docs-limit-1");
    for _ in 0..2 {
        let reply = upload(server.port, &token, "a.pdf", "application/pdf", &pdf("a"));
        assert_eq!(reply.status, 201, "{}", reply.text());
    }
    let reply = upload(server.port, &token, "a.pdf", "application/pdf", &pdf("a"));
    assert_eq!(reply.status, 429, "{}", reply.text());
    assert_eq!(reply.json()["error"], "Too Many Attempts");
    assert!(reply.header("retry-after").is_some());
    let body = multipart(
        &[("details_token", &token)],
        Some(("a.pdf", "application/pdf", &pdf("a"))),
    );
    let reply = send(server.port, &body, "text/html");
    assert_eq!(reply.status, 429);
    assert!(
        reply.text().contains("Too many documents sent from here"),
        "{}",
        reply.text()
    );
    assert!(reply.header("retry-after").is_some());
}

#[test]
fn the_retention_period_erases_an_old_quote_s_documents() {
    let dir = TempDir::new("documents-retention");
    let database = dir.path().join("leads.db");
    let clock = dir.path().join("clock");
    set_clock(&clock, "2020-01-01T12:00:00Z");
    let env = [("TRUCKINS_TEST_CLOCK", clock.display().to_string())];
    let mut server = serve(&database, "serve", &env, &[]);
    let (old, token) = quoted(server.port, "old@retention.example", "docs-retention-1");
    let reply = upload(
        server.port,
        &token,
        "old.pdf",
        "application/pdf",
        &pdf("Marker-Old-Runs-R5"),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    server.terminate();

    // 1,825 days later and more: the quote is past the period when the server starts.
    set_clock(&clock, "2025-01-02T12:00:00Z");
    let server = serve(&database, "serve", &env, &[]);
    wait_until("the retention pass in the log", || {
        format!("{}{}", server.stdout_text(), server.stderr_text())
            .contains("retention: erased 1 leads")
            .then_some(())
    });
    assert!(stored(&database, old).is_empty());
    assert_eq!(
        files_holding(&database, "marker-old-runs"),
        Vec::<String>::new()
    );
}
