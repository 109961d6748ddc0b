//! Memory and swap: /proc/meminfo, /proc/swaps, zram devices (/sys/block/zram*) and zswap
//! (/sys/module/zswap/parameters).
//!
//! Swap kind per area: a `/dev/zramN` device is zram (whatever /proc/swaps' Type column says,
//! which is "partition" for it); otherwise the Type column: "file" or "partition".

use document::machine::{DramDevice, Memory, SwapArea, SwapKind, Zram, Zswap};

use crate::{Absent, Notes, Root};

/// Reads everything memory-related.
pub fn read(root: &Root, notes: &mut Notes) -> Memory {
    let mut m = Memory::default();
    if let Some(text) = notes.keep(root.read("/proc/meminfo")) {
        let kv = parse_meminfo(&text);
        let get = |k: &str| kv.iter().find(|(n, _)| n == k).map(|(_, v)| *v);
        m.total_kib = get("MemTotal");
        m.available_kib = get("MemAvailable");
        m.free_kib = get("MemFree");
        m.swap_total_kib = get("SwapTotal");
        m.swap_free_kib = get("SwapFree");
        if m.total_kib.is_none() {
            notes.push(Absent {
                path: "/proc/meminfo".into(),
                reason: "no MemTotal line".into(),
            });
        }
    }
    if let Some(text) = notes.keep_optional(root.read("/proc/swaps")) {
        m.swaps = parse_swaps(&text);
    }
    m.zram = read_zram(root, notes);
    m.zswap = read_zswap(root, notes);
    m.dram = read_smbios_dram(root, notes);
    m.dram.extend(read_edac_dimms(root, notes));
    m.dram.extend(crate::devicetree::dram(root));
    m
}

/// SMBIOS's memory device type byte (type 17, offset 0x12) as dmidecode names it.
fn smbios_memory_type(b: u8) -> Option<&'static str> {
    Some(match b {
        0x12 => "DDR",
        0x13 => "DDR2",
        0x14 => "DDR2 FB-DIMM",
        0x18 => "DDR3",
        0x19 => "FBD2",
        0x1A => "DDR4",
        0x1B => "LPDDR",
        0x1C => "LPDDR2",
        0x1D => "LPDDR3",
        0x1E => "LPDDR4",
        0x20 => "HBM",
        0x21 => "HBM2",
        0x22 => "DDR5",
        0x23 => "LPDDR5",
        0x24 => "HBM3",
        _ => return None,
    })
}

/// One SMBIOS type 17 structure (its formatted area and strings, as the kernel exposes it in
/// `/sys/firmware/dmi/entries/17-N/raw`): None for an empty slot or another type.
pub fn parse_smbios_memory_device(raw: &[u8]) -> Option<DramDevice> {
    let len = *raw.get(1)? as usize;
    if *raw.first()? != 17 || len < 0x15 || raw.len() < len {
        return None;
    }
    let word = |o: usize| (o + 2 <= len).then(|| u16::from_le_bytes([raw[o], raw[o + 1]]));
    let dword = |o: usize| {
        (o + 4 <= len).then(|| u32::from_le_bytes([raw[o], raw[o + 1], raw[o + 2], raw[o + 3]]))
    };
    // Size: 0 = no device installed; 0xFFFF unknown; 0x7FFF = see Extended Size (MiB);
    // bit 15 set = KiB.
    let size_mib = match word(0x0C)? {
        0 => return None,
        0xFFFF => None,
        0x7FFF => dword(0x1C).map(|v| (v & 0x7FFF_FFFF) as u64),
        v if v & 0x8000 != 0 => Some(((v & 0x7FFF) as u64) / 1024),
        v => Some(v as u64),
    };
    // The strings after the formatted area, numbered from 1.
    let strings: Vec<String> = raw[len..]
        .split(|b| *b == 0)
        .take_while(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).trim().to_string())
        .collect();
    let string = |o: usize| {
        let i = *raw.get(o).filter(|_| o < len)? as usize;
        strings
            .get(i.checked_sub(1)?)
            .filter(|s| !s.is_empty())
            .cloned()
    };
    let speed = |o: usize| word(o).filter(|v| *v != 0 && *v != 0xFFFF).map(u32::from);
    Some(DramDevice {
        source: "smbios".into(),
        locator: string(0x10),
        mem_type: smbios_memory_type(raw[0x12]).map(String::from),
        size_mib,
        speed_mts: speed(0x15),
        configured_mts: speed(0x20),
    })
}

/// The SMBIOS memory devices (readable by root only; absent on most boards), in list_dir's
/// natural order.
fn read_smbios_dram(root: &Root, notes: &mut Notes) -> Vec<DramDevice> {
    let dir = "/sys/firmware/dmi/entries";
    let Some(names) = notes.keep_optional(root.list_dir(dir)) else {
        return Vec::new();
    };
    names
        .iter()
        .filter(|n| n.starts_with("17-"))
        // Root only (mode 0400): a user's run reads none, and that is not worth a note.
        .filter_map(|n| root.read_bytes(&format!("{dir}/{n}/raw")).ok())
        .filter_map(|raw| parse_smbios_memory_device(&raw))
        .collect()
}

/// EDAC's DIMMs (`mc*/dimm*`: dimm_mem_type, dimm_label, size in MiB), where an EDAC driver
/// is loaded.
fn read_edac_dimms(root: &Root, notes: &mut Notes) -> Vec<DramDevice> {
    let base = "/sys/devices/system/edac/mc";
    let Some(mcs) = notes.keep_optional(root.list_dir(base)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for mc in mcs.iter().filter(|m| m.starts_with("mc")) {
        let Ok(mut dimms) = root.list_dir(&format!("{base}/{mc}")) else {
            continue;
        };
        dimms.retain(|d| d.starts_with("dimm") || d.starts_with("rank"));
        for d in dimms {
            let at = format!("{base}/{mc}/{d}");
            let size_mib = root.read_u64(&format!("{at}/size")).ok();
            if size_mib == Some(0) {
                continue;
            }
            let label = root
                .read_value(&format!("{at}/dimm_label"))
                .ok()
                .filter(|l| !l.is_empty());
            out.push(DramDevice {
                source: "edac".into(),
                locator: label.or_else(|| Some(format!("{mc}/{d}"))),
                mem_type: root
                    .read_value(&format!("{at}/dimm_mem_type"))
                    .ok()
                    .filter(|t| !t.is_empty() && t != "Unknown"),
                size_mib,
                speed_mts: None,
                configured_mts: None,
            });
        }
    }
    out
}

/// `Key:   123 kB` lines of /proc/meminfo (values in KiB); malformed lines are skipped.
pub fn parse_meminfo(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            let n = v.split_whitespace().next()?.parse().ok()?;
            Some((k.trim().to_string(), n))
        })
        .collect()
}

/// Decodes the octal escapes the kernel uses in /proc/swaps paths (`\040` for a space).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') as u32 * 64
                + (b[i + 2] - b'0') as u32 * 8
                + (b[i + 3] - b'0') as u32;
            if let Ok(c) = u8::try_from(v) {
                out.push(c);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses /proc/swaps (`Filename Type Size Used Priority`, sizes in KiB). The header and
/// malformed lines are skipped.
pub fn parse_swaps(text: &str) -> Vec<SwapArea> {
    text.lines()
        .filter(|l| !l.starts_with("Filename"))
        .filter_map(|l| {
            // The path may contain escaped blanks only, so whitespace splitting is safe; a
            // deleted swap file gets a "(deleted)" word appended after the path.
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() < 2 {
                return None;
            }
            let (path, rest) = if w.len() >= 6 && w[1] == "(deleted)" {
                (format!("{} (deleted)", unescape(w[0])), &w[2..])
            } else {
                (unescape(w[0]), &w[1..])
            };
            let kind = if is_zram(&path) {
                SwapKind::Zram
            } else {
                match rest[0] {
                    "file" => SwapKind::File,
                    "partition" => SwapKind::Partition,
                    _ => SwapKind::Unknown,
                }
            };
            Some(SwapArea {
                path,
                kind,
                size_kib: rest.get(1).and_then(|v| v.parse().ok()),
                used_kib: rest.get(2).and_then(|v| v.parse().ok()),
                priority: rest.get(3).and_then(|v| v.parse().ok()),
            })
        })
        .collect()
}

fn is_zram(path: &str) -> bool {
    path.strip_prefix("/dev/zram")
        .or_else(|| path.strip_prefix("/dev/block/zram"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

/// The bracketed (selected) entry of a list like `lzo [lz4] zstd`; a single word is itself.
pub fn selected(list: &str) -> Option<String> {
    if let Some(s) = list
        .split_whitespace()
        .find(|w| w.starts_with('[') && w.ends_with(']'))
    {
        return Some(s.trim_matches(['[', ']']).to_string()).filter(|s| !s.is_empty());
    }
    let mut w = list.split_whitespace();
    match (w.next(), w.next()) {
        (Some(one), None) => Some(one.to_string()),
        _ => None,
    }
}

fn read_zram(root: &Root, notes: &mut Notes) -> Vec<Zram> {
    root.list_dir("/sys/block")
        .unwrap_or_default()
        .into_iter()
        .filter(|n| {
            n.strip_prefix("zram")
                .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()) && !d.is_empty())
        })
        .map(|name| {
            let d = format!("/sys/block/{name}");
            let mm = notes
                .keep_optional(root.read_u64_list(&format!("{d}/mm_stat")))
                .unwrap_or_default();
            Zram {
                disksize_bytes: notes.keep_optional(root.read_u64(&format!("{d}/disksize"))),
                algorithm: notes
                    .keep_optional(root.read_value(&format!("{d}/comp_algorithm")))
                    .and_then(|s| selected(&s)),
                orig_data_bytes: mm.first().copied(),
                compr_data_bytes: mm.get(1).copied(),
                mem_used_bytes: mm.get(2).copied(),
                name,
            }
        })
        .collect()
}

fn read_zswap(root: &Root, notes: &mut Notes) -> Option<Zswap> {
    let d = "/sys/module/zswap/parameters";
    if !root.exists(d) {
        return None;
    }
    let enabled = notes
        .keep_optional(root.read_value(&format!("{d}/enabled")))
        .and_then(|v| match v.as_str() {
            "Y" | "y" | "1" => Some(true),
            "N" | "n" | "0" => Some(false),
            _ => None,
        });
    Some(Zswap {
        enabled,
        compressor: notes.keep_optional(root.read_value(&format!("{d}/compressor"))),
        zpool: notes.keep_optional(root.read_value(&format!("{d}/zpool"))),
        max_pool_percent: notes.keep_optional(root.read_u64(&format!("{d}/max_pool_percent"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_kinds() {
        let t = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n\
                 /dev/zram0                              partition\t2009756\t\t1024\t\t100\n\
                 /swap\\040file                           file\t\t1048572\t\t0\t\t-2\n\
                 /dev/mmcblk0p3                          partition\t524284\t\t0\t\t-3\n\
                 garbage\n";
        let v = parse_swaps(t);
        assert_eq!(v.len(), 3);
        assert_eq!(
            (v[0].kind, v[0].used_kib, v[0].priority),
            (SwapKind::Zram, Some(1024), Some(100))
        );
        assert_eq!(
            (v[1].path.as_str(), v[1].kind),
            ("/swap file", SwapKind::File)
        );
        assert_eq!(v[2].kind, SwapKind::Partition);
    }

    #[test]
    fn selected_algorithm() {
        assert_eq!(selected("lzo [lz4] zstd").as_deref(), Some("lz4"));
        assert_eq!(selected("zstd").as_deref(), Some("zstd"));
        assert_eq!(selected("lzo lz4"), None);
        assert_eq!(selected("[]"), None);
    }
}
