//! cpufreq and devfreq governors and the tunables of the load-based cpufreq governors.
//!
//! The policies and devfreq devices come from the probe's snapshot; only the governor tunables
//! are read here. ondemand and conservative keep them in `cpufreq/<governor>/` (one set for all
//! policies) or, when the driver sets `have_governor_per_policy` (most big.LITTLE SoCs), in
//! `cpufreq/policyN/<governor>/`. schedutil has only `rate_limit_us`.

use std::collections::BTreeMap;

use document::machine::MachineInfo;
use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, opt};

const CPUFREQ: &str = "/sys/devices/system/cpu/cpufreq";

/// Tunables read for each governor (every file that exists is kept).
const TUNABLES: &[(&str, &[&str])] = &[
    (
        "ondemand",
        &[
            "io_is_busy",
            "up_threshold",
            "sampling_down_factor",
            "sampling_rate",
            "ignore_nice_load",
            "powersave_bias",
        ],
    ),
    (
        "conservative",
        &[
            "up_threshold",
            "down_threshold",
            "freq_step",
            "sampling_down_factor",
            "sampling_rate",
            "ignore_nice_load",
        ],
    ),
    ("schedutil", &["rate_limit_us"]),
];

/// One set of governor tunables.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tunables {
    /// "ondemand", "conservative", "schedutil".
    pub governor: String,
    /// The directory read ("/sys/devices/system/cpu/cpufreq/ondemand" or ".../policy4/ondemand").
    pub path: String,
    /// `None` = global set; otherwise the policy it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    pub values: BTreeMap<String, String>,
}

/// A policy's governor and the tunables that apply to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyGovernor {
    pub policy: u32,
    pub cpus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tunables: Option<Tunables>,
}

/// Reads the tunables of every policy's governor.
pub fn read(root: &Root, m: &MachineInfo) -> Vec<PolicyGovernor> {
    m.policies
        .iter()
        .map(|p| {
            let tunables = p
                .governor
                .as_deref()
                .and_then(|g| read_tunables(root, p.policy, g));
            PolicyGovernor {
                policy: p.policy,
                cpus: p.related_cpus.clone(),
                governor: p.governor.clone(),
                driver: p.driver.clone(),
                tunables,
            }
        })
        .collect()
}

/// The tunables of `governor` for `policy`: the per-policy directory first, then the global one.
pub fn read_tunables(root: &Root, policy: u32, governor: &str) -> Option<Tunables> {
    let names = TUNABLES.iter().find(|(g, _)| *g == governor)?.1;
    let candidates = [
        (
            format!("{}/{governor}", probe::cpufreq::policy_dir(root, policy)),
            Some(policy),
        ),
        (format!("{CPUFREQ}/{governor}"), None),
    ];
    for (dir, pol) in candidates {
        let values: BTreeMap<String, String> = names
            .iter()
            .filter_map(|n| opt(root, &format!("{dir}/{n}")).map(|v| (n.to_string(), v)))
            .collect();
        if !values.is_empty() {
            return Some(Tunables {
                governor: governor.to_string(),
                path: dir,
                policy: pol,
                values,
            });
        }
    }
    None
}

fn cpus_text(cpus: &[u32]) -> String {
    let list = document::cpus::CpuList::new(cpus);
    if list.is_empty() {
        return "no CPUs".into();
    }
    list.heading()
}

/// Findings about governors, tunables, limits and boost.
pub fn findings(govs: &[PolicyGovernor], m: &MachineInfo) -> Vec<Finding> {
    let mut out = Vec::new();
    let intel_pstate = m.cpufreq.intel_pstate_status.as_deref() == Some("active");
    // One finding per governor and kind, naming every policy that runs it (x86 has one
    // policy per CPU: sixteen identical findings would drown the others).
    let mut groups: Vec<(&str, Vec<&PolicyGovernor>)> = Vec::new();
    for g in govs {
        let gov = g.governor.as_deref().unwrap_or("?");
        match groups.iter_mut().find(|(k, _)| *k == gov) {
            Some((_, v)) => v.push(g),
            None => groups.push((gov, vec![g])),
        }
    }
    for (gov, members) in &groups {
        let who = if members.len() == 1 {
            format!(
                "policy{} ({})",
                members[0].policy,
                cpus_text(&members[0].cpus)
            )
        } else {
            format!(
                "policies {}",
                members
                    .iter()
                    .map(|g| g.policy.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        let ev: Vec<String> = members
            .iter()
            .map(|g| format!("{CPUFREQ}/policy{}/scaling_governor = {gov}", g.policy))
            .collect();
        match *gov {
            // intel_pstate's "powersave" is its normal dynamic mode (HWP), not a minimum clock.
            "powersave" if !intel_pstate => out.push(finding(
                "governor-powersave",
                Severity::Warning,
                format!("{who}: powersave governor, the CPUs stay at their lowest clock"),
                "every benchmark and every workload runs at the minimum frequency",
                ev,
            )),
            "userspace" => out.push(finding(
                "governor-userspace",
                Severity::Info,
                format!("{who}: userspace governor, the clock is whatever was last set"),
                "a fixed clock chosen by some tool; results depend on that choice",
                ev,
            )),
            "ondemand" | "conservative" | "schedutil" | "interactive" => out.push(finding(
                "governor-dynamic",
                Severity::Info,
                format!("{who}: {gov} governor, the clock follows the load"),
                "short or bursty work may finish before the clock has ramped up; \
                 benchmarks should run with performance (review switches to it)",
                ev,
            )),
            _ => {}
        }
    }
    // Tunables: once per directory (a global set serves every policy).
    let mut seen: Vec<&str> = Vec::new();
    for g in govs {
        if let Some(t) = &g.tunables
            && !seen.contains(&t.path.as_str())
        {
            seen.push(&t.path);
            let who = match t.policy {
                Some(p) => format!("policy{p} ({})", cpus_text(&g.cpus)),
                None => "all policies".to_string(),
            };
            tunable_findings(t, &who, &mut out);
        }
    }
    for p in &m.policies {
        if let (Some(cap), Some(max)) = (p.scaling_max_khz, p.cpuinfo_max_khz)
            && cap < max
        {
            out.push(finding(
                "cpufreq-capped",
                Severity::Warning,
                format!(
                    "policy{} is capped at {} MHz (hardware maximum {} MHz)",
                    p.policy,
                    cap / 1000,
                    max / 1000
                ),
                "scaling_max_freq below cpuinfo_max_freq limits every result of these cores",
                vec![format!(
                    "scaling_max_freq = {cap}, cpuinfo_max_freq = {max}"
                )],
            ));
        }
    }
    if m.cpufreq.boost == Some(false) {
        out.push(finding(
            "boost-disabled",
            Severity::Warning,
            "cpufreq boost is disabled",
            "the CPU cannot reach its boost clocks; single-threaded results are lower",
            vec![format!("{CPUFREQ}/boost = 0")],
        ));
    }
    if m.cpufreq.intel_no_turbo == Some(true) {
        out.push(finding(
            "turbo-disabled",
            Severity::Warning,
            "Intel Turbo Boost is disabled (intel_pstate/no_turbo = 1)",
            "the CPU stays at its base clock",
            vec!["/sys/devices/system/cpu/intel_pstate/no_turbo = 1".into()],
        ));
    }
    for d in &m.devfreq {
        let gov = d.governor.as_deref().unwrap_or("?");
        let ev = vec![format!(
            "/sys/class/devfreq/{}/governor = {gov} (available: {})",
            d.name,
            d.available_governors.join(" ")
        )];
        match gov {
            "powersave" => out.push(finding(
                "devfreq-powersave",
                Severity::Warning,
                format!(
                    "devfreq {} runs the powersave governor (lowest clock)",
                    d.name
                ),
                "a DRAM controller or GPU at its lowest clock slows everything that uses it",
                ev,
            )),
            "performance" => {}
            _ => out.push(finding(
                "devfreq-dynamic",
                Severity::Info,
                format!(
                    "devfreq {} uses {gov}: its clock follows the load{}",
                    d.name,
                    match (d.cur_hz, d.max_hz) {
                        (Some(c), Some(x)) =>
                            format!(" (now {} of {} MHz)", c / 1_000_000, x / 1_000_000),
                        _ => String::new(),
                    }
                ),
                if d.name.contains("dmc") || d.name.contains("ddr") {
                    "with a load-following DRAM controller (sbc-bench's \"DMC gov\") memory \
                     bandwidth and latency depend on how busy the memory was a moment ago"
                } else {
                    "the device's clock, and everything measured on it, depends on how busy it \
                     was a moment ago"
                },
                ev,
            )),
        }
    }
    out
}

fn tunable_findings(t: &Tunables, who: &str, out: &mut Vec<Finding>) {
    let val = |k: &str| t.values.get(k).and_then(|v| v.parse::<u64>().ok());
    let ev = |k: &str| format!("{}/{k} = {}", t.path, t.values.get(k).map_or("?", |v| v));
    if t.governor == "ondemand" && val("io_is_busy") == Some(0) {
        out.push(finding(
            "ondemand-io-is-busy",
            Severity::Warning,
            format!("{who}: ondemand with io_is_busy=0 does not count waiting for I/O as load"),
            "storage and network throughput suffer: the CPU idles at a low clock while it \
             waits for the device and is slow to handle each completion (sbc-bench checks \
             this; Armbian and others set io_is_busy=1)",
            vec![ev("io_is_busy")],
        ));
    }
    if let Some(u) = val("up_threshold")
        && u >= 90
    {
        out.push(finding(
            "governor-up-threshold",
            Severity::Info,
            format!(
                "{who}: {} up_threshold={u} ramps the clock up late",
                t.governor
            ),
            "the clock only rises once the load is above this percentage; moderately loaded \
             work stays slow",
            vec![ev("up_threshold")],
        ));
    }
    if t.governor == "ondemand" && val("sampling_down_factor") == Some(1) {
        out.push(finding(
            "governor-sampling-down-factor",
            Severity::Info,
            format!("{who}: ondemand sampling_down_factor=1 drops the clock right after a burst"),
            "bursty and interactive work keeps starting at low clocks; higher values keep the \
             top clock longer",
            vec![ev("sampling_down_factor")],
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_cpus_are_printed_with_their_gaps() {
        assert_eq!(cpus_text(&[0, 1, 2, 3]), "cpu0-cpu3");
        assert_eq!(cpus_text(&[4]), "cpu4");
        // Was "cpu0-cpu3": first–last hid the CPUs missing from the policy.
        assert_eq!(cpus_text(&[0, 1, 3]), "cpu0-1,3");
        assert_eq!(cpus_text(&[]), "no CPUs");
        let m = MachineInfo::default();
        let govs = [PolicyGovernor {
            policy: 0,
            cpus: vec![0, 2],
            governor: Some("powersave".into()),
            ..Default::default()
        }];
        let f = findings(&govs, &m);
        assert!(f[0].message.starts_with("policy0 (cpu0,2): "), "{f:?}");
    }
}
