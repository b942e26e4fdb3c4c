//! Who a request is from, for the limits: the connection's address, or behind proxies
//! the operator runs, the address they say the client had.
//!
//! `X-Forwarded-For` is a list each proxy appends to: `client, proxy1, proxy2`. Its left
//! end is whatever the client wrote, so only its right end can be believed, and only as
//! far as proxies the operator runs wrote it:
//! 1. Without `--trust-proxy` the header is ignored.
//! 2. With `--trusted-proxies` (address ranges), the header counts only on a connection
//!    from one of them, and the client is the rightmost address not in them.
//! 3. Otherwise the client is the address `--proxy-hops` from the right (1: the one the
//!    proxy in front of the server appended).
//!
//! A limit's bucket is per IPv4 address, and per /64 for IPv6: one subscriber usually
//! holds a whole /64, and would otherwise have 2⁶⁴ buckets.

use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

/// An address range: `10.0.0.0/8`, `2001:db8::/32`, or one address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, unmap(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let bad = || format!("{s:?} is not an address or a range like 10.0.0.0/8");
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s.trim(), None),
        };
        let net = unmap(addr.parse::<IpAddr>().map_err(|_| bad())?);
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|&p| p <= max).ok_or_else(bad)?,
            None => max,
        };
        Ok(Cidr { net, prefix })
    }
}

/// Whose `X-Forwarded-For` to believe.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Proxies {
    /// Take client IPs from X-Forwarded-For (only behind proxies you run): the address
    /// --proxy-hops from the right, or the rightmost not in --trusted-proxies.
    #[arg(long = "trust-proxy", env = "TYPEPPER_TRUST_PROXY")]
    pub trust: bool,
    /// How many proxies you run in front of the server, each appending to
    /// X-Forwarded-For.
    #[arg(
        long = "proxy-hops",
        value_name = "PROXY_HOPS",
        env = "TYPEPPER_PROXY_HOPS",
        default_value_t = 1
    )]
    pub hops: u32,
    /// Your proxies' addresses or ranges (10.0.0.0/8,2001:db8::/32): X-Forwarded-For
    /// counts only on connections from them.
    #[arg(
        long = "trusted-proxies",
        value_name = "TRUSTED_PROXIES",
        env = "TYPEPPER_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub ranges: Vec<Cidr>,
}

impl Default for Proxies {
    fn default() -> Proxies {
        crate::defaults::of()
    }
}

impl Proxies {
    /// The client's address for a request from `peer` carrying these `X-Forwarded-For`
    /// values (in the order they came).
    pub fn client<'a>(&self, peer: IpAddr, forwarded: impl IntoIterator<Item = &'a str>) -> IpAddr {
        let peer = unmap(peer);
        if !self.trust {
            return peer;
        }
        let from_proxy = |ip: IpAddr| self.ranges.iter().any(|r| r.contains(ip));
        if !self.ranges.is_empty() && !from_proxy(peer) {
            return peer;
        }
        let listed: Vec<&str> = forwarded
            .into_iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let parse = |s: &str| s.parse::<IpAddr>().ok().map(unmap);
        if !self.ranges.is_empty() {
            // From the right, past our own proxies: the first address that isn't one.
            for entry in listed.iter().rev() {
                match parse(entry) {
                    Some(ip) if from_proxy(ip) => continue,
                    Some(ip) => return ip,
                    None => return peer,
                }
            }
            return peer;
        }
        let hops = self.hops.max(1) as usize;
        listed
            .len()
            .checked_sub(hops)
            .and_then(|i| parse(listed[i]))
            .unwrap_or(peer)
    }
}

/// The key a limit counts `ip` under: the address for IPv4, its /64 for IPv6.
pub fn bucket(ip: IpAddr) -> IpAddr {
    match unmap(ip) {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        v4 => v4,
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is that IPv4 address.
fn unmap(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_hold_their_addresses() {
        let lan: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(lan.contains(ip("10.200.3.4")) && !lan.contains(ip("11.0.0.1")));
        assert!(lan.contains(ip("::ffff:10.1.2.3")), "mapped IPv4");
        let one: Cidr = "192.0.2.7".parse().unwrap();
        assert!(one.contains(ip("192.0.2.7")) && !one.contains(ip("192.0.2.8")));
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:1::5")) && !v6.contains(ip("2001:db9::1")));
        assert!("0.0.0.0/0".parse::<Cidr>().unwrap().contains(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "nope", "10.0.0/8", "::/129"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn only_the_right_end_of_forwarded_for_is_believed() {
        let peer = ip("10.0.0.9");
        let off = Proxies::default();
        assert_eq!(off.client(peer, ["198.51.100.1"]), peer, "not trusted");
        let one = Proxies {
            trust: true,
            hops: 1,
            ranges: vec![],
        };
        // The client wrote the left entry; the proxy appended the right one.
        assert_eq!(
            one.client(peer, ["1.2.3.4, 198.51.100.7"]),
            ip("198.51.100.7")
        );
        assert_eq!(
            one.client(peer, ["1.2.3.4", "198.51.100.7"]),
            ip("198.51.100.7")
        );
        assert_eq!(one.client(peer, Vec::<&str>::new()), peer, "no header");
        assert_eq!(one.client(peer, ["garbage"]), peer);
        let two = Proxies {
            hops: 2,
            ..one.clone()
        };
        assert_eq!(
            two.client(peer, ["1.2.3.4, 198.51.100.7, 10.0.0.3"]),
            ip("198.51.100.7")
        );
        assert_eq!(two.client(peer, ["198.51.100.7"]), peer, "a shorter chain");
        let ranged = Proxies {
            trust: true,
            hops: 1,
            ranges: vec!["10.0.0.0/8".parse().unwrap()],
        };
        assert_eq!(
            ranged.client(peer, ["1.2.3.4, 198.51.100.7, 10.0.0.3"]),
            ip("198.51.100.7")
        );
        assert_eq!(
            ranged.client(ip("203.0.113.5"), ["1.2.3.4"]),
            ip("203.0.113.5"),
            "not from one of our proxies"
        );
    }

    #[test]
    fn an_ipv6_subscriber_is_one_bucket() {
        assert_eq!(bucket(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            bucket(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")),
            ip("2001:db8:1:2::")
        );
        assert_ne!(bucket(ip("2001:db8:1:3::1")), ip("2001:db8:1:2::"));
        assert_eq!(bucket(ip("192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(bucket(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
    }
}
