//! Running in production: `GET /healthz` (the process answers and the database does too) and a request log with
//! method, path, status and duration for every request (text or JSON lines). The log never holds a lead's content:
//! bodies and query strings are not written.

use std::io::Write;
use std::time::Instant;

use rocket::fairing::{AdHoc, Fairing, Info, Kind};
use rocket::http::Status;
use rocket::serde::json::{Json, Value, json};
use rocket::{Data, Request, Response, State, get};

use crate::config::LogFormat;
use crate::leads::Leads;

#[get("/healthz")]
async fn healthz(leads: &State<Leads>) -> (Status, Json<Value>) {
    let pool = leads.pool.clone();
    let checked = rocket::tokio::task::spawn_blocking(move || {
        let connection = pool.get().map_err(|e| e.to_string())?;
        connection
            .query_row("SELECT COUNT(*) FROM schema_migrations", [], |row| {
                row.get::<_, i64>(0)
            })
            .map_err(|e| e.to_string())
    })
    .await;
    match checked {
        Ok(Ok(_)) => (
            Status::Ok,
            Json(json!({ "status": "ok", "database": "ok" })),
        ),
        Ok(Err(error)) => {
            rocket::error!("health check: the database does not answer: {error}");
            (
                Status::ServiceUnavailable,
                Json(json!({ "status": "unavailable", "database": "unavailable" })),
            )
        }
        Err(error) => {
            rocket::error!("health check failed: {error}");
            (
                Status::ServiceUnavailable,
                Json(json!({ "status": "unavailable", "database": "unknown" })),
            )
        }
    }
}

pub fn stage() -> AdHoc {
    AdHoc::on_ignite("Operations", |rocket| async {
        rocket.mount("/", rocket::routes![healthz])
    })
}

/// Writes one line per request to standard output.
pub struct RequestLog {
    pub format: LogFormat,
}

#[derive(Clone, Copy)]
struct Started(Instant);

#[rocket::async_trait]
impl Fairing for RequestLog {
    fn info(&self) -> Info {
        Info {
            name: "Request log",
            kind: Kind::Request | Kind::Response,
        }
    }

    async fn on_request(&self, request: &mut Request<'_>, _: &mut Data<'_>) {
        request.local_cache(|| Started(Instant::now()));
    }

    async fn on_response<'r>(&self, request: &'r Request<'_>, response: &mut Response<'r>) {
        let started = request.local_cache(|| Started(Instant::now())).0;
        let milliseconds = started.elapsed().as_secs_f64() * 1000.0;
        let method = request.method();
        let path = request.uri().path();
        let status = response.status().code;
        let time = crate::leads::store::now();
        let line = match self.format {
            LogFormat::Text => format!("{time} {method} {path} {status} {milliseconds:.1}ms"),
            LogFormat::Json => {
                json!({ "time": time, "method": method.as_str(), "path": path.as_str(),
                "status": status, "duration_ms": (milliseconds * 10.0).round() / 10.0 })
                .to_string()
            }
        };
        // A log nobody reads any more (stdout closed) must not take the request down with it, as println! would.
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    }
}
