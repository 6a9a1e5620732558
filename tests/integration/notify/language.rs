//! A lead sent from the Spanish pages (issue 15), as the agency and the visitor receive it through the real SMTP
//! server and webhook receiver: the agency's subject starts with `[ES] ` and its e-mail has the Language row, the
//! webhook carries `language`, the visitor's confirmation is in Spanish.

use super::support::part;
use super::*;

#[test]
fn a_spanish_lead_reaches_the_agency_marked_and_the_visitor_in_spanish() {
    let site = agency(
        "notify-spanish",
        "serve",
        &["--ip-limit", "1000", "--autoreply"],
    );
    let mut body = quote("maria@lopez.example", "spanish-1");
    body["locale"] = json!("es");
    // The agency reads the type as its English form names it, the visitor as the Spanish form did.
    body["insurance_type"] = json!("dump");
    let reply = post(site.server.port, "/api/leads/quote", &body);
    assert_eq!(reply.status, 201, "{}", reply.text());

    let mails = site.smtp.wait_for_mails(2);
    let is_autoreply = |mail: &&Value| mail["headers"]["auto-submitted"] == "auto-generated";
    let agency = mails.iter().find(|m| !is_autoreply(m)).unwrap();
    let visitor = mails.iter().find(is_autoreply).unwrap();
    assert_eq!(
        agency["headers"]["subject"],
        "[ES] New quote: Maria Lopez, Lopez & Sons Hauling, Dump Truck, 2 trucks"
    );
    let text = part(agency, "text/plain");
    assert!(
        text.contains("Language:       Spanish (call back in Spanish)"),
        "{text}"
    );
    assert!(part(agency, "text/html").contains("Spanish (call back in Spanish)"));

    let subject = visitor["headers"]["subject"].as_str().unwrap();
    assert!(
        subject.starts_with("Recibimos su solicitud de cotización - "),
        "{subject}"
    );
    // As the SMTP server decoded it, with the CRLF line ends of the wire.
    let text = part(visitor, "text/plain").replace("\r\n", "\n");
    assert!(
        text.starts_with(
            "Hola:\n\nGracias, recibimos su solicitud de cotización (Camión de volteo (dump truck), 2 camiones)."
        ),
        "{text}"
    );
    assert!(!text.contains("Thank you"), "{text}");

    let hook = &site.receiver.wait_for(1)[0];
    verify(hook);
    assert_eq!(hook.json()["lead"]["language"], "es");
}
