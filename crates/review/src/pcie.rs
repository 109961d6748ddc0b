//! PCIe devices (`/sys/bus/pci/devices/*`): the link each function negotiated against what it
//! and its upstream port can do, the bound driver, per-link ASPM states, and the global ASPM
//! policy (`/sys/module/pcie_aspm/parameters/policy`). sbc-bench gets the same from `lspci -vv`
//! (LnkCap/LnkSta and its "(downgraded)" marker); sysfs needs no tool and works on fixture trees.
//!
//! "Downgraded" here means below what *both* ends can do: an NVMe SSD capable of Gen3 x4 in a
//! Gen2 x1 slot (Raspberry Pi 5) is limited by the slot, not broken; the same SSD linked at
//! Gen2 x1 behind a Gen3 x4 port (RK3588's M.2 slot) points at signal integrity, an adapter or
//! a riser.

use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, link_name, opt, parse_hex};

pub const PCI_DEVICES: &str = "/sys/bus/pci/devices";
pub use probe::pcie::{ASPM_POLICY, AspmPolicy, read_aspm_policy};

/// A PCIe link: speed in GT/s and width in lanes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Link {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gts: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
}

impl Link {
    /// "Gen3 x4 (8 GT/s)".
    pub fn text(&self) -> String {
        let speed = match self.gts {
            Some(g) => match generation(g) {
                Some(n) => format!("Gen{n}"),
                None => format!("{g} GT/s"),
            },
            None => "?".into(),
        };
        let width = self.width.map_or("x?".into(), |w| format!("x{w}"));
        format!("{speed} {width}")
    }
}

/// PCIe generation of a transfer rate.
pub fn generation(gts: f64) -> Option<u32> {
    [
        (2.5, 1),
        (5.0, 2),
        (8.0, 3),
        (16.0, 4),
        (32.0, 5),
        (64.0, 6),
    ]
    .iter()
    .find(|(r, _)| (gts - r).abs() < 0.01)
    .map(|&(_, g)| g)
}

/// Parses sysfs link speeds: "8.0 GT/s PCIe", "5 GT/s" (older kernels), "2.5 GT/s".
/// "Unknown" (no link) is `None`.
pub fn parse_speed(s: &str) -> Option<f64> {
    let n = s.split_whitespace().next()?;
    let v: f64 = n.parse().ok()?;
    (v > 0.0 && v < 1000.0).then_some(v)
}

/// One PCI function.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PciDevice {
    /// "0000:01:00.0".
    pub address: String,
    /// The 24-bit class code (0x010802 = NVMe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<u32>,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_id: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_id: Option<u16>,
    /// Known name ("Samsung 970 EVO Plus", "ASMedia ASM1061 SATA"), else vendor name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    pub current: Link,
    /// What the device itself can do.
    pub capable: Link,
    /// The upstream port's capability, when the port is found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_capable: Option<Link>,
    /// ASPM states enabled on the link ("L1", "L1.1", "L1.2", "L0s", "ClkPM").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aspm: Vec<String>,
}

impl PciDevice {
    pub fn is_bridge(&self) -> bool {
        self.class.is_some_and(|c| c >> 8 == 0x0604)
    }

    /// The best link both ends support (speed and width separately).
    pub fn expected(&self) -> Link {
        let min_f = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) => x,
            (None, y) => y,
        };
        let up = self.upstream_capable.unwrap_or_default();
        Link {
            gts: min_f(self.capable.gts, up.gts),
            width: match (self.capable.width, up.width) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, None) => a,
                (None, b) => b,
            },
        }
    }
}

/// Reads every PCI function that has a link (plus bridges, kept to find upstream ports).
pub fn read(root: &Root) -> Vec<PciDevice> {
    let names = root.list_dir(PCI_DEVICES).unwrap_or_default();
    names
        .iter()
        .filter(|n| is_pci_address(n))
        .map(|n| read_device(root, n))
        .collect()
}

/// "0000:01:00.0" (domain:bus:device.function).
fn is_pci_address(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 12
        && b[4] == b':'
        && b[7] == b':'
        && b[10] == b'.'
        && s.chars()
            .enumerate()
            .all(|(i, c)| matches!(i, 4 | 7 | 10) || c.is_ascii_hexdigit())
}

fn read_device(root: &Root, addr: &str) -> PciDevice {
    let dir = format!("{PCI_DEVICES}/{addr}");
    let f = |n: &str| opt(root, &format!("{dir}/{n}"));
    let hex = |n: &str| f(n).as_deref().and_then(parse_hex);
    let link = |s: &str, w: &str| Link {
        gts: f(s).as_deref().and_then(parse_speed),
        width: f(w).and_then(|v| v.parse().ok()).filter(|&w: &u32| w > 0),
    };
    let class = hex("class").map(|c| c as u32);
    let vendor_id = hex("vendor").map(|v| v as u16);
    let device_id = hex("device").map(|v| v as u16);
    // The upstream port is the parent directory of the real device path when that is a PCI
    // function too (…/0000:00:00.0/0000:01:00.0).
    let upstream = root.resolve(&dir).ok().and_then(|real| {
        let mut parts: Vec<&str> = real.split('/').filter(|c| !c.is_empty()).collect();
        parts.pop();
        parts
            .last()
            .filter(|p| is_pci_address(p))
            .map(|p| p.to_string())
    });
    let upstream_capable = upstream.as_ref().and_then(|u| {
        let ud = format!("{PCI_DEVICES}/{u}");
        let l = Link {
            gts: opt(root, &format!("{ud}/max_link_speed"))
                .as_deref()
                .and_then(parse_speed),
            width: opt(root, &format!("{ud}/max_link_width")).and_then(|v| v.parse().ok()),
        };
        (l.gts.is_some() || l.width.is_some()).then_some(l)
    });
    let aspm = [
        ("l0s_aspm", "L0s"),
        ("l1_aspm", "L1"),
        ("l1_1_aspm", "L1.1"),
        ("l1_2_aspm", "L1.2"),
        ("l1_1_pcipm", "L1.1-PCIPM"),
        ("l1_2_pcipm", "L1.2-PCIPM"),
        ("clkpm", "ClkPM"),
    ]
    .iter()
    .filter(|(file, _)| f(&format!("link/{file}")).as_deref() == Some("1"))
    .map(|(_, name)| name.to_string())
    .collect();
    PciDevice {
        address: addr.to_string(),
        class,
        kind: class.map_or("PCI device".into(), class_name),
        vendor_id,
        device_id,
        name: vendor_id.and_then(|v| device_name(v, device_id.unwrap_or(0))),
        driver: link_name(root, &format!("{dir}/driver")),
        current: link("current_link_speed", "current_link_width"),
        capable: link("max_link_speed", "max_link_width"),
        upstream,
        upstream_capable,
        aspm,
    }
}

/// Class names for the classes that matter on boards (the rest by base class).
pub fn class_name(class: u32) -> String {
    let s = match class >> 8 {
        0x0108 => "NVMe SSD",
        0x0106 => "SATA controller",
        0x0104 => "RAID controller",
        0x0107 => "SAS controller",
        0x0200 => "Ethernet controller",
        0x0280 => "Wireless network controller",
        0x0300 | 0x0380 => "Display controller",
        0x0302 => "3D controller",
        0x0403 => "Audio device",
        0x0604 => "PCI bridge",
        0x0c03 => "USB controller",
        0x1200 => "Processing accelerator",
        0x0d11 | 0x0d10 | 0x0d12 | 0x0d20 | 0x0d21 | 0x0d80 => "Wireless controller",
        0x0580 => "Memory controller",
        _ => match class >> 16 {
            0x01 => "Mass storage controller",
            0x02 => "Network controller",
            0x03 => "Display controller",
            0x06 => "Bridge",
            0x0c => "Serial bus controller",
            _ => "PCI device",
        },
    };
    s.to_string()
}

/// Names of devices often found on boards, else the vendor. Only IDs from the public PCI ID
/// list that boards really carry; the vendor alone is shown otherwise.
pub fn device_name(vendor: u16, device: u16) -> Option<String> {
    let known = match (vendor, device) {
        (0x1de4, 0x0001) => Some("Raspberry Pi Ltd. RP1 I/O controller"),
        (0x1b21, 0x0611) => Some("ASMedia ASM1061 SATA controller"),
        (0x1b21, 0x0612) => Some("ASMedia ASM1061/ASM1062 SATA controller"),
        (0x1b21, 0x1164) => Some("ASMedia ASM1164 SATA controller"),
        (0x1b21, 0x1166) => Some("ASMedia ASM1166 SATA controller"),
        (0x1b21, 0x1142) => Some("ASMedia ASM1042A USB 3.0 controller"),
        (0x1b21, 0x2142) => Some("ASMedia ASM2142 USB 3.1 controller"),
        (0x1b21, 0x1182) => Some("ASMedia ASM1182e PCIe switch"),
        (0x197b, 0x0585) => Some("JMicron JMB585 SATA controller"),
        (0x1912, 0x0014) => Some("Renesas uPD720201 USB 3.0 controller"),
        (0x1912, 0x0015) => Some("Renesas uPD720202 USB 3.0 controller"),
        (0x1106, 0x3483) => Some("VIA VL805 USB 3.0 controller"),
        (0x10ec, 0x8168) => Some("Realtek RTL8111/8168 Gigabit Ethernet"),
        (0x10ec, 0x8125) => Some("Realtek RTL8125 2.5GbE"),
        (0x10ec, 0x8126) => Some("Realtek RTL8126 5GbE"),
        (0x8086, 0x125c) => Some("Intel I226-V 2.5GbE"),
        (0x8086, 0x15f3) => Some("Intel I225-V 2.5GbE"),
        (0x144d, 0xa808) => Some("Samsung NVMe SSD 970 EVO/970 EVO Plus/PM981"),
        (0x144d, 0xa80a) => Some("Samsung NVMe SSD 980 PRO/PM9A1"),
        (0x1d87, 0x3588) => Some("Rockchip RK3588 PCIe root port"),
        (0x1d87, 0x3566) => Some("Rockchip RK3566/RK3568 PCIe root port"),
        _ => None,
    };
    known
        .map(str::to_string)
        .or_else(|| vendor_name(vendor).map(str::to_string))
}

pub fn vendor_name(vendor: u16) -> Option<&'static str> {
    Some(match vendor {
        0x1002 => "AMD/ATI",
        0x1022 => "AMD",
        0x1106 => "VIA",
        0x10de => "NVIDIA",
        0x10ec => "Realtek",
        0x126f => "Silicon Motion",
        0x1344 => "Micron",
        0x144d => "Samsung",
        0x14e4 => "Broadcom",
        0x15b7 => "SanDisk / Western Digital",
        0x17cb => "Qualcomm",
        0x1912 => "Renesas",
        0x197b => "JMicron",
        0x1987 => "Phison",
        0x1b21 => "ASMedia",
        0x1b4b => "Marvell",
        0x1c5c => "SK hynix",
        0x1cc1 => "ADATA",
        0x1d87 => "Rockchip",
        0x1de4 => "Raspberry Pi Ltd.",
        0x1e0f => "KIOXIA",
        0x1e4b => "MAXIO",
        0x2646 => "Kingston",
        0x8086 => "Intel",
        _ => return None,
    })
}

/// Findings about links and ASPM.
pub fn findings(devs: &[PciDevice], aspm: Option<&AspmPolicy>) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in devs.iter().filter(|d| !d.is_bridge()) {
        let (cur, exp) = (d.current, d.expected());
        let label = format!(
            "{} {}",
            d.address,
            d.name.clone().unwrap_or_else(|| d.kind.clone())
        );
        let mut ev = vec![format!(
            "negotiated {} ({} GT/s x{}), device capable of {}",
            cur.text(),
            cur.gts.map_or("?".into(), |g| g.to_string()),
            cur.width.map_or("?".into(), |w| w.to_string()),
            d.capable.text()
        )];
        if let (Some(u), Some(l)) = (&d.upstream, &d.upstream_capable) {
            ev.push(format!("upstream port {u} capable of {}", l.text()));
        }
        if let Some(drv) = &d.driver {
            ev.push(format!("driver {drv}"));
        }
        let slow_speed = matches!((cur.gts, exp.gts), (Some(c), Some(e)) if c + 0.01 < e);
        let narrow = matches!((cur.width, exp.width), (Some(c), Some(e)) if c < e);
        if slow_speed || narrow {
            out.push(finding(
                "pcie-link-downgraded",
                Severity::Warning,
                format!(
                    "PCIe {label}: link downgraded to {} although both ends can do {}",
                    cur.text(),
                    exp.text()
                ),
                "the device gets a fraction of its bandwidth; a link that trains lower than \
                 both ends support points at signal integrity (adapter, riser, cable, \
                 connector) or power problems",
                ev,
            ));
        } else if cur.gts.is_some()
            && (matches!((cur.gts, d.capable.gts), (Some(c), Some(m)) if c + 0.01 < m)
                || matches!((cur.width, d.capable.width), (Some(c), Some(m)) if c < m))
        {
            out.push(finding(
                "pcie-link-slot-limited",
                Severity::Info,
                format!(
                    "PCIe {label}: runs at {} (the slot's maximum), device capable of {}",
                    cur.text(),
                    d.capable.text()
                ),
                "the slot, not the device, limits bandwidth: benchmark figures of this device \
                 elsewhere will be higher",
                ev,
            ));
        }
        if d.class.is_some_and(|c| c >> 8 == 0x0108) && d.driver.is_none() {
            out.push(finding(
                "pcie-no-driver",
                Severity::Warning,
                format!("PCIe {label}: no driver bound"),
                "the device is present but unusable",
                vec![],
            ));
        }
    }
    if let Some(a) = aspm {
        let sev = match a.selected.as_str() {
            "powersave" | "powersupersave" => Some(Severity::Info),
            _ => None,
        };
        if let Some(sev) = sev {
            out.push(finding(
                "pcie-aspm-policy",
                sev,
                format!("PCIe ASPM policy is {}", a.selected),
                "links enter low-power states when idle and need microseconds to wake: lower \
                 idle consumption, but higher latency and lower throughput for NVMe and \
                 network; review sets it to performance",
                vec![format!(
                    "{ASPM_POLICY}: {}",
                    a.available
                        .iter()
                        .map(|x| if *x == a.selected {
                            format!("[{x}]")
                        } else {
                            x.clone()
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                )],
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_and_generations() {
        assert_eq!(parse_speed("8.0 GT/s PCIe"), Some(8.0));
        assert_eq!(parse_speed("5 GT/s"), Some(5.0));
        assert_eq!(parse_speed("Unknown"), None);
        assert_eq!(parse_speed(""), None);
        assert_eq!(generation(2.5), Some(1));
        assert_eq!(generation(16.0), Some(4));
        assert!(is_pci_address("0000:01:00.0"));
        assert!(!is_pci_address("pci0000:00"));
    }
}
