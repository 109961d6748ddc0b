//! Memory and swap: /proc/meminfo, /proc/swaps, zram devices (/sys/block/zram*) and zswap
//! (/sys/module/zswap/parameters).
//!
//! Swap kind per area: a `/dev/zramN` device is zram (whatever /proc/swaps' Type column says,
//! which is "partition" for it); otherwise the Type column: "file" or "partition".

use document::machine::{Memory, SwapArea, SwapKind, Zram, Zswap};

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
    m
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
