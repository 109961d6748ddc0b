//! Background activity: something else using the CPU while benchmarks ran.
//!
//! Two checks, both sbc-bench's (docs/sbc-bench-compat.md), with its integer artefacts fixed:
//!
//! - **%cpu in single-threaded phases** (`background-activity`, invalid). A single-threaded
//!   benchmark keeps one core busy, so %cpu (of all CPUs) should be 100/cores. The excess over
//!   that, averaged and at its peak over every counted sample, is compared with sbc-bench's
//!   table ([`cpu_tolerances`]). The first sample of each phase is skipped (it covers the start
//!   of the tool) — unless it is the phase's only sample: a phase shorter than one monitor
//!   interval has just the sample its recorder takes at its end, which covers the whole phase,
//!   and a busy machine must not pass a short run unjudged. Only samples where the benchmark
//!   visibly ran count (at least
//!   [`CPU_SAMPLE_MIN_SHARE`] of one core). Steal time is subtracted: in a VM it is the host's
//!   load, which `vm-guest` speaks about. sbc-bench computes 100/cores in integers (12 for 8
//!   cores) and so flags every 8-core board whose monitor rounds 12.5 % up to 13 %; boardbench
//!   uses 12.5 and a 0.5 % floor for the average.
//! - **%sys over the benchmark phases** (`system-activity`, warning): an average of
//!   [`SYS_AVG_PCT`] % or more, or a peak above [`SYS_PEAK_PCT`] %. It is only a warning because
//!   %sys includes the benchmarks' own kernel time (7-Zip's page faults). Guide sections that
//!   run several processes or threads are left out ([`own_system_time`]): their system calls
//!   are what they measure, so only what else ran may judge them.

use document::imported::ImportedLog;
use document::run::{PhaseStatus, kind};
use document::{Finding, Severity};
use sbcimport::signals::Signals;

use crate::tolerances::{CPU_SAMPLE_MIN_SHARE, SYS_AVG_PCT, SYS_PEAK_PCT};
use crate::{RunCx, finding, kinds};

/// sbc-bench's tolerances for %cpu above 100/cores in single-threaded phases, as
/// (peak, average) in percent of all CPU time: 2 cores 8/2, 4 cores 5/1, 5–6 cores 3/1,
/// 8 cores 2/0 (here 0.5: its integer 0 means "less than one whole percent"). Other counts
/// follow the same curve: 16/cores for the peak (at least 2, as for 8 cores: sbc-bench checks
/// no peak there at all), 4/cores for the average (at least 0.25). `None` for one CPU
/// (nothing to compare: sbc-bench skips the check too).
pub fn cpu_tolerances(cores: usize) -> Option<(f64, f64)> {
    match cores {
        0 | 1 => None,
        2 => Some((8.0, 2.0)),
        4 => Some((5.0, 1.0)),
        5 | 6 => Some((3.0, 1.0)),
        8 => Some((2.0, 0.5)),
        n => Some(((16.0 / n as f64).max(2.0), (4.0 / n as f64).max(0.25))),
    }
}

/// The samples of a phase that judge it: all but the first (the tool starting), or the only
/// one (it covers the whole of a phase shorter than one monitor interval).
fn judged(p: &document::run::Phase) -> impl Iterator<Item = &document::samples::MonitorSample> {
    let skip = usize::from(p.samples.len() > 1);
    p.samples.iter().skip(skip)
}

/// Phases whose kind is a clock check: short, with gaps between readings, not monitored as
/// benchmarks by sbc-bench.
fn is_clock(k: &str) -> bool {
    k == kind::CLOCK || k == kind::CLOCK_HOT
}

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    let done = || {
        cx.run
            .phases
            .iter()
            .filter(|p| p.status == PhaseStatus::Done && !is_clock(&p.kind))
    };
    // %cpu of single-threaded phases.
    let groups: Vec<(String, Vec<f64>, f64)> = done()
        .filter(|p| p.threads == 1)
        .map(|p| {
            let samples: Vec<(f64, f64)> = judged(p)
                .filter_map(|s| s.cpu.map(|c| (c.cpu, c.steal)))
                .filter(|(c, s)| c.is_finite() && s.is_finite())
                // Steal is the host running others while this guest wanted the CPU: the
                // host's business (`vm-guest`), not a process of this machine.
                .map(|(c, s)| (c - s.max(0.0), s))
                .collect();
            let steal = samples.iter().map(|s| s.1).fold(0.0, f64::max);
            let name = if p.title.is_empty() {
                p.kind.clone()
            } else {
                p.title.clone()
            };
            (name, samples.into_iter().map(|s| s.0).collect(), steal)
        })
        .collect();
    out.extend(cpu_check(
        cx.online_cpus,
        groups.iter().map(|(n, v, _)| (n.as_str(), v.as_slice())),
        groups.iter().map(|g| g.2).fold(0.0, f64::max),
        0.0,
    ));
    // %sys over every benchmark phase — but not over a guide section that runs several
    // processes: its system calls are the benchmark (lmbench's costs are system calls, STREAM's
    // threads fault their arrays in) and the monitor cannot tell them from anything else, so
    // such a section's %sys says nothing about what else ran. Its single-threaded sections are
    // judged by the %cpu rule above (which counts only the excess over the benchmark's own core).
    let mut sys: Vec<f64> = Vec::new();
    let mut per_phase = Vec::new();
    for p in done().filter(|p| !own_system_time(p)) {
        let v: Vec<f64> = judged(p)
            .filter_map(|s| s.cpu.map(|c| c.sys))
            .filter(|v| v.is_finite())
            .collect();
        if let Some(m) = v.iter().copied().reduce(f64::max) {
            per_phase.push(format!(
                "{}: %sys {:.1} avg, {m:.1} max over {} samples",
                if p.title.is_empty() {
                    &p.kind
                } else {
                    &p.title
                },
                v.iter().sum::<f64>() / v.len() as f64,
                v.len()
            ));
        }
        sys.extend(v);
    }
    if !sys.is_empty() {
        let avg = sys.iter().sum::<f64>() / sys.len() as f64;
        let max = sys.iter().copied().fold(0.0, f64::max);
        out.extend(sys_finding(avg, max, per_phase));
    }
    out
}

/// A guide section (phase kind `guide-…`) that runs several threads or processes: its own
/// system time is the measurement, not background activity.
pub fn own_system_time(p: &document::run::Phase) -> bool {
    p.kind.starts_with(GUIDE_PHASE_PREFIX) && p.threads != 1
}

/// The kind prefix of a guide section's phase (`guide-lmbench`).
pub const GUIDE_PHASE_PREFIX: &str = "guide-";

fn sys_finding(avg: f64, max: f64, mut ev: Vec<String>) -> Option<Finding> {
    if avg < SYS_AVG_PCT && max <= SYS_PEAK_PCT {
        return None;
    }
    ev.push(format!(
        "limits: average below {SYS_AVG_PCT} %, peak at most {SYS_PEAK_PCT} % (sbc-bench's)"
    ));
    Some(finding(
        kinds::SYSTEM_ACTIVITY,
        Severity::Warning,
        format!("Too much background activity (%system): {avg:.1}% avg, {max:.1}% max."),
        ev,
    ))
}

/// The %cpu check over named groups of samples (phases), for `cores` CPUs. `rounding` is
/// added to the average's tolerance when the samples are whole percent (sbc-bench logs): their
/// average carries the monitor's rounding (25.4 % printed as 25 or 26 %).
fn cpu_check<'a>(
    cores: usize,
    groups: impl Iterator<Item = (&'a str, &'a [f64])>,
    max_steal: f64,
    rounding: f64,
) -> Option<Finding> {
    let (peak_tol, avg_tol) = cpu_tolerances(cores)?;
    let avg_tol = avg_tol + rounding;
    let ideal = 100.0 / cores as f64;
    let mut counted: Vec<f64> = Vec::new();
    let mut ev = Vec::new();
    for (name, samples) in groups {
        let c: Vec<f64> = samples
            .iter()
            .copied()
            .filter(|&v| v >= ideal * CPU_SAMPLE_MIN_SHARE)
            .collect();
        if let Some(m) = c.iter().copied().reduce(f64::max) {
            ev.push(format!(
                "{name}: %cpu {:.1} avg, {m:.1} max over {} samples",
                c.iter().sum::<f64>() / c.len() as f64,
                c.len()
            ));
        }
        counted.extend(c);
    }
    if counted.is_empty() {
        return None;
    }
    let avg = counted.iter().sum::<f64>() / counted.len() as f64 - ideal;
    let peak = counted.iter().copied().fold(f64::MIN, f64::max) - ideal;
    if avg <= avg_tol && peak <= peak_tol {
        return None;
    }
    ev.push(format!(
        "one busy core of {cores} is {ideal:.1} %; tolerated above that: {avg_tol:.2}% avg, {peak_tol:.2}% max (sbc-bench's table)"
    ));
    if max_steal > 0.5 {
        ev.push(format!(
            "steal (hypervisor) up to {max_steal:.1} % not counted: the host's load is vm-guest's"
        ));
    }
    Some(finding(
        kinds::BACKGROUND_ACTIVITY,
        Severity::Invalid,
        format!(
            "Too much other background activity: {:.1}% avg, {:.1}% max above the benchmark's own {ideal:.1}%.",
            avg.max(0.0),
            peak.max(0.0)
        ),
        ev,
    ))
}

/// The single-threaded phases of an sbc-bench log (everything up to the multi-threaded 7-Zip).
const IMPORTED_SINGLE: &[&str] = &[
    "tinymembench",
    "ramlat",
    "OpenSSL benchmark",
    "7-zip single core benchmark",
];

pub(crate) fn imported(log: &ImportedLog, s: &Signals) -> Vec<Finding> {
    let mut out = Vec::new();
    let groups: Vec<(&str, Vec<f64>)> = log
        .monitor
        .iter()
        .filter(|t| IMPORTED_SINGLE.contains(&t.phase.as_str()))
        .map(|t| {
            (
                t.phase.as_str(),
                t.rows
                    .iter()
                    .skip(1)
                    .filter_map(|r| r.cpu_pct.map(f64::from))
                    .collect(),
            )
        })
        .collect();
    let cores = log.cpu_count.unwrap_or(0) as usize;
    out.extend(cpu_check(
        cores,
        groups.iter().map(|(n, v)| (*n, v.as_slice())),
        0.0,
        0.5,
    ));
    if let Some((avg, max)) = s.system_activity() {
        let ev = s
            .activity
            .iter()
            .filter(|a| a.samples > 0)
            .map(|a| {
                format!(
                    "{}: %sys {:.1} avg, {} max over {} samples",
                    a.phase, a.sys_avg, a.sys_max, a.samples
                )
            })
            .collect();
        out.extend(sys_finding(avg, f64::from(max), ev));
    }
    out
}
