//! sbc-bench's clock check blocks (docs/sbc-bench-compat.md):
//!
//! ```text
//! Checking cpufreq OPP for cpu0-cpu3 (Cortex-A55):
//!
//! Cpufreq OPP: 1800    Measured: 1814 (1814.832/1814.832/1814.742)
//! Cpufreq OPP: 1200    Measured: 1223 (1223.484/1223.408/1223.408)     (+1.9%)
//! ```
//!
//! The measured figure is the truncated mean, the samples are listed highest first with three
//! decimals, right-aligned as in sbc-bench's logs; the deviation (of the printed figure from the
//! OPP, as sbc-bench computes it) is shown only beyond 1 %.
//! Without cpufreq (sbc-bench ≥ v0.9.6x): `No cpufreq support available. Measured on cpu0: 925 MHz
//! (998.772/904.926/872.906)`.

use std::fmt::Write;

use document::ResultDocument;
use document::measure::clock::ClockReading;
use document::run::Phase;

use crate::text::{cpu_range, one_line};

/// The heading of one cluster's block: "for cpu0-cpu3 (Cortex-A55)" on several clusters, only
/// the core name on one (as sbc-bench).
pub fn heading(doc: &ResultDocument, p: &Phase) -> String {
    let m = doc.machine.as_ref();
    let several = m.is_some_and(|m| m.clusters.len() > 1);
    let cluster = p.cluster.and_then(|i| m?.clusters.get(i));
    let cpus = cluster
        .map(|c| c.cpus.clone())
        .unwrap_or_else(|| p.cpus.clone());
    let core = cluster
        .and_then(|c| c.core_name.clone())
        .map(|n| format!(" ({})", one_line(&n)))
        .unwrap_or_default();
    let range = if several && !cpus.is_empty() {
        format!(" for {}", cpu_range(&cpus))
    } else {
        String::new()
    };
    format!("Checking cpufreq OPP{range}{core}:")
}

/// One block: heading, blank line, one row per reading (or the phase's reason).
pub fn block(doc: &ResultDocument, p: &Phase) -> String {
    let mut out = heading(doc, p);
    out.push_str("\n\n");
    for r in &p.clock {
        out.push_str(&row(r));
        out.push('\n');
    }
    if p.clock.is_empty() || p.reason.is_some() {
        let what = match p.status {
            document::run::PhaseStatus::Done => "note",
            document::run::PhaseStatus::Skipped => "skipped",
            document::run::PhaseStatus::Failed => "failed",
        };
        let reason = p.reason.as_deref().unwrap_or("no reading");
        let _ = writeln!(out, "({what}: {})", one_line(reason));
    }
    out
}

/// "1814.832/1814.832/1814.742": the samples, highest first.
fn samples(r: &ClockReading) -> String {
    let mut v: Vec<f64> = r
        .samples
        .iter()
        .map(|s| s.mhz)
        .filter(|m| m.is_finite())
        .collect();
    if v.is_empty() {
        v.push(r.mhz);
    }
    v.sort_by(|a, b| b.total_cmp(a));
    v.iter()
        .map(|m| format!("{m:.3}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// One row, without newline.
pub fn row(r: &ClockReading) -> String {
    let measured = if r.mhz.is_finite() && r.mhz > 0.0 {
        r.mhz.trunc() as u64
    } else {
        0
    };
    let Some(opp_khz) = r.opp_khz else {
        return format!(
            "No cpufreq support available. Measured on cpu{}: {measured} MHz ({})",
            r.cpu,
            samples(r)
        );
    };
    let opp = opp_khz / 1000;
    let list = format!("({})", samples(r));
    let mut line = format!("Cpufreq OPP: {opp:>4}    Measured: {measured:>4} {list:>28}");
    // sbc-bench computes the deviation from the printed (truncated) figure, not the mean.
    let dev = (opp > 0 && measured > 0).then(|| (measured as f64 / opp as f64 - 1.0) * 100.0);
    if let Some(d) = dev
        && d.abs() > 1.0
    {
        let _ = write!(line, "     ({d:+.1}%)");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::measure::clock::ClockSample;

    fn reading(opp: Option<u64>, mhz: &[f64]) -> ClockReading {
        let mean = mhz.iter().sum::<f64>() / mhz.len() as f64;
        ClockReading {
            cpu: 0,
            policy: Some(0),
            opp_khz: opp,
            samples: mhz
                .iter()
                .map(|&m| ClockSample {
                    method: "aarch64 asm".into(),
                    exact: true,
                    count: 1,
                    short_ops: 1,
                    long_ops: 2,
                    short_ns: vec![],
                    long_ns: vec![],
                    mhz: m,
                    elapsed_ns: 0,
                })
                .collect(),
            mhz: mean,
            best_mhz: mean,
            spread_pct: None,
            deviation_pct: None,
            disturbed: false,
        }
    }

    /// Rows of sbc-bench's own log 8ENy.txt (ODROID-M2).
    #[test]
    fn rows_match_sbc_bench() {
        assert_eq!(
            row(&reading(Some(1_800_000), &[1814.832, 1814.832, 1814.742])),
            "Cpufreq OPP: 1800    Measured: 1814 (1814.832/1814.832/1814.742)"
        );
        assert_eq!(
            row(&reading(Some(1_200_000), &[1223.484, 1223.408, 1223.408])),
            "Cpufreq OPP: 1200    Measured: 1223 (1223.484/1223.408/1223.408)     (+1.9%)"
        );
        assert_eq!(
            row(&reading(Some(1_008_000), &[996.313, 996.300, 996.263])),
            "Cpufreq OPP: 1008    Measured:  996    (996.313/996.300/996.263)     (-1.2%)"
        );
        assert_eq!(
            row(&reading(Some(408_000), &[393.560, 393.422, 393.338])),
            "Cpufreq OPP:  408    Measured:  393    (393.560/393.422/393.338)     (-3.7%)"
        );
        // 1404.955 on 1416: -0.8 %, no percentage.
        assert_eq!(
            row(&reading(Some(1_416_000), &[1405.049, 1404.908, 1404.908])),
            "Cpufreq OPP: 1416    Measured: 1404 (1405.049/1404.908/1404.908)"
        );
        assert_eq!(
            row(&reading(None, &[1190.195, 1191.293, 1191.719])),
            "No cpufreq support available. Measured on cpu0: 1191 MHz (1191.719/1191.293/1190.195)"
        );
    }
}
