//! sbc-bench's clock check blocks (docs/sbc-bench-compat.md):
//!
//! ```text
//! Checking cpufreq OPP for cpu0-cpu3 (Cortex-A55):
//!
//! Cpufreq OPP: 1800    Measured: 1814 (1814.832/1814.832/1814.742)
//! Cpufreq OPP: 1200    Measured: 1223 (1223.484/1223.408/1223.408)     (+1.9%)
//! ```
//!
//! Each row is [`crate::clock::row`], the one rule of a reading's line (truncated mean, samples
//! highest first, the deviation beyond 1 %); without cpufreq (sbc-bench ≥ v0.9.6x):
//! `No cpufreq support available. Measured on cpu0: 925 MHz (998.772/904.926/872.906)`.

use std::fmt::Write;

pub use crate::clock::row;

use document::ResultDocument;
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
