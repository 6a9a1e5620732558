//! truckins: the website and lead engine of a commercial trucking insurance agency, in one binary.
//!
//! [`rocket`] builds the whole application; [`server`] serves it (the site's files from memory, every other request
//! through the application, in process), and the tests drive it through Rocket's local client, as the server does,
//! or run the real binary.

pub mod alerts;
pub mod analytics;
pub mod built;
pub mod carriers;
pub mod client_ip;
pub mod clock;
pub mod config;
pub mod consent;
pub mod errors;
pub mod fields;
pub mod hours;
pub mod insurers;
pub mod leads;
pub mod limits;
pub mod links;
pub mod notify;
pub mod ops;
pub mod preflight;
pub mod replica;
pub mod security;
pub mod server;
pub mod site;
pub mod status;
pub mod store;
pub mod submission;
pub mod text;
pub mod tls;

use rocket::fairing::AdHoc;
use rocket::figment::Figment;
use rocket::shield::Shield;
use rocket::{Build, Rocket};

/// The application on Rocket's default configuration (`Rocket.toml`, then `ROCKET_*` environment variables).
pub fn rocket() -> Rocket<Build> {
    rocket_with(rocket::Config::figment())
}

/// The application on the given configuration (see [`config`] for the settings it reads).
pub fn rocket_with(figment: Figment) -> Rocket<Build> {
    application(figment).0
}

/// The application and its request log, which the server also writes to for the requests it answers itself.
///
/// The settings are extracted here, once, and managed as state: the stages read them from there. Settings that
/// cannot be extracted stop the start (at ignition) with the reason, rather than running on defaults.
pub fn application(figment: Figment) -> (Rocket<Build>, ops::RequestLog) {
    let settings: config::Settings = match figment.extract() {
        Ok(settings) => settings,
        Err(error) => {
            let log = ops::RequestLog::new(config::LogFormat::Text, ops::LogWriter::stdout());
            let refused = rocket::custom(figment).attach(AdHoc::try_on_ignite(
                "Settings",
                |rocket| async move {
                    rocket::error!("invalid settings: {error}");
                    Err(rocket)
                },
            ));
            return (refused, log);
        }
    };
    let log = ops::RequestLog::new(settings.log_format, ops::LogWriter::stdout());
    let rocket = rocket::custom(figment)
        // An empty Shield replaces Rocket's default one: SecurityHeaders sets every security header itself.
        .attach(Shield::new())
        .attach(security::SecurityHeaders::new(settings.hsts))
        .attach(log.clone())
        .manage(settings)
        .attach(leads::stage())
        .attach(status::routes::stage())
        .attach(submission::stage())
        .attach(alerts::stage())
        .attach(alerts::watching())
        .attach(carriers::stage())
        .attach(ops::stage())
        .attach(site::stage())
        .register("/", errors::html_catchers())
        .register("/api", errors::json_catchers());
    (rocket, log)
}
