//! The leads' Rocket side: the stage (store opened, limiters made, routes mounted), the forms' POST routes, the
//! request facts kept with a lead ([`Visit`]) and the [`Reply`] they answer with: JSON for programs, a page or a
//! redirect for a plain form post. The work between request and answer is the [`pipeline`](super::pipeline)'s.

use std::borrow::Cow;
use std::os::unix::fs::PermissionsExt;

use rocket::data::Data;
use rocket::fairing::AdHoc;
use rocket::http::{ContentType, Header, Method, Status};
use rocket::request::Request;
use rocket::response::{self, Responder, Response};
use rocket::route::{self, Handler, Route};
use rocket::serde::json::{Value, json};

use super::intake::{self, Encoding};
use super::pipeline::{self, CONTACTS_PER_EMAIL, Verdict, WINDOW};
use super::{Form, LeadSettings, details, language, nojs, optout, validate};
use crate::client_ip::{ClientIp, TrustedProxies};
use crate::errors::ClientError;
use crate::limits::{OneAtATime, RateLimiter, RetryAfter};
use crate::store::{self, DbPool};
use contract::answers;
use contract::locale::Locale;
use contract::routes::{
    CLAIM_THANK_YOU, DETAILS_TOKEN_PARAMETER, POLICY_CHANGE_THANK_YOU, QUOTE_THANK_YOU,
    REFERENCE_PARAMETER,
};

/// Everything the lead routes share.
pub struct Leads {
    pub pool: DbPool,
    pub(super) ip_limit: usize,
    pub(super) per_ip: RateLimiter,
    pub(super) per_email: RateLimiter,
    /// Details posts per IP, counted apart from the forms' (a quote and its details are one visitor's two posts).
    pub(super) per_ip_details: RateLimiter,
    /// Opt-outs per IP, counted apart from the forms'.
    pub(super) per_ip_opt_out: RateLimiter,
    /// Copies of one submission, one at a time.
    pub(super) submissions: OneAtATime,
    /// The carrier census, for the snapshot a quote with a DOT number keeps.
    pub(super) census: std::sync::Arc<crate::carriers::Census>,
    /// The notifications each new lead gets (src/notify), written with it.
    pub outbox: crate::notify::Outbox,
    /// The off-site copy (src/replica): with `replica_acknowledge`, a lead is answered once it is on the replica.
    pub replica: crate::replica::Replica,
}

pub fn stage() -> AdHoc {
    AdHoc::try_on_ignite("Leads", |rocket| async {
        let Some(settings) = rocket.state::<LeadSettings>().cloned() else {
            rocket::error!("the leads need the settings managed as state");
            return Err(rocket);
        };
        let path = settings.database.clone();
        let size = settings.pool_size;
        let checkpoints = store::Checkpoints::for_settings(&settings);
        let pool = match rocket::tokio::task::spawn_blocking(move || {
            store::open_with(&path, size, checkpoints)
        })
        .await
        {
            Ok(Ok(pool)) => pool,
            Ok(Err(error)) => {
                rocket::error!(
                    "cannot open the leads database {}: {error}",
                    settings.database.display()
                );
                return Err(rocket);
            }
            Err(error) => {
                rocket::error!("opening the leads database failed: {error}");
                return Err(rocket);
            }
        };
        rocket::info!("leads database: {}", settings.database.display());
        // A database created by this program is private (store::create_private); one made otherwise may not be.
        if let Ok(found) = std::fs::metadata(&settings.database)
            && found.permissions().mode() & 0o077 != 0
        {
            rocket::warn!(
                "the leads database {} can be read by other users of this machine (mode {:o}): chmod 600 it",
                settings.database.display(),
                found.permissions().mode() & 0o777
            );
        }
        let leads = Leads {
            pool,
            ip_limit: settings.ip_limit,
            per_ip: RateLimiter::new(settings.ip_limit, WINDOW),
            per_email: RateLimiter::new(CONTACTS_PER_EMAIL, WINDOW),
            per_ip_details: RateLimiter::new(settings.ip_limit, WINDOW),
            per_ip_opt_out: RateLimiter::new(settings.ip_limit, WINDOW),
            submissions: OneAtATime::default(),
            census: std::sync::Arc::new(crate::carriers::Census::new(settings.carriers_database())),
            outbox: crate::notify::Outbox::new(&settings),
            replica: crate::replica::Replica::start(&settings),
        };
        // The pool and the outbox are also state of their own, for the rooms that need only them (status links,
        // reminders, retention, the worker, the visit counts), so that none of them depends on the leads' routes.
        let (pool, outbox) = (leads.pool.clone(), leads.outbox.clone());
        Ok(rocket
            .manage(leads)
            .manage(pool)
            .manage(outbox)
            .manage(TrustedProxies(settings.trusted_proxies.clone()))
            .mount(
                "/api",
                Form::ALL.map(|form| FormRoute(form).route()).to_vec(),
            )
            .mount("/api", vec![super::documents::route(settings.ip_limit)])
            .mount("/", ThankYou::routes()))
    })
}

/// Request facts kept with a lead as consent evidence and attribution.
pub struct Visit {
    pub(super) ip: ClientIp,
    pub(super) user_agent: Option<String>,
    pub(super) referer: Option<String>,
}

impl Visit {
    async fn of(request: &Request<'_>) -> Visit {
        let ip = request
            .guard::<ClientIp>()
            .await
            .succeeded()
            .unwrap_or(ClientIp([0, 0, 0, 0].into()));
        let header = |name: &str| {
            request
                .headers()
                .get_one(name)
                .and_then(|value| validate::clean_line(value, 500))
        };
        Visit {
            ip,
            user_agent: header("User-Agent"),
            referer: header("Referer"),
        }
    }
}

/// How the answer is given: JSON for programs, pages for a plain form post.
pub enum Reply {
    Json(Status, Value),
    /// A refusal for a program, as every API error is given.
    Error(ClientError),
    Page(Status, String),
    SeeOther(String),
    /// Another reply, with `Retry-After` (a page refusing a form over its rate limit).
    Later(RetryAfter, Box<Reply>),
}

impl<'r> Responder<'r, 'static> for Reply {
    fn respond_to(self, request: &'r Request<'_>) -> response::Result<'static> {
        let mut response = Response::build();
        match self {
            Reply::Error(error) => return error.respond_to(request),
            Reply::Later(wait, reply) => {
                let mut response = reply.respond_to(request)?;
                response.set_header(wait.header());
                return Ok(response);
            }
            Reply::Json(status, value) => {
                let body = value.to_string();
                response
                    .status(status)
                    .header(ContentType::JSON)
                    .sized_body(body.len(), std::io::Cursor::new(body));
            }
            Reply::Page(status, html) => {
                response
                    .status(status)
                    .header(ContentType::HTML)
                    .header(Header::new("Cache-Control", "no-store"))
                    .sized_body(html.len(), std::io::Cursor::new(html));
            }
            Reply::SeeOther(location) => {
                response
                    .status(Status::SeeOther)
                    .header(Header::new("Location", location));
            }
        }
        Ok(response.finalize())
    }
}

/// A form's POST route, at the address the contract gives it (`/api/leads/quote`, `/api/opt-out`, ...); its work is
/// [`submit`]'s.
#[derive(Clone, Copy)]
struct FormRoute(Form);

impl FormRoute {
    fn route(self) -> Route {
        let endpoint = self.0.rules().endpoint;
        let path = endpoint
            .strip_prefix("/api")
            .expect("a form's endpoint is under /api");
        let mut route = Route::new(Method::Post, path, self);
        route.name = Some(self.0.rules().id.into());
        route
    }
}

#[rocket::async_trait]
impl Handler for FormRoute {
    async fn handle<'r>(&self, request: &'r Request<'_>, body: Data<'r>) -> route::Outcome<'r> {
        let Some(leads) = request.rocket().state::<Leads>() else {
            return route::Outcome::Error(Status::InternalServerError);
        };
        let visit = Visit::of(request).await;
        let reply = submit(self.0, body, request.content_type(), visit, leads).await;
        route::Outcome::from(request, reply)
    }
}

/// A thank-you page the server fills in after a plain form post, in each language: the quote's with its details
/// token (`?details=`), which the page's "Speed up your quote" form needs (src/site leaves these addresses to the
/// application, `site::serves`); a claim's or a change request's with its reference (`?reference=CLM-000123`).
#[derive(Clone, Copy)]
struct ThankYou {
    page: &'static str,
    locale: Locale,
}

impl ThankYou {
    const PAGES: [&'static str; 3] = [QUOTE_THANK_YOU, CLAIM_THANK_YOU, POLICY_CHANGE_THANK_YOU];

    fn routes() -> Vec<Route> {
        Locale::ALL
            .into_iter()
            .flat_map(|locale| Self::PAGES.map(|page| ThankYou { page, locale }.route()))
            .collect()
    }

    fn parameter(self) -> &'static str {
        if self.page == QUOTE_THANK_YOU {
            DETAILS_TOKEN_PARAMETER
        } else {
            REFERENCE_PARAMETER
        }
    }

    fn route(self) -> Route {
        let path = format!("{}?<{}>", self.locale.page(self.page), self.parameter());
        Route::new(Method::Get, &path, self)
    }
}

#[rocket::async_trait]
impl Handler for ThankYou {
    async fn handle<'r>(&self, request: &'r Request<'_>, _: Data<'r>) -> route::Outcome<'r> {
        let value = request
            .query_value::<&str>(self.parameter())
            .and_then(Result::ok);
        let reply = if self.page == QUOTE_THANK_YOU {
            thank_you_page(value, self.locale)
        } else {
            reference_page(self.page, value, self.locale)
        };
        route::Outcome::from(request, reply)
    }
}

fn reference_page(path: &str, reference: Option<&str>, locale: Locale) -> Reply {
    Reply::Page(Status::Ok, nojs::reference_page(path, reference, locale))
}

fn thank_you_page(details: Option<&str>, locale: Locale) -> Reply {
    match details.filter(|token| crate::store::details::is_token(token)) {
        Some(token) => Reply::Page(Status::Ok, nojs::details_offer(token, locale)),
        None => Reply::Page(Status::Ok, nojs::page(QUOTE_THANK_YOU, locale)),
    }
}

fn json_error(status: Status, message: impl Into<Cow<'static, str>>) -> Reply {
    Reply::Error(ClientError::new(status, message))
}

async fn submit(
    form: Form,
    body: Data<'_>,
    content_type: Option<&ContentType>,
    visit: Visit,
    leads: &Leads,
) -> Reply {
    // Until the body names its language, that of the page that sent it.
    let hint = language::of_referer(visit.referer.as_deref());
    let Some(encoding) = Encoding::of(content_type) else {
        return json_error(
            Status::UnsupportedMediaType,
            hint.text(answers::UNSUPPORTED_TYPE),
        );
    };
    let fields = match intake::read(form, body, encoding).await {
        Ok(fields) => fields,
        // A request that cannot be read at all: JSON for a program, the empty form with the reason for a person.
        Err(refusal) => {
            let locale = refusal.locale.unwrap_or(hint);
            return match encoding {
                Encoding::Json => json_error(refusal.status, refusal.message(locale)),
                Encoding::Form => nojs::unreadable(form, refusal.status, locale),
            };
        }
    };
    let (verdict, locale) = match language::of_fields(&fields) {
        Ok(locale) => match form {
            Form::Details => (details::process(&fields, &visit, leads).await, locale),
            Form::OptOut => (optout::process(&fields, &visit, leads).await, locale),
            _ => (
                pipeline::process(form, locale, &fields, &visit, leads).await,
                locale,
            ),
        },
        // An unknown language: the error on `locale`, the rest as the sending page's.
        Err(errors) => (Verdict::Invalid(errors), hint),
    };
    // A lead the visitor is told was received is, with `replica_acknowledge`, off the machine first: on the replica,
    // or its news taken by the agency's relay or webhook, whichever comes first (src/replica/acknowledge.rs). The
    // worker is woken first: the agency's copy is never held behind the replica.
    if let Verdict::Accepted(id, _) = &verdict {
        let first_copy = (form.makes_lead() && leads.replica.acknowledges())
            .then(|| leads.outbox.first_copies().map(|copies| copies.expect(*id)))
            .flatten();
        leads.outbox.wake();
        leads.replica.acknowledge(first_copy).await;
    }
    match encoding {
        Encoding::Json => json_answer(verdict, form, locale),
        Encoding::Form => nojs::answer(verdict, form, &fields, locale),
    }
}

/// A program's answer to what happened to its submission, its messages in `locale`.
fn json_answer(verdict: Verdict, form: Form, locale: Locale) -> Reply {
    if let Some((status, message)) = details::refusal(&verdict) {
        return json_error(status, locale.text(message));
    }
    match verdict {
        // Details change a lead, they make none: 200.
        Verdict::Accepted(id, _) if form == Form::Details => {
            Reply::Json(Status::Ok, json!({ "id": id }))
        }
        Verdict::Dropped if form == Form::Details => Reply::Json(Status::Ok, json!({ "id": 0 })),
        // An opt-out's answer is the same whatever happened to it, and names no record: not an oracle.
        Verdict::Accepted(..) | Verdict::Dropped if form == Form::OptOut => {
            Reply::Json(Status::Created, json!({ "received": true }))
        }
        Verdict::Accepted(id, Some(token)) => {
            Reply::Json(Status::Created, json!({ "id": id, "details_token": token }))
        }
        // A client's claim or change: the reference they can quote when they call.
        Verdict::Accepted(id, None) => match form.source().reference(id) {
            Some(reference) => {
                Reply::Json(Status::Created, json!({ "id": id, "reference": reference }))
            }
            None => Reply::Json(Status::Created, json!({ "id": id })),
        },
        // Spam is answered as a success, in the same shape.
        Verdict::Dropped => match form.source().reference(0) {
            Some(reference) => {
                Reply::Json(Status::Created, json!({ "id": 0, "reference": reference }))
            }
            None => Reply::Json(Status::Created, json!({ "id": 0 })),
        },
        // Answered above.
        Verdict::UnknownToken | Verdict::Expired => {
            Reply::Error(ClientError::for_status_in(Status::NotFound, locale))
        }
        Verdict::Invalid(errors) => Reply::Json(
            Status::UnprocessableEntity,
            json!({ "errors": language::translate(errors, locale) }),
        ),
        Verdict::RateLimited(wait) => Reply::Error(
            ClientError::new(
                Status::TooManyRequests,
                locale.text(form.rules().rate_limit_message),
            )
            .titled("Too Many Attempts")
            .retry_after(wait),
        ),
        Verdict::Busy => json_error(Status::ServiceUnavailable, locale.text(answers::BUSY)),
        // The error catalogue's words for an insert that failed, per form.
        Verdict::Unavailable => json_error(
            Status::ServiceUnavailable,
            locale.text(form.rules().failure_message),
        ),
        Verdict::Failed => json_error(Status::InternalServerError, locale.text(answers::TRY_LATER)),
    }
}
