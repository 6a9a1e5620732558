//! The visitor's confirmation of their lead: short, transactional, no marketing, in the language they wrote in
//! (issue 15). The words of each language sit side by side in one [`Words`] each, so both say the same thing.

use contract::locale::Locale;
use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, SinglePart};

use super::{agency, domain, is_quote, lower_first, type_label_in};
use crate::store::{Lead, Source};

/// The confirmation's words in one language. `{what}`, `{phone}`, `{brand}` and `{opt_out}` are filled in.
struct Words {
    certificate_subject: &'static str,
    quote_subject: &'static str,
    message_subject: &'static str,
    certificate: &'static str,
    /// Followed by the insurance type and the trucks, in parentheses.
    quote: &'static str,
    message: &'static str,
    one_truck: &'static str,
    /// `{count}` is the number of trucks.
    trucks: &'static str,
    body: &'static str,
}

const ENGLISH: Words = Words {
    certificate_subject: "We have your certificate request",
    quote_subject: "We have your quote request",
    message_subject: "We have your message",
    certificate: "your certificate of insurance request",
    quote: "your quote request",
    message: "your message",
    one_truck: "1 truck",
    trucks: "{count} trucks",
    body: "Hello,\n\nThank you: we have {what}. An agent will get back to you by phone or e-mail during business \
           hours.\n\nIf it is urgent, call us at {phone}.\n\n{brand}\n\n--\nYou get this one confirmation because \
           this address was entered in a form on our website. We will not add it to any mailing list. If it was \
           not you, please ignore this message. To stop all calls, texts and e-mails from us: {opt_out}\n",
};

const SPANISH: Words = Words {
    certificate_subject: "Recibimos su solicitud de certificado",
    quote_subject: "Recibimos su solicitud de cotización",
    message_subject: "Recibimos su mensaje",
    certificate: "su solicitud de certificado de seguro",
    quote: "su solicitud de cotización",
    message: "su mensaje",
    one_truck: "1 camión",
    trucks: "{count} camiones",
    body: "Hola:\n\nGracias, recibimos {what}. Un agente se comunicará con usted por teléfono o correo electrónico \
           en horario de oficina, en español.\n\nSi es urgente, llámenos al {phone}.\n\n{brand}\n\n--\nRecibe \
           esta única confirmación porque esta dirección se escribió en un formulario de nuestro sitio web. No la \
           agregaremos a ninguna lista de correo. Si no fue usted, ignore este mensaje. Para que dejemos de \
           llamarle, enviarle textos y correos: {opt_out}\n",
};

fn words(lead: &Lead) -> &'static Words {
    match lead.language.0 {
        Locale::En => &ENGLISH,
        Locale::Es => &SPANISH,
    }
}

/// `Auto-Submitted: auto-generated` (RFC 3834): the visitor's confirmation is sent by a program, so mail systems
/// must not answer it automatically.
#[derive(Clone)]
pub(super) struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".to_string())
    }
}

/// The opt-out page's full address in `locale`, on the public address the site was built for (`base_url`).
fn opt_out_address(locale: Locale) -> String {
    format!(
        "{}{}",
        crate::site::build_base_url().trim().trim_end_matches('/'),
        locale.page(contract::routes::OPT_OUT)
    )
}

/// A client's confirmation of a claim or a change request, in one language: `{reference}`, `{brand}`, `{phone}`,
/// `{opt_out}` and the parts in braces below are filled in.
struct ServiceWords {
    claim_subject: &'static str,
    change_subject: &'static str,
    /// `{call}` is [`ServiceWords::call_insurer`] or [`ServiceWords::call_us`].
    claim: &'static str,
    /// `{insurer}` and `{insurer_phone}`.
    call_insurer: &'static str,
    call_us: &'static str,
    /// `{line}` and `{line_phone}`: the agency's around-the-clock claims line, when the content has one.
    around_the_clock: &'static str,
    /// `{what}` (the kind's label), `{date}`, `{not_in_force}`, `{after_hours}`.
    change: &'static str,
    after_hours: &'static str,
    footer: &'static str,
}

const SERVICE_ENGLISH: ServiceWords = ServiceWords {
    claim_subject: "We have your claim report",
    change_subject: "We have your policy change request",
    claim: "Hello,\n\nThank you: we have your claim report. Your reference is {reference}: please quote it when you \
            call.\n\nAn agent will call you back as soon as possible. {call}\n\n{brand}\n\n",
    call_insurer: "To report the claim to the insurer now, call {insurer}'s claims line at {insurer_phone}.",
    call_us: "If it is urgent, call us at {phone}.",
    around_the_clock: " At any hour, call {line} at {line_phone}.",
    change: "Hello,\n\nThank you: we have your policy change request ({what}, effective {date}). Your reference is \
             {reference}.\n\n{not_in_force}{after_hours}\n\nIf it is urgent, call us at {phone}.\n\n{brand}\n\n",
    after_hours: " We received it outside our business hours: we will read it on the next business day.",
    footer: "--\nYou get this one confirmation because this address was entered in a form on our website. We will not \
             add it to any mailing list. If it was not you, please ignore this message. To stop all calls, texts and \
             e-mails from us: {opt_out}\n",
};

const SERVICE_SPANISH: ServiceWords = ServiceWords {
    claim_subject: "Recibimos su reporte de siniestro",
    change_subject: "Recibimos su solicitud de cambio de póliza",
    claim: "Hola:\n\nGracias, recibimos su reporte de siniestro. Su número de referencia es {reference}: menciónelo \
            cuando nos llame.\n\nUn agente le llamará lo antes posible, en español. {call}\n\n{brand}\n\n",
    call_insurer: "Para reportar el siniestro a la aseguradora ahora, llame a la línea de reclamos de {insurer} al \
                   {insurer_phone}.",
    call_us: "Si es urgente, llámenos al {phone}.",
    around_the_clock: " A cualquier hora, llame a {line} al {line_phone}.",
    change: "Hola:\n\nGracias, recibimos su solicitud de cambio de póliza ({what}, a partir del {date}). Su número \
             de referencia es {reference}.\n\n{not_in_force}{after_hours}\n\nSi es urgente, llámenos al \
             {phone}.\n\n{brand}\n\n",
    after_hours: " La recibimos fuera de nuestro horario de oficina: la leeremos el siguiente día hábil.",
    footer: "--\nRecibe esta única confirmación porque esta dirección se escribió en un formulario de nuestro sitio \
             web. No la agregaremos a ninguna lista de correo. Si no fue usted, ignore este mensaje. Para que dejemos \
             de llamarle, enviarle textos y correos: {opt_out}\n",
};

fn service_words(lead: &Lead) -> &'static ServiceWords {
    match lead.language.0 {
        Locale::En => &SERVICE_ENGLISH,
        Locale::Es => &SERVICE_SPANISH,
    }
}

/// A claim's or a change request's confirmation (issue 28): its reference; for a claim, the chosen insurer's claims
/// line, or without one the agency's phone (and its around-the-clock claims line if it has one); for a change, that
/// nothing is in force until the agency confirms it, and, sent while the agency is closed, when it will be read.
fn service_text(lead: &Lead) -> String {
    let (brand, phone) = agency();
    let locale = lead.language.0;
    let words = service_words(lead);
    let request = lead.request.clone().unwrap_or_default();
    let reference = lead.source.reference(lead.id).unwrap_or_default();
    let body = if lead.source == Source::Claim {
        let insurer = request
            .get("insurer")
            .and_then(crate::insurers::find)
            .filter(|insurer| !insurer.claims_phone.is_empty());
        let call = match insurer {
            Some(insurer) => words
                .call_insurer
                .replace("{insurer}", insurer.name)
                .replace("{insurer_phone}", insurer.claims_phone),
            None => {
                let mut call = words.call_us.to_string();
                if let Some((line, line_phone)) = crate::insurers::claims_line() {
                    call.push_str(
                        &words
                            .around_the_clock
                            .replace("{line}", line)
                            .replace("{line_phone}", line_phone),
                    );
                }
                call
            }
        };
        words.claim.replace("{call}", &call)
    } else {
        let kind = request
            .get("change_kind")
            .and_then(contract::forms::policy_change::ChangeKind::find)
            .map(|kind| lower_first(locale.text(kind.label)))
            .unwrap_or_default();
        let received = time::OffsetDateTime::parse(
            &lead.created_at,
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap_or_else(|_| crate::clock::now_utc());
        let after_hours = if crate::hours::is_open_at(received) {
            ""
        } else {
            words.after_hours
        };
        words
            .change
            .replace("{what}", &kind)
            .replace("{date}", request.get("effective_date").unwrap_or_default())
            .replace(
                "{not_in_force}",
                locale.text(contract::forms::policy_change::NOT_IN_FORCE_UNTIL_CONFIRMED),
            )
            .replace("{after_hours}", after_hours)
    };
    format!("{body}{}", words.footer)
        .replace("{reference}", &reference)
        .replace("{phone}", phone)
        .replace("{brand}", brand)
        .replace("{opt_out}", &opt_out_address(locale))
}

/// The visitor's confirmation, in the lead's language.
pub fn autoreply_text(lead: &Lead) -> String {
    if matches!(lead.source, Source::Claim | Source::Change) {
        return service_text(lead);
    }
    let (brand, phone) = agency();
    let words = words(lead);
    let what = if lead.source == Source::Coi {
        words.certificate.to_string()
    } else if is_quote(lead) {
        let mut details: Vec<String> = lead
            .insurance_type
            .as_deref()
            .map(|t| type_label_in(lead.language.0, t).to_string())
            .into_iter()
            .collect();
        details.extend(lead.vehicle_count.map(|count| match count {
            1 => words.one_truck.to_string(),
            _ => words.trucks.replace("{count}", &count.to_string()),
        }));
        format!("{} ({})", words.quote, details.join(", "))
    } else {
        words.message.to_string()
    };
    words
        .body
        .replace("{what}", &what)
        .replace("{phone}", phone)
        .replace("{brand}", brand)
        .replace("{opt_out}", &opt_out_address(lead.language.0))
}

pub fn autoreply_message(lead: &Lead, key: &str, from: &Mailbox) -> Result<Message, String> {
    let (brand, _) = agency();
    // The bare address, no display name: nothing the visitor typed goes out from the agency's domain.
    let to: Mailbox = Mailbox::new(
        None,
        lead.email
            .parse()
            .map_err(|e| format!("the visitor's address cannot be mailed ({e})"))?,
    );
    let words = words(lead);
    let reference = lead.source.reference(lead.id).unwrap_or_default();
    let subject = match lead.source {
        Source::Coi => words.certificate_subject.to_string(),
        Source::Claim => format!("{} {reference}", service_words(lead).claim_subject),
        Source::Change => format!("{} {reference}", service_words(lead).change_subject),
        _ if is_quote(lead) => words.quote_subject.to_string(),
        _ => words.message_subject.to_string(),
    };
    Message::builder()
        .from(from.clone())
        .to(to)
        .subject(format!("{subject} - {brand}"))
        .message_id(Some(format!("<{key}@{}>", domain(from))))
        .header(AutoSubmitted)
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(autoreply_text(lead)),
        )
        .map_err(|e| format!("the e-mail could not be built: {e}"))
}
