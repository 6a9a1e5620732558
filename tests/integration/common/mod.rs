//! Shared by the integration tests: the application on a fresh SQLite file of its own, as `main` builds it.

pub mod forms;
pub mod process;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rocket::figment::value::Value;
use rocket::figment::{Figment, Profile, Provider, Source};
use rocket::local::blocking::Client;

/// A path for a new database file, unique to this test process and call.
pub fn temp_database(label: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "truckins-test-{}-{}-{label}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("leads.db")
}

/// The binary's default configuration with a test database and quiet logs.
///
/// Built by `truckins::config::figment()`, as `main` builds it, so it also reads the environment's `ROCKET_*` and
/// `TRUCKINS_*` variables and a `Rocket.toml`: one left in a developer's shell (`TRUCKINS_IP_LIMIT`, say) would
/// change what these tests test. The tests that run the binary remove those variables from its environment; here,
/// where they cannot be removed, a test fails naming each setting such a source makes.
pub fn figment(database: &PathBuf) -> Figment {
    let figment = truckins::config::figment();
    let outside = settings_from_outside(&figment);
    assert!(
        outside.is_empty(),
        "the tests expect the built-in configuration, but these settings come from outside it (unset or remove \
         them to run the tests): {}",
        outside.into_iter().collect::<Vec<_>>().join(", ")
    );
    figment
        .merge(("database", database))
        .merge(("log_level", "critical"))
}

pub fn client() -> Client {
    client_with(figment(&temp_database("app")))
}

pub fn client_with(figment: Figment) -> Client {
    install_built();
    Client::tracked(truckins::rocket_with(figment)).expect("the application builds")
}

/// Hands the site and facts the build made to the server library in this test process, as `main` does.
pub fn install_built() {
    truckins::built::install(truckins::built::Built {
        texts: embedded::TEXTS,
        file: embedded::file,
        names: embedded::names,
    });
}

/// A text file build.rs wrote for the server, as the binary embeds it (crates/embedded).
pub fn built_text(name: &str) -> &'static str {
    embedded::TEXTS
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, text)| *text)
        .unwrap_or_else(|| panic!("build.rs writes {name}"))
}

/// The consent text beside the English quote form, and its version; the Spanish form's.
pub fn consent_text() -> &'static str {
    built_text("consent.txt")
}
pub fn consent_version() -> &'static str {
    built_text("consent-version.txt")
}
pub fn consent_text_es() -> &'static str {
    built_text("consent.es.txt")
}
pub fn consent_version_es() -> &'static str {
    built_text("consent-version.es.txt")
}

/// Every page's path as the site's `sitemap.xml` lists it (`/`, `/about`, ...).
pub fn sitemap_paths(client: &Client) -> Vec<String> {
    let sitemap = client.get("/sitemap.xml").dispatch().into_string().unwrap();
    sitemap
        .split("<loc>")
        .skip(1)
        .filter_map(|rest| rest.split("</loc>").next())
        // https://host/path -> /path
        .map(|url| format!("/{}", url.splitn(4, '/').nth(3).unwrap_or("")))
        .collect()
}

/// Each setting of `figment` that an environment variable or a file provides, named with its source.
fn settings_from_outside(figment: &Figment) -> BTreeSet<String> {
    fn walk(
        figment: &Figment,
        profile: &Profile,
        keys: &mut Vec<String>,
        value: &Value,
        found: &mut BTreeSet<String>,
    ) {
        match value {
            Value::Dict(_, dict) => {
                for (key, value) in dict {
                    keys.push(key.clone());
                    walk(figment, profile, keys, value, found);
                    keys.pop();
                }
            }
            Value::Array(_, values) => values
                .iter()
                .for_each(|value| walk(figment, profile, keys, value, found)),
            value => {
                let Some(metadata) = figment.get_metadata(value.tag()) else {
                    return;
                };
                if let Some(Source::File(path)) = &metadata.source {
                    found.insert(format!("`{}` from {}", keys.join("."), path.display()));
                } else if metadata.name.contains("environment variable") {
                    // The name reads "`TRUCKINS_` environment variable(s)"; the interpolated key "IP_LIMIT".
                    let prefix = metadata.name.split('`').nth(1).unwrap_or_default();
                    found.insert(format!("{prefix}{}", metadata.interpolate(profile, keys)));
                }
            }
        }
    }
    let mut found = BTreeSet::new();
    for (profile, dict) in figment.data().expect("the configuration's sources read") {
        for (key, value) in &dict {
            walk(figment, &profile, &mut vec![key.clone()], value, &mut found);
        }
    }
    found
}

/// A quote request every rule accepts, as the JSON a browser sends (without a submission id).
pub fn valid_quote() -> serde_json::Value {
    serde_json::json!({
        "name": "Dana O'Neil-Smith",
        "email": "dana@example.com",
        "phone": "(555) 210-0142",
        "company": "Lone Star Haulers",
        "insurance_type": "dump",
        "vehicle_count": 3,
        "dot_number": "1234567",
        "consent": true,
    })
}

/// A database at `path` as an older release left it: the migrations `schema` (numbered from 1) applied and recorded.
pub fn database_migrated_to(path: &std::path::Path, schema: &[&str]) -> rusqlite::Connection {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection
        .execute_batch("PRAGMA foreign_keys = ON")
        .unwrap();
    connection
        .execute_batch("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        .unwrap();
    for (version, sql) in schema.iter().enumerate() {
        connection.execute_batch(sql).unwrap();
        connection
            .execute(
                "INSERT INTO schema_migrations VALUES (?1, '2026-01-01T00:00:00Z')",
                [version as i64 + 1],
            )
            .unwrap();
    }
    connection
}

/// A CSV table (RFC 4180, as the csv crate reads it): its header and its rows as header -> cell maps.
pub fn csv_table<R: std::io::Read>(
    mut reader: csv::Reader<R>,
) -> (Vec<String>, Vec<std::collections::HashMap<String, String>>) {
    let headers: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|record| {
            headers
                .iter()
                .cloned()
                .zip(record.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect();
    (headers, rows)
}

/// The report e-mail queued in the leads file (the `report` delivery's payload).
pub fn queued_report(database: &std::path::Path) -> serde_json::Value {
    let payload: String = rusqlite::Connection::open(database)
        .unwrap()
        .query_row(
            "SELECT payload FROM deliveries WHERE kind = 'report'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    serde_json::from_str(&payload).unwrap()
}
