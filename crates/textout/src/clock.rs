//! The lines of a clock reading ([`ClockReading`]), one rule for the log's clock check blocks
//! and for `boardbench clock`:
//!
//! ```text
//! Cpufreq OPP: 1200    Measured: 1223 (1223.484/1223.408/1223.408)     (+1.9%)
//! No cpufreq support available. Measured on cpu0: 925 MHz (998.772/904.926/872.906)
//! ```
//!
//! As sbc-bench (docs/sbc-bench-compat.md): the measured figure is the truncated mean, the
//! samples are listed highest first with three decimals, right-aligned; the deviation (of the
//! printed figure from the OPP, as sbc-bench computes it) is shown only beyond
//! [`DEVIATION_SHOWN_PCT`] = 1 %. `boardbench clock` appends what the log keeps in the
//! document only ([`remarks`]): the spread beyond 0.1 % and the disturbance remark.

use std::fmt::Write;

use document::machine::{Cluster, Policy};
use document::measure::clock::ClockReading;

use crate::text::{DISTURBED_REMARK, shown_spread};

/// Deviation of the measured figure from the OPP (percent) beyond which a line shows it:
/// sbc-bench's rule, so the log reads like its logs and `clock` agrees with the log.
pub const DEVIATION_SHOWN_PCT: f64 = 1.0;

/// The measured figure as printed: the mean, truncated to whole MHz (0 when there is none).
pub fn measured_mhz(r: &ClockReading) -> u64 {
    if r.mhz.is_finite() && r.mhz > 0.0 {
        r.mhz.trunc() as u64
    } else {
        0
    }
}

/// The deviation of the printed figure from the OPP (or the cap a reading was compared with),
/// when it is beyond [`DEVIATION_SHOWN_PCT`].
pub fn shown_deviation(r: &ClockReading) -> Option<f64> {
    let opp = r.opp_khz? / 1000;
    let measured = measured_mhz(r);
    // sbc-bench computes the deviation from the printed (truncated) figure, not the mean.
    let d = (opp > 0 && measured > 0).then(|| (measured as f64 / opp as f64 - 1.0) * 100.0)?;
    (d.abs() > DEVIATION_SHOWN_PCT).then_some(d)
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

/// "     (+1.9%)" when the deviation is shown.
fn deviation(r: &ClockReading) -> String {
    shown_deviation(r)
        .map(|d| format!("     ({d:+.1}%)"))
        .unwrap_or_default()
}

/// sbc-bench's row of one reading, without newline: the OPP line, or without an OPP the line
/// of a machine without cpufreq.
pub fn row(r: &ClockReading) -> String {
    let measured = measured_mhz(r);
    let Some(opp_khz) = r.opp_khz else {
        return format!(
            "No cpufreq support available. Measured on cpu{}: {measured} MHz ({})",
            r.cpu,
            samples(r)
        );
    };
    let opp = opp_khz / 1000;
    let list = format!("({})", samples(r));
    format!(
        "Cpufreq OPP: {opp:>4}    Measured: {measured:>4} {list:>28}{}",
        deviation(r)
    )
}

/// What `boardbench clock` adds to a row: `    spread 0.4%` beyond 0.1 %, and the disturbance
/// remark when another task used the CPU.
pub fn remarks(r: &ClockReading) -> String {
    let mut s = String::new();
    if let Some(sp) = shown_spread(r.spread_pct) {
        let _ = write!(s, "    spread {sp:.1}%");
    }
    if r.disturbed {
        let _ = write!(s, "    ({DISTURBED_REMARK})");
    }
    s
}

/// `boardbench clock`'s line of a reading at an OPP, or without cpufreq: [`row`] and
/// [`remarks`].
pub fn line(r: &ClockReading) -> String {
    format!("{}{}", row(r), remarks(r))
}

/// `boardbench clock` on a cpufreq system without a walk: the clock as it runs, against the
/// policy's current cap (the reading's `opp_khz`, `scaling_max_freq`).
pub fn current_line(r: &ClockReading) -> String {
    let policy = r.policy.map(|p| format!("policy{p}")).unwrap_or_default();
    let cap = r
        .opp_khz
        .map(|k| format!(", scaling_max_freq {} MHz", k / 1000))
        .unwrap_or_default();
    format!(
        "Measured on cpu{} ({policy}{cap}): {} MHz ({}){}{}",
        r.cpu,
        measured_mhz(r),
        samples(r),
        deviation(r),
        remarks(r)
    )
}

/// `boardbench clock --opp-walk`'s heading of one policy: "Checking cpufreq OPP for cpu0-cpu3
/// (Cortex-A55):".
pub fn walk_heading(p: &Policy, clusters: &[Cluster]) -> String {
    let cpus = if p.related_cpus.is_empty() {
        &p.affected_cpus
    } else {
        &p.related_cpus
    };
    let core = clusters
        .iter()
        .find(|c| c.policy == Some(p.policy) || cpus.iter().any(|x| c.cpus.contains(x)))
        .and_then(|c| c.core_name.clone())
        .map(|n| format!(" ({})", crate::text::one_line(&n)))
        .unwrap_or_default();
    let range = match (cpus.first(), cpus.last()) {
        (Some(a), Some(b)) if a != b => format!(" for cpu{a}-cpu{b}"),
        (Some(a), _) => format!(" for cpu{a}"),
        _ => String::new(),
    };
    format!("Checking cpufreq OPP{range}{core}:")
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

    #[test]
    fn the_command_adds_spread_and_disturbance_to_the_same_row() {
        let mut r = reading(Some(1_992_000), &[1796.339, 1793.356, 1789.489]);
        r.spread_pct = Some(0.19);
        assert_eq!(
            line(&r),
            "Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)     (-10.0%)    spread 0.2%"
        );
        let r = reading(Some(600_000), &[590.0, 590.0]);
        assert_eq!(
            line(&r),
            "Cpufreq OPP:  600    Measured:  590            (590.000/590.000)     (-1.7%)"
        );
        let mut r = reading(Some(1_000_000), &[1100.0]);
        r.disturbed = true;
        assert_eq!(
            line(&r),
            "Cpufreq OPP: 1000    Measured: 1100                   (1100.000)     (+10.0%)    (disturbed: another task used the measured CPU)"
        );
        let mut r = reading(None, &[3580.0]);
        r.cpu = 1;
        assert_eq!(
            line(&r),
            "No cpufreq support available. Measured on cpu1: 3580 MHz (3580.000)"
        );
    }

    #[test]
    fn without_a_walk_the_line_compares_with_the_cap() {
        let r = reading(Some(1_800_000), &[1799.6]);
        assert_eq!(
            current_line(&r),
            "Measured on cpu0 (policy0, scaling_max_freq 1800 MHz): 1799 MHz (1799.600)"
        );
        let mut r = reading(None, &[1500.0]);
        r.policy = Some(4);
        assert_eq!(
            current_line(&r),
            "Measured on cpu0 (policy4): 1500 MHz (1500.000)"
        );
    }

    #[test]
    fn walk_headings_name_the_cpus_and_the_core() {
        let p = Policy {
            policy: 4,
            related_cpus: vec![4, 5],
            ..Policy::default()
        };
        let c = Cluster {
            cpus: vec![4, 5],
            policy: Some(4),
            core_name: Some("Cortex-A76".into()),
            ..Cluster::default()
        };
        assert_eq!(
            walk_heading(&p, &[c]),
            "Checking cpufreq OPP for cpu4-cpu5 (Cortex-A76):"
        );
    }
}
