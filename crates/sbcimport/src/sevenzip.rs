//! 7-Zip benchmark runs: the `Tot:` line of each `7z b` run, the `Total: a,b,c` line of the
//! multi-threaded runs, the single-threaded runs (one per cluster) before them.

use document::imported::{SevenZip, SevenZipRun};

use crate::text::number_list;

pub fn sevenzip(lines: &[&str]) -> Option<SevenZip> {
    let mut version = None;
    let mut runs: Vec<SevenZipRun> = Vec::new();
    let mut heading: Option<String> = None;
    let mut threads = None;
    let mut totals: Option<(usize, Vec<u64>)> = None;
    for l in lines {
        if version.is_none() && l.starts_with("7-Zip") {
            version = l
                .split_whitespace()
                .skip(1)
                .find(|t| t.contains('.') && t.chars().all(|c| c.is_ascii_digit() || c == '.'))
                .map(str::to_string);
        }
        if let Some(rest) = l.strip_prefix("Executing benchmark single-threaded on ") {
            heading = Some(rest.trim().to_string());
        } else if l.starts_with("Executing benchmark") && l.contains("multi-threaded") {
            heading = None;
        } else if let Some((_, t)) = l.split_once("# Benchmark threads:") {
            threads = t.trim().parse().ok();
        } else if let Some(rest) = l.strip_prefix("Tot:") {
            // `Tot:  usage  R/U  rating`: the rating is the third number.
            if let Some(rating) = rest.split_whitespace().nth(2).and_then(|t| t.parse().ok()) {
                runs.push(SevenZipRun {
                    cluster: heading.clone(),
                    threads,
                    rating,
                });
            }
        } else if let Some(rest) = l.strip_prefix("Total:") {
            // cpuminer's lines start with "[date]", so a line-start "Total:" is 7-Zip's.
            if totals.is_none() {
                let list: Vec<u64> = number_list(rest)
                    .into_iter()
                    .filter(|v| *v >= 0.0)
                    .map(|v| v as u64)
                    .collect();
                totals = Some((runs.len(), list));
            }
        }
    }
    if runs.is_empty() && totals.is_none() {
        return None;
    }
    let (multi, single) = match &totals {
        Some((at, list)) => {
            let n = list.len().min(*at);
            let first_multi = at - n;
            (
                runs[first_multi..*at].to_vec(),
                runs[..first_multi].to_vec(),
            )
        }
        // No Total line (log cut off): runs with one thread or a single-threaded heading.
        None => (
            Vec::new(),
            runs.iter()
                .filter(|r| r.cluster.is_some() || r.threads == Some(1))
                .cloned()
                .collect(),
        ),
    };
    Some(SevenZip {
        version,
        single,
        multi,
        totals: totals.map(|(_, l)| l).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_then_multi() {
        let log = [
            "Executing benchmark single-threaded on cpu0 (Cortex-A53)",
            "7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21",
            "RAM usage:    435 MB,  # Benchmark threads:      1",
            "Tot:              99   1618   1605",
            "Executing benchmark single-threaded on cpu4 (Cortex-A72)",
            "Tot:             100   2314   2306",
            "Executing benchmark 3 times multi-threaded on CPUs 0-7",
            "RAM usage:   1765 MB,  # Benchmark threads:      8",
            "Tot:             724   1705  12252",
            "Tot:             732   1687  12314",
            "Tot:             738   1700  12498",
            "Total: 12252,12314,12498",
            "[2026-05-05 10:22:21] Total: 8.6 kH/s",
        ];
        let z = sevenzip(&log).unwrap();
        assert_eq!(z.version.as_deref(), Some("16.02"));
        assert_eq!(
            z.single.iter().map(|r| r.rating).collect::<Vec<_>>(),
            vec![1605, 2306]
        );
        assert_eq!(z.multi.len(), 3);
        assert_eq!(z.totals, vec![12252, 12314, 12498]);
    }
}
