//! This machine's own identifiers, read through `probe::Root` (so tests use fixture trees).
//!
//! Patterns cannot recognise a host name or a bare serial number in free text; the values the
//! machine really has can be replaced wherever they appear. Read: the host name (kernel and
//! /etc/hostname), DMI serials and product UUID, the CID and serial of every MMC/SD card, the
//! serial of every USB device, the MAC address of every network interface, the device tree's
//! and /proc/cpuinfo's serial number (Raspberry Pi and others), /etc/machine-id. Unreadable
//! files are skipped silently: the patterns still apply. A host name that names the board (an
//! image's default such as `rock-5b`, found in the device tree's model or compatible strings) is
//! not an identifier of this machine and is kept.

use probe::Root;

use crate::kind::Kind;

fn value(root: &Root, path: &str) -> Option<String> {
    let v = root.read_value(path).ok()?;
    let v = v.trim_matches(char::from(0)).trim().to_string();
    (!v.is_empty()).then_some(v)
}

fn alnum_lower(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// True when the host name only names the board (an image's default host name).
fn names_the_board(root: &Root, host: &str) -> bool {
    let h = alnum_lower(host);
    let mut names: Vec<String> = Vec::new();
    for p in [
        "/proc/device-tree/model",
        "/sys/firmware/devicetree/base/model",
    ] {
        names.extend(value(root, p));
    }
    for p in [
        "/proc/device-tree/compatible",
        "/sys/firmware/devicetree/base/compatible",
    ] {
        if let Ok(list) = root.read_dt_strings(p) {
            names.extend(list.into_iter().map(|c| match c.split_once(',') {
                Some((_, board)) => board.to_string(),
                None => c,
            }));
        }
    }
    !h.is_empty() && names.iter().any(|n| alnum_lower(n).contains(&h))
}

/// Every identifier of the machine under `root`, with its kind.
pub fn identifiers(root: &Root) -> Vec<(Kind, String)> {
    let mut out: Vec<(Kind, String)> = Vec::new();
    for p in ["/proc/sys/kernel/hostname", "/etc/hostname"] {
        if let Some(h) = value(root, p) {
            let short = h.split('.').next().unwrap_or(&h).to_string();
            for name in [h, short] {
                if !names_the_board(root, &name) {
                    out.push((Kind::Hostname, name));
                }
            }
        }
    }
    for f in ["product_serial", "board_serial", "chassis_serial"] {
        out.extend(value(root, &format!("/sys/class/dmi/id/{f}")).map(|v| (Kind::Serial, v)));
    }
    out.extend(value(root, "/sys/class/dmi/id/product_uuid").map(|v| (Kind::Uuid, v)));
    out.extend(value(root, "/etc/machine-id").map(|v| (Kind::Serial, v)));
    for p in [
        "/proc/device-tree/serial-number",
        "/sys/firmware/devicetree/base/serial-number",
    ] {
        out.extend(value(root, p).map(|v| (Kind::Serial, v)));
    }
    if let Ok(cpuinfo) = root.read("/proc/cpuinfo") {
        for line in cpuinfo.lines() {
            if let Some((k, v)) = line.split_once(':')
                && k.trim().eq_ignore_ascii_case("serial")
            {
                out.push((Kind::Serial, v.trim().to_string()));
            }
        }
    }
    for dev in root.list_dir("/sys/block").unwrap_or_default() {
        for f in ["cid", "serial"] {
            out.extend(
                value(root, &format!("/sys/block/{dev}/device/{f}")).map(|v| (Kind::Serial, v)),
            );
        }
    }
    for dev in root.list_dir("/sys/bus/usb/devices").unwrap_or_default() {
        out.extend(
            value(root, &format!("/sys/bus/usb/devices/{dev}/serial")).map(|v| (Kind::Serial, v)),
        );
    }
    for ifc in root.list_dir("/sys/class/net").unwrap_or_default() {
        out.extend(value(root, &format!("/sys/class/net/{ifc}/address")).map(|v| (Kind::Mac, v)));
    }
    out.retain(|(k, v)| crate::text::identifies(*k, v));
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(dir: &std::path::Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn reads_every_identifier_of_a_fixture_machine() {
        let dir = std::env::temp_dir().join(format!("redact-local-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        put(&dir, "proc/sys/kernel/hostname", "benchbox-07\n");
        put(&dir, "sys/class/dmi/id/product_serial", "SN-4711-XYZ\n");
        put(
            &dir,
            "sys/class/dmi/id/board_serial",
            "To Be Filled By O.E.M.\n",
        );
        put(
            &dir,
            "sys/block/mmcblk0/device/cid",
            "9f5449303030303030109e0ba7011c00\n",
        );
        put(&dir, "sys/block/mmcblk0/device/serial", "0x109e0ba7\n");
        put(&dir, "sys/bus/usb/devices/2-1/serial", "00000000000179\n");
        put(&dir, "sys/class/net/eth0/address", "00:0e:c6:7c:3f:3c\n");
        put(&dir, "sys/class/net/lo/address", "00:00:00:00:00:00\n");
        put(&dir, "etc/machine-id", "3c1f6a2b9d8e4f7a8b6c5d4e3f2a1b0c\n");
        put(
            &dir,
            "proc/cpuinfo",
            "processor\t: 0\nSerial\t\t: 10000000a1b2c3d4\n",
        );
        let ids = identifiers(&Root::new(&dir));
        let values: Vec<&str> = ids.iter().map(|(_, v)| v.as_str()).collect();
        for want in [
            "benchbox-07",
            "SN-4711-XYZ",
            "9f5449303030303030109e0ba7011c00",
            "0x109e0ba7",
            "00000000000179",
            "00:0e:c6:7c:3f:3c",
            "3c1f6a2b9d8e4f7a8b6c5d4e3f2a1b0c",
            "10000000a1b2c3d4",
        ] {
            assert!(values.contains(&want), "{want} missing from {values:?}");
        }
        assert!(!values.contains(&"To Be Filled By O.E.M."));
        assert!(!values.contains(&"00:00:00:00:00:00"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_default_host_name_that_names_the_board_is_kept() {
        let dir = std::env::temp_dir().join(format!("redact-board-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        put(&dir, "proc/sys/kernel/hostname", "rock-5b\n");
        put(&dir, "proc/device-tree/model", "Radxa ROCK 5B\0");
        let ids = identifiers(&Root::new(&dir));
        assert!(ids.iter().all(|(k, _)| *k != Kind::Hostname), "{ids:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
