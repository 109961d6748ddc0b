//! What the measured clocks say: OPPs that do not deliver the clock they claim (fake clocks),
//! and a clock that is lower after the hardest phase than it was cold (sbc-bench's 3 % rule).

use std::collections::BTreeMap;

use document::imported::{ClockCheck, ImportedLog};
use document::measure::clock::ClockReading;
use document::run::kind;
use document::{Finding, Severity};

use crate::tolerances::{CLOCK_DROP_PCT, FAKE_CLOCK_PCT};
use crate::{RunCx, capped, finding, kinds};

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    // A graph sweep point measures its clock at its cap before the workload, as the OPP walk.
    let cold: Vec<&ClockReading> = cx
        .run
        .phases_of(kind::CLOCK)
        .chain(cx.run.phases_of(kind::GRAPH_POINT))
        .flat_map(|p| p.clock.iter())
        .filter(|r| r.mhz.is_finite() && r.mhz > 0.0)
        .collect();
    let hot: Vec<&ClockReading> = cx
        .run
        .phases_of(kind::CLOCK_HOT)
        .flat_map(|p| p.clock.iter())
        .filter(|r| r.mhz.is_finite() && r.mhz > 0.0)
        .collect();
    let mut out = fake_clocks(&cold);
    out.extend(clock_drop(&cold, &hot, cx.vm));
    out
}

/// One OPP row: (group label, OPP MHz, measured MHz, deviation %).
struct OppRow {
    group: String,
    opp_mhz: f64,
    measured: f64,
    dev: f64,
}

fn fake_clocks(cold: &[&ClockReading]) -> Vec<Finding> {
    let rows: Vec<OppRow> = cold
        .iter()
        .filter_map(|r| {
            let opp = r.opp_khz.filter(|&o| o > 0)? as f64 / 1000.0;
            let dev = r
                .deviation_pct
                .filter(|d| d.is_finite())
                .unwrap_or((r.mhz - opp) / opp * 100.0);
            let group = match r.policy {
                Some(p) => format!("policy{p} (cpu{})", r.cpu),
                None => format!("cpu{}", r.cpu),
            };
            Some(OppRow {
                group,
                opp_mhz: opp,
                measured: r.mhz,
                dev,
            })
        })
        .collect();
    judge_fake(rows)
}

/// One finding per group (policy or cluster) with deviating OPPs.
fn judge_fake(rows: Vec<OppRow>) -> Vec<Finding> {
    let mut groups: BTreeMap<String, Vec<OppRow>> = BTreeMap::new();
    for r in rows {
        groups.entry(r.group.clone()).or_default().push(r);
    }
    let mut out = Vec::new();
    for (group, rows) in groups {
        let top = rows.iter().map(|r| r.opp_mhz).fold(0.0, f64::max);
        let off: Vec<&OppRow> = rows
            .iter()
            .filter(|r| r.dev.abs() > FAKE_CLOCK_PCT)
            .collect();
        if off.is_empty() {
            continue;
        }
        let top_row = off.iter().find(|r| r.opp_mhz == top);
        let ev: Vec<String> = off
            .iter()
            .map(|r| {
                format!(
                    "Cpufreq OPP: {:4.0}    Measured: {:4.0}    ({:+.1}%)",
                    r.opp_mhz, r.measured, r.dev
                )
            })
            .chain(std::iter::once(format!("tolerance ±{FAKE_CLOCK_PCT} %")))
            .collect();
        let (severity, message) = match top_row {
            // Slower than claimed at the top: the advertised clock is not what one gets.
            Some(r) if r.dev < 0.0 => (
                Severity::Warning,
                format!(
                    "{group}: advertised {:.0} MHz, measured {:.0} MHz ({:+.1} %): the OPP table does not tell the truth.",
                    r.opp_mhz, r.measured, r.dev
                ),
            ),
            Some(r) => (
                Severity::Info,
                format!(
                    "{group}: the top OPP {:.0} MHz measures {:.0} MHz ({:+.1} %): faster than claimed (boost or a misleading OPP table).",
                    r.opp_mhz, r.measured, r.dev
                ),
            ),
            None => (
                Severity::Info,
                format!(
                    "{group}: {} lower OPP(s) differ from the measured clock by more than {FAKE_CLOCK_PCT} %.",
                    off.len()
                ),
            ),
        };
        out.push(finding(
            kinds::FAKE_CLOCK,
            severity,
            message,
            capped(ev, 12),
        ));
    }
    out
}

fn clock_drop(cold: &[&ClockReading], hot: &[&ClockReading], vm: bool) -> Vec<Finding> {
    let mut ev = Vec::new();
    let mut worst: Option<(u32, f64, f64, f64)> = None;
    for h in hot {
        let same_cpu: Vec<&&ClockReading> = cold.iter().filter(|c| c.cpu == h.cpu).collect();
        // The same OPP when the hot reading has one, else the highest cold OPP, else the first.
        let c = same_cpu
            .iter()
            .find(|c| h.opp_khz.is_some() && c.opp_khz == h.opp_khz)
            .or_else(|| {
                same_cpu
                    .iter()
                    .filter(|c| c.opp_khz.is_some())
                    .max_by_key(|c| c.opp_khz)
            })
            .or_else(|| same_cpu.first());
        let Some(c) = c else { continue };
        let drop = (c.mhz - h.mhz) / c.mhz * 100.0;
        if !drop.is_finite() || drop <= CLOCK_DROP_PCT {
            continue;
        }
        ev.push(format!(
            "cpu{}: {:.0} MHz cold, {:.0} MHz after the hot phase ({:+.1} %)",
            h.cpu, c.mhz, h.mhz, -drop
        ));
        if worst.is_none_or(|w| drop > w.3) {
            worst = Some((h.cpu, c.mhz, h.mhz, drop));
        }
    }
    let Some((cpu, c, h, drop)) = worst else {
        return Vec::new();
    };
    ev.push(format!("tolerance {CLOCK_DROP_PCT} % (sbc-bench's rule)"));
    drop_finding(
        format!(
            "Clock lower after the hot phase: cpu{cpu} {c:.0} → {h:.0} MHz (−{drop:.1} %){}",
            cause(vm)
        ),
        ev,
        vm,
    )
}

/// What a clock drop means: on real hardware the SoC throttled; in a virtual machine the
/// guest sees the clock the host gives its vCPU, so the host changed it (its power management,
/// other guests on the core), which says nothing about this board's cooling.
fn cause(vm: bool) -> &'static str {
    if vm {
        ": on a virtual machine the host sets the clock — the host changed it (its power management or other guests), not a throttled SoC."
    } else {
        ": the SoC throttled under load."
    }
}

fn drop_finding(message: String, ev: Vec<String>, vm: bool) -> Vec<Finding> {
    // In a VM the host decides the clock: a drop is a hint, not proof of throttling.
    let severity = if vm {
        Severity::Warning
    } else {
        Severity::Invalid
    };
    vec![finding(kinds::CLOCK_DROP, severity, message, ev)]
}

pub(crate) fn imported(log: &ImportedLog) -> Vec<Finding> {
    let cold: Vec<&ClockCheck> = log.clock_checks.iter().filter(|c| !c.under_load).collect();
    let hot: Vec<&ClockCheck> = log.clock_checks.iter().filter(|c| c.under_load).collect();
    let rows: Vec<OppRow> = cold
        .iter()
        .flat_map(|c| {
            c.rows.iter().filter_map(move |r| {
                let opp = f64::from(r.opp_mhz.filter(|&o| o > 0)?);
                let m = r.measured_mhz;
                (m.is_finite() && m > 0.0).then(|| OppRow {
                    group: label(&c.cluster),
                    opp_mhz: opp,
                    measured: m,
                    dev: (m - opp) / opp * 100.0,
                })
            })
        })
        .collect();
    let mut out = judge_fake(rows);
    let mut ev = Vec::new();
    let mut worst: Option<(String, f64, f64, f64)> = None;
    for h in &hot {
        let Some(c) = cold.iter().find(|c| c.cluster == h.cluster) else {
            continue;
        };
        // sbc-bench compares the top OPP only; the lower rows of old logs' re-check under
        // load are too noisy to judge (its samples spread by tens of percent).
        let top = h.rows.iter().max_by(|a, b| {
            a.opp_mhz
                .cmp(&b.opp_mhz)
                .then(a.measured_mhz.total_cmp(&b.measured_mhz))
        });
        if let Some(hr) = top {
            let cr = c
                .rows
                .iter()
                .find(|r| hr.opp_mhz.is_some() && r.opp_mhz == hr.opp_mhz)
                .or_else(|| c.rows.iter().max_by_key(|r| r.opp_mhz));
            let Some(cr) = cr else { continue };
            let drop = (cr.measured_mhz - hr.measured_mhz) / cr.measured_mhz * 100.0;
            if !drop.is_finite() || drop <= CLOCK_DROP_PCT {
                continue;
            }
            ev.push(format!(
                "{}: {:.0} MHz cold, {:.0} MHz under load ({:+.1} %)",
                label(&h.cluster),
                cr.measured_mhz,
                hr.measured_mhz,
                -drop
            ));
            if worst.as_ref().is_none_or(|w| drop > w.3) {
                worst = Some((label(&h.cluster), cr.measured_mhz, hr.measured_mhz, drop));
            }
        }
    }
    if let Some((cluster, c, h, drop)) = worst {
        ev.push(format!("tolerance {CLOCK_DROP_PCT} % (sbc-bench's rule)"));
        out.extend(drop_finding(
            format!(
                "Clock lower after the benchmarks: {cluster} {c:.0} → {h:.0} MHz (−{drop:.1} %){}",
                cause(false)
            ),
            ev,
            false,
        ));
    }
    out
}

/// "cpu0-cpu3 (Cortex-A53)" from "for cpu0-cpu3 (Cortex-A53)"; "all CPUs" for an empty heading.
fn label(cluster: &str) -> String {
    let c = cluster.trim();
    let c = c.strip_prefix("for ").unwrap_or(c);
    if c.is_empty() {
        "all CPUs".into()
    } else {
        c.to_string()
    }
}
