//! A quote's documents (issue 39): `POST /api/leads/documents`, `multipart/form-data` with the quote's details token
//! and one file named `file`. The body (at most [`BODY_LIMIT`]: the server passes no more, src/server/limits.rs) is
//! read as it streams by `multer` (the parser Rocket's own forms use), the file kept only up to 10 MiB; what the file
//! is (PDF, JPEG, PNG) is judged from its first bytes, never its name or stated type; its name is cleaned
//! ([`file_name`]). Then the per-IP limit, and the token's lead found and the document stored with it
//! (`store::documents`: 404 unknown, 410 over 24 h, 422 when the quote has 10). Programs get JSON (`201` with the
//! document's id, name and size); a browser's plain form post gets the details page again with what arrived on top.

use std::sync::Arc;

use contract::answers;
use contract::forms::details::DETAILS_TOKEN;
use contract::forms::documents::{self as words, FILE_FIELD, MAX_BYTES};
use contract::locale::{FIELD, Locale};
use rocket::data::{Data, ToByteUnit};
use rocket::http::{Method, Status};
use rocket::request::Request;
use rocket::route::{self, Handler, Route};
use rocket::serde::json::json;

use super::pipeline::{Verdict, WINDOW, not_stored};
use super::routes::{Leads, Reply};
use super::{language, nojs};
use crate::client_ip::ClientIp;
use crate::errors::ClientError;
use crate::limits::{RateLimiter, RetryAfter};
use crate::store::details::is_token;
use crate::store::documents::{self, Document, Upload};

/// The largest body taken: the file's 10 MiB and the form around it (the token, the language, each part's head).
pub const BODY_LIMIT: usize = MAX_BYTES + 64 * 1024;
/// The token's field (32 characters) and the language's (2).
const FIELD_LIMIT: u64 = 4 * 1024;
/// Parts read at most: a form has three.
const MAX_PARTS: usize = 16;
/// The longest file name kept, in characters.
const NAME_CHARS: usize = 150;

const _: () = assert!(documents::MAX_BYTES == MAX_BYTES);
const _: () = assert!(documents::MAX_PER_LEAD == words::MAX_PER_LEAD as i64);

/// The route, with its own limit: `ip_limit` documents per IP per 10 minutes, counted apart from the forms and the
/// details (a fleet's loss runs are several posts).
pub(super) fn route(ip_limit: usize) -> Route {
    let path = contract::routes::DOCUMENTS_API
        .strip_prefix("/api")
        .expect("the documents' address is under /api");
    let limiter = Arc::new(RateLimiter::new(ip_limit, WINDOW));
    let mut route = Route::new(Method::Post, path, DocumentsRoute(limiter));
    route.name = Some("documents".into());
    route
}

#[derive(Clone)]
struct DocumentsRoute(Arc<RateLimiter>);

#[rocket::async_trait]
impl Handler for DocumentsRoute {
    async fn handle<'r>(&self, request: &'r Request<'_>, body: Data<'r>) -> route::Outcome<'r> {
        let Some(leads) = request.rocket().state::<Leads>() else {
            return route::Outcome::Error(Status::InternalServerError);
        };
        // A plain form post: the browser asks for a page first. A program's fetch asks for JSON, or for anything.
        let wants_page = request
            .accept()
            .is_some_and(|accept| accept.preferred().media_type().is_html());
        let hint = language::of_referer(request.headers().get_one("Referer"));
        let posted = read(request, body).await;
        let locale = posted
            .as_ref()
            .ok()
            .and_then(|posted| Locale::parse(posted.locale.trim()))
            .unwrap_or(hint);
        let token = posted.as_ref().map_or(String::new(), |p| p.token.clone());
        let outcome = match posted {
            Ok(posted) => self.store(request, posted, leads).await,
            Err(refusal) => Err(refusal),
        };
        let reply = if wants_page {
            page(outcome, &token, locale)
        } else {
            json_reply(outcome, locale)
        };
        route::Outcome::from(request, reply)
    }
}

/// What a post carried.
struct Posted {
    token: String,
    locale: String,
    /// The name the browser gave, and the bytes.
    file: Option<(Option<String>, Vec<u8>)>,
}

/// Why a document was not taken: the status, and the contract's sentence (in English; the answer translates it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// A field's problem (422): `{"errors": {field: message}}`.
    Field(&'static str, &'static str),
    Status(Status, &'static str),
    RateLimited(RetryAfter),
}

/// The multipart body read into its token, language and file, or why it cannot be.
async fn read(request: &Request<'_>, body: Data<'_>) -> Result<Posted, Refusal> {
    let not_multipart = Refusal::Status(Status::UnsupportedMediaType, words::NOT_MULTIPART);
    let content_type = request.headers().get_one("Content-Type").unwrap_or("");
    if !content_type
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("multipart/form-data")
    {
        return Err(not_multipart);
    }
    let boundary = multer::parse_boundary(content_type).map_err(|_| not_multipart)?;
    let too_large = Refusal::Status(Status::PayloadTooLarge, words::TOO_LARGE);
    // Said too large in its head: the server passed none of it on (src/server/answer.rs).
    let declared = request.headers().get_one("Content-Length");
    if declared.and_then(|length| length.trim().parse::<u64>().ok()) > Some(BODY_LIMIT as u64) {
        return Err(too_large);
    }
    // Other fields a form sends along are read and set aside, within the body's limit.
    let limits = multer::SizeLimit::new()
        .whole_stream(BODY_LIMIT as u64)
        .for_field(FILE_FIELD, MAX_BYTES as u64)
        .for_field(DETAILS_TOKEN.name, FIELD_LIMIT)
        .for_field(FIELD, FIELD_LIMIT);
    let constraints = multer::Constraints::new().size_limit(limits);
    // One byte over the limit read, so that multer sees the body is too large rather than cut short.
    let stream = body.open((BODY_LIMIT + 1).bytes());
    let mut multipart =
        multer::Multipart::with_reader_with_constraints(stream, boundary, constraints);
    let unreadable = |error: multer::Error| match error {
        multer::Error::StreamSizeExceeded { .. } => too_large,
        multer::Error::FieldSizeExceeded { field_name, .. }
            if field_name.as_deref() == Some(FILE_FIELD) =>
        {
            Refusal::Status(Status::PayloadTooLarge, words::TOO_LARGE)
        }
        _ => Refusal::Status(Status::BadRequest, words::UNREADABLE),
    };
    let mut posted = Posted {
        token: String::new(),
        locale: String::new(),
        file: None,
    };
    let mut parts = 0;
    while let Some(mut field) = multipart.next_field().await.map_err(unreadable)? {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(Refusal::Status(Status::BadRequest, words::UNREADABLE));
        }
        match field.name().unwrap_or("") {
            FILE_FIELD => {
                let name = field.file_name().map(str::to_string);
                // Sized for the body once (within the limit): a 10 MiB file is not copied as it grows.
                let expected = declared.and_then(|length| length.trim().parse::<usize>().ok());
                let mut bytes = Vec::with_capacity(expected.unwrap_or(0).min(MAX_BYTES));
                while let Some(chunk) = field.chunk().await.map_err(unreadable)? {
                    bytes.extend_from_slice(&chunk);
                }
                // A file input left empty sends a part without a name and without bytes: no file.
                if name.as_deref().unwrap_or("").is_empty() && bytes.is_empty() {
                    continue;
                }
                if posted.file.is_some() {
                    return Err(Refusal::Field(FILE_FIELD, words::ONE_FILE));
                }
                posted.file = Some((name, bytes));
            }
            name if name == DETAILS_TOKEN.name => {
                posted.token = field.text().await.map_err(unreadable)?.trim().to_string();
            }
            FIELD => posted.locale = field.text().await.map_err(unreadable)?,
            // Anything else a form sends along is read and set aside.
            _ => while field.chunk().await.map_err(unreadable)?.is_some() {},
        }
    }
    Ok(posted)
}

/// What a file is by its first bytes: its media type, or `None` for anything but a PDF, a JPEG or a PNG.
fn media_type(bytes: &[u8]) -> Option<&'static str> {
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else if bytes.starts_with(b"\xFF\xD8\xFF") {
        Some("image/jpeg")
    } else if bytes.starts_with(PNG) {
        Some("image/png")
    } else {
        None
    }
}

/// The name kept for a file: the last part of the path a browser may send (`C:\scans\x.pdf`), without control and
/// bidirectional characters, at most [`NAME_CHARS`] characters with its extension kept, and ending in the extension
/// of what the file is (`scan.pdf` that is a JPEG becomes `scan.pdf.jpg`, so that it opens as what it is);
/// `document.pdf` (`.jpg`, `.png`) when no name is left.
fn file_name(raw: Option<&str>, media_type: &str) -> String {
    let extension = match media_type {
        "image/jpeg" => "jpg",
        "image/png" => "png",
        _ => "pdf",
    };
    // A browser writes a name's `"`, CR and LF as `%22`, `%0D` and `%0A` in the multipart header (the HTML standard's
    // form encoding): put the quote back, so the agency sees the name the file had.
    let raw = raw.unwrap_or("").replace("%22", "\"");
    let last = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let printable: String = last
        .chars()
        .filter(|c| !crate::text::is_invisible_control(*c))
        .collect();
    let mut name = printable.trim().to_string();
    if name.is_empty() || name == "." || name == ".." {
        return format!("document.{extension}");
    }
    let lower = name.to_lowercase();
    let fits = match extension {
        "jpg" => [".jpg", ".jpeg", ".jpe", ".jfif"]
            .iter()
            .any(|e| lower.ends_with(e)),
        _ => lower.ends_with(&format!(".{extension}")),
    };
    let suffix = if fits {
        let at = name.rfind('.').unwrap_or(name.len());
        name.split_off(at)
    } else {
        format!(".{extension}")
    };
    let stem: String = name
        .chars()
        .take(NAME_CHARS.saturating_sub(suffix.chars().count()))
        .collect();
    format!("{}{suffix}", stem.trim_end())
}

impl DocumentsRoute {
    /// The post's checks in order (the fields, the file's kind, the limit), then the document stored.
    async fn store(
        &self,
        request: &Request<'_>,
        posted: Posted,
        leads: &Leads,
    ) -> Result<Document, Refusal> {
        if posted.token.is_empty() {
            return Err(Refusal::Field(
                DETAILS_TOKEN.name,
                DETAILS_TOKEN.missing_message(),
            ));
        }
        let Some((name, bytes)) = posted.file else {
            return Err(Refusal::Field(FILE_FIELD, words::NO_FILE));
        };
        if !is_token(&posted.token) {
            return Err(Refusal::Status(Status::NotFound, words::UNKNOWN_TOKEN));
        }
        if bytes.is_empty() {
            return Err(Refusal::Field(FILE_FIELD, words::EMPTY_FILE));
        }
        let Some(media_type) = media_type(&bytes) else {
            return Err(Refusal::Status(
                Status::UnsupportedMediaType,
                words::UNSUPPORTED_KIND,
            ));
        };
        let file_name = file_name(name.as_deref(), media_type);
        // Every post with a well-formed token and a file takes a slot, found or not: guessing tokens costs.
        let ip = request.guard::<ClientIp>().await.succeeded();
        let ip_key = crate::client_ip::rate_key(ip.map_or([0, 0, 0, 0].into(), |ip| ip.0));
        self.0.acquire(&ip_key).map_err(Refusal::RateLimited)?;
        let (pool, outbox) = (leads.pool.clone(), leads.outbox.clone());
        let now = crate::clock::now_utc();
        let token = posted.token;
        let added = rocket::tokio::task::spawn_blocking(move || {
            let file = (file_name.as_str(), media_type, bytes.as_slice());
            documents::add(&pool, &token, file, now, |transaction, lead| {
                outbox.enqueue_document(transaction, lead)
            })
        })
        .await;
        let failed = |verdict: Verdict| {
            self.0.release(&ip_key);
            Err(match verdict {
                Verdict::Busy => Refusal::Status(Status::ServiceUnavailable, answers::BUSY),
                Verdict::Unavailable => {
                    Refusal::Status(Status::ServiceUnavailable, answers::TRY_LATER)
                }
                _ => Refusal::Status(Status::InternalServerError, answers::TRY_LATER),
            })
        };
        match added {
            Ok(Ok(Upload::Stored(document))) => {
                rocket::info!(
                    "stored document {} ({} bytes, {}) of quote lead {}",
                    document.id,
                    document.size,
                    document.media_type,
                    document.lead_id
                );
                // Like the details: told "received" once on the replica too, with `replica_acknowledge`.
                leads.replica.acknowledge(None).await;
                Ok(document)
            }
            Ok(Ok(Upload::Unknown)) => Err(Refusal::Status(Status::NotFound, words::UNKNOWN_TOKEN)),
            Ok(Ok(Upload::Expired)) => Err(Refusal::Status(Status::Gone, words::EXPIRED_TOKEN)),
            Ok(Ok(Upload::Full)) => Err(Refusal::Field(FILE_FIELD, words::TOO_MANY)),
            Ok(Err(error)) => failed(not_stored(&error)),
            Err(error) => {
                rocket::error!("document not stored, task failed: {error}");
                failed(Verdict::Failed)
            }
        }
    }
}

/// A program's answer: `201` with the document, `422` with the field's error, any other refusal as every API error.
fn json_reply(outcome: Result<Document, Refusal>, locale: Locale) -> Reply {
    match outcome {
        Ok(document) => Reply::Json(
            Status::Created,
            json!({
                "id": document.id,
                "file_name": document.file_name,
                "media_type": document.media_type,
                "size": document.size,
            }),
        ),
        Err(Refusal::Field(field, message)) => Reply::Json(
            Status::UnprocessableEntity,
            json!({ "errors": { field: locale.text(message) } }),
        ),
        Err(Refusal::Status(status, message)) => {
            Reply::Error(ClientError::new(status, locale.text(message)))
        }
        Err(Refusal::RateLimited(wait)) => Reply::Error(
            ClientError::new(Status::TooManyRequests, locale.text(words::RATE_LIMITED))
                .titled("Too Many Attempts")
                .retry_after(wait),
        ),
    }
}

/// A person's answer: the details page again (its token kept when it can be one), what arrived or why not on top.
fn page(outcome: Result<Document, Refusal>, token: &str, locale: Locale) -> Reply {
    let token = if is_token(token) { token } else { "" };
    let (status, message) = match outcome {
        Ok(document) => {
            let size = words::size_text(document.size as usize, locale == Locale::Es);
            let received = locale
                .text(words::RECEIVED)
                .replace("{size}", &size)
                .replace("{file}", &document.file_name);
            (Status::Ok, received)
        }
        Err(Refusal::Field(_, message)) => (
            Status::UnprocessableEntity,
            locale.text(message).to_string(),
        ),
        Err(Refusal::Status(status, message)) => (status, locale.text(message).to_string()),
        Err(Refusal::RateLimited(wait)) => {
            let message = format!(
                "{}. {}",
                locale.text(answers::TOO_MANY_ATTEMPTS),
                locale.text(words::RATE_LIMITED)
            );
            let page = nojs::documents_page(token, &message, locale);
            return Reply::Later(wait, Box::new(Reply::Page(Status::TooManyRequests, page)));
        }
    };
    Reply::Page(status, nojs::documents_page(token, &message, locale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_what_its_first_bytes_say() {
        assert_eq!(media_type(b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(media_type(b"\xFF\xD8\xFF\xDB"), Some("image/jpeg"));
        assert_eq!(media_type(b"\x89PNG\r\n\x1a\n\0"), Some("image/png"));
        for other in [
            &b"\x7fELF\x02"[..],
            b"PK\x03\x04",
            b"%PDF",
            b"\x89PNG\r\n",
            b"",
            b" %PDF-1.4",
        ] {
            assert_eq!(media_type(other), None, "{other:?}");
        }
    }

    #[test]
    fn a_name_keeps_its_last_part_in_printable_characters_and_the_extension_of_what_it_is() {
        let pdf = "application/pdf";
        assert_eq!(
            file_name(Some("C:\\scans\\loss runs.pdf"), pdf),
            "loss runs.pdf"
        );
        assert_eq!(file_name(Some("/home/x/RUNS.PDF"), pdf), "RUNS.PDF");
        assert_eq!(
            file_name(Some("invoice\u{202E}fdp.exe"), pdf),
            "invoicefdp.exe.pdf"
        );
        assert_eq!(file_name(Some("line\r\nbreak.pdf"), pdf), "linebreak.pdf");
        assert_eq!(file_name(Some("truck.JPEG"), "image/jpeg"), "truck.JPEG");
        assert_eq!(file_name(Some("truck.pdf"), "image/jpeg"), "truck.pdf.jpg");
        assert_eq!(file_name(None, "image/png"), "document.png");
        assert_eq!(
            file_name(Some("loss runs %222025%22.pdf"), pdf),
            "loss runs \"2025\".pdf"
        );
        for nothing in ["", "  ", "..", "dir/", "\u{0007}"] {
            assert_eq!(file_name(Some(nothing), pdf), "document.pdf", "{nothing:?}");
        }
        let long = file_name(Some(&format!("{}.pdf", "é".repeat(300))), pdf);
        assert_eq!(long.chars().count(), NAME_CHARS);
        assert!(long.ends_with("é.pdf"));
    }
}
