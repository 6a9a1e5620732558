//! truckins: the website and lead engine of a commercial trucking insurance agency, in one binary.
//!
//! [`rocket`] builds the whole application; `main` launches it and every test drives it through Rocket's local
//! client, so tests exercise exactly what runs in production.

pub mod client_ip;
pub mod config;
pub mod errors;
pub mod leads;
pub mod ops;
pub mod security;
pub mod site;

use rocket::figment::Figment;
use rocket::shield::Shield;
use rocket::{Build, Rocket};

/// The application on Rocket's default configuration (`Rocket.toml`, then `ROCKET_*` environment variables).
pub fn rocket() -> Rocket<Build> {
    rocket_with(rocket::Config::figment())
}

/// The application on the given configuration (see [`config`] for the settings it reads).
pub fn rocket_with(figment: Figment) -> Rocket<Build> {
    // Settings that shape fairings are read here; the stages read theirs from the same figment and stop the
    // start with a clear message if they are invalid.
    let settings: config::Settings = figment.extract().unwrap_or_default();
    rocket::custom(figment)
        // An empty Shield replaces Rocket's default one: SecurityHeaders sets every security header itself.
        .attach(Shield::new())
        .attach(security::SecurityHeaders::new(settings.hsts))
        .attach(ops::RequestLog::new(
            settings.log_format,
            ops::LogWriter::stdout(),
        ))
        .attach(leads::stage())
        .attach(ops::stage())
        .attach(site::stage())
        .register("/api", errors::json_catchers())
}
