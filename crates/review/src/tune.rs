//! The switch to maximum performance that follows the review: every cpufreq policy's and
//! every devfreq device's governor to `performance` (where the kernel offers it) and the PCIe
//! ASPM policy to `performance`. This module only *plans* the writes and reads the clocks
//! before and after; the binary performs them through its restorer, which puts back every
//! file it changed (devfreq included: sbc-bench forgets those, and restores policy0's governor
//! to every policy instead of each its own).

use document::machine::MachineInfo;
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::pcie::{ASPM_POLICY, read_aspm_policy};
use crate::util::opt;

const CPUFREQ: &str = "/sys/devices/system/cpu/cpufreq";

/// One planned write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedWrite {
    /// What it is ("policy0 governor", "devfreq dmc governor", "PCIe ASPM policy").
    pub what: String,
    /// Machine path.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub to: String,
}

/// The directory of a policy: `cpufreq/policyN`, or `cpuN/cpufreq` on old kernels.
pub fn policy_dir(root: &Root, policy: u32) -> String {
    let d = format!("{CPUFREQ}/policy{policy}");
    if root.exists(&d) {
        d
    } else {
        format!("/sys/devices/system/cpu/cpu{policy}/cpufreq")
    }
}

/// Every write that brings the machine to maximum performance, skipping what is already
/// there and what the kernel does not offer.
pub fn plan(root: &Root, m: &MachineInfo) -> Vec<PlannedWrite> {
    let mut v = Vec::new();
    for p in &m.policies {
        if !p.available_governors.iter().any(|g| g == "performance")
            || p.governor.as_deref() == Some("performance")
        {
            continue;
        }
        v.push(PlannedWrite {
            what: format!("policy{} governor", p.policy),
            path: format!("{}/scaling_governor", policy_dir(root, p.policy)),
            from: p.governor.clone(),
            to: "performance".into(),
        });
    }
    for d in &m.devfreq {
        if !d.available_governors.iter().any(|g| g == "performance")
            || d.governor.as_deref() == Some("performance")
        {
            continue;
        }
        v.push(PlannedWrite {
            what: format!("devfreq {} governor", d.name),
            path: format!("/sys/class/devfreq/{}/governor", d.name),
            from: d.governor.clone(),
            to: "performance".into(),
        });
    }
    if let Some(a) = read_aspm_policy(root)
        && a.selected != "performance"
        && a.available.iter().any(|x| x == "performance")
    {
        v.push(PlannedWrite {
            what: "PCIe ASPM policy".into(),
            path: ASPM_POLICY.into(),
            from: Some(a.selected),
            to: "performance".into(),
        });
    }
    v
}

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
