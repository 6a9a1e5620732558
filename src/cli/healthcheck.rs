//! `truckins healthcheck`: asks the server on this machine for `GET /healthz` over plain TCP (no client library)
//! and turns its answer into an exit code, with the server's reason when it gave one.

use std::io::{Read, Write};

use rocket::figment::Figment;

pub fn run(figment: &Figment, port: Option<u16>) -> Result<(), String> {
    let configured: rocket::Config =
        rocket::Config::try_from(figment).map_err(|e| truckins::config::one_line(&e))?;
    let port = port.unwrap_or(configured.port);
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let timeout = std::time::Duration::from_secs(3);
    let mut stream = std::net::TcpStream::connect_timeout(&address, timeout)
        .map_err(|e| format!("nothing answers on {address}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    match answer.lines().next() {
        Some(line) if line.contains(" 200 ") => Ok(()),
        line => {
            // The server's reason, from its JSON body, when it gave one.
            let reason = answer
                .split_once("\r\n\r\n")
                .and_then(|(_, body)| serde_json::from_str::<serde_json::Value>(body).ok())
                .and_then(|body| body["reason"].as_str().map(|r| format!(": {r}")))
                .unwrap_or_default();
            Err(format!(
                "unhealthy: {}{reason}",
                line.unwrap_or("no answer")
            ))
        }
    }
}
