//! CPU caches from /sys/devices/system/cpu/cpuN/cache/indexM/{level,type,size,shared_cpu_list}.

use document::machine::Cache;

use crate::topology::CPU_DIR;
use crate::{Notes, Root};

/// Parses a cache size as sysfs prints it ("32K", "1024K", "3M"; a bare number is bytes).
pub fn parse_size_kib(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'K' | 'k') => (&s[..i], 1),
        (i, 'M' | 'm') => (&s[..i], 1024),
        (i, 'G' | 'g') => (&s[..i], 1024 * 1024),
        _ => return s.parse::<u64>().ok().map(|b| b / 1024),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

/// The caches of one CPU, ordered by level then kind (Data before Instruction).
pub fn read_caches(root: &Root, notes: &mut Notes, cpu: u32) -> Vec<Cache> {
    let base = format!("{CPU_DIR}/cpu{cpu}/cache");
    let Ok(entries) = root.list_dir(&base) else {
        return Vec::new();
    };
    let mut v: Vec<Cache> = entries
        .iter()
        .filter(|n| n.starts_with("index"))
        .filter_map(|n| {
            let d = format!("{base}/{n}");
            let level = notes.keep(root.read_u64(&format!("{d}/level")))?;
            let size = notes.keep_optional(root.read_value(&format!("{d}/size")));
            let size_kib = size.as_deref().and_then(parse_size_kib);
            if size.is_some() && size_kib.is_none() {
                notes.push(crate::Absent {
                    path: format!("{d}/size"),
                    reason: "not a cache size".into(),
                });
            }
            Some(Cache {
                level: u32::try_from(level).ok()?,
                kind: notes
                    .keep_optional(root.read_value(&format!("{d}/type")))
                    .unwrap_or_else(|| "Unknown".into()),
                size_kib,
                shared_cpus: notes
                    .keep_optional(root.read_cpu_list(&format!("{d}/shared_cpu_list")))
                    .unwrap_or_default(),
            })
        })
        .collect();
    v.sort_by(|a, b| (a.level, &a.kind).cmp(&(b.level, &b.kind)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size_kib("32K"), Some(32));
        assert_eq!(parse_size_kib("3M"), Some(3072));
        assert_eq!(parse_size_kib("65536"), Some(64));
        assert_eq!(parse_size_kib("K"), None);
        assert_eq!(parse_size_kib(""), None);
        assert_eq!(parse_size_kib("99999999999999999999G"), None);
    }
}
