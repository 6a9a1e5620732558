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

/// A settings file holding `text` with `mode`, in a folder of its own, and the figment that reads it.
fn settings_file(label: &str, text: &str, mode: u32) -> (PathBuf, Figment) {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("truckins-config-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("truckins.toml");
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    let file = SettingsFile {
        path: path.clone(),
        named: Named::Flag,
    };
    (path, figment_with(Some(file)))
}

#[test]
fn the_sample_configuration_is_valid() {
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../deploy/truckins.toml"
    ))
    .unwrap();
    let (_, figment) = settings_file("sample", &sample, 0o600);
    let expected = Settings {
        database: PathBuf::from("/var/lib/truckins/truckins.db"),
        ..Settings::default()
    };
    assert_eq!(load(&figment).unwrap(), expected);
    // Its commented secrets, once filled in, are what the mode rule is about.
    let filled = sample.replace("# webhook_secret = ", "webhook_secret = ");
    let (_, figment) = settings_file("sample-secret", &filled, 0o640);
    assert!(load(&figment).unwrap_err().contains("webhook_secret"));
}

#[test]
fn the_settings_file_beats_the_defaults_with_flat_keys_and_tables() {
    let text = "port = 9100\nip_limit = 3\n[shutdown]\ngrace = 9\n";
    let (_, figment) = settings_file("flat", text, 0o644);
    assert_eq!(load(&figment).unwrap().ip_limit, 3);
    let rocket = rocket::Config::from(&figment);
    assert_eq!(
        (rocket.port, rocket.shutdown.grace, rocket.shutdown.mercy),
        (9100, 9, 2),
        "the file's grace over the built-in 5, the built-in mercy kept"
    );
    let flag = figment.merge(("ip_limit", 7));
    assert_eq!(load(&flag).unwrap().ip_limit, 7, "a flag beats the file");
    let (_, copied) = settings_file("rocket-copy", "[default]\nport = 9101\n", 0o644);
    assert_eq!(
        rocket::Config::from(&copied).port,
        9101,
        "[default] read as the top"
    );
}

#[test]
fn an_unknown_key_in_the_settings_file_names_the_key_and_the_file() {
    let (path, figment) = settings_file("unknown", "datbase = \"x.db\"\n", 0o644);
    let error = load(&figment).unwrap_err();
    assert!(error.starts_with("unknown setting `datbase`"), "{error}");
    assert!(error.contains(&path.display().to_string()), "{error}");
    let (_, profile) = settings_file("profile", "[release]\nport = 1\n", 0o644);
    assert!(
        load(&profile)
            .unwrap_err()
            .starts_with("unknown setting `release`")
    );
}

#[test]
fn secrets_are_read_from_a_settings_file_only_its_owner_may_read() {
    let text = "smtp_url = \"smtp://mailer:hunter2-secret@smtp.example.com:587\"\n\
                mail_from = \"leads@example.com\"\nnotify_to = [\"owner@example.com\"]\n";
    for mode in [0o600, 0o400] {
        let (_, figment) = settings_file("owner", text, mode);
        assert!(load(&figment).is_ok(), "mode {mode:o}");
    }
    for mode in [0o644, 0o640, 0o604] {
        let (path, figment) = settings_file("others", text, mode);
        let error = load(&figment).unwrap_err();
        let file = path.display();
        for words in [
            "smtp_url's password".to_string(),
            format!("mode {mode:04o}"),
            format!("chmod 600 {file}; chown truckins {file}"),
        ] {
            assert!(error.contains(&words), "{words}: {error}");
        }
        assert!(!error.contains("hunter2"), "{error}");
        assert!(!error.contains('\n'), "{error}");
    }
    // A relay without a password is no secret.
    let plain = "smtp_url = \"smtp://127.0.0.1:25?tls=none\"\nmail_from = \"leads@example.com\"\n\
                 notify_to = [\"owner@example.com\"]\n";
    let (_, figment) = settings_file("plain", plain, 0o644);
    assert!(load(&figment).is_ok());
}

#[test]
fn a_settings_file_that_is_not_there_is_named() {
    let file = SettingsFile {
        path: PathBuf::from("/nonexistent/truckins.toml"),
        named: Named::Variable,
    };
    let error = load(&figment_with(Some(file))).unwrap_err();
    assert_eq!(
        error,
        "the settings file /nonexistent/truckins.toml (named by TRUCKINS_CONFIG) was not found"
    );
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
