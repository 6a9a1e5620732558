//! What the notification tests run against, all on 127.0.0.1: a real SMTP server (Python's aiosmtpd, through
//! `smtp_server.py` beside this file), a webhook receiver written here on `std::net` that answers from a script
//! (a status, dated, or no answer at all), an https receiver (`webhook_tls_server.py`), the leads file read as the CLI would, and [`wait_until`]: every test waits for
//! an event with a generous deadline, never for a fixed time.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long any awaited event may take: far more than it should (retries here are a fraction of a second apart).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Polls `probe` until it gives a value; fails the test naming `what` after [`PATIENCE`].
pub fn wait_until<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(Instant::now() < deadline, "waited {PATIENCE:?} for {what}");
        thread::sleep(Duration::from_millis(25));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The SMTP server
// ---------------------------------------------------------------------------------------------------------------

/// `smtp_server.py` running on `port`; killed when dropped.
pub struct Smtp {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
}

/// How the SMTP server is started: with STARTTLS required (certificate and key files) and AUTH.
#[derive(Default)]
pub struct SmtpOptions<'a> {
    pub tls: Option<(&'a Path, &'a Path)>,
    pub auth: Option<&'a str>,
}

impl Smtp {
    /// Starts the server on `port`, writing messages into `dir`, and waits until it takes connections.
    pub fn start(port: u16, dir: &Path, options: SmtpOptions<'_>) -> Smtp {
        std::fs::create_dir_all(dir).unwrap();
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/integration/notify/smtp_server.py"
        );
        let mut command = Command::new("python3");
        command
            .arg(script)
            .args(["--port", &port.to_string(), "--dir", dir.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        if let Some((cert, key)) = options.tls {
            command.args([
                "--cert",
                cert.to_str().unwrap(),
                "--key",
                key.to_str().unwrap(),
            ]);
        }
        if let Some(auth) = options.auth {
            command.args(["--auth", auth]);
        }
        let mut smtp = Smtp {
            child: command.spawn().expect("python3 runs"),
            port,
            dir: dir.to_path_buf(),
        };
        wait_until("the SMTP server to listen", || {
            if let Some(status) = smtp.child.try_wait().unwrap() {
                panic!(
                    "the SMTP server exited ({status}); is aiosmtpd installed? (tests/run.sh installs it: \
                     python3 -m pip install aiosmtpd)"
                );
            }
            TcpStream::connect(("127.0.0.1", smtp.port)).ok()
        });
        smtp
    }

    /// Makes the server answer `command` ("data" or "rcpt") with `reply`, `times` times (-1: until changed).
    pub fn answer(&self, command: &str, reply: &str, times: i32) {
        let control = serde_json::json!({ command: reply, "times": times });
        std::fs::write(self.dir.join("control.json"), control.to_string()).unwrap();
    }

    /// Makes the server refuse RCPT TO `address` (only that one) with `reply`, until changed.
    pub fn refuse_recipient(&self, address: &str, reply: &str) {
        let control = serde_json::json!({ "rcpt": reply, "times": -1, "only": address });
        std::fs::write(self.dir.join("control.json"), control.to_string()).unwrap();
    }

    /// Accept everything again.
    pub fn accept(&self) {
        std::fs::write(self.dir.join("control.json"), "{}").unwrap();
    }

    /// The messages accepted so far, in order.
    pub fn mails(&self) -> Vec<Value> {
        let mut found: Vec<(u32, Value)> = std::fs::read_dir(&self.dir)
            .unwrap()
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().to_string_lossy().into_owned();
                let n = name
                    .strip_prefix("mail-")?
                    .strip_suffix(".json")?
                    .parse()
                    .ok()?;
                let text = std::fs::read_to_string(self.dir.join(&name)).ok()?;
                Some((n, serde_json::from_str(&text).unwrap()))
            })
            .collect();
        found.sort_by_key(|(n, _)| *n);
        found.into_iter().map(|(_, mail)| mail).collect()
    }

    /// Waits until at least `count` messages were accepted and returns them all.
    pub fn wait_for_mails(&self, count: usize) -> Vec<Value> {
        wait_until(&format!("{count} e-mails"), || {
            let mails = self.mails();
            (mails.len() >= count).then_some(mails)
        })
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A text part of a message as the SMTP server decoded it, by content type.
pub fn part<'a>(mail: &'a Value, content_type: &str) -> &'a str {
    mail["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|part| part["content_type"] == content_type)
        .and_then(|part| part["content"].as_str())
        .unwrap_or_else(|| panic!("no {content_type} part in {mail}"))
}

/// A private CA and a certificate for 127.0.0.1 signed by it, as PEM files in `dir`: (ca, cert, key).
pub fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, SanType};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "truckins test CA");
    let ca_key = KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let mut server = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
    server
        .subject_alt_names
        .push(SanType::IpAddress([127, 0, 0, 1].into()));
    let key = KeyPair::generate().unwrap();
    let cert = server.signed_by(&key, &issuer).unwrap();
    let paths = (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    );
    std::fs::write(&paths.0, ca_cert.pem()).unwrap();
    std::fs::write(&paths.1, cert.pem()).unwrap();
    std::fs::write(&paths.2, key.serialize_pem()).unwrap();
    paths
}

// ---------------------------------------------------------------------------------------------------------------
// The webhook receiver
// ---------------------------------------------------------------------------------------------------------------

/// What the receiver does with a request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    Status(u16),
    /// Reads the request and never answers (the connection is held open).
    Hang,
}

/// A request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub head: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub answer: Answer,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

#[derive(Default)]
struct Script {
    next: VecDeque<Answer>,
    /// The answer once `next` is used up.
    then: Option<Answer>,
    received: Vec<Received>,
    held: Vec<TcpStream>,
}

/// An HTTP/1.1 receiver on a loopback port, answering each request with the next answer of its script.
pub struct Receiver {
    pub port: u16,
    script: Arc<Mutex<Script>>,
    stop: Arc<AtomicBool>,
}

impl Receiver {
    /// Answers with `script`, then `then` for ever.
    pub fn start(script: &[Answer], then: Answer) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let receiver = Receiver {
            port: listener.local_addr().unwrap().port(),
            script: Arc::new(Mutex::new(Script {
                next: script.iter().copied().collect(),
                then: Some(then),
                ..Script::default()
            })),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (shared, stop) = (receiver.script.clone(), receiver.stop.clone());
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let shared = shared.clone();
                        thread::spawn(move || serve(stream, &shared));
                    }
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        receiver
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hooks/truckins", self.port)
    }

    /// From now on, answer `answer` (after what is left of the script).
    pub fn then(&self, answer: Answer) {
        self.script.lock().unwrap().then = Some(answer);
    }

    pub fn received(&self) -> Vec<Received> {
        self.script.lock().unwrap().received.clone()
    }

    /// Waits until at least `count` requests arrived and returns them all.
    pub fn wait_for(&self, count: usize) -> Vec<Received> {
        wait_until(&format!("{count} webhook requests"), || {
            let received = self.received();
            (received.len() >= count).then_some(received)
        })
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.script.lock().unwrap().held.clear();
    }
}

fn serve(stream: TcpStream, script: &Mutex<Script>) {
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    if reader.read_line(&mut head).unwrap_or(0) == 0 {
        return;
    }
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut script = script.lock().unwrap();
    let answer = script
        .next
        .pop_front()
        .or(script.then)
        .unwrap_or(Answer::Status(200));
    script.received.push(Received {
        head: head.trim_end().to_string(),
        headers,
        body,
        answer,
    });
    match answer {
        Answer::Hang => script.held.push(stream),
        Answer::Status(code) => {
            drop(script);
            let mut stream = stream;
            // Dated, as real receivers' answers are: `truckins check` compares its clock with it.
            let _ = write!(
                stream,
                "HTTP/1.1 {code} Scripted\r\nDate: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                http_date(time::OffsetDateTime::now_utc())
            );
        }
    }
}

/// `at` as an HTTP `Date` header writes it: `Sun, 06 Nov 1994 08:49:37 GMT`.
pub fn http_date(at: time::OffsetDateTime) -> String {
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    at.to_offset(time::UtcOffset::UTC)
        .format(format)
        .expect("a date that formats")
}

// ---------------------------------------------------------------------------------------------------------------
// The leads file
// ---------------------------------------------------------------------------------------------------------------

/// A row of `deliveries`.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub id: i64,
    pub key: String,
    pub lead_id: i64,
    pub channel: String,
    pub state: String,
    pub attempts: i64,
    pub last_error: Option<String>,
}

/// The leads file opened read-only, as the CLI would read it beside the running server.
pub fn read_only(database: &Path) -> rusqlite::Connection {
    let connection =
        rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the leads file opens");
    connection.busy_timeout(Duration::from_secs(5)).unwrap();
    connection
}

/// Every row `sql` selects from the leads file, each as a tuple of its columns.
pub fn rows<T>(database: &Path, sql: &str) -> Vec<T>
where
    T: for<'a> TryFrom<&'a rusqlite::Row<'a>, Error = rusqlite::Error>,
{
    let connection = read_only(database);
    let mut statement = connection.prepare(sql).unwrap();
    statement
        .query_map([], |row| T::try_from(row))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Every lead's delivery in the file, by id (the owner's report, about no lead, is read in `report.rs`).
pub fn deliveries(database: &Path) -> Vec<Delivery> {
    let connection = read_only(database);
    let mut statement = connection
        .prepare(
            "SELECT id, key, lead_id, channel, state, attempts, last_error FROM deliveries \
             WHERE lead_id IS NOT NULL ORDER BY id",
        )
        .unwrap();
    statement
        .query_map([], |row| {
            Ok(Delivery {
                id: row.get(0)?,
                key: row.get(1)?,
                lead_id: row.get(2)?,
                channel: row.get(3)?,
                state: row.get(4)?,
                attempts: row.get(5)?,
                last_error: row.get(6)?,
            })
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Waits until the lead's delivery on `channel` satisfies `done`, and returns it.
pub fn wait_for_delivery(
    database: &Path,
    lead: i64,
    channel: &str,
    what: &str,
    done: impl Fn(&Delivery) -> bool,
) -> Delivery {
    wait_until(
        &format!("lead {lead}'s {channel} delivery to be {what}"),
        || {
            deliveries(database)
                .into_iter()
                .find(|d| d.lead_id == lead && d.channel == channel && done(d))
        },
    )
}

// ---------------------------------------------------------------------------------------------------------------
// The https webhook receiver
// ---------------------------------------------------------------------------------------------------------------

/// `webhook_tls_server.py` (an https receiver, Python's http.server behind ssl) on `port`; killed when dropped.
pub struct HttpsReceiver {
    child: Child,
    out: PathBuf,
}

impl HttpsReceiver {
    pub fn start(port: u16, cert: &Path, key: &Path, out: PathBuf) -> Self {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/integration/notify/webhook_tls_server.py"
        );
        let child = Command::new("python3")
            .arg(script)
            .args(["--port", &port.to_string()])
            .arg("--cert")
            .arg(cert)
            .arg("--key")
            .arg(key)
            .arg("--out")
            .arg(&out)
            .spawn()
            .expect("python3 runs");
        wait_until("the https receiver to listen", || {
            std::net::TcpStream::connect(("127.0.0.1", port)).ok()
        });
        HttpsReceiver { child, out }
    }

    /// The requests received so far, as the receiver wrote them.
    pub fn received(&self) -> Vec<Received> {
        let text = std::fs::read_to_string(&self.out).unwrap_or_default();
        text.lines()
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).unwrap();
                Received {
                    head: format!("POST {}", record["path"].as_str().unwrap()),
                    headers: record["headers"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                        .collect(),
                    body: record["body"].as_str().unwrap().as_bytes().to_vec(),
                    answer: Answer::Status(200),
                }
            })
            .collect()
    }
}

impl Drop for HttpsReceiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
