//! Throttling statistics: the time each cpufreq policy spent on each OPP during the run
//! (`stats/time_in_state` after − before), in sbc-bench's `"%4d MHz: %7s sec"` rows under
//! "Throttling statistics (time spent on each cpufreq OPP)[ for CPUs a-b (core)]:".
//!
//! sbc-bench prints the table only when time was spent below the top OPP; here it is always
//! printed when the statistics exist, so a clean run shows *that* it stayed at the top.

use std::collections::BTreeMap;
use std::fmt::Write;

use document::ResultDocument;
use document::run::PolicyState;

use crate::text::{one_line, seconds, span};

pub fn render(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let (Some(before), Some(after)) = (&run.before, &run.after) else {
        return Some("Throttling statistics: no before/after snapshots recorded.\n".into());
    };
    let with_stats: Vec<&PolicyState> = after
        .policies
        .iter()
        .filter(|p| !p.time_in_state.is_empty())
        .collect();
    if with_stats.is_empty() {
        return Some(
            "Throttling statistics: the kernel keeps no cpufreq statistics (stats/time_in_state) \
             here, so time spent below the top clock cannot be shown.\n"
                .into(),
        );
    }
    let several = with_stats.len() > 1;
    let mut out = String::new();
    for (n, a) in with_stats.into_iter().enumerate() {
        let b = before.policies.iter().find(|b| b.policy == a.policy);
        if n > 0 {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "Throttling statistics (time spent on each cpufreq OPP){}:\n",
            if several {
                suffix(doc, a)
            } else {
                String::new()
            }
        );
        for (khz, secs) in during_run(b, a).into_iter().rev() {
            let _ = writeln!(out, "{:>4} MHz: {:>7} sec", khz / 1000, seconds(secs));
        }
    }
    Some(out)
}

/// Seconds per OPP (kHz, ascending) between the two snapshots. A counter that went backwards
/// (statistics reset during the run) counts from zero.
pub fn during_run(before: Option<&PolicyState>, after: &PolicyState) -> BTreeMap<u64, f64> {
    let mut out = BTreeMap::new();
    for t in &after.time_in_state {
        let b = before
            .and_then(|b| b.time_in_state.iter().find(|x| x.khz == t.khz))
            .map_or(0.0, |x| x.seconds);
        let d = if t.seconds >= b {
            t.seconds - b
        } else {
            t.seconds
        };
        // time_in_state counts 10 ms units: keep two decimals exact.
        let d = (d * 100.0).round() / 100.0;
        *out.entry(t.khz).or_insert(0.0) += if d.is_finite() { d.max(0.0) } else { 0.0 };
    }
    out
}

/// " for CPUs 0-3 (Cortex-A55)".
fn suffix(doc: &ResultDocument, p: &PolicyState) -> String {
    let machine = doc.machine.as_ref();
    let cpus = if p.cpus.is_empty() {
        machine
            .and_then(|m| m.policies.iter().find(|x| x.policy == p.policy))
            .map(|x| x.related_cpus.clone())
            .unwrap_or_default()
    } else {
        p.cpus.clone()
    };
    let core = machine
        .and_then(|m| {
            m.clusters.iter().find(|c| {
                c.policy == Some(p.policy) || cpus.first().is_some_and(|f| c.cpus.contains(f))
            })
        })
        .and_then(|c| c.core_name.as_deref())
        .map(|n| format!(" ({})", one_line(n)))
        .unwrap_or_default();
    if cpus.is_empty() {
        format!(" for policy{}{core}", p.policy)
    } else {
        format!(" for CPUs {}{core}", span(&cpus))
    }
}
