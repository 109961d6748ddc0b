//! Throttling from cpufreq statistics: time spent below a policy's top OPP while the run went
//! on, and policies capped below their hardware maximum.
//!
//! sbc-bench reads time_in_state after its clock check and again after the benchmarks, and
//! calls any difference below the top OPP throttling. boardbench's before snapshot may be taken
//! before the clock check, whose OPP walk caps each policy to every OPP in turn: that time is
//! expected, so each walked OPP gets an allowance derived from the clock phase's duration.

use std::collections::BTreeMap;

use document::imported::ImportedLog;
use document::run::{PolicyState, StateSnapshot, kind};
use document::{Finding, Severity};
use sbcimport::signals::Signals;

use crate::tolerances::{CLOCK_WALK_FACTOR, CLOCK_WALK_SLACK_S, THROTTLING_MIN_S};
use crate::{RunCx, capped, finding, kinds};

/// sbc-bench's exact words (its spelling included), so scripts grepping for them still work.
pub const MESSAGE: &str = "ATTENTION: Throttling occured. Check the log for details.";

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(max) = cx.run.options.max_khz {
        let caps = cx
            .before
            .map(|b| {
                b.policies
                    .iter()
                    .filter_map(|p| {
                        p.scaling_max_khz.map(|s| {
                            format!("policy{}: scaling_max_freq {} MHz", p.policy, s / 1000)
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push(finding(
            kinds::THROTTLING_UNCHECKED,
            Severity::Info,
            format!(
                "Throttling not judged from cpufreq statistics: MaxKHz={max} caps the clocks, so time below the top OPP is expected."
            ),
            capped(caps, 16),
        ));
        return out;
    }
    if cx.run.phases_of(kind::GRAPH_POINT).next().is_some() {
        // The sweep caps every OPP in turn on purpose: time below the top OPP is its design.
        // Each point's own clock is judged instead (graph-point-throttled).
        out.push(finding(
            kinds::THROTTLING_UNCHECKED,
            Severity::Info,
            "Throttling not judged from cpufreq statistics: the graph sweep caps the clock at each OPP on purpose (each point's clock is checked on its own).",
            Vec::new(),
        ));
        return out;
    }
    if let Some(b) = cx.before {
        out.extend(policy_capped(b));
    }
    let (Some(b), Some(a)) = (cx.before, cx.after) else {
        out.push(finding(
            kinds::THROTTLING_UNCHECKED,
            Severity::Info,
            "Throttling not judged from cpufreq statistics: the document has no before/after snapshots.",
            Vec::new(),
        ));
        return out;
    };
    if !a.policies.iter().any(|p| !p.time_in_state.is_empty()) {
        out.push(finding(
            kinds::THROTTLING_UNCHECKED,
            Severity::Info,
            "No cpufreq statistics (time_in_state): throttling shows only as a lower clock after the hot phase or falling 7-Zip scores.",
            Vec::new(),
        ));
        return out;
    }
    let mut evidence = Vec::new();
    for pa in &a.policies {
        let Some(pb) = b.policies.iter().find(|p| p.policy == pa.policy) else {
            continue;
        };
        if let Some(lines) = policy_throttled(cx, b, a, pb, pa) {
            evidence.extend(lines);
        }
    }
    if !evidence.is_empty() {
        out.insert(
            0,
            finding(kinds::THROTTLING, Severity::Invalid, MESSAGE, evidence),
        );
    }
    out
}

/// Policies whose scaling_max_freq is below the hardware's maximum although no `MaxKHz` was
/// asked for: a distro, a thermal daemon or the user capped them, and the scores show it.
fn policy_capped(b: &StateSnapshot) -> Option<Finding> {
    let ev: Vec<String> = b
        .policies
        .iter()
        .filter_map(|p| match (p.scaling_max_khz, p.cpuinfo_max_khz) {
            (Some(s), Some(m)) if s < m => Some(format!(
                "policy{} (CPUs {}): scaling_max_freq {} MHz < cpuinfo_max_freq {} MHz",
                p.policy,
                ranges(&p.cpus),
                s / 1000,
                m / 1000
            )),
            _ => None,
        })
        .collect();
    if ev.is_empty() {
        return None;
    }
    Some(finding(
        kinds::POLICY_CAPPED,
        Severity::Warning,
        "Clock capped below the hardware maximum during the run (scaling_max_freq), although no MaxKHz was asked for.",
        ev,
    ))
}

/// The evidence table of one policy when it spent more than the tolerance below its top OPP.
fn policy_throttled(
    cx: &RunCx,
    b: &StateSnapshot,
    a: &StateSnapshot,
    pb: &PolicyState,
    pa: &PolicyState,
) -> Option<Vec<String>> {
    let table_max = pa.time_in_state.iter().map(|r| r.khz).max()?;
    let mut top = pa
        .cpuinfo_max_khz
        .or(pb.cpuinfo_max_khz)
        .unwrap_or(table_max);
    // A policy capped by someone else runs at its cap: that is `policy-capped`, not throttling.
    if let Some(cap) = pb.scaling_max_khz.filter(|&c| c < top) {
        top = cap;
    }
    let allowance = walk_allowance(cx, b, a, pa);
    let mut reset = false;
    let mut rows: Vec<(u64, f64, f64)> = Vec::new(); // khz, delta, allowance
    for r in &pa.time_in_state {
        let before = pb
            .time_in_state
            .iter()
            .find(|o| o.khz == r.khz)
            .map_or(0.0, |o| o.seconds);
        let mut d = r.seconds - before;
        if !d.is_finite() {
            continue;
        }
        if d < 0.0 {
            // Statistics reset (or a counter wrapped) in between: this row says nothing.
            reset = true;
            d = 0.0;
        }
        rows.push((r.khz, d, allowance.get(&r.khz).copied().unwrap_or(0.0)));
    }
    let excess: f64 = rows
        .iter()
        .filter(|(khz, d, _)| *khz < top && *d > 0.0)
        .map(|(_, d, allow)| (d - allow).max(0.0))
        .sum();
    if excess <= THROTTLING_MIN_S {
        return None;
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut ev = vec![format!(
        "Throttling statistics (time spent on each cpufreq OPP) for CPUs {} (policy{}):",
        ranges(&pa.cpus),
        pa.policy
    )];
    for (khz, d, allow) in rows
        .iter()
        .filter(|(k, d, _)| *k <= top && (*d > 0.0 || *k == top))
    {
        let note = if *allow > 0.0 && *khz < top {
            format!("  (clock check at this OPP: up to {allow:.1} sec expected)")
        } else {
            String::new()
        };
        ev.push(format!("{:4} MHz: {d:7.2} sec{note}", khz / 1000));
    }
    ev.push(format!(
        "{excess:.2} sec below {} MHz beyond what the clock check explains (tolerance {THROTTLING_MIN_S} sec)",
        top / 1000
    ));
    if reset {
        ev.push("some counters went down: cpufreq statistics were reset during the run".into());
    }
    Some(ev)
}

/// Seconds expected at each OPP of this policy because a clock check walked it inside the
/// before/after window.
fn walk_allowance(
    cx: &RunCx,
    b: &StateSnapshot,
    a: &StateSnapshot,
    policy: &PolicyState,
) -> BTreeMap<u64, f64> {
    let mut out = BTreeMap::new();
    for phase in cx
        .run
        .phases
        .iter()
        .filter(|p| p.kind == kind::CLOCK || p.kind == kind::CLOCK_HOT)
    {
        let overlaps = phase.finished_unix_ms >= b.unix_ms && phase.started_unix_ms <= a.unix_ms;
        if !overlaps || phase.clock.is_empty() {
            continue;
        }
        let wall_s = phase.finished_unix_ms.saturating_sub(phase.started_unix_ms) as f64 / 1000.0;
        let per = wall_s / phase.clock.len() as f64 * CLOCK_WALK_FACTOR + CLOCK_WALK_SLACK_S;
        for r in &phase.clock {
            let ours = r.policy == Some(policy.policy)
                || (r.policy.is_none() && policy.cpus.contains(&r.cpu));
            if let (true, Some(opp)) = (ours, r.opp_khz) {
                *out.entry(opp).or_insert(0.0) += per;
            }
        }
    }
    out
}

pub(crate) fn imported(log: &ImportedLog, s: &Signals) -> Vec<Finding> {
    if !s.has_throttling_statistics {
        return vec![finding(
            kinds::THROTTLING_UNCHECKED,
            Severity::Info,
            "The log has no cpufreq statistics: throttling shows only in the clock check.",
            Vec::new(),
        )];
    }
    let mut ev = Vec::new();
    for t in s
        .throttling
        .iter()
        .filter(|t| t.seconds_below_max > THROTTLING_MIN_S)
    {
        let heading = if t.cluster.is_empty() {
            "Throttling statistics (time spent on each cpufreq OPP):".to_string()
        } else {
            format!(
                "Throttling statistics (time spent on each cpufreq OPP) {}:",
                t.cluster
            )
        };
        ev.push(heading);
        let top = log
            .throttling
            .iter()
            .find(|x| x.cluster == t.cluster)
            .and_then(|x| x.rows.iter().find(|r| r.mhz == t.max_mhz))
            .map_or(0.0, |r| r.seconds);
        ev.push(format!("{:4} MHz: {top:7.2} sec", t.max_mhz));
        ev.extend(
            t.below_max
                .iter()
                .map(|(mhz, secs)| format!("{mhz:4} MHz: {secs:7.2} sec")),
        );
        ev.push(format!(
            "{:.2} of {:.2} sec below {} MHz",
            t.seconds_below_max, t.seconds_total, t.max_mhz
        ));
    }
    if ev.is_empty() {
        return Vec::new();
    }
    vec![finding(kinds::THROTTLING, Severity::Invalid, MESSAGE, ev)]
}

/// "0-3,6" for a CPU list.
pub(crate) fn ranges(cpus: &[u32]) -> String {
    document::cpus::CpuList::new(cpus).to_string()
}
