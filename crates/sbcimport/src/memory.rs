//! tinymembench figures: ` libc memcpy copy` / ` libc memset fill` (nuumio tinymembench) or
//! ` standard memcpy` / ` standard memset` (ssvb), one run per cluster.

use document::imported::MemoryRun;

use crate::text::leading_f64;

/// The value before `MB/s` after the colon.
fn mb_s(l: &str) -> Option<f64> {
    let (_, v) = l.split_once(':')?;
    if !v.contains("MB/s") {
        return None;
    }
    leading_f64(v)
}

pub fn memory_runs(lines: &[&str]) -> Vec<MemoryRun> {
    let mut runs: Vec<MemoryRun> = Vec::new();
    let mut pending: Option<String> = None;
    for l in lines {
        if let Some(rest) = l.strip_prefix("Executing tinymembench on ") {
            pending = Some(rest.trim().trim_end_matches(':').to_string());
            continue;
        }
        if let Some(rest) = l.strip_prefix("Executing benchmark on ") {
            let rest = rest.trim().trim_end_matches(':');
            if rest.starts_with("cpu") {
                pending = Some(rest.to_string());
            }
            continue;
        }
        let t = l.trim_start();
        let key = if t.starts_with("libc memcpy copy") {
            0
        } else if t.starts_with("libc memset fill") {
            1
        } else if t.starts_with("standard memcpy") {
            2
        } else if t.starts_with("standard memset") {
            3
        } else {
            continue;
        };
        let Some(v) = mb_s(t) else { continue };
        // A new run starts with a new heading, or when the figure is already filled.
        let need_new = match (runs.last(), &pending) {
            (None, _) => true,
            (Some(_), Some(_)) => true,
            (Some(r), None) => get(r, key).is_some(),
        };
        if need_new {
            runs.push(MemoryRun {
                cluster: pending.take(),
                ..MemoryRun::default()
            });
        }
        let r = runs.last_mut().expect("pushed above");
        *slot_mut(r, key) = Some(v);
    }
    runs
}

fn get(r: &MemoryRun, key: u8) -> Option<f64> {
    match key {
        0 => r.libc_memcpy_mb_s,
        1 => r.libc_memset_mb_s,
        2 => r.standard_memcpy_mb_s,
        _ => r.standard_memset_mb_s,
    }
}

fn slot_mut(r: &mut MemoryRun, key: u8) -> &mut Option<f64> {
    match key {
        0 => &mut r.libc_memcpy_mb_s,
        1 => &mut r.libc_memset_mb_s,
        2 => &mut r.standard_memcpy_mb_s,
        _ => &mut r.standard_memset_mb_s,
    }
}

/// The figure sbc-bench uses for memcpy: libc line if the log has it, else standard.
pub fn memcpy(r: &MemoryRun) -> Option<f64> {
    r.libc_memcpy_mb_s.or(r.standard_memcpy_mb_s)
}

pub fn memset(r: &MemoryRun) -> Option<f64> {
    r.libc_memset_mb_s.or(r.standard_memset_mb_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clusters() {
        let log = [
            "Executing benchmark on cpu0 (Cortex-A53):",
            " libc memcpy copy                                 :   2180.8 MB/s (3, 0.5%)",
            " libc memset fill                                 :  15591.5 MB/s (2)",
            "Executing benchmark on cpu4 (Cortex-A72):",
            " libc memcpy copy                                 :   5107.7 MB/s (2)",
            " libc memset fill                                 :  15712.4 MB/s (3, 0.4%)",
        ];
        let r = memory_runs(&log);
        assert_eq!(r.len(), 2);
        assert_eq!(memcpy(&r[1]), Some(5107.7));
        assert_eq!(r[1].cluster.as_deref(), Some("cpu4 (Cortex-A72)"));
    }

    #[test]
    fn no_headings() {
        let log = [
            " standard memcpy                                      :   1922.6 MB/s (1.0%)",
            " standard memset                                      :   5917.9 MB/s (0.4%)",
            " standard memcpy                                      :   1756.5 MB/s (0.9%)",
            " standard memset                                      :   5112.5 MB/s",
        ];
        let r = memory_runs(&log);
        assert_eq!(r.len(), 2);
        assert_eq!(memset(&r[1]), Some(5112.5));
    }
}
