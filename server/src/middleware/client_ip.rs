//! The client address that rate limits and lockouts count by.
//!
//! `X-Forwarded-For` is a list that every proxy appends to: `client, proxy1, proxy2`. Only
//! the entries added by proxies we run can be believed; anything to their left may have
//! been written by the client itself. So the header is read only when the socket peer is
//! one of our proxies (`ROSACE_TRUSTED_PROXIES`), and then from the right: trusted proxies
//! are skipped, and the first address that is not one of them is the client. The first
//! (left-most) entry is never taken on its own say-so: a client that sends
//! `X-Forwarded-For: 1.2.3.<n>` would otherwise get a fresh rate-limit bucket every time.
//!
//! Network parsing and matching use the `ipnet` crate, already in Cargo.lock (reqwest
//! depends on it), instead of hand-written CIDR arithmetic.
use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` entries are believed. Empty: the header is ignored
/// and the socket peer is the client.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses `10.0.0.0/8, 192.168.1.7, ::1, fd00::/8` (addresses or networks, comma or
    /// space separated).
    pub fn parse(spec: &str) -> Result<TrustedProxies, String> {
        let mut nets = Vec::new();
        for item in spec
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            let net = match item.parse::<IpNet>() {
                Ok(net) => net.trunc(),
                Err(_) => IpNet::from(item.parse::<IpAddr>().map_err(|_| {
                    format!("ROSACE_TRUSTED_PROXIES: {item:?} is not an address or network")
                })?),
            };
            nets.push(net);
        }
        Ok(TrustedProxies(nets))
    }

    /// Loopback only: what the deprecated `ROSACE_TRUST_FORWARDED_FOR=true` now means.
    pub fn loopback() -> TrustedProxies {
        TrustedProxies::parse("127.0.0.0/8, ::1").expect("valid networks")
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|n| n.contains(&ip))
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`, as a dual-stack socket reports them) are
/// the IPv4 address they carry.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port (`1.2.3.4:5678`,
/// `[2001:db8::1]:443`), as some proxies write it. Anything else is not an address.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .map(canonical)
}

/// The client address of a request. `forwarded` is every `X-Forwarded-For` header value,
/// in the order received.
///
/// - No trusted proxies, or a peer that is not one: the peer (the header is ignored).
/// - Otherwise the entries are read from the right: trusted proxies are skipped; the first
///   address that is not trusted is the client. An entry that is not an address stops the
///   walk (what lies left of it cannot be trusted): the last trusted hop is the client.
///   Every entry trusted: the left-most one (the request came from inside).
pub fn client_ip(
    peer: Option<IpAddr>,
    forwarded: &[&str],
    trusted: &TrustedProxies,
) -> Option<IpAddr> {
    let peer = peer.map(canonical)?;
    if trusted.is_empty() || !trusted.contains(peer) {
        return Some(peer);
    }
    let mut client = peer;
    for entry in forwarded.iter().rev().flat_map(|v| v.rsplit(',')) {
        if entry.trim().is_empty() {
            continue;
        }
        let Some(ip) = parse_entry(entry) else {
            break;
        };
        client = ip;
        if !trusted.contains(ip) {
            break;
        }
    }
    Some(client)
}

/// The rate-limit key of an address. IPv6 is counted per /64: one subscriber line usually
/// gets a whole /64, so counting single addresses would give it 2^64 buckets.
pub fn bucket_key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let net = ipnet::Ipv6Net::new(v6, 64).expect("64 is a valid prefix");
            net.trunc().to_string()
        }
    }
}

/// The client key of a request (see [`client_ip`] and [`bucket_key`]).
pub fn client_key(
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
    trusted: &TrustedProxies,
) -> String {
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    client_ip(peer.map(|p| p.ip()), &forwarded, trusted)
        .map(bucket_key)
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn proxies(s: &str) -> TrustedProxies {
        TrustedProxies::parse(s).unwrap()
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        let none = TrustedProxies::default();
        assert_eq!(
            client_ip(Some(ip("198.51.100.7")), &["1.2.3.4"], &none),
            Some(ip("198.51.100.7"))
        );
    }

    #[test]
    fn a_peer_that_is_not_a_trusted_proxy_cannot_forward() {
        let t = proxies("10.0.0.0/8");
        assert_eq!(
            client_ip(Some(ip("198.51.100.7")), &["1.2.3.4"], &t),
            Some(ip("198.51.100.7"))
        );
    }

    #[test]
    fn the_right_most_untrusted_entry_is_the_client_never_the_first() {
        let t = proxies("10.0.0.0/8, 127.0.0.1");
        // The client wrote "1.2.3.4"; our proxy appended the address it saw.
        assert_eq!(
            client_ip(
                Some(ip("127.0.0.1")),
                &["1.2.3.4, 203.0.113.9, 10.1.2.3"],
                &t
            ),
            Some(ip("203.0.113.9"))
        );
        // Several headers are one list, in order.
        assert_eq!(
            client_ip(
                Some(ip("10.0.0.1")),
                &["6.6.6.6", "203.0.113.9", "10.9.9.9"],
                &t
            ),
            Some(ip("203.0.113.9"))
        );
        // Whatever the client puts on the left, the key stays the same.
        for spoof in ["1.1.1.1", "2.2.2.2, 3.3.3.3", "", "garbage"] {
            let header = format!("{spoof}, 203.0.113.9");
            assert_eq!(
                client_ip(Some(ip("10.0.0.1")), &[header.as_str()], &t),
                Some(ip("203.0.113.9")),
                "{header}"
            );
        }
    }

    #[test]
    fn garbage_stops_the_walk_at_the_last_trusted_hop() {
        let t = proxies("10.0.0.0/8");
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &["not-an-ip, 10.0.0.2"], &t),
            Some(ip("10.0.0.2"))
        );
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &["not-an-ip"], &t),
            Some(ip("10.0.0.1"))
        );
        // No header at all: the proxy itself.
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &[], &t),
            Some(ip("10.0.0.1"))
        );
    }

    #[test]
    fn all_trusted_gives_the_left_most_and_ports_and_brackets_are_read() {
        let t = proxies("10.0.0.0/8");
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &["10.5.5.5, 10.0.0.2"], &t),
            Some(ip("10.5.5.5"))
        );
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &["203.0.113.9:5555"], &t),
            Some(ip("203.0.113.9"))
        );
        assert_eq!(
            client_ip(Some(ip("10.0.0.1")), &["[2001:db8::1]:443"], &t),
            Some(ip("2001:db8::1"))
        );
    }

    #[test]
    fn mapped_ipv4_peers_match_ipv4_networks() {
        let t = proxies("127.0.0.1");
        assert_eq!(
            client_ip(Some(ip("::ffff:127.0.0.1")), &["203.0.113.9"], &t),
            Some(ip("203.0.113.9"))
        );
    }

    #[test]
    fn trusted_proxies_parse_addresses_and_networks_and_refuse_the_rest() {
        let t = proxies("10.0.0.0/8 192.168.1.7,::1, fd00::/8");
        assert!(t.contains(ip("10.200.0.1")));
        assert!(t.contains(ip("192.168.1.7")));
        assert!(!t.contains(ip("192.168.1.8")));
        assert!(t.contains(ip("::1")));
        assert!(t.contains(ip("fd12::1")));
        assert!(proxies("").is_empty());
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.local").is_err());
    }

    #[test]
    fn ipv6_clients_are_counted_per_64() {
        assert_eq!(bucket_key(ip("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
        assert_eq!(
            bucket_key(ip("2001:db8:1:2:ffff::9")),
            bucket_key(ip("2001:db8:1:2::1"))
        );
        assert_ne!(
            bucket_key(ip("2001:db8:1:3::1")),
            bucket_key(ip("2001:db8:1:2::1"))
        );
        assert_eq!(bucket_key(ip("203.0.113.9")), "203.0.113.9");
        assert_eq!(bucket_key(ip("::ffff:203.0.113.9")), "203.0.113.9");
    }

    #[test]
    fn client_key_reads_every_header_value() {
        let mut h = HeaderMap::new();
        h.append("x-forwarded-for", "9.9.9.9".parse().unwrap());
        h.append("x-forwarded-for", "203.0.113.9".parse().unwrap());
        let peer: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        assert_eq!(
            client_key(&h, Some(peer), &proxies("127.0.0.1")),
            "203.0.113.9"
        );
        assert_eq!(
            client_key(&h, Some(peer), &TrustedProxies::default()),
            "127.0.0.1"
        );
        assert_eq!(client_key(&h, None, &proxies("127.0.0.1")), "unknown");
    }
}
