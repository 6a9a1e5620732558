//! The integration tests, in one crate: one binary to build and link with the whole embedded site, rather than one
//! per file. A module per area; `common` builds the application as `main` does (`truckins::config::figment()`,
//! `truckins::rocket_with`) for the tests that use Rocket's local client, and `common::process` runs the real binary
//! for the tests that need sockets, signals and files.
//!
//! Run one area with a filter on its module: `cargo test --test integration leads::` (nextest: `cargo nextest run
//! -E 'binary(integration) and test(/^leads::/)'`).

mod common;

mod analytics;
mod bench_carriers;
mod bench_leads;
mod budget;
mod carriers;
mod check;
mod claims;
mod cli_guards;
mod coi;
mod config_file;
mod connections;
mod consent;
mod details;
mod docs;
mod durability;
mod edge_answers;
mod export;
mod faults;
mod forget_traces;
mod health_storage;
mod https;
mod languages;
mod leads;
mod leads_language;
mod links;
mod migration;
mod notify;
mod operations;
mod optout_pages;
mod pages;
mod policy_change;
mod replica;
mod report_speed;
mod retry_after;
mod schedules;
mod site;
mod spanish;
mod status_links;
mod status_spellings;
