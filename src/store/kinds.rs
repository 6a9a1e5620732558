//! The closed sets of words stored with a lead: which form it came from ([`Source`]) and where the agency has got
//! with it ([`Status`]). Stored and printed as their lowercase names; a name outside the set is refused when read
//! from the file or typed on the command line, instead of being carried along as free text.

use contract::locale::Locale;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// Declares a stored word list: its names, parsing, display, SQLite and JSON conversions, from one table.
macro_rules! stored_words {
    ($(#[$meta:meta])* $name:ident { $($(#[$variant_meta:meta])* $variant:ident = $word:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
        pub enum $name {
            $($(#[$variant_meta])* #[value(name = $word)] $variant,)*
        }

        impl $name {
            /// Every value, in the order they are listed.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// The stored name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)*
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(text: &str) -> Result<Self, String> {
                match text {
                    $($word => Ok($name::$variant),)*
                    _ => Err(format!(
                        "{text:?} is not a {}: one of {}",
                        stringify!($name).to_lowercase(),
                        [$($word),*].join(", ")
                    )),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|message: String| FromSqlError::Other(message.into()))
            }
        }
    };
}

stored_words! {
    /// The form a lead came from.
    Source {
        #[default]
        Quote = "quote",
        Contact = "contact",
        /// A certificate of insurance request from an existing client (issue 13).
        Coi = "coi",
        /// A first notice of loss from a client (issue 28): the agency hears of it ahead of everything else.
        Claim = "claim",
        /// A client's request to change a policy (issue 28): nothing is in force until the agency confirms it.
        Change = "change",
    }
}

stored_words! {
    /// The statuses an admin moves a lead through (DECISIONS 17); every lead starts `new`.
    Status {
        #[default]
        New = "new",
        Contacted = "contacted",
        Quoted = "quoted",
        Won = "won",
        Lost = "lost",
        /// Not a lead the agency can serve (issue 26: the e-mail's "Not a fit").
        NotAFit = "not_a_fit",
    }
}

stored_words! {
    /// How a lead's status was changed (issue 26, `status_changes.via`): a signed link of the agency's e-mail, or
    /// `truckins leads status`.
    ChangedBy {
        #[default]
        Link = "link",
        Cli = "cli",
    }
}

stored_words! {
    /// How a revocation of consent reached the agency (issue 25): the site's opt-out form, or one the agency recorded
    /// with `truckins optout add --via`.
    Via {
        #[default]
        Web = "web",
        Phone = "phone",
        Text = "text",
        Email = "email",
        Letter = "letter",
    }
}

impl Source {
    /// The reference a client can quote for a claim or a change request: `CLM-000123`, `CHG-000045` (the lead's id,
    /// six digits at least); `None` for the other forms, whose answer is the id alone.
    pub fn reference(self, id: i64) -> Option<String> {
        let prefix = match self {
            Source::Claim => "CLM",
            Source::Change => "CHG",
            Source::Quote | Source::Contact | Source::Coi => return None,
        };
        Some(format!("{prefix}-{id:06}"))
    }
}

impl Status {
    /// The statuses a lead at this one can be moved to: every one but `new` and itself (the status links offered in
    /// the agency's e-mail).
    pub fn next(self) -> impl Iterator<Item = Status> {
        Status::ALL
            .iter()
            .copied()
            .filter(move |status| *status != Status::New && *status != self)
    }

    /// As the agency's e-mail and pages say it: "Contacted", "Not a fit".
    pub fn label(self) -> &'static str {
        match self {
            Status::New => "New",
            Status::Contacted => "Contacted",
            Status::Quoted => "Quoted",
            Status::Won => "Won",
            Status::Lost => "Lost",
            Status::NotAFit => "Not a fit",
        }
    }
}

impl Via {
    /// As the agency's e-mail says it: "Opt-out: (214) 555-0199 by web form".
    pub fn described(self) -> &'static str {
        match self {
            Via::Web => "web form",
            Via::Phone => "phone call",
            Via::Text => "text message",
            Via::Email => "e-mail",
            Via::Letter => "letter",
        }
    }
}

/// The language a lead was sent in (issue 15, migration 0009): the contract's [`Locale`], stored as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Language(pub Locale);

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.code())
    }
}

impl serde::Serialize for Language {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.code())
    }
}

impl ToSql for Language {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.code()))
    }
}

impl FromSql for Language {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let code = value.as_str()?;
        Locale::parse(code).map(Language).ok_or_else(|| {
            FromSqlError::Other(format!("{code:?} is not a language: en or es").into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_the_same_value_and_nothing_else_reads() {
        for status in Status::ALL {
            assert_eq!(status.as_str().parse::<Status>(), Ok(*status));
        }
        for source in Source::ALL {
            assert_eq!(source.to_string().parse::<Source>(), Ok(*source));
        }
        assert_eq!(
            "Won".parse::<Status>(),
            Err(
                "\"Won\" is not a status: one of new, contacted, quoted, won, lost, not_a_fit"
                    .into()
            )
        );
        assert!("".parse::<Source>().is_err());
        for locale in Locale::ALL {
            let stored = Language(locale).to_string();
            let read = Language::column_result(ValueRef::Text(stored.as_bytes()));
            assert_eq!(read.ok(), Some(Language(locale)));
        }
        assert!(Language::column_result(ValueRef::Text(b"fr")).is_err());
    }
}

#[cfg(test)]
mod reference_tests {
    use super::Source;

    #[test]
    fn references_name_the_form_and_the_lead() {
        assert_eq!(Source::Claim.reference(123).as_deref(), Some("CLM-000123"));
        assert_eq!(Source::Change.reference(45).as_deref(), Some("CHG-000045"));
        assert_eq!(
            Source::Change.reference(1_234_567).as_deref(),
            Some("CHG-1234567")
        );
        assert_eq!(Source::Quote.reference(1), None);
    }
}
