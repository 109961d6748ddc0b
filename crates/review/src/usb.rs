//! USB devices (`/sys/bus/usb/devices/*`): negotiated speed against what the device can do,
//! USB-to-SATA/NVMe bridge chips, and whether a storage device runs on UAS or on the older
//! usb-storage (Bulk-Only Transport) driver.
//!
//! What a device can do comes from its BOS descriptor (`bos_descriptors`, Linux 6.7+): the
//! SuperSpeed capability (5 Gbps) and the SuperSpeedPlus sublink speeds (10/20 Gbps), as
//! `lsusb -v` shows them for sbc-bench. Older kernels only give `version` (bcdUSB): 3.x means
//! at least 5 Gbps. Whether a storage interface offers UAS is read from the raw configuration
//! descriptors (`descriptors`): an alternate setting with protocol 0x62.

use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, link_name, opt, parse_hex};

pub const USB_DEVICES: &str = "/sys/bus/usb/devices";
pub const STORAGE_QUIRKS: &str = "/sys/module/usb_storage/parameters/quirks";

/// A USB storage bridge chip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bridge {
    pub name: String,
    /// "SATA" or "NVMe".
    pub target: String,
}

/// Known USB-to-SATA/NVMe bridges by idVendor:idProduct (the families sbc-bench's
/// GetUSBSataBridgeName knows: JMicron, ASMedia, VIA Labs, Realtek).
pub fn bridge(vendor: u16, product: u16) -> Option<Bridge> {
    let (name, target) = match (vendor, product) {
        (0x152d, 0x0561) => ("JMicron JMS561", "SATA"),
        (0x152d, 0x0562) => ("JMicron JMS562", "SATA"),
        (0x152d, 0x0567) => ("JMicron JMS567", "SATA"),
        (0x152d, 0x0576) => ("JMicron JMS576", "SATA"),
        (0x152d, 0x0578) => ("JMicron JMS578/JMS579", "SATA"),
        (0x152d, 0x0580) => ("JMicron JMS580", "SATA"),
        (0x152d, 0x0581) => ("JMicron JMS581", "NVMe"),
        (0x152d, 0x0583) => ("JMicron JMS583", "NVMe"),
        (0x152d, 0x0586) => ("JMicron JMS586", "NVMe"),
        (0x152d, 0x0901) => ("JMicron JMS901", "SATA"),
        (0x152d, 0x1561) => ("JMicron JMS561", "SATA"),
        (0x174c, 0x55aa) => ("ASMedia ASM1051E/ASM1053E/ASM1153E", "SATA"),
        (0x174c, 0x1153) => ("ASMedia ASM1153", "SATA"),
        (0x174c, 0x1352) => ("ASMedia ASM1352R", "SATA"),
        (0x174c, 0x1356) => ("ASMedia ASM1356", "SATA"),
        (0x174c, 0x225c) => ("ASMedia ASM225CM", "SATA"),
        (0x174c, 0x2362) => ("ASMedia ASM2362", "NVMe"),
        (0x174c, 0x2364) => ("ASMedia ASM2364", "NVMe"),
        (0x2109, 0x0700..=0x0709) => ("VIA Labs VL70x", "SATA"),
        (0x2109, 0x0715) => ("VIA Labs VL715/VL716", "SATA"),
        (0x2109, 0x0711..=0x0719) => ("VIA Labs VL71x", "SATA"),
        (0x0bda, 0x9210) => ("Realtek RTL9210", "NVMe"),
        _ => return None,
    };
    Some(Bridge {
        name: name.into(),
        target: target.into(),
    })
}

/// One USB device (interfaces and root hubs are not listed; root hubs give bus speeds).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsbDevice {
    /// "2-1", "1-1.3".
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor_id: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_id: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manufacturer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// Negotiated, Mbit/s (1.5, 12, 480, 5000, 10000, 20000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mbps: Option<f64>,
    /// bcdUSB ("3.20").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_version: Option<String>,
    /// Highest speed the device can do, Mbit/s, and where that came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capable_mbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capable_source: Option<String>,
    /// Speed of the bus's root hub (what the host side of this bus can do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bus_mbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bridge: Option<Bridge>,
    /// Mass-storage interface present.
    pub storage: bool,
    /// Driver bound to the mass-storage interface ("uas", "usb-storage").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_driver: Option<String>,
    /// An alternate setting offers UAS (`None` when the descriptors could not be read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uas_capable: Option<bool>,
    /// usb-storage quirk flags set for this device ("u" = UAS disabled on purpose).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quirks: Option<String>,
}

/// "5000" → 5000.0, "1.5" → 1.5.
fn parse_mbps(s: &str) -> Option<f64> {
    s.trim().parse().ok().filter(|v: &f64| *v > 0.0)
}

/// Reads every USB device. `cmdline` supplies `usb-storage.quirks=` when the module parameter
/// file is absent.
pub fn read(root: &Root, cmdline: Option<&str>) -> Vec<UsbDevice> {
    let names = root.list_dir(USB_DEVICES).unwrap_or_default();
    let quirks = quirk_list(
        opt(root, STORAGE_QUIRKS)
            .or_else(|| {
                cmdline?
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("usb-storage.quirks="))
                    .map(str::to_string)
            })
            .as_deref()
            .unwrap_or(""),
    );
    names
        .iter()
        .filter(|n| !n.contains(':') && !n.starts_with("usb"))
        .filter_map(|n| read_device(root, n, &names, &quirks))
        .collect()
}

fn quirk_list(s: &str) -> Vec<(u16, u16, String)> {
    s.split(',')
        .filter_map(|q| {
            let mut it = q.trim().splitn(3, ':');
            let v = parse_hex(it.next()?)? as u16;
            let p = parse_hex(it.next()?)? as u16;
            Some((v, p, it.next().unwrap_or("").to_string()))
        })
        .collect()
}

fn read_device(
    root: &Root,
    name: &str,
    all: &[String],
    quirks: &[(u16, u16, String)],
) -> Option<UsbDevice> {
    let dir = format!("{USB_DEVICES}/{name}");
    let f = |n: &str| opt(root, &format!("{dir}/{n}"));
    let vendor_id = f("idVendor")
        .as_deref()
        .and_then(parse_hex)
        .map(|v| v as u16);
    let product_id = f("idProduct")
        .as_deref()
        .and_then(parse_hex)
        .map(|v| v as u16);
    if vendor_id.is_none() && f("speed").is_none() {
        return None;
    }
    let usb_version = f("version");
    let bos = root.read_bytes(&format!("{dir}/bos_descriptors")).ok();
    let (capable_mbps, capable_source) = match bos.as_deref().and_then(bos_max_mbps) {
        Some(v) => (Some(v), Some("BOS descriptor".to_string())),
        None => match usb_version.as_deref().and_then(|v| v.parse::<f64>().ok()) {
            Some(v) if v >= 3.0 => (Some(5000.0), Some(format!("bcdUSB {v:.2}"))),
            _ => (None, None),
        },
    };
    let bus = name.split('-').next().unwrap_or("");
    let bus_mbps = opt(root, &format!("{USB_DEVICES}/usb{bus}/speed"))
        .as_deref()
        .and_then(parse_mbps);
    // Interfaces: "<name>:<config>.<interface>".
    let prefix = format!("{name}:");
    let mut storage = false;
    let mut storage_driver = None;
    for iface in all.iter().filter(|n| n.starts_with(&prefix)) {
        let id = format!("{USB_DEVICES}/{iface}");
        if opt(root, &format!("{id}/bInterfaceClass")).as_deref() == Some("08") {
            storage = true;
            storage_driver = storage_driver.or_else(|| link_name(root, &format!("{id}/driver")));
        }
    }
    let uas_capable = storage
        .then(|| root.read_bytes(&format!("{dir}/descriptors")).ok())
        .flatten()
        .map(|d| offers_uas(&d));
    let quirks = match (vendor_id, product_id) {
        (Some(v), Some(p)) => quirks
            .iter()
            .find(|(qv, qp, _)| *qv == v && *qp == p)
            .map(|q| q.2.clone()),
        _ => None,
    };
    Some(UsbDevice {
        path: name.to_string(),
        vendor_id,
        product_id,
        manufacturer: f("manufacturer"),
        product: f("product"),
        speed_mbps: f("speed").as_deref().and_then(parse_mbps),
        usb_version,
        capable_mbps,
        capable_source,
        bus_mbps,
        bridge: match (vendor_id, product_id) {
            (Some(v), Some(p)) => bridge(v, p),
            _ => None,
        },
        storage,
        storage_driver,
        uas_capable,
        quirks,
    })
}

/// The highest speed a BOS descriptor advertises, Mbit/s. `None` for garbage or a BOS with
/// neither SuperSpeed nor SuperSpeedPlus capability.
pub fn bos_max_mbps(b: &[u8]) -> Option<f64> {
    if b.len() < 5 || b[1] != 0x0f {
        return None;
    }
    let mut best: Option<f64> = None;
    let mut i = b[0] as usize;
    while i + 3 <= b.len() {
        let len = b[i] as usize;
        if len < 3 || i + len > b.len() {
            break;
        }
        let d = &b[i..i + len];
        if d[1] == 0x10 {
            match d[2] {
                // SuperSpeed USB: wSpeedsSupported bit 3 = 5 Gbps.
                0x03 if len >= 6 && d[4] & 0x08 != 0 => {
                    best = Some(best.map_or(5000.0, |b| b.max(5000.0)));
                }
                // SuperSpeedPlus: bmAttributes bits 0-4 = attribute count - 1, then one dword
                // per sublink speed attribute: LSE (exponent) bits 4-5, LSM (mantissa) bits
                // 16-31. These are per-lane rates: a Gen 2x2 device shows 10 Gbps.
                0x0a if len >= 12 => {
                    let attrs = u32::from_le_bytes([d[4], d[5], d[6], d[7]]);
                    let n = ((attrs & 0x1f) + 1) as usize;
                    for k in 0..n {
                        let o = 12 + 4 * k;
                        if o + 4 > len {
                            break;
                        }
                        let a = u32::from_le_bytes([d[o], d[o + 1], d[o + 2], d[o + 3]]);
                        let lse = (a >> 4) & 0x3;
                        let lsm = (a >> 16) as f64;
                        let mbps = match lse {
                            0 => lsm / 1e6,
                            1 => lsm / 1e3,
                            2 => lsm,
                            _ => lsm * 1000.0,
                        };
                        best = Some(best.map_or(mbps, |b| b.max(mbps)));
                    }
                }
                _ => {}
            }
        }
        i += len;
    }
    best
}

/// True when a configuration descriptor set holds a mass-storage interface with the UAS
/// protocol (0x62) in any alternate setting.
pub fn offers_uas(d: &[u8]) -> bool {
    let mut i = 0;
    while i + 2 <= d.len() {
        let len = d[i] as usize;
        if len < 2 || i + len > d.len() {
            return false;
        }
        if d[i + 1] == 0x04 && len >= 9 && d[i + 5] == 0x08 && d[i + 7] == 0x62 {
            return true;
        }
        i += len;
    }
    false
}

fn speed_text(mbps: f64) -> String {
    if mbps >= 1000.0 {
        format!("{} Gbps", mbps / 1000.0)
    } else {
        format!("{mbps} Mbps")
    }
}

/// Findings about speeds, bridges and drivers.
pub fn findings(devs: &[UsbDevice]) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in devs {
        let ids = format!(
            "{:04x}:{:04x}",
            d.vendor_id.unwrap_or(0),
            d.product_id.unwrap_or(0)
        );
        let label = match (&d.bridge, &d.product) {
            (Some(b), _) => format!("{} {} ({} bridge, {ids})", d.path, b.name, b.target),
            (None, Some(p)) => format!(
                "{} {} {} ({ids})",
                d.path,
                d.manufacturer.as_deref().unwrap_or("").trim(),
                p.trim()
            )
            .replace("  ", " "),
            _ => format!("{} ({ids})", d.path),
        };
        let mut ev = vec![format!(
            "{USB_DEVICES}/{}: speed {} Mbps, bcdUSB {}",
            d.path,
            d.speed_mbps.map_or("?".into(), |s| s.to_string()),
            d.usb_version.as_deref().unwrap_or("?")
        )];
        if let (Some(c), Some(src)) = (d.capable_mbps, &d.capable_source) {
            ev.push(format!("capable of {} ({src})", speed_text(c)));
        }
        if let Some(b) = d.bus_mbps {
            ev.push(format!(
                "bus usb{} runs at {}",
                d.path.split('-').next().unwrap_or("?"),
                speed_text(b)
            ));
        }
        if let (Some(s), Some(c)) = (d.speed_mbps, d.capable_mbps) {
            if c >= 5000.0 && s <= 480.0 {
                out.push(finding(
                    "usb-superspeed-at-high-speed",
                    if d.storage {
                        Severity::Warning
                    } else {
                        Severity::Info
                    },
                    format!(
                        "USB {label}: SuperSpeed device connected at {} only",
                        speed_text(s)
                    ),
                    "USB 2.0 tops out near 40 MB/s: a USB2 port or hub, a bad or USB2-only \
                     cable, or failing SuperSpeed lines (under-powering, dirty connector) \
                     costs most of the throughput",
                    ev.clone(),
                ));
            } else if s < c && s >= 5000.0 {
                out.push(finding(
                    "usb-speed-below-capability",
                    Severity::Info,
                    format!(
                        "USB {label}: connected at {}, capable of {}",
                        speed_text(s),
                        speed_text(c)
                    ),
                    "the port, hub or cable limits the transfer rate",
                    ev.clone(),
                ));
            }
        }
        if d.storage {
            let drv = d.storage_driver.as_deref();
            let mut ev2 = ev.clone();
            if let Some(q) = &d.quirks {
                ev2.push(format!("usb-storage quirks for {ids}: {q}"));
            }
            if let Some(drv) = drv {
                ev2.push(format!("mass-storage interface bound to {drv}"));
            }
            if drv == Some("usb-storage") {
                let disabled = d.quirks.as_deref().is_some_and(|q| q.contains('u'));
                let msg = match (d.uas_capable, disabled) {
                    (_, true) => format!(
                        "USB {label}: UAS disabled by a usb-storage quirk, running Bulk-Only \
                         (usb-storage)"
                    ),
                    (Some(true), false) => format!(
                        "USB {label}: the bridge offers UAS but runs on usb-storage (Bulk-Only)"
                    ),
                    _ => format!("USB {label}: storage on usb-storage (Bulk-Only Transport)"),
                };
                out.push(finding(
                    "usb-storage-not-uas",
                    if d.uas_capable == Some(true) || disabled {
                        Severity::Warning
                    } else {
                        Severity::Info
                    },
                    msg,
                    "Bulk-Only Transport handles one command at a time (no command queueing, \
                     no TRIM passthrough): random I/O is much slower than with UAS. A quirk is \
                     usually set because this bridge's firmware misbehaves with UAS",
                    ev2,
                ));
            } else if let Some(b) = &d.bridge {
                out.push(finding(
                    "usb-storage-bridge",
                    Severity::Info,
                    format!(
                        "USB storage through {} ({} bridge) on {}",
                        b.name,
                        b.target,
                        drv.unwrap_or("no driver")
                    ),
                    "the bridge chip and its firmware decide what reaches the drive (SMART, \
                     TRIM, UAS); its USB link caps the drive's speed",
                    ev2,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bos_superspeed_and_plus() {
        // BOS header + USB 2.0 extension + SuperSpeed (5 Gbps).
        let ss = [
            5, 0x0f, 22, 0, 2, 7, 0x10, 2, 6, 0, 0, 0, 10, 0x10, 3, 0, 0x0e, 0, 1, 10, 0xff, 0x07,
        ];
        assert_eq!(bos_max_mbps(&ss), Some(5000.0));
        // + SuperSpeedPlus with one symmetric pair of 10 Gbps sublink attributes.
        let mut ssp = ss.to_vec();
        ssp.extend_from_slice(&[20, 0x10, 0x0a, 0, 1, 0, 0, 0, 0, 0x11, 0, 0]);
        ssp.extend_from_slice(&(0x000a_4030u32).to_le_bytes());
        ssp.extend_from_slice(&(0x000a_40b0u32).to_le_bytes());
        ssp[2] = ssp.len() as u8;
        assert_eq!(bos_max_mbps(&ssp), Some(10000.0));
        assert_eq!(bos_max_mbps(&[1, 2, 3]), None);
        assert_eq!(bos_max_mbps(&[5, 0x0f, 0, 0, 0, 0, 0x10]), None);
    }

    #[test]
    fn quirks_parse() {
        assert_eq!(
            quirk_list("152d:0578:u,0bda:9210:"),
            vec![
                (0x152d, 0x0578, "u".into()),
                (0x0bda, 0x9210, String::new())
            ]
        );
        assert!(quirk_list("garbage").is_empty());
    }
}
