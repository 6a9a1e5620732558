//! The settings file that every command reads: the one named by `--config` (or `TRUCKINS_CONFIG`), else
//! `/etc/truckins/truckins.toml` when it exists, so that the service and an administrator's shell share one file
//! with nothing typed. Without either, Rocket's `Rocket.toml` (or `ROCKET_CONFIG`) is read as before.
//!
//! The file holds flat TOML keys: every setting of [`super::Settings`] and Rocket's own (`address`, `port`,
//! `keep_alive`, ...; `[shutdown]` and `[limits]` as tables). A `[default]` table, as in a Rocket.toml copied over,
//! is read as if its keys stood at the top; other profiles (`[release]`, `[debug]`, ...) are not, and are refused
//! as unknown keys. Secrets (a password in `smtp_url`, `webhook_secret`) are taken from the file only when no one
//! but its owner may read it: a file others can read would hand them the relay's login or the webhook's key.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use rocket::figment::providers::{Format, Toml};
use rocket::figment::value::{Dict, Map};
use rocket::figment::{Error, Figment, Metadata, Profile, Provider, Source};

/// The settings file read when none is named, if it exists.
pub const DEFAULT_FILE: &str = "/etc/truckins/truckins.toml";

/// The words every name of this provider starts with; a figment error from it names the file itself
/// ([`is_own_error`]).
const PROVIDER_NAME: &str = "settings file";

/// How the settings file was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// `--config FILE`.
    Flag,
    /// `TRUCKINS_CONFIG=FILE`.
    Variable,
    /// [`DEFAULT_FILE`], which exists.
    DefaultPlace,
}

impl Named {
    fn words(self) -> &'static str {
        match self {
            Named::Flag => "named by --config",
            Named::Variable => "named by TRUCKINS_CONFIG",
            Named::DefaultPlace => "the default place",
        }
    }
}

/// The settings file and how it was chosen; a figment provider of its keys (in the global profile, above the
/// defaults and beneath the environment and the flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsFile {
    pub path: PathBuf,
    pub named: Named,
}

impl SettingsFile {
    /// The file named by `option` (`--config`, which clap also fills from `TRUCKINS_CONFIG`), else
    /// [`DEFAULT_FILE`] if it exists; `None`: no settings file, Rocket.toml as before.
    pub fn choose(option: Option<PathBuf>) -> Option<SettingsFile> {
        match option {
            Some(path) => {
                // clap merges the flag and the variable; the same value in the variable means it came from there
                // (or from both, which says the same).
                let from_variable =
                    std::env::var_os("TRUCKINS_CONFIG").is_some_and(|value| value == path);
                let named = if from_variable {
                    Named::Variable
                } else {
                    Named::Flag
                };
                Some(SettingsFile { path, named })
            }
            None => Path::new(DEFAULT_FILE).exists().then(|| SettingsFile {
                path: PathBuf::from(DEFAULT_FILE),
                named: Named::DefaultPlace,
            }),
        }
    }

    /// `/etc/truckins/truckins.toml (the default place)`, as messages and `truckins check` name the file.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.path.display(), self.named.words())
    }

    /// The file's keys, checked: it exists and is TOML, `[default]` is folded in, secrets are in it only if it is
    /// its owner's alone, and no `ROCKET_CONFIG` names another file beside it.
    fn read(&self) -> Result<Dict, String> {
        let shown = self.describe();
        if let Some(other) = std::env::var_os("ROCKET_CONFIG") {
            return Err(format!(
                "ROCKET_CONFIG names {} but the settings are read from {shown}; unset ROCKET_CONFIG (move what its \
                 file holds into the settings file)",
                Path::new(&other).display()
            ));
        }
        let cannot = |error: std::io::Error| match error.kind() {
            ErrorKind::NotFound => format!("the settings file {shown} was not found"),
            ErrorKind::PermissionDenied => format!(
                "cannot read the settings file {shown}: {error} (run the command as the file's owner, e.g. sudo -u \
                 truckins truckins ...)"
            ),
            _ => format!("cannot read the settings file {shown}: {error}"),
        };
        let mut file = File::open(&self.path).map_err(cannot)?;
        let mode = file.metadata().map_err(cannot)?.permissions().mode() & 0o7777;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(cannot)?;
        let dict = parse(&text).map_err(|why| format!("the settings file {shown} {why}"))?;
        let dict = fold_default(dict).map_err(|why| format!("the settings file {shown}: {why}"))?;
        let secrets = secrets_in(&dict);
        if !secrets.is_empty() && mode & 0o077 != 0 {
            let file = self.path.display();
            return Err(format!(
                "{} in {file} may be read by others than its owner (mode {mode:04o}); a secret is read from a file \
                 only its owner may read: chmod 600 {file}; chown truckins {file} (or give it in the environment)",
                secrets.join(" and ")
            ));
        }
        Ok(dict)
    }
}

impl Provider for SettingsFile {
    fn metadata(&self) -> Metadata {
        // Absolute, so that messages name the file wherever the command was run from.
        let path = std::path::absolute(&self.path).unwrap_or_else(|_| self.path.clone());
        Metadata::from(
            format!("{PROVIDER_NAME} ({})", self.named.words()),
            Source::File(path),
        )
        // Flat keys: a key is its path (`shutdown.grace`), with no profile before it.
        .interpolater(|_, keys| keys.join("."))
    }

    fn data(&self) -> Result<Map<Profile, Dict>, Error> {
        // Global: above the defaults (which are in the default profile) whatever profile is selected; the
        // environment and the flags, global too, are merged after it and so win.
        Ok(Map::from([(
            Profile::Global,
            self.read().map_err(Error::from)?,
        )]))
    }
}

/// The files the settings were read from, each as a path and as messages name it: the settings file with how it
/// was chosen, or Rocket.toml (whose provider names its file even when it is absent, hence the test that it exists).
pub fn files_read(figment: &Figment) -> Vec<(PathBuf, String)> {
    figment
        .metadata()
        .filter_map(|metadata| {
            let path = metadata.source.as_ref()?.file_path()?;
            // Absolute, as `truckins check` names every path: a relative one says nothing once in a log.
            let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            let described = match metadata.name.strip_prefix(PROVIDER_NAME) {
                Some(how) => format!("{}{how}", path.display()),
                None => path.display().to_string(),
            };
            path.exists().then_some((path, described))
        })
        .collect()
}

/// Whether a figment error came from reading a settings file (rather than from a key's value): its message names
/// the file already, so it is shown alone, without figment's "in FILE settings file ...".
pub fn is_own_error(error: &Error) -> bool {
    error.path.is_empty()
        && matches!(error.kind, rocket::figment::error::Kind::Message(_))
        && error
            .metadata
            .as_ref()
            .is_some_and(|metadata| metadata.name.starts_with(PROVIDER_NAME))
}

/// The file's text as TOML. A parse error says where, never the line itself: that line may hold a password.
fn parse(text: &str) -> Result<Dict, String> {
    Toml::from_str::<Dict>(text).map_err(|error| {
        let line = error
            .span()
            .map(|span| text[..span.start.min(text.len())].lines().count().max(1))
            .map(|line| format!(" at line {line}"))
            .unwrap_or_default();
        format!("is not valid TOML{line}: {}", error.message())
    })
}

/// The keys of a `[default]` table moved to the top; a key set in both places is refused rather than one of them
/// silently winning.
fn fold_default(mut dict: Dict) -> Result<Dict, String> {
    let Some(value) = dict.remove("default") else {
        return Ok(dict);
    };
    let inner = value.into_dict().ok_or(
        "`default` must be the table [default] (or leave it out: keys may stand at the top)",
    )?;
    for (key, value) in inner {
        if dict.contains_key(&key) {
            return Err(format!(
                "`{key}` is set both at the top and in [default]; keep one"
            ));
        }
        dict.insert(key, value);
    }
    Ok(dict)
}

/// The secrets among the file's keys, named as the refusal names them.
fn secrets_in(dict: &Dict) -> Vec<&'static str> {
    let mut found = Vec::new();
    let smtp_url = dict.get("smtp_url").and_then(|value| value.as_str());
    if smtp_url.is_some_and(carries_password) {
        found.push("smtp_url's password");
    }
    if dict.contains_key("webhook_secret") {
        found.push("webhook_secret");
    }
    found
}

/// Whether a relay's URL holds a password. One that cannot be read as a URL counts when it has a user part: it
/// may hold one, and the file is not the place to find out.
fn carries_password(url: &str) -> bool {
    match url::Url::parse(url) {
        Ok(url) => url.password().is_some(),
        Err(_) => url.contains('@'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relay_url_carries_a_password_only_with_one() {
        assert!(carries_password("smtp://apikey:KEY@smtp.example.com:587"));
        assert!(carries_password("smtps://user:p%40ss@smtp.example.com:465"));
        assert!(!carries_password("smtp://127.0.0.1:25?tls=none"));
        assert!(!carries_password("smtp://user@smtp.example.com:587"));
        assert!(carries_password("not a url but user:pass@host"));
    }

    #[test]
    fn a_default_table_is_read_as_the_top_and_a_key_in_both_is_refused() {
        let dict =
            parse("port = 9000\n[default]\nip_limit = 5\n[default.shutdown]\ngrace = 3\n").unwrap();
        let folded = fold_default(dict).unwrap();
        assert!(folded.contains_key("port") && folded.contains_key("ip_limit"));
        assert!(folded.contains_key("shutdown") && !folded.contains_key("default"));
        let both = parse("port = 9000\n[default]\nport = 9001\n").unwrap();
        let error = fold_default(both).unwrap_err();
        assert!(error.contains("`port`"), "{error}");
    }

    #[test]
    fn a_parse_error_says_the_line_and_not_what_is_on_it() {
        let text = "port = 8000\nsmtp_url = \"smtp://u:hunter22@host\n";
        let error = parse(text).unwrap_err();
        assert!(error.contains("line 2"), "{error}");
        assert!(!error.contains("hunter22"), "{error}");
    }
}
