//! The real `truckins` binary as a child process, for the tests that run it the way the agency does: temporary
//! directories, free loopback ports, a `truckins serve` guard that is killed and reaped when dropped (also when a
//! test fails), and a hand-written keep-alive HTTP/1.1 client on `std::net::TcpStream` (no client crates).

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_truckins");
/// The binary the servers run: this build's, or another's named in `BENCH_BINARY` (the benchmarks compare two
/// builds with the same harness; the tests never set it).
pub fn binary() -> String {
    std::env::var("BENCH_BINARY").unwrap_or_else(|_| BIN.to_string())
}

/// The `User-Agent` the client sends with every request it builds.
pub const USER_AGENT: &str = "truckins-process-test";
/// How long a server may take to answer its first request after being spawned.
pub const START_LIMIT: Duration = Duration::from_secs(60);
/// How long a stopped server may take to exit by itself (Rocket's grace 10 s + mercy 5 s, with room).
pub const EXIT_LIMIT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------------------------------
// Temporary directories, ports and commands
// ---------------------------------------------------------------------------------------------------------------

/// A fresh temporary directory, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "truckins-process-{}-{}-{label}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A subdirectory, created.
    pub fn sub(&self, name: &str) -> PathBuf {
        let path = self.0.join(name);
        fs::create_dir_all(&path).expect("a subdirectory");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A loopback port nobody listens on right now (the probe listener is closed before it is returned).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// The binary run in `dir` (so only a `Rocket.toml` put there is seen), with no standard input and without any
/// `ROCKET_*` or `TRUCKINS_*` variable of the environment the tests run in. A settings file at the default place
/// would be read by every run instead of Rocket.toml: the tests stop then, naming it.
pub fn truckins(dir: &Path) -> Command {
    assert!(
        !Path::new(truckins::config::DEFAULT_FILE).exists(),
        "the tests expect no settings file at {} (every run of the binary would read it): move it away to run them",
        truckins::config::DEFAULT_FILE
    );
    let mut command = Command::new(binary());
    command.current_dir(dir).stdin(Stdio::null());
    without_our_variables(&mut command);
    command
}

/// Runs `command` to its end and returns what it wrote; fails the test, with its standard error, unless it succeeds.
pub fn succeeded(command: &mut Command) -> Output {
    let output = command.output().expect("the binary runs");
    assert!(
        output.status.success(),
        "{:?}: {}",
        command.get_args().collect::<Vec<_>>(),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Removes every `ROCKET_*` and `TRUCKINS_*` variable of the tests' environment from `command`'s.
fn without_our_variables(command: &mut Command) {
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if text.starts_with("ROCKET_") || text.starts_with("TRUCKINS_") {
            command.env_remove(&name);
        }
    }
}

/// [`truckins`] run through `sh` with its limit on open files (soft and hard) set to `open_files` first.
pub fn truckins_with_open_files(dir: &Path, open_files: u32) -> Command {
    let mut shell = Command::new("sh");
    shell.current_dir(dir).stdin(Stdio::null()).args([
        "-c",
        &format!("ulimit -n {open_files} && exec \"$0\" \"$@\""),
        BIN,
    ]);
    without_our_variables(&mut shell);
    shell
}

/// `command` run through `sh` with the file-creation mask set first, the way a shell or a container runtime
/// without `UMask=` would start it (same program, arguments, directory and environment).
pub fn with_umask(command: &Command, umask: &str) -> Command {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(command.get_program())
        .args(command.get_args())
        .stdin(Stdio::null());
    if let Some(dir) = command.get_current_dir() {
        shell.current_dir(dir);
    }
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => shell.env(name, value),
            None => shell.env_remove(name),
        };
    }
    shell
}

/// Polls `child` until it exits or `limit` passes.
pub fn wait_exit(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// `kill -TERM pid`; fails the test if `kill` does.
pub fn send_sigterm(pid: u32) {
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("`kill` runs");
    assert!(status.success(), "kill -TERM {pid} failed: {status}");
}

// ---------------------------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------------------------

/// A running `truckins serve`; killed (SIGKILL) and reaped when dropped, also when a test fails.
pub struct Server {
    child: Child,
    pub port: u16,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Server {
    /// `truckins serve ARGS --address 127.0.0.1 --port <free>` in `dir`, answering requests; its output goes to
    /// `<label>-<attempt>.stdout` and `.stderr` in `dir`.
    pub fn start(dir: &Path, label: &str, args: &[&str]) -> Server {
        Server::start_with_env(dir, label, args, &[])
    }

    /// [`Server::start`] with environment variables set for the process.
    pub fn start_with_env(dir: &Path, label: &str, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut last = String::new();
        // A port found free can be taken by another process before the server binds it: then take another.
        for attempt in 1..=3 {
            let port = free_port();
            let mut command = truckins(dir);
            command
                .arg("serve")
                .args(args)
                .args(["--address", "127.0.0.1", "--port", &port.to_string()])
                .envs(env.iter().copied());
            match Server::spawn(command, port, dir, &format!("{label}-{attempt}")) {
                Ok(server) => return server,
                Err(why) if why.contains("in use") => last = why,
                Err(why) => panic!("{why}"),
            }
        }
        panic!("no free port found for the server: {last}");
    }

    /// Spawns `command` (a `serve` that will listen on `port`) and waits until `GET /healthz` answers 200.
    pub fn spawn(command: Command, port: u16, dir: &Path, label: &str) -> Result<Server, String> {
        Server::spawn_until(command, port, dir, label, |reply| reply.status == 200)
    }

    /// [`Server::spawn`] for a server that is expected to be unhealthy: it waits for any answer to `GET /healthz`.
    pub fn spawn_answering(
        command: Command,
        port: u16,
        dir: &Path,
        label: &str,
    ) -> Result<Server, String> {
        Server::spawn_until(command, port, dir, label, |_| true)
    }

    /// Spawns `command` and waits until an answer to `GET /healthz` satisfies `ready`.
    fn spawn_until(
        mut command: Command,
        port: u16,
        dir: &Path,
        label: &str,
        ready: impl Fn(&Reply) -> bool,
    ) -> Result<Server, String> {
        let stdout = dir.join(format!("{label}.stdout"));
        let stderr = dir.join(format!("{label}.stderr"));
        command
            .stdout(File::create(&stdout).expect("a stdout file"))
            .stderr(File::create(&stderr).expect("a stderr file"));
        let mut server = Server {
            child: command.spawn().expect("the binary starts"),
            port,
            stdout,
            stderr,
        };
        let deadline = Instant::now() + START_LIMIT;
        loop {
            if let Some(status) = server.child.try_wait().expect("the child's status") {
                return Err(format!(
                    "the server exited ({status}) before answering on port {port}; stdout {:?}, stderr {:?}",
                    server.stdout_text(),
                    server.stderr_text()
                ));
            }
            if let Ok(mut http) = Http::connect(port)
                && http.get("/healthz", &[]).is_ok_and(|reply| ready(&reply))
            {
                return Ok(server);
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "the server did not answer on port {port} within {START_LIMIT:?}; stdout {:?}, stderr {:?}",
                    server.stdout_text(),
                    server.stderr_text()
                ));
            }
            thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stdout_text(&self) -> String {
        fs::read_to_string(&self.stdout).unwrap_or_default()
    }

    pub fn stderr_text(&self) -> String {
        fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// A new keep-alive connection to the server.
    pub fn http(&self) -> Http {
        Http::connect(self.port).expect("a connection to the server")
    }

    /// A figure of the server's `/proc/PID/status` in KiB, such as `VmRSS` or `VmHWM`.
    pub fn memory_kib(&self, field: &str) -> Option<u64> {
        let status = fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    }

    /// The server's peak resident memory so far (`VmHWM`), in KiB.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        self.memory_kib("VmHWM")
    }

    /// SIGTERM, then waits for the process to exit by itself.
    pub fn terminate(&mut self) -> ExitStatus {
        send_sigterm(self.pid());
        self.wait_exit()
    }

    /// SIGKILL (what `Child::kill` sends on Unix), then reap.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the process to exit by itself (after a signal); fails the test after [`EXIT_LIMIT`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        match wait_exit(&mut self.child, EXIT_LIMIT) {
            Some(status) => status,
            None => panic!(
                "the server did not exit within {EXIT_LIMIT:?}; stdout {:?}, stderr {:?}",
                self.stdout_text(),
                self.stderr_text()
            ),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// A small keep-alive HTTP/1.1 client
// ---------------------------------------------------------------------------------------------------------------

/// One keep-alive HTTP/1.1 connection to `127.0.0.1:port`.
pub struct Http {
    port: u16,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

/// A response: status, headers (names lowercased) and the whole body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; fails the test if it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text()))
    }

    /// The body as JSON, or `null` if it is not.
    pub fn json_or_null(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// Whether the server closes the connection after this response.
    pub fn closes(&self) -> bool {
        self.header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

impl Http {
    pub fn connect(port: u16) -> io::Result<Http> {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let stream = TcpStream::connect_timeout(&address, Duration::from_secs(5))?;
        Http::over(stream, port)
    }

    /// A connection to `127.0.0.1:port` from the loopback address `source` (such as 127.0.0.2: Linux routes all of
    /// 127.0.0.0/8 to the loopback device), so that the server sees another client address. The standard library
    /// cannot choose a connection's source address; tokio's socket can, on a runtime made for the moment.
    pub fn connect_from(source: std::net::Ipv4Addr, port: u16) -> io::Result<Http> {
        let runtime = rocket::tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        let stream = runtime.block_on(async {
            let socket = rocket::tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from((source, 0)))?;
            let connecting = socket.connect(SocketAddr::from(([127, 0, 0, 1], port)));
            rocket::tokio::time::timeout(Duration::from_secs(5), connecting)
                .await
                .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "connect timed out"))?
        })?;
        let stream = stream.into_std()?;
        stream.set_nonblocking(false)?;
        Http::over(stream, port)
    }

    fn over(stream: TcpStream, port: u16) -> io::Result<Http> {
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        stream.set_write_timeout(Some(Duration::from_secs(30)))?;
        stream.set_nodelay(true)?;
        Ok(Http {
            port,
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// A second handle on the connection's socket, to write from another thread while this one reads.
    pub fn try_clone_writer(&self) -> TcpStream {
        self.writer.try_clone().expect("a clone of the socket")
    }

    pub fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> io::Result<Reply> {
        self.send("GET", path, headers, None)
    }

    pub fn post_json(&mut self, path: &str, body: &Value) -> io::Result<Reply> {
        self.send(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            Some(body.to_string().as_bytes()),
        )
    }

    /// Sends one request (`Host`, `User-Agent` unless the given headers have one, the given headers, and
    /// `Content-Length` if there is a body) and reads the whole answer.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> io::Result<Reply> {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n",
            self.port
        );
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("user-agent"))
        {
            request.push_str(&format!("User-Agent: {USER_AGENT}\r\n"));
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(body) = body {
            request.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        request.push_str("\r\n");
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        self.write_raw(&bytes)?;
        self.read_answer(method == "HEAD")
    }

    /// Whether the server closes the connection before sending anything more: the end of the stream (or a reset)
    /// arrives within the read timeout (30 s), and no byte before it.
    pub fn closed_by_server(&mut self) -> bool {
        let mut byte = [0u8; 1];
        match self.reader.read(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(error) => matches!(
                error.kind(),
                io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
            ),
        }
    }

    /// Writes pre-built request bytes as they are and reads the answer.
    pub fn send_raw(&mut self, request: &[u8]) -> io::Result<Reply> {
        self.write_raw(request)?;
        self.read_reply()
    }

    /// Writes pre-built request bytes as they are, without reading anything.
    pub fn write_raw(&mut self, request: &[u8]) -> io::Result<()> {
        self.writer.write_all(request)?;
        self.writer.flush()
    }

    /// Reads the answer to a request that was not `HEAD`.
    pub fn read_reply(&mut self) -> io::Result<Reply> {
        self.read_answer(false)
    }

    /// One line without its line break; a line cut short by the end of the stream is an error.
    fn read_line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        if !line.ends_with('\n') {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the connection closed mid-answer",
            ));
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    }

    fn read_answer(&mut self, head: bool) -> io::Result<Reply> {
        let status_line = self.read_line()?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse::<u16>().ok())
            .filter(|_| status_line.starts_with("HTTP/1."))
            .ok_or_else(|| invalid(format!("not an HTTP status line: {status_line:?}")))?;
        let mut headers = Vec::new();
        loop {
            let line = self.read_line()?;
            if line.is_empty() {
                break;
            }
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| invalid(format!("not a header: {line:?}")))?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        let mut reply = Reply {
            status,
            headers,
            body: Vec::new(),
        };
        if head || status < 200 || status == 204 || status == 304 {
            return Ok(reply);
        }
        let chunked = reply
            .header("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked {
            loop {
                let size_line = self.read_line()?;
                let size =
                    usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                        .map_err(|_| invalid(format!("not a chunk size: {size_line:?}")))?;
                if size == 0 {
                    // Trailers, up to the empty line.
                    while !self.read_line()?.is_empty() {}
                    break;
                }
                let start = reply.body.len();
                reply.body.resize(start + size, 0);
                self.reader.read_exact(&mut reply.body[start..])?;
                self.read_line()?;
            }
        } else if let Some(length) = reply.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| invalid(format!("bad Content-Length {length:?}")))?;
            reply.body.resize(length, 0);
            self.reader.read_exact(&mut reply.body)?;
        } else {
            self.reader.read_to_end(&mut reply.body)?;
        }
        Ok(reply)
    }
}
