//! The visitor's IP address, for rate limits and consent records: the socket's peer address, or the address a
//! trusted reverse proxy reports in `X-Forwarded-For`. Headers from anyone else are ignored, so a client cannot
//! choose its own rate-limit key.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use rocket::request::{FromRequest, Outcome, Request};

/// Proxies whose `X-Forwarded-For` is believed (managed state; empty by default).
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(pub Vec<IpAddr>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client address given the socket peer, the proxies trusted and the `X-Forwarded-For` values.
    pub fn resolve<'a>(
        peer: Option<IpAddr>,
        trusted: &[IpAddr],
        forwarded: impl Iterator<Item = &'a str>,
    ) -> IpAddr {
        let peer = peer.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        if !trusted.contains(&peer) {
            return peer;
        }
        // Walk the chain from the nearest hop back; the first address that is not one of our proxies is the client.
        let hops: Vec<IpAddr> = forwarded
            .flat_map(|value| value.split(','))
            .filter_map(|hop| hop.trim().parse().ok())
            .collect();
        hops.into_iter()
            .rev()
            .find(|hop| !trusted.contains(hop))
            .unwrap_or(peer)
    }
}

#[rocket::async_trait]
impl<'r> FromRequest<'r> for ClientIp {
    type Error = std::convert::Infallible;

    async fn from_request(request: &'r Request<'_>) -> Outcome<Self, Self::Error> {
        let trusted = request
            .rocket()
            .state::<TrustedProxies>()
            .map(|t| t.0.as_slice())
            .unwrap_or(&[]);
        let peer = request.remote().map(|address| address.ip());
        Outcome::Success(ClientIp(ClientIp::resolve(
            peer,
            trusted,
            request.headers().get("X-Forwarded-For"),
        )))
    }
}

/// The network an address stands for, where limits count it: IPv4 as is (also when shown mapped into IPv6), IPv6
/// by its /64, which one household or one server is usually given whole: counting each of its addresses apart would
/// give one machine billions of places.
pub fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !(u128::MAX >> 64))),
        },
    }
}

/// The rate-limit key of an address: its [`network_of`], an IPv6 one written as its /64.
pub fn rate_key(ip: IpAddr) -> String {
    match network_of(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_visitors_are_limited_by_their_64_network() {
        let key = |text: &str| rate_key(text.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let proxy = ip("10.0.0.2");
        assert_eq!(
            ClientIp::resolve(
                Some(ip("203.0.113.9")),
                &[proxy],
                ["198.51.100.1"].into_iter()
            ),
            ip("203.0.113.9")
        );
        assert_eq!(
            ClientIp::resolve(Some(proxy), &[proxy], ["198.51.100.1"].into_iter()),
            ip("198.51.100.1")
        );
        // A client that forges the first hop does not get to choose: the hop the proxy appended wins.
        assert_eq!(
            ClientIp::resolve(Some(proxy), &[proxy], ["1.2.3.4, 198.51.100.1"].into_iter()),
            ip("198.51.100.1")
        );
        assert_eq!(
            ClientIp::resolve(Some(proxy), &[proxy], ["garbage"].into_iter()),
            proxy
        );
    }
}
