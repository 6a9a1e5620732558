//! Telling what a setting's mistake is: a profile name typed wrong, an error of any source on one line.

/// Rocket's own profile that `name` is one or two typing mistakes away from, if it is not that profile itself.
pub(super) fn misspelt_profile(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    ["default", "global", "debug", "release"]
        .into_iter()
        // The same first letter too: `[local]` is somebody's own profile, not a misspelt `[global]`.
        .find(|known| {
            *known != name
                && known.chars().next() == name.chars().next()
                && edit_distance(known, &name) <= 2
        })
}

/// Levenshtein distance (insertions, deletions, substitutions) between two short words.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, b_char) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(a_char != *b_char);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// A figment error as one line. One from reading the settings file names the file itself and is shown alone.
pub fn one_line(error: &rocket::figment::Error) -> String {
    if super::file::is_own_error(error)
        && let rocket::figment::error::Kind::Message(message) = &error.kind
    {
        return message.clone();
    }
    error.to_string().lines().collect::<Vec<_>>().join(" ")
}
