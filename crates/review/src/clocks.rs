//! The clocks the kernel reports before and after review's switch to maximum performance
//! (the switch itself is the one tuning plan, `tune::tuning::plan` with ASPM, written through
//! the session's restorer, which puts back every file it changed — devfreq included: sbc-bench
//! forgets those, and restores policy0's governor to every policy instead of each its own).

use document::machine::MachineInfo;
use probe::Root;
use probe::cpufreq::policy_dir;
use serde::{Deserialize, Serialize};

use crate::util::opt;

/// A clock as the kernel reports it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// "policy0 (cpu0-cpu3)", "devfreq dmc".
    pub what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mhz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
}

/// Current clocks of every policy and devfreq device, read through the root.
pub fn clocks(root: &Root, m: &MachineInfo) -> Vec<ClockState> {
    let mut v = Vec::new();
    for p in &m.policies {
        let d = policy_dir(root, p.policy);
        let khz = opt(root, &format!("{d}/scaling_cur_freq"))
            .or_else(|| opt(root, &format!("{d}/cpuinfo_cur_freq")))
            .and_then(|s| s.parse::<u64>().ok());
        let cpus = match (p.related_cpus.first(), p.related_cpus.last()) {
            (Some(a), Some(b)) if a != b => format!(" (cpu{a}-cpu{b})"),
            (Some(a), _) => format!(" (cpu{a})"),
            _ => String::new(),
        };
        v.push(ClockState {
            what: format!("policy{}{cpus}", p.policy),
            mhz: khz.map(|k| k / 1000),
            governor: opt(root, &format!("{d}/scaling_governor")),
        });
    }
    for dv in &m.devfreq {
        let d = format!("/sys/class/devfreq/{}", dv.name);
        v.push(ClockState {
            what: format!("devfreq {}", dv.name),
            mhz: opt(root, &format!("{d}/cur_freq"))
                .and_then(|s| s.parse::<u64>().ok())
                .map(|hz| hz / 1_000_000),
            governor: opt(root, &format!("{d}/governor")),
        });
    }
    v
}

/// "policy4 (cpu4-cpu5): 408 → 2400 MHz (schedutil → performance)" for each clock.
pub fn clock_changes(before: &[ClockState], after: &[ClockState]) -> Vec<String> {
    let mhz = |m: Option<u64>| m.map_or("?".into(), |v| v.to_string());
    before
        .iter()
        .map(|b| {
            let a = after.iter().find(|a| a.what == b.what);
            let (am, ag) = a.map_or((None, None), |a| (a.mhz, a.governor.clone()));
            let gov = match (&b.governor, &ag) {
                (Some(x), Some(y)) if x != y => format!(" ({x} → {y})"),
                (_, Some(y)) => format!(" ({y})"),
                _ => String::new(),
            };
            if b.mhz == am {
                format!("{}: {} MHz, unchanged{gov}", b.what, mhz(b.mhz))
            } else {
                format!("{}: {} → {} MHz{gov}", b.what, mhz(b.mhz), mhz(am))
            }
        })
        .collect()
}
