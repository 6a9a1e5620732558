//! Litestream's control socket: HTTP/1.1 over a Unix socket (`socket.path` in its configuration), one request per
//! connection, through the same hyper the server is built on. One question is asked, `POST /sync`: turn the
//! database's new WAL frames into a transaction of Litestream's and, with `wait`, copy it to the replica before
//! answering; without `wait` it answers at once, even while a sync with `wait` is copying.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use rocket::tokio::{self, net::UnixStream};
use serde::Deserialize;

/// How an answer that did not come within its deadline is said (the start of the reason): Litestream is there but
/// busy (its first whole copy after a restore takes seconds), not gone.
pub const NO_ANSWER_WITHIN: &str = "no answer within";

/// Litestream's answers are a few dozen bytes; anything much larger is not Litestream.
const LARGEST_ANSWER: usize = 64 * 1024;

/// Where the replica's positions stood when Litestream answered a sync.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Positions {
    /// The last of Litestream's transactions on this machine (every commit read from the WAL so far).
    pub local: u64,
    /// The last of them on the replica.
    pub replicated: u64,
}

/// A client for one database's replication, through one socket.
#[derive(Debug, Clone)]
pub struct Client {
    socket: PathBuf,
    /// The database's path as Litestream's configuration names it, absolute (Litestream makes its paths absolute
    /// without resolving links, as `std::path::absolute` does).
    database: String,
}

#[derive(Deserialize)]
struct SyncAnswer {
    txid: u64,
    replicated_txid: u64,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    error: String,
}

impl Client {
    pub fn new(socket: &Path, database: &Path) -> Client {
        let database = std::path::absolute(database).unwrap_or_else(|_| database.to_path_buf());
        Client {
            socket: socket.to_path_buf(),
            database: database.to_string_lossy().into_owned(),
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn database(&self) -> &str {
        &self.database
    }

    /// `POST /sync`: the positions after Litestream has read every commit made before the call; with `wait`, once
    /// it has also copied them to the replica (Litestream gives up after 30 s). `deadline` bounds the whole exchange
    /// on this side.
    ///
    /// No `timeout` is sent: without `wait`, Litestream then works in its own context, not in the request's. A
    /// checkpoint that happens during the sync re-opens Litestream's read transaction on the WAL in that context,
    /// and one ended with the request leaves the WAL free to be started over behind Litestream's back (see
    /// `store::Checkpoints`, which is why the server leaves checkpoints to Litestream).
    pub async fn sync(&self, wait: bool, deadline: Duration) -> Result<Positions, String> {
        let body = serde_json::json!({ "path": self.database, "wait": wait }).to_string();
        let request = Request::post("/sync")
            .header(hyper::header::HOST, "litestream")
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| format!("the request could not be built: {e}"))?;
        let answer: SyncAnswer = self.ask(request, deadline).await?;
        Ok(Positions {
            local: answer.txid,
            replicated: answer.replicated_txid,
        })
    }

    async fn ask<T: for<'de> Deserialize<'de>>(
        &self,
        request: Request<Full<Bytes>>,
        deadline: Duration,
    ) -> Result<T, String> {
        let (status, body) = tokio::time::timeout(deadline, self.exchange(request))
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "{NO_ANSWER_WITHIN} {:.1} s",
                    deadline.as_secs_f64()
                ))
            })?;
        if status == StatusCode::NOT_FOUND {
            return Err(format!(
                "Litestream does not replicate {} (is it the `path` of a database in litestream.yml?)",
                self.database
            ));
        }
        if !status.is_success() {
            let reason = serde_json::from_slice::<ErrorAnswer>(&body)
                .map(|answer| answer.error)
                .unwrap_or_else(|_| String::from_utf8_lossy(&body).trim().to_string());
            return Err(format!("Litestream answered {status}: {reason}"));
        }
        serde_json::from_slice(&body)
            .map_err(|e| format!("an answer that is not Litestream's: {e}"))
    }

    async fn exchange(&self, request: Request<Full<Bytes>>) -> Result<(StatusCode, Bytes), String> {
        let place = self.socket.display();
        let stream = UnixStream::connect(&self.socket)
            .await
            .map_err(|e| format!("no answer at {place}: {e}"))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP with {place}: {e}"))?;
        // The connection is driven beside the request and dropped with it: one request per connection.
        let driver = tokio::spawn(connection);
        let answered = async {
            let response = sender
                .send_request(request)
                .await
                .map_err(|e| format!("no answer at {place}: {e}"))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), LARGEST_ANSWER)
                .collect()
                .await
                .map_err(|e| format!("the answer from {place} could not be read: {e}"))?
                .to_bytes();
            Ok((status, body))
        }
        .await;
        driver.abort();
        answered
    }
}
