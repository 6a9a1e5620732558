//! Shared by the integration tests: the application on a fresh SQLite file of its own, as `main` builds it.

pub mod process;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rocket::figment::Figment;
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
pub fn figment(database: &PathBuf) -> Figment {
    truckins::config::figment()
        .merge(("database", database))
        .merge(("log_level", "critical"))
}

pub fn client() -> Client {
    client_with(figment(&temp_database("app")))
}

pub fn client_with(figment: Figment) -> Client {
    Client::tracked(truckins::rocket_with(figment)).expect("the application builds")
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
