//! Each client address's share of the connections: how many connections each address holds now, so that one address
//! (the socket's peer, never `X-Forwarded-For`, which anyone can write) cannot take every slot of
//! `max_connections` and leave the site unreachable for everyone else. A trusted proxy is not counted: every visitor
//! reaches the server through it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

// The address a connection is counted under: the network the rate limits count it by too.
use crate::client_ip::network_of as address_of;

/// The connections held by each address, and the share each may hold.
pub(super) struct Shares {
    per_address: usize,
    trusted_proxies: Vec<IpAddr>,
    /// Only addresses holding at least one connection: the map is never larger than the connections served.
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection's place in its address's share, given back when dropped (when the connection ends).
pub(super) struct Share {
    shares: Arc<Shares>,
    /// `None` for a trusted proxy's connection, which is not counted.
    address: Option<IpAddr>,
}

impl Shares {
    pub(super) fn new(per_address: usize, trusted_proxies: &[IpAddr]) -> Arc<Shares> {
        Arc::new(Shares {
            per_address,
            // Exact addresses, as client_ip.rs trusts them: trusting a proxy must not exempt its /64 neighbours.
            trusted_proxies: trusted_proxies.iter().map(IpAddr::to_canonical).collect(),
            held: Mutex::new(HashMap::new()),
        })
    }

    /// A place for a new connection from `peer`; `None` when its address already holds its whole share.
    pub(super) fn take(self: &Arc<Self>, peer: IpAddr) -> Option<Share> {
        if self.trusted_proxies.contains(&peer.to_canonical()) {
            return Some(Share {
                shares: self.clone(),
                address: None,
            });
        }
        let address = address_of(peer);
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(address).or_insert(0);
        if *count >= self.per_address {
            return None;
        }
        *count += 1;
        Some(Share {
            shares: self.clone(),
            address: Some(address),
        })
    }

    #[cfg(test)]
    fn held_by(&self, peer: IpAddr) -> usize {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&address_of(peer)).copied().unwrap_or(0)
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let Some(address) = self.address else { return };
        let mut held = self
            .shares
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&address);
            }
        }
    }
}

/// Connections closed at accept because their address held its share, logged at most once a minute so that a flood
/// cannot flood the log too.
#[derive(Default)]
pub(super) struct Refusals {
    last_logged: Option<Instant>,
    since_logged: u64,
}

impl Refusals {
    pub(super) fn note(&mut self, per_address: usize) {
        self.since_logged += 1;
        if self
            .last_logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(60))
        {
            eprintln!(
                "truckins: {} connection(s) closed as soon as accepted since the last message: their address \
                 already held {per_address} (max_connections_per_ip)",
                self.since_logged
            );
            self.last_logged = Some(Instant::now());
            self.since_logged = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_places_back_as_connections_end() {
        let shares = Shares::new(2, &[]);
        let one: IpAddr = "203.0.113.7".parse().unwrap();
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        let first = shares.take(one).expect("a first place");
        let second = shares.take(one).expect("a second place");
        assert!(shares.take(one).is_none(), "a third place beyond the share");
        assert!(
            shares.take(other).is_some(),
            "another address has its own share"
        );
        drop(first);
        let third = shares.take(one).expect("a place given back");
        drop((second, third));
        assert_eq!(shares.held_by(one), 0);
        assert!(shares.held.lock().unwrap().is_empty(), "no entry is kept");
    }

    #[test]
    fn a_trusted_proxy_is_not_counted() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let shares = Shares::new(1, &[proxy]);
        let held: Vec<Share> = (0..10).map(|_| shares.take(proxy).unwrap()).collect();
        assert_eq!(shares.held_by(proxy), 0);
        // Also when the socket shows it as an IPv4-mapped IPv6 address.
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert!(shares.take(mapped).is_some());
        drop(held);
    }

    #[test]
    fn a_trusted_ipv6_proxy_exempts_itself_not_its_network() {
        let proxy: IpAddr = "2001:db8:1:2::10".parse().unwrap();
        let neighbour: IpAddr = "2001:db8:1:2::11".parse().unwrap();
        let shares = Shares::new(1, &[proxy]);
        let _proxy_held: Vec<Share> = (0..3).map(|_| shares.take(proxy).unwrap()).collect();
        let _first = shares.take(neighbour).expect("the neighbour's first place");
        assert!(shares.take(neighbour).is_none(), "the neighbour is counted");
    }

    #[test]
    fn an_ipv6_network_of_64_bits_is_one_address_and_mapped_ipv4_is_ipv4() {
        let shares = Shares::new(1, &[]);
        let _first = shares.take("2001:db8:1:2::1".parse().unwrap()).unwrap();
        assert!(
            shares
                .take("2001:db8:1:2:ffff::9".parse().unwrap())
                .is_none()
        );
        assert!(shares.take("2001:db8:1:3::1".parse().unwrap()).is_some());
        let _v4 = shares.take("198.51.100.1".parse().unwrap()).unwrap();
        assert!(
            shares
                .take("::ffff:198.51.100.1".parse().unwrap())
                .is_none()
        );
    }
}
