//! Debian's `pebble` (Let's Encrypt's test ACME server) and `pebble-challtestsrv` (its DNS, every name at
//! 127.0.0.1) on loopback, with pebble's own API certificate made here; and `curl` over HTTPS with pebble's root.
//! Real processes, killed and reaped when dropped; waits are for events, within deadlines.

use std::fs;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::free_port;

/// Whether the tools are here; outside the test command a missing one skips the test (said on stderr), under it
/// (`PEBBLE_REQUIRED`, set by tests/run.sh, which installs them) it fails the test.
pub fn available() -> bool {
    let found = ["pebble", "pebble-challtestsrv", "curl", "openssl"]
        .iter()
        .all(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        });
    if !found {
        assert!(
            std::env::var_os("PEBBLE_REQUIRED").is_none(),
            "pebble, pebble-challtestsrv, curl and openssl are required (apt-get install pebble curl openssl)"
        );
        eprintln!(
            "SKIPPED: the HTTPS tests need Debian's pebble and pebble-challtestsrv, curl and openssl \
             (apt-get install pebble); tests/run.sh installs them"
        );
    }
    found
}

/// A child process killed and reaped when dropped.
pub struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `127.0.0.1:port`.
pub fn wait_listening(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{what} did not listen on port {port} within 30 s"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// pebble's setup: its API certificate and CA, its ports, and the DNS server it asks.
pub struct Pebble {
    pub dir: PathBuf,
    pub api_port: u16,
    pub management_port: u16,
    pub dns_port: u16,
    /// The CA that signed pebble's API certificate (`acme_ca_root`).
    pub api_ca: PathBuf,
    config: PathBuf,
    _dns: Running,
}

impl Pebble {
    /// The configuration, and the DNS server started; pebble itself is started by [`Pebble::start`]. It validates
    /// HTTP-01 on `http_port` and TLS-ALPN-01 on `https_port`, the server's.
    pub fn prepare(dir: &Path, http_port: u16, https_port: u16) -> Pebble {
        let dir = dir.join("pebble");
        fs::create_dir_all(&dir).unwrap();
        let (api_port, management_port, dns_port, dns_management) =
            (free_port(), free_port(), free_port(), free_port());
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(rcgen::DnType::CommonName, "the tests' CA for pebble's API");
        let ca_certificate = ca.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca, ca_key);
        let mut api = rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        api.subject_alt_names
            .push(rcgen::SanType::IpAddress([127, 0, 0, 1].into()));
        let key = rcgen::KeyPair::generate().unwrap();
        let leaf = api.signed_by(&key, &issuer).unwrap();
        let api_ca = dir.join("api-ca.pem");
        fs::write(&api_ca, ca_certificate.pem()).unwrap();
        fs::write(dir.join("api.pem"), leaf.pem()).unwrap();
        fs::write(dir.join("api-key.pem"), key.serialize_pem()).unwrap();
        let config = dir.join("pebble.json");
        let json = serde_json::json!({"pebble": {
            "listenAddress": format!("127.0.0.1:{api_port}"),
            "managementListenAddress": format!("127.0.0.1:{management_port}"),
            "certificate": dir.join("api.pem"),
            "privateKey": dir.join("api-key.pem"),
            "httpPort": http_port,
            "tlsPort": https_port,
            "ocspResponderURL": "",
            "externalAccountBindingRequired": false,
        }});
        fs::write(&config, json.to_string()).unwrap();
        let dns = Command::new("pebble-challtestsrv")
            .args(["-dns01", &format!("127.0.0.1:{dns_port}")])
            .args(["-management", &format!("127.0.0.1:{dns_management}")])
            .args([
                "-http01",
                "",
                "-https01",
                "",
                "-tlsalpn01",
                "",
                "-defaultIPv6",
                "",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("pebble-challtestsrv starts");
        let dns = Running(dns);
        wait_listening(dns_management, "pebble-challtestsrv");
        Pebble {
            dir,
            api_port,
            management_port,
            dns_port,
            api_ca,
            config,
            _dns: dns,
        }
    }

    pub fn directory(&self) -> String {
        format!("https://127.0.0.1:{}/dir", self.api_port)
    }

    /// pebble, answering (validations without pebble's random sleeps, no nonces refused at random).
    pub fn start(&self) -> Running {
        let log = fs::File::create(self.dir.join("pebble.log")).unwrap();
        let child = Command::new("pebble")
            .args(["-config", self.config.to_str().unwrap()])
            .args(["-dnsserver", &format!("127.0.0.1:{}", self.dns_port)])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("pebble starts");
        let running = Running(child);
        wait_listening(self.api_port, "pebble");
        wait_listening(self.management_port, "pebble's management");
        running
    }

    /// pebble's root of the certificates it issues (made anew at each start), written to a file.
    pub fn root(&self) -> PathBuf {
        let root = self.dir.join("issuing-root.pem");
        let output = Command::new("curl")
            .args(["-sS", "--fail", "--cacert", self.api_ca.to_str().unwrap()])
            .arg(format!(
                "https://127.0.0.1:{}/roots/0",
                self.management_port
            ))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "pebble's root: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        fs::write(&root, &output.stdout).unwrap();
        root
    }
}

/// `curl --http2` to `https://NAME:PORT/path` resolved to 127.0.0.1, trusting `root`: the head and body, with
/// the protocol and status as curl says them on the last line (`HTTP 2 200`).
pub fn curl(root: &Path, name: &str, port: u16, path: &str, extra: &[&str]) -> Output {
    Command::new("curl")
        .args(["-sS", "--http2", "--max-time", "10", "-D", "-"])
        .args(["--cacert", root.to_str().unwrap()])
        .args(["--resolve", &format!("{name}:{port}:127.0.0.1")])
        .args(extra)
        .args(["-w", "\nHTTP %{http_version} %{http_code}"])
        .arg(format!("https://{name}:{port}{path}"))
        .output()
        .expect("curl runs")
}

/// The leaf certificate `127.0.0.1:port` presents for `name`, as PEM (openssl's client, no verification).
pub fn served_certificate(name: &str, port: u16) -> String {
    let output = Command::new("sh")
        .args([
            "-c",
            &format!(
                "openssl s_client -connect 127.0.0.1:{port} -servername {name} -alpn http/1.1 </dev/null 2>/dev/null \
                 | openssl x509"
            ),
        ])
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}
