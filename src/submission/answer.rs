//! How the submission's routes answer: a page of their own (no index, no `Referer`, never cached, their own
//! Content-Security-Policy), the site's own 404 page for anything not signed by us (as any unknown address), too
//! many tries with when to try again, or a document's bytes as a download.

use rocket::http::{ContentType, Header, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};

use super::page;
use crate::errors::ClientError;
use crate::limits::RetryAfter;

/// What a request of the submission's routes is answered.
pub enum Answer {
    /// One of the room's pages, with its status.
    Page(Status, String),
    /// The site's 404 page: a link tampered with, cut short, of another lead, or no link at all.
    NotFound,
    TooMany(RetryAfter),
    /// A document as uploaded.
    File {
        name: String,
        media_type: String,
        bytes: Vec<u8>,
    },
}

/// The headers every answer carries: never indexed, cached or followed by a `Referer` (the address holds a
/// signature). The security headers' fairing (src/security.rs) keeps a `Referrer-Policy` and a CSP set here.
fn private(response: &mut Response<'_>) {
    response.set_header(Header::new("Cache-Control", "no-store"));
    response.set_header(Header::new("X-Robots-Tag", "noindex, nofollow"));
    response.set_header(Header::new("Referrer-Policy", "no-referrer"));
}

impl<'r> Responder<'r, 'static> for Answer {
    fn respond_to(self, request: &'r Request<'_>) -> response::Result<'static> {
        let mut response = match self {
            Answer::Page(status, html) => Response::build()
                .status(status)
                .header(ContentType::HTML)
                .header(Header::new(
                    "Content-Security-Policy",
                    page::CONTENT_SECURITY_POLICY.as_str(),
                ))
                .sized_body(html.len(), std::io::Cursor::new(html))
                .finalize(),
            Answer::NotFound => ClientError::for_status(Status::NotFound)
                .page(request)
                .respond_to(request)?,
            Answer::TooMany(wait) => {
                let mut response =
                    Answer::Page(Status::TooManyRequests, page::too_many()).respond_to(request)?;
                response.set_header(wait.header());
                response
            }
            Answer::File {
                name,
                media_type,
                bytes,
            } => Response::build()
                .status(Status::Ok)
                .header(ContentType::parse_flexible(&media_type).unwrap_or(ContentType::Binary))
                .header(Header::new("Content-Disposition", disposition(&name)))
                .header(Header::new("X-Content-Type-Options", "nosniff"))
                // Should a browser show it anyway, it runs nothing and loads nothing.
                .header(Header::new(
                    "Content-Security-Policy",
                    "default-src 'none'; frame-ancestors 'none'; sandbox",
                ))
                .sized_body(bytes.len(), std::io::Cursor::new(bytes))
                .finalize(),
        };
        private(&mut response);
        Ok(response)
    }
}

/// What of a file name stays as it is in `filename*` (RFC 8187's attr-char): letters, digits and `!#$&+-.^_`|~`.
const ATTR_CHAR: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'#')
    .remove(b'$')
    .remove(b'&')
    .remove(b'+')
    .remove(b'-')
    .remove(b'.')
    .remove(b'^')
    .remove(b'_')
    .remove(b'`')
    .remove(b'|')
    .remove(b'~');

/// `attachment; filename="..."; filename*=UTF-8''...`: the name as uploaded for the browsers that read RFC 8187's
/// `filename*` (all of today's), and a plain ASCII copy for the others, where a quote, a backslash, a control or a
/// non-ASCII character becomes `_`, so that the header cannot be broken out of.
pub fn disposition(name: &str) -> String {
    let name = name.trim();
    let name = if name.is_empty() { "document" } else { name };
    let plain: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "attachment; filename=\"{plain}\"; filename*=UTF-8''{}",
        percent_encoding::utf8_percent_encode(name, ATTR_CHAR)
    )
}

#[cfg(test)]
mod tests {
    use super::disposition;

    #[test]
    fn a_file_name_cannot_break_out_of_its_header() {
        assert_eq!(
            disposition("loss runs 2025.pdf"),
            "attachment; filename=\"loss runs 2025.pdf\"; filename*=UTF-8''loss%20runs%202025.pdf"
        );
        assert_eq!(
            disposition("a\"b\\c\r\nSet-Cookie: x.pdf"),
            "attachment; filename=\"a_b_c__Set-Cookie: x.pdf\"; \
             filename*=UTF-8''a%22b%5Cc%0D%0ASet-Cookie%3A%20x.pdf"
        );
        assert_eq!(
            disposition("pérdidas.pdf"),
            "attachment; filename=\"p_rdidas.pdf\"; filename*=UTF-8''p%C3%A9rdidas.pdf"
        );
        assert_eq!(
            disposition(" "),
            "attachment; filename=\"document\"; filename*=UTF-8''document"
        );
    }
}
