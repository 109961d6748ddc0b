//! System-wide CPU load over a measurement, as the seed's I/O tables define it: mpstat's
//! "Average: all" row taken as 100 − %idle − %iowait (netperf's LOCAL_CPU_UTIL means the same:
//! the whole machine, not the benchmark process). Two /proc/stat readings around the
//! measurement give it; waiting for I/O counts as idle here, unlike in the session's monitor.

use probe::stat::{CpuTimes, parse_cpu_times};

/// A /proc/stat reading; `None` where the file cannot be read (the load is then not reported).
pub fn snapshot(root: &probe::Root) -> Option<CpuTimes> {
    parse_cpu_times(&root.read_bytes("/proc/stat").ok()?)
}

/// Percent of all CPUs busy between two readings, iowait counted as idle.
pub fn busy_pct(before: &CpuTimes, after: &CpuTimes) -> Option<f64> {
    let d = |a: u64, b: u64| a.saturating_sub(b) as f64;
    let idle = d(after.idle, before.idle) + d(after.iowait, before.iowait);
    let total = d(after.user, before.user)
        + d(after.nice, before.nice)
        + d(after.system, before.system)
        + idle
        + d(after.irq, before.irq)
        + d(after.softirq, before.softirq)
        + d(after.steal, before.steal);
    (total > 0.0).then(|| 100.0 * (total - idle) / total)
}

/// Measures the load while `f` runs.
pub fn around<T>(root: &probe::Root, f: impl FnOnce() -> T) -> (T, Option<f64>) {
    let before = snapshot(root);
    let v = f();
    let after = snapshot(root);
    let load = match (before, after) {
        (Some(b), Some(a)) => busy_pct(&b, &a),
        _ => None,
    };
    (v, load)
}
