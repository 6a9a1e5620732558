//! The replication settings' rules (`replica_socket`, `replica_acknowledge`, `replica_wait`): checked when the
//! settings are read, before any room uses them (src/replica).

use super::Settings;

/// The longest `replica_wait` allowed: a visitor's form waits this long at most, and Litestream gives up on a sync
/// with `wait` after 30 s.
pub const LONGEST_WAIT_SECONDS: f64 = 30.0;

/// The settings' checks (`config::load`).
pub fn check(settings: &Settings) -> Result<(), String> {
    let wait = settings.replica_wait;
    if !(wait > 0.0 && wait <= LONGEST_WAIT_SECONDS) {
        return Err(format!(
            "invalid setting: `replica_wait` must be more than 0 and at most {LONGEST_WAIT_SECONDS} seconds"
        ));
    }
    if settings.replica_acknowledge && settings.replica_socket.is_none() {
        return Err(
            "invalid setting: `replica_acknowledge` needs `replica_socket`, the path of Litestream's control socket"
                .into(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_need_a_socket_to_acknowledge_and_a_sensible_wait() {
        let mut settings = Settings {
            replica_acknowledge: true,
            ..Settings::default()
        };
        assert!(check(&settings).unwrap_err().contains("replica_socket"));
        settings.replica_socket = Some("/run/truckins/litestream.sock".into());
        assert!(check(&settings).is_ok());
        for wait in [0.0, -1.0, 31.0, f64::NAN] {
            settings.replica_wait = wait;
            assert!(
                check(&settings).unwrap_err().contains("replica_wait"),
                "{wait}"
            );
        }
    }
}
