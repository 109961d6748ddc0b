//! What the log says after the benchmarks: throttling statistics, swap before/after, the dmesg
//! lines, the "Results validation" bullets.

use document::imported::{OppTime, SwapInfo, ThrottlingTable};

use crate::text::is_separator;

/// "Throttling statistics (time spent on each cpufreq OPP)[ for CPUs a-b (core)]:" tables.
pub fn throttling(lines: &[&str]) -> Vec<ThrottlingTable> {
    let mut out: Vec<ThrottlingTable> = Vec::new();
    let mut current: Option<ThrottlingTable> = None;
    for l in lines {
        if let Some(rest) = l.strip_prefix("Throttling statistics (time spent on each cpufreq OPP)")
        {
            out.extend(current.take());
            current = Some(ThrottlingTable {
                cluster: rest.trim().trim_end_matches(':').trim().to_string(),
                rows: Vec::new(),
            });
            continue;
        }
        let Some(t) = current.as_mut() else { continue };
        if let Some((mhz, secs)) = l.split_once("MHz:") {
            let mhz = mhz.trim().parse();
            let secs = secs
                .trim()
                .strip_suffix("sec")
                .map(str::trim)
                .and_then(|s| s.parse().ok());
            if let (Ok(mhz), Some(seconds)) = (mhz, secs) {
                t.rows.push(OppTime { mhz, seconds });
                continue;
            }
        }
        if !l.trim().is_empty() || is_separator(l) {
            out.extend(current.take());
        }
    }
    out.extend(current);
    out
}

/// The `free` Swap: line and the swapon lines of each memory block (before and after the run).
pub fn swap(lines: &[&str]) -> Option<SwapInfo> {
    // Each block: optional `Swap:` line of free, then optionally swapon's table.
    let mut blocks: Vec<(Vec<String>, Option<u64>)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("Swap:") {
            blocks.push((vec![l.trim_end().to_string()], None));
        } else if l.starts_with("Filename") && l.contains("Used") {
            if blocks.is_empty() {
                blocks.push((Vec::new(), None));
            }
            let b = blocks.last_mut().expect("non-empty");
            b.0.push(l.trim_end().to_string());
            let mut used = 0u64;
            i += 1;
            while i < lines.len() && !lines[i].trim().is_empty() {
                let toks: Vec<&str> = lines[i].split_whitespace().collect();
                if toks.len() >= 4 {
                    used += toks[3].parse::<u64>().unwrap_or(0);
                }
                b.0.push(lines[i].trim_end().to_string());
                i += 1;
            }
            b.1 = Some(used);
            continue;
        }
        i += 1;
    }
    if blocks.is_empty() {
        return None;
    }
    let first = blocks.first().cloned().unwrap_or_default();
    let last = if blocks.len() > 1 {
        blocks.last().cloned()
    } else {
        None
    };
    Some(SwapInfo {
        before: first.0,
        used_kib_before: first.1,
        after: last.as_ref().map(|b| b.0.clone()).unwrap_or_default(),
        used_kib_after: last.and_then(|b| b.1),
    })
}

/// Lines after "dmesg output while running the benchmarks:" up to the next separator.
pub fn kmsg(lines: &[&str]) -> Vec<String> {
    let Some(start) = lines
        .iter()
        .position(|l| l.starts_with("dmesg output while running"))
    else {
        return Vec::new();
    };
    lines[start + 1..]
        .iter()
        .take_while(|l| !is_separator(l))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The `  * …` bullets after "Results validation:"; in a log without that block (before
/// v0.9), sbc-bench's own verdict line of its era, "Throttling occured. Cpufreq statistics …".
pub fn validation(lines: &[&str]) -> Vec<String> {
    let Some(start) = lines
        .iter()
        .position(|l| l.starts_with("Results validation:"))
    else {
        return lines
            .iter()
            .filter(|l| l.starts_with("Throttling occured."))
            .map(|l| l.trim_end().to_string())
            .take(1)
            .collect();
    };
    lines[start + 1..]
        .iter()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.trim_start().starts_with("* "))
        .map(|l| {
            l.trim_start()
                .trim_start_matches("* ")
                .trim_end()
                .to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttling_table() {
        let log = [
            "Throttling statistics (time spent on each cpufreq OPP) for CPUs 0-3 (Cortex-A53):",
            "",
            "2016 MHz:  876.51 sec",
            " 816 MHz:       0 sec",
            "",
            "Throttling statistics (time spent on each cpufreq OPP):",
            "1800 MHz: 1146.79 sec",
        ];
        let t = throttling(&log);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].cluster, "for CPUs 0-3 (Cortex-A53)");
        assert_eq!(
            t[0].rows,
            vec![
                OppTime {
                    mhz: 2016,
                    seconds: 876.51
                },
                OppTime {
                    mhz: 816,
                    seconds: 0.0
                }
            ]
        );
        assert_eq!(t[1].rows.len(), 1);
    }

    #[test]
    fn swap_before_after() {
        let log = [
            "Swap:          926M        273M        653M",
            "",
            "Filename\t\t\t\tType\t\tSize\tUsed\tPriority",
            "/dev/zram0     partition\t118540\t33872\t5",
            "/dev/zram1     partition\t118540\t35320\t5",
            "",
            "Swap:          926M        300M        600M",
            "Filename\t\t\t\tType\t\tSize\tUsed\tPriority",
            "/dev/zram0     partition\t118540\t40000\t5",
        ];
        let s = swap(&log).unwrap();
        assert_eq!(s.used_kib_before, Some(69192));
        assert_eq!(s.used_kib_after, Some(40000));
        assert_eq!(s.after.len(), 3);
    }
}
