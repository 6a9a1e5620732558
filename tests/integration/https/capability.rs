//! Binding ports below 1024 as the service user, under Litestream (issue 38): what deploy/truckins.service gives
//! (`User=truckins`, `NoNewPrivileges=yes`, `CapabilityBoundingSet=` and `AmbientCapabilities=CAP_NET_BIND_SERVICE`)
//! with the drop-in's `litestream replicate -exec`, made here without systemd by util-linux's `setpriv`: Litestream
//! runs as an unprivileged user holding that one capability, and its child `truckins serve` with `tls_domains` binds
//! the plain and HTTPS ports below 1024 on 127.0.0.1, its plain port answering the redirect at once (the ACME
//! directory unreachable). The same user without the capability is refused the ports: the capability is what binds
//! them. Needs root (to become another user); tests/run.sh runs it as root in CI.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{BIN, Http, TempDir};

/// The unprivileged user and group the service runs as here: `nobody`, `nogroup`.
const USER: u32 = 65534;
const NAME: &str = "agency.example";
/// CAP_NET_BIND_SERVICE's bit in /proc/PID/status's capability masks.
const NET_BIND_SERVICE: u64 = 1 << 10;

/// Why this machine cannot run the test, if it cannot. Under tests/run.sh (`PEBBLE_REQUIRED`) a missing tool is a
/// failure; not being root is a skip anywhere (only root can become another user with a capability).
fn cannot_run() -> Option<String> {
    let required = std::env::var_os("PEBBLE_REQUIRED").is_some();
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    if !status
        .lines()
        .any(|line| line.starts_with("Uid:") && line.split_whitespace().nth(2) == Some("0"))
    {
        return Some(
            "not run as root (only root can start a process as another user with a capability)"
                .into(),
        );
    }
    let setpriv = Command::new("setpriv").arg("--version").output();
    if !setpriv.is_ok_and(|output| output.status.success()) {
        assert!(!required, "setpriv (util-linux) is required");
        return Some("no setpriv (util-linux)".into());
    }
    None
}

/// The Litestream executable itself (a copy of it is run as the unprivileged user, who may not reach a shim's
/// target, pyenv's under /root): `LITESTREAM`, else `litestream` on the PATH, through `pyenv which` when that is a
/// script.
fn litestream_executable() -> PathBuf {
    let named =
        PathBuf::from(std::env::var_os("LITESTREAM").unwrap_or_else(|| "litestream".into()));
    let found = if named.components().count() > 1 {
        named
    } else {
        let output = Command::new("sh")
            .args(["-c", "command -v litestream"])
            .output()
            .expect("sh runs");
        PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
    };
    let elf = |path: &Path| fs::read(path).is_ok_and(|bytes| bytes.starts_with(b"\x7fELF"));
    if elf(&found) {
        return found;
    }
    let output = Command::new("pyenv").args(["which", "litestream"]).output();
    let through_pyenv = output
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
        .unwrap_or_default();
    assert!(
        elf(&through_pyenv),
        "the Litestream executable behind {} was not found (name it in LITESTREAM)",
        found.display()
    );
    through_pyenv
}

/// Two ports below 1024 free on 127.0.0.1 and below the kernel's first unprivileged port (80 and 443 when free).
fn privileged_ports() -> Option<(u16, u16)> {
    let first_unprivileged: u16 =
        fs::read_to_string("/proc/sys/net/ipv4/ip_unprivileged_port_start")
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(1024)
            .min(1024);
    let free =
        |port: u16| port < first_unprivileged && TcpListener::bind(("127.0.0.1", port)).is_ok();
    if free(80) && free(443) {
        return Some((80, 443));
    }
    let mut ports = (1..first_unprivileged)
        .rev()
        .filter(|&port| port != 443 && free(port));
    Some((ports.next()?, ports.next()?))
}

/// A file copied into `dir`, executable by anyone.
fn installed(from: &Path, dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    fs::copy(from, &to).unwrap();
    fs::set_permissions(&to, fs::Permissions::from_mode(0o755)).unwrap();
    to
}

/// `setpriv` as the unprivileged user with `capabilities` (`-all,+net_bind_service`, or `-all`) as its inheritable,
/// ambient and bounding sets, no new privileges; running `litestream replicate -exec "truckins serve"`.
fn under_litestream(dir: &Path, capabilities: &str, ports: (u16, u16), log: &Path) -> Child {
    let exec = format!(
        "{} serve --address 127.0.0.1 --database {}",
        dir.join("bin/truckins").display(),
        dir.join("data/leads.db").display()
    );
    let output = fs::File::create(log).unwrap();
    Command::new("setpriv")
        .args([
            &format!("--reuid={USER}"),
            &format!("--regid={USER}"),
            "--clear-groups",
            "--no-new-privs",
            &format!("--inh-caps={capabilities}"),
            &format!("--ambient-caps={capabilities}"),
            &format!("--bounding-set={capabilities}"),
            "--",
        ])
        .arg(dir.join("bin/litestream"))
        .args(["replicate", "-config"])
        .arg(dir.join("litestream.yml"))
        .args(["-exec", &exec])
        .current_dir(dir.join("data"))
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.join("data"))
        .env("TRUCKINS_TLS_DOMAINS", NAME)
        .env("TRUCKINS_HTTP_PORT", ports.0.to_string())
        .env("TRUCKINS_HTTPS_PORT", ports.1.to_string())
        // Nothing answers there: the plain port must answer all the same.
        .env("TRUCKINS_ACME_DIRECTORY", "https://127.0.0.1:9/directory")
        .stdin(Stdio::null())
        .stdout(output.try_clone().unwrap())
        .stderr(output)
        .spawn()
        .expect("setpriv starts")
}

/// The capability masks and the real user of process `pid`: (uid, CapEff, CapAmb).
fn credentials(pid: u32) -> (String, u64, u64) {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let mask = |name: &str| u64::from_str_radix(&field(name), 16).unwrap_or(u64::MAX);
    let uid = field("Uid:")
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    (uid, mask("CapEff:"), mask("CapAmb:"))
}

/// The `truckins` child of `pid`, once there is one (any of its threads may have started it: Go's do).
fn truckins_child(pid: u32) -> Option<u32> {
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    tasks
        .flatten()
        .flat_map(|task| {
            let children = fs::read_to_string(task.path().join("children")).unwrap_or_default();
            children
                .split_whitespace()
                .filter_map(|n| n.parse::<u32>().ok())
                .collect::<Vec<_>>()
        })
        .find(|child| {
            fs::read_to_string(format!("/proc/{child}/comm")).is_ok_and(|c| c.trim() == "truckins")
        })
}

fn wait_exit(child: &mut Child, seconds: u64) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() > deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Stops Litestream the way systemd does (SIGTERM; it stops its child first), killing both if that takes too long.
fn stop(mut litestream: Child, server: Option<u32>) {
    // SAFETY: kill(2) with the id of a process this test started and a valid signal has no memory effects.
    unsafe { libc::kill(litestream.id() as libc::pid_t, libc::SIGTERM) };
    if wait_exit(&mut litestream, 10).is_none() {
        for pid in server.into_iter().chain([litestream.id()]) {
            // SAFETY: as above.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        }
        let _ = litestream.wait();
    }
}

/// Another process took one of the ports after they were found free (another test command on this machine).
fn taken(log: &Path) -> bool {
    fs::read_to_string(log).is_ok_and(|said| said.contains("Address already in use"))
}

/// What the server showed with the capability: its answer on the plain port, whether the HTTPS port listens, and
/// the uid and capabilities of Litestream and of the server.
struct Bound {
    reply: crate::common::process::Reply,
    https_listening: bool,
    litestream: (String, u64, u64),
    server: Option<(String, u64, u64)>,
    said: String,
}

/// One try on `ports`: refused without the capability, bound with it; `None` when a port was taken meanwhile.
fn attempt(dir: &Path, ports: (u16, u16)) -> Option<Bound> {
    // Without the capability the same user is refused the port, and Litestream stops with its child.
    let refused_log = dir.join(format!("refused-{}.log", ports.1));
    let mut refused = under_litestream(dir, "-all", ports, &refused_log);
    let status = wait_exit(&mut refused, 15);
    let said = fs::read_to_string(&refused_log).unwrap_or_default();
    if status.is_none() {
        stop(refused, None);
    }
    if taken(&refused_log) {
        return None;
    }
    assert!(
        said.contains(&format!("cannot listen on 127.0.0.1:{}", ports.1))
            && said.contains("Permission denied"),
        "without CAP_NET_BIND_SERVICE the port must be refused ({status:?}): {said}"
    );

    // With it, as the service user: listening on both ports, the plain one answering its redirect.
    let log = dir.join(format!("litestream-{}.log", ports.1));
    let mut litestream = under_litestream(dir, "-all,+net_bind_service", ports, &log);
    let deadline = Instant::now() + Duration::from_secs(15);
    let (server, reply) = loop {
        let server = truckins_child(litestream.id());
        if let Some(reply) = Http::connect(ports.0).ok().and_then(|mut http| {
            let request =
                format!("GET /quote HTTP/1.1\r\nHost: {NAME}\r\nConnection: close\r\n\r\n");
            http.send_raw(request.as_bytes()).ok()
        }) {
            break (server, reply);
        }
        let exited = litestream.try_wait().unwrap().is_some();
        if exited && taken(&log) {
            return None;
        }
        if exited || Instant::now() > deadline {
            stop(litestream, server);
            panic!(
                "the plain port {} did not answer within 15 s: {}",
                ports.0,
                fs::read_to_string(&log).unwrap_or_default()
            );
        }
        thread::sleep(Duration::from_millis(20));
    };
    let https_listening = TcpStream::connect(("127.0.0.1", ports.1)).is_ok();
    let server_credentials = server.map(credentials);
    let litestream_credentials = credentials(litestream.id());
    stop(litestream, server);
    Some(Bound {
        reply,
        https_listening,
        litestream: litestream_credentials,
        server: server_credentials,
        said: fs::read_to_string(&log).unwrap_or_default(),
    })
}

#[test]
fn the_service_user_binds_ports_below_1024_under_litestream_with_only_net_bind_service() {
    if let Some(why) = cannot_run() {
        eprintln!("SKIPPED: binding ports below 1024 with CAP_NET_BIND_SERVICE: {why}");
        return;
    }
    let started = Instant::now();
    let temp = TempDir::new("capability");
    let dir = temp.path();
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    installed(&litestream_executable(), &bin, "litestream");
    installed(Path::new(BIN), &bin, "truckins");
    for owned in ["data", "replica"] {
        fs::create_dir_all(dir.join(owned)).unwrap();
        chown(dir.join(owned), Some(USER), Some(USER)).unwrap();
    }
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    let yaml = serde_json::json!({"dbs": [{
        "path": dir.join("data/leads.db"),
        "replica": {"type": "file", "path": dir.join("replica"), "sync-interval": "1s"},
    }]});
    fs::write(dir.join("litestream.yml"), yaml.to_string()).unwrap();

    // Ports found free may be taken before the server binds them (another test command on this machine): then
    // again with others, up to three times.
    let mut found = None;
    for _ in 0..3 {
        let Some(ports) = privileged_ports() else {
            eprintln!("SKIPPED: no two free ports below the kernel's first unprivileged port");
            return;
        };
        if let Some(bound) = attempt(dir, ports) {
            found = Some((ports, bound));
            break;
        }
    }
    let (ports, bound) = found.expect("free ports below 1024 that stay free for a second");
    let said = &bound.said;
    assert_eq!(bound.reply.status, 301, "{:?} {said}", bound.reply);
    let location = match ports.1 {
        443 => format!("https://{NAME}/quote"),
        port => format!("https://{NAME}:{port}/quote"),
    };
    assert_eq!(
        bound.reply.header("location"),
        Some(location.as_str()),
        "{said}"
    );
    assert!(
        bound.https_listening,
        "the HTTPS port {} listens: {said}",
        ports.1
    );
    // Both run as the unprivileged user with that one capability, the server by inheritance from Litestream.
    let expected = (USER.to_string(), NET_BIND_SERVICE, NET_BIND_SERVICE);
    assert_eq!(
        bound.litestream, expected,
        "Litestream's uid, CapEff, CapAmb"
    );
    assert_eq!(
        bound.server,
        Some(expected),
        "the server's uid, CapEff, CapAmb: {said}"
    );
    eprintln!(
        "as uid {USER} with CAP_NET_BIND_SERVICE only, under litestream replicate -exec: ports {} and {} bound, \
         refused without it; {:?} in all",
        ports.0,
        ports.1,
        started.elapsed()
    );
}
