//! The visitor's confirmation of their lead: short, transactional, no marketing, in the language they wrote in
//! (issue 15). The words of each language sit side by side in one [`Words`] each, so both say the same thing.

use contract::locale::Locale;
use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, SinglePart};

use super::{agency, domain, is_quote, type_label_in};
use crate::leads::store::{Lead, Source};

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
        crate::site::BUILD_BASE_URL.trim().trim_end_matches('/'),
        locale.page(contract::routes::OPT_OUT)
    )
}

/// The visitor's confirmation, in the lead's language.
pub fn autoreply_text(lead: &Lead) -> String {
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
    let subject = if lead.source == Source::Coi {
        words.certificate_subject
    } else if is_quote(lead) {
        words.quote_subject
    } else {
        words.message_subject
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
