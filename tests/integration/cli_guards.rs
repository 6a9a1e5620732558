//! Small leaks of the CLI (issue 36), through the binary: `report --output` written readable by its owner only
//! whatever the umask; a full-width `＝` (and its kin) at the start of a CSV cell guarded like `=`; an unknown
//! `smtp_url` option named without its value; output to a reader that has gone (`| head`) ends quietly, without a
//! panic, and the command's work (a `leads forget`) still done.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

use serde_json::json;

use crate::common::process::{TempDir, succeeded, truckins, with_umask};
use crate::notify::{cli, post, quote, serve};

#[test]
fn cli_output_is_private_guarded_and_quiet_on_a_closed_pipe() {
    let dir = TempDir::new("cli-guards");
    let database = dir.path().join("leads.db");
    let server = serve(&database, "serve", &[], &[]);
    let mut wide = quote("wide@example.com", "guards-1");
    wide["company"] = json!("\u{FF1D}HYPERLINK(\"http://x\")");
    assert_eq!(post(server.port, "/api/leads/quote", &wide).status, 201);
    let mut gone = quote("gone@example.com", "guards-2");
    gone["company"] = json!("\u{FF20}SUM(A1)");
    assert_eq!(post(server.port, "/api/leads/quote", &gone).status, 201);
    drop(server);

    // The CSV: full-width formula starters behind an apostrophe, like ASCII ones.
    let (ok, csv) = cli(
        dir.path(),
        &database,
        &["leads", "export", "--format", "csv"],
        &[],
    );
    assert!(ok, "{csv}");
    assert!(csv.contains("\"'\u{FF1D}HYPERLINK("), "{csv}");
    assert!(csv.contains(",'\u{FF20}SUM(A1)"), "{csv}");

    // The report's HTML file: 0600 under a umask of 022.
    let file = dir.path().join("report.html");
    let mut command = truckins(dir.path());
    command
        .arg("--database")
        .arg(&database)
        .args(["report", "--format", "html", "--output"])
        .arg(&file);
    succeeded(&mut with_umask(&command, "022"));
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the report's mode");

    // A password put in an option by mistake is not printed.
    let (ok, said) = cli(
        dir.path(),
        &database,
        &["notify", "test"],
        &[
            (
                "TRUCKINS_SMTP_URL",
                "smtp://u@mail.example.com:587?password=hunter2".into(),
            ),
            ("TRUCKINS_MAIL_FROM", "leads@agency.example".into()),
            ("TRUCKINS_NOTIFY_TO", "owner@agency.example".into()),
        ],
    );
    assert!(!ok && said.contains("`password`"), "{said}");
    assert!(!said.contains("hunter2"), "{said}");

    // Output to a reader that has gone: no panic, the work done.
    for args in [
        &["leads", "forget", "--email", "gone@example.com"][..],
        &["leads", "list"],
        &["report"],
        &["leads", "status", "1", "contacted"],
    ] {
        let mut child = truckins(dir.path())
            .arg("--database")
            .arg(&database)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reading end closed before the command writes anything.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            output.status.success(),
            "{args:?}: {:?} {stderr}",
            output.status
        );
    }
    let (ok, json) = cli(
        dir.path(),
        &database,
        &["leads", "export", "--format", "json"],
        &[],
    );
    assert!(ok, "{json}");
    assert!(
        !json.contains("gone@example.com"),
        "the forget was done: {json}"
    );
}
