//! Settings from every source: files, the environment, flags, their errors and the start-up description.

use super::*;
use rocket::figment::providers::{Format, Toml};

fn with_toml(toml: &str) -> Figment {
    rocket::Config::figment()
        .join(Serialized::defaults(Settings::default()))
        .merge(Toml::string(toml).nested())
}

#[test]
fn profiles_of_ones_own_are_allowed_and_near_misses_of_rockets_are_not() {
    let staged = "[default]\nip_limit = 5\n[staging]\nport = 8001\n[production]\nport = 8002\n";
    assert!(
        load(&with_toml(staged)).is_ok(),
        "[staging] and [production]"
    );
    assert!(
        load(&with_toml("[Release]\nport = 8001\n")).is_ok(),
        "case is ignored"
    );
    assert!(
        load(&with_toml("[local]\nport = 8001\n")).is_ok(),
        "[local] is not [global]"
    );
    for (table, meant) in [
        ("defualt", "default"),
        ("relase", "release"),
        ("globl", "global"),
    ] {
        let error = load(&with_toml(&format!("[{table}]\nport = 8001\n"))).unwrap_err();
        assert!(
            error.contains(&format!("[{table}]")) && error.contains(&format!("[{meant}]")),
            "{error}"
        );
    }
}

#[test]
fn a_carriers_database_at_the_leads_database_is_refused() {
    for (database, carriers) in [
        ("/var/lib/truckins/leads.db", "/var/lib/truckins/leads.db"),
        ("/var/lib/truckins/leads.db", "/var/lib/truckins/./leads.db"),
        ("/srv/carriers.db", "/srv/carriers.db"),
    ] {
        let toml =
            format!("[default]\ndatabase = \"{database}\"\ncarriers_database = \"{carriers}\"\n");
        let error = load(&with_toml(&toml)).unwrap_err();
        assert!(
            error.contains("carriers_database is the leads database"),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
    }
    let apart =
        "[default]\ndatabase = \"/srv/leads.db\"\ncarriers_database = \"/srv/carriers.db\"\n";
    assert!(load(&with_toml(apart)).is_ok());
}

#[test]
fn defaults_apply_when_nothing_is_set() {
    assert_eq!(load(&with_toml("")).unwrap(), Settings::default());
}

#[test]
fn later_sources_override_earlier_ones() {
    let figment = with_toml("[default]\nip_limit = 5\ndatabase = \"/var/lib/truckins/leads.db\"")
        .merge(("ip_limit", 7));
    let settings = load(&figment).unwrap();
    assert_eq!(settings.ip_limit, 7, "a flag beats the file");
    assert_eq!(
        settings.database,
        PathBuf::from("/var/lib/truckins/leads.db")
    );
}

#[test]
fn a_misspelt_key_stops_the_start() {
    let error = load(&with_toml("[default]\ndatbase = \"x.db\"")).unwrap_err();
    assert!(error.starts_with("unknown setting `datbase`"), "{error}");
    assert!(!error.contains('\n'));
}

#[test]
fn bad_values_stop_the_start_with_one_line() {
    for (toml, expected) in [
        ("[default]\nport = \"eighty\"", "port"),
        ("[default]\nip_limit = -1", "ip_limit"),
        (
            "[default]\ntrusted_proxies = [\"not-an-ip\"]",
            "trusted_proxies",
        ),
        ("[default]\nlog_format = \"xml\"", "log_format"),
        ("[default]\nbase_url = \"www.example.com/\"", "base_url"),
    ] {
        let error = load(&with_toml(toml)).unwrap_err();
        assert!(error.contains(expected), "{toml}: {error}");
        assert!(!error.contains('\n'), "{error}");
    }
}

#[test]
fn the_variable_naming_the_config_file_is_not_a_setting() {
    let figment = with_toml("").merge(("config", "/etc/truckins/Rocket.toml"));
    assert!(load(&figment).is_ok());
}

#[test]
fn the_sample_configuration_is_valid() {
    let sample =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/Rocket.toml"))
            .unwrap();
    assert_eq!(load(&with_toml(&sample)).unwrap(), Settings::default());
}

#[test]
fn rockets_own_keys_are_known() {
    assert!(
        load(&with_toml(
            "[default]\nport = 9000\naddress = \"0.0.0.0\"\n[default.limits]\njson = \"64 KiB\""
        ))
        .is_ok()
    );
}
