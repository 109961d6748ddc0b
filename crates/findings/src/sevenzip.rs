//! 7-Zip: multi-threaded scores that fall run after run (how throttling shows on machines
//! without cpufreq statistics, x86 above all), and versions whose scores sbc-bench's database
//! cannot compare.

use document::imported::ImportedLog;
use document::row_names::sevenzip;
use document::run::kind;
use document::{Finding, ResultDocument, Severity};

use crate::tolerances::SEVENZIP_FALL_PCT;
use crate::{RunCx, finding, kinds};

pub(crate) fn run(cx: &RunCx, doc: &ResultDocument) -> Vec<Finding> {
    let mut ratings: Vec<u64> = Vec::new();
    for p in cx.run.phases_of(kind::SEVENZIP_MULTI) {
        // The run's own record of each all-core run: its "total rating" row.
        ratings.extend(
            p.measurements
                .iter()
                .filter_map(|&i| doc.measurements.get(i))
                .filter(|m| {
                    m.suite == sevenzip::SUITE
                        && m.test == sevenzip::TOTAL_RATING
                        && m.value.is_finite()
                        && m.value > 0.0
                })
                .map(|m| m.value as u64),
        );
    }
    let mut out: Vec<Finding> = falling(&ratings, cx.vm).into_iter().collect();
    out.extend(not_comparable(cx));
    out
}

/// Every run more than the tolerance below the one before, over at least three runs.
fn falling(ratings: &[u64], vm: bool) -> Option<Finding> {
    if ratings.len() < 3 || ratings.contains(&0) {
        return None;
    }
    let drops: Vec<f64> = ratings
        .windows(2)
        .map(|w| (w[0] as f64 - w[1] as f64) / w[0] as f64 * 100.0)
        .collect();
    if !drops.iter().all(|&d| d > SEVENZIP_FALL_PCT) {
        return None;
    }
    let first = ratings.first().copied().unwrap_or(0);
    let last = ratings.last().copied().unwrap_or(0);
    let total = (first as f64 - last as f64) / first as f64 * 100.0;
    let list: Vec<String> = ratings.iter().map(u64::to_string).collect();
    let mut ev = vec![format!(
        "7-Zip multi-threaded ratings in run order: {}",
        list.join(", ")
    )];
    ev.extend(
        drops
            .iter()
            .enumerate()
            .map(|(i, d)| format!("run {} → {}: −{d:.1} %", i + 1, i + 2)),
    );
    ev.push(format!(
        "tolerance: each run more than {SEVENZIP_FALL_PCT} % below the previous"
    ));
    // On a VM the host's load changes between runs just as well.
    let severity = if vm {
        Severity::Warning
    } else {
        Severity::Invalid
    };
    Some(finding(
        kinds::SEVENZIP_FALLING,
        severity,
        format!(
            "7-Zip scores fell with every run ({first} → {last} MIPS, −{total:.1} %): the machine throttled under sustained load."
        ),
        ev,
    ))
}

fn not_comparable(cx: &RunCx) -> Option<Finding> {
    let mut ev: Vec<String> = Vec::new();
    for t in cx
        .run
        .phases
        .iter()
        .flat_map(|p| p.tool_runs.iter())
        // Only 7-Zip's own runs: other tools may also say "not comparable" (thermal's built-in
        // load does), but this finding is about sbc-bench's 7-Zip database.
        .filter(|t| t.tool == "7-Zip" && t.comparable_with_sbc_bench == Some(false))
    {
        let line = format!(
            "{} {} ({})",
            t.tool,
            t.version.as_deref().unwrap_or("version unknown"),
            t.program
        );
        if !ev.contains(&line) {
            ev.push(line);
        }
    }
    if ev.is_empty() {
        return None;
    }
    Some(finding(
        kinds::SEVENZIP_NOT_COMPARABLE,
        Severity::Info,
        "7-Zip scores are not comparable with sbc-bench's results (its database holds 7-Zip ≤ 16.02 only).",
        ev,
    ))
}

pub(crate) fn imported(log: &ImportedLog) -> Vec<Finding> {
    let ratings: Vec<u64> = log
        .sevenzip
        .iter()
        .flat_map(|z| z.multi.iter().map(|r| r.rating))
        .collect();
    falling(&ratings, false).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn falls_only_when_every_step_falls() {
        assert!(falling(&[1000, 970, 940], false).is_some());
        assert!(falling(&[1000, 990, 940], false).is_none());
        assert!(falling(&[1000, 970], false).is_none());
        assert!(falling(&[1000, 970, 0], false).is_none());
        assert_eq!(
            falling(&[1000, 970, 940], true).unwrap().severity,
            Severity::Warning
        );
    }
}
