//! The interface the network section measures (`guide --interface IFACE`): what a guide prints
//! about it — the driver (in the tables' titles, as the published guides name a table after
//! the Ethernet driver), the link speed and duplex, the MTU and the offloads (in the notes).
//!
//! Where each comes from:
//! - the driver: the `/sys/class/net/IFACE/device/driver` link, followed inside the root
//!   ([`probe::Root::resolve`], so fixture trees and mounted images work); a virtual interface
//!   (veth, bridge) has no device, and then `ethtool -i`'s `driver:` line is used where given;
//! - speed, duplex, MTU, state: `/sys/class/net/IFACE/{speed,duplex,mtu,operstate}` (speed is
//!   -1 or unreadable while the link is down or for virtual links: then it is "unknown");
//! - offloads: `ethtool -k IFACE`. The kernel gives an interface's features only through
//!   ethtool's interface (ioctl/netlink), not in /sys: without ethtool the notes say the
//!   offloads were not read, and why.
//!
//! The reading of files and the parsing of ethtool's text are separate from running ethtool
//! ([`describe`] takes ethtool's outputs), so tests use fixture trees and recorded outputs.

use probe::Root;

/// One ethtool feature line: `tcp-segmentation-offload: on [fixed]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    pub name: String,
    pub on: bool,
    /// `[fixed]`: the driver does not let it change.
    pub fixed: bool,
}

/// What the guide says about the interface.
#[derive(Debug, Clone, PartialEq)]
pub struct Interface {
    pub name: String,
    pub driver: Option<String>,
    /// Mb/s, as /sys says it; `None` when unknown (link down, virtual link).
    pub speed_mbps: Option<u64>,
    pub duplex: Option<String>,
    pub mtu: Option<u64>,
    pub operstate: Option<String>,
    /// `ethtool -k`'s features, or why they are not known.
    pub offloads: Result<Vec<Feature>, String>,
}

/// The offloads a guide's reader asks about, in this order (ethtool's names).
pub const MAIN_OFFLOADS: [&str; 7] = [
    "rx-checksumming",
    "tx-checksumming",
    "scatter-gather",
    "tcp-segmentation-offload",
    "generic-segmentation-offload",
    "generic-receive-offload",
    "large-receive-offload",
];

/// Parses `ethtool -k IFACE`: the top-level `name: on|off [fixed]` lines (the indented
/// sub-features, e.g. `tx-checksum-ipv4`, are left out: the main ones summarise them).
pub fn parse_features(text: &str) -> Vec<Feature> {
    text.lines()
        .filter(|l| !l.starts_with([' ', '\t']))
        .filter_map(|l| {
            let (name, rest) = l.split_once(':')?;
            let mut words = rest.split_whitespace();
            let on = match words.next()? {
                "on" => true,
                "off" => false,
                _ => return None,
            };
            Some(Feature {
                name: name.trim().to_string(),
                on,
                fixed: rest.contains("[fixed]"),
            })
        })
        .collect()
}

/// The `driver:` line of `ethtool -i IFACE`.
pub fn parse_driver_info(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("driver:"))
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
}

/// Reads the interface from the root's /sys, with ethtool's outputs where ethtool ran
/// (`features`: `ethtool -k`'s text, or why it is not known; `info`: `ethtool -i`'s text).
/// Errors when the root has no such interface.
pub fn describe(
    root: &Root,
    name: &str,
    features: Result<&str, String>,
    info: Option<&str>,
) -> Result<Interface, String> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(format!("{name:?} is not an interface name"));
    }
    let base = format!("/sys/class/net/{name}");
    if !root.exists(&base) {
        let known = root
            .list_dir("/sys/class/net")
            .map(|mut l| {
                l.sort();
                l.join(", ")
            })
            .unwrap_or_default();
        return Err(format!(
            "no interface {name} in {} (there are: {})",
            root.shown("/sys/class/net"),
            if known.is_empty() { "none" } else { &known }
        ));
    }
    let link = format!("{base}/device/driver");
    let driver = root
        .exists(&link)
        .then(|| root.resolve(&link).ok())
        .flatten()
        .and_then(|p| p.rsplit('/').next().map(str::to_string))
        .filter(|d| !d.is_empty())
        .or_else(|| info.and_then(parse_driver_info));
    let value = |f: &str| root.read_value(&format!("{base}/{f}")).ok();
    let speed_mbps = value("speed")
        .and_then(|s| s.parse::<i64>().ok())
        .filter(|s| *s > 0)
        .map(|s| s as u64);
    Ok(Interface {
        name: name.to_string(),
        driver,
        speed_mbps,
        duplex: value("duplex").filter(|d| d != "unknown"),
        mtu: value("mtu").and_then(|m| m.parse().ok()),
        operstate: value("operstate"),
        offloads: features.map(parse_features),
    })
}

impl Interface {
    /// What the tables' titles end with: "(am65-cpsw-nuss, eth0)", or "(eth0)" without a
    /// known driver.
    pub fn title_suffix(&self) -> String {
        match &self.driver {
            Some(d) => format!("({d}, {})", self.name),
            None => format!("({})", self.name),
        }
    }

    /// The notes under the section: the link, then the offloads.
    pub fn notes(&self) -> Vec<String> {
        let speed = match (self.speed_mbps, &self.duplex) {
            (Some(s), Some(d)) => format!("{s} Mb/s {d} duplex"),
            (Some(s), None) => format!("{s} Mb/s"),
            (None, _) => "speed unknown (a virtual link, or not negotiated)".into(),
        };
        let mut link = format!(
            "interface {}: driver {}; link {speed}; MTU {}",
            self.name,
            self.driver.as_deref().unwrap_or("unknown"),
            self.mtu.map_or("unknown".into(), |m| m.to_string()),
        );
        if let Some(s) = &self.operstate {
            link.push_str(&format!("; state {s}"));
        }
        let offloads = match &self.offloads {
            Ok(features) => {
                let parts: Vec<String> = MAIN_OFFLOADS
                    .iter()
                    .filter_map(|name| features.iter().find(|f| f.name == *name))
                    .map(|f| {
                        format!(
                            "{} {}{}",
                            f.name,
                            if f.on { "on" } else { "off" },
                            if f.fixed { " (fixed)" } else { "" }
                        )
                    })
                    .collect();
                if parts.is_empty() {
                    format!("offloads of {}: ethtool -k named none", self.name)
                } else {
                    format!(
                        "offloads of {} (ethtool -k): {}",
                        self.name,
                        parts.join(", ")
                    )
                }
            }
            Err(why) => format!("offloads of {} not read: {why}", self.name),
        };
        vec![link, offloads]
    }
}

/// The IPv4 address of `ip -o -4 addr show dev IFACE` (`2: eth0    inet 10.0.0.2/24 brd …`).
pub fn parse_ipv4(text: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    words.find(|w| *w == "inet")?;
    let addr = words.next()?;
    Some(addr.split('/').next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_keep_top_level_lines_and_fixed() {
        let f = parse_features(
            "Features for eth0:\nrx-checksumming: on\ntx-checksumming: on\n\ttx-checksum-ipv4: on\n\
             tcp-segmentation-offload: off\nlarge-receive-offload: off [fixed]\nbogus: maybe\n",
        );
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "rx-checksumming",
                "tx-checksumming",
                "tcp-segmentation-offload",
                "large-receive-offload"
            ]
        );
        assert!(f[3].fixed && !f[3].on);
        assert!(f[0].on && !f[0].fixed);
    }

    #[test]
    fn ipv4_and_driver_lines() {
        assert_eq!(
            parse_ipv4("2: vA    inet 10.213.1.1/24 scope global vA\\       valid_lft forever"),
            Some("10.213.1.1".into())
        );
        assert_eq!(parse_ipv4(""), None);
        assert_eq!(
            parse_driver_info("driver: veth\nversion: 1.0\n"),
            Some("veth".into())
        );
        assert_eq!(parse_driver_info("driver: \n"), None);
    }
}
