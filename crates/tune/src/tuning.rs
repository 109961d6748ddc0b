//! The controlled environment — the one tuning plan of every mode: every cpufreq policy (any
//! number of them, in either sysfs layout: `cpufreq/policyN` or old kernels' `cpuN/cpufreq`)
//! and every devfreq device that offers it runs the `performance` governor, `MaxKHz` caps the
//! policies, and (review's tune-up) the PCIe ASPM policy goes to `performance`. All writes go
//! through the [`Restorer`], which puts every file back on exit, error, signal and panic;
//! [`Applied::settings`] records what was changed for the result document.
//!
//! sbc-bench applies policy0's governor to all policies, never touches devfreq in a normal run
//! and leaves MaxKHz caps behind (docs/sbc-bench-compat.md); here each file is handled alone.

use document::machine::MachineInfo;
use document::run::SettingChange;
use probe::cpufreq::policy_dir;
use probe::pcie::{ASPM_POLICY, read_aspm_policy};

use crate::Restorer;

/// What to change.
#[derive(Debug, Clone, Default)]
pub struct TuneOptions {
    /// Switch governors to performance (false: `--no-tune` / `NOTUNING=yes`).
    pub governors: bool,
    /// Cap every policy whose top clock is above this (kHz): sbc-bench's MaxKHz.
    pub max_khz: Option<u64>,
    /// Also switch the PCIe ASPM policy to performance (review's tune-up; a benchmark run
    /// leaves it as found, as sbc-bench does).
    pub aspm: bool,
}

/// One planned write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    /// What it is, for people ("policy0 governor", "devfreq dmc governor", "PCIe ASPM policy",
    /// "policy4 cap").
    pub what: String,
    /// Machine path.
    pub path: String,
    /// The value the machine snapshot shows (what the write replaces), when known.
    pub from: Option<String>,
    pub value: String,
}

/// The writes for this machine, and remarks for the user (e.g. how a cap is applied).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub writes: Vec<Write>,
    pub remarks: Vec<String>,
}

pub const PERFORMANCE: &str = "performance";

/// What must be written so that the machine runs at full speed (within MaxKHz). It decides
/// from the machine snapshot `m`; `root` only answers where each policy's directory is (the
/// legacy layout) and, with [`TuneOptions::aspm`], the ASPM policy.
///
/// A governor is switched when the policy lists `performance` among its governors, or lists
/// none at all (a kernel that does not say may still accept it; a refusal is reported and
/// nothing is recorded); a devfreq device only when it lists it.
pub fn plan(root: &probe::Root, m: &MachineInfo, o: &TuneOptions) -> Plan {
    let mut plan = Plan::default();
    for p in &m.policies {
        let dir = policy_dir(root, p.policy);
        let offers = p.available_governors.is_empty()
            || p.available_governors.iter().any(|g| g == PERFORMANCE);
        if o.governors && offers && p.governor.as_deref() != Some(PERFORMANCE) {
            plan.writes.push(Write {
                what: format!("policy{} governor", p.policy),
                path: format!("{dir}/scaling_governor"),
                from: p.governor.clone(),
                value: PERFORMANCE.into(),
            });
        }
        if let Some(cap) = o.max_khz {
            let top = p.cpuinfo_max_khz.or(p.scaling_max_khz);
            if top.is_some_and(|t| t > cap) {
                plan.writes.push(Write {
                    what: format!("policy{} cap", p.policy),
                    path: format!("{dir}/scaling_max_freq"),
                    from: p.scaling_max_khz.map(|k| k.to_string()),
                    value: cap.to_string(),
                });
            }
        }
    }
    if o.max_khz.is_some() {
        let pstate = m
            .policies
            .iter()
            .filter_map(|p| p.driver.as_deref())
            .find(|d| {
                d.starts_with("intel_pstate")
                    || d.starts_with("intel_cpufreq")
                    || d.starts_with("amd-pstate")
            });
        if let Some(d) = pstate {
            plan.remarks.push(format!(
                "{d} has no OPP table: MaxKHz caps scaling_max_freq only (the hardware may still \
                 pick any clock below it)"
            ));
        }
        if m.policies.is_empty() {
            plan.remarks
                .push("no cpufreq: MaxKHz cannot be applied on this machine".to_string());
        }
    }
    if o.governors {
        for d in &m.devfreq {
            let offers = d.available_governors.iter().any(|g| g == PERFORMANCE);
            if offers && d.governor.as_deref() != Some(PERFORMANCE) {
                plan.writes.push(Write {
                    what: format!("devfreq {} governor", d.name),
                    path: format!("/sys/class/devfreq/{}/governor", d.name),
                    from: d.governor.clone(),
                    value: PERFORMANCE.into(),
                });
            }
        }
    }
    if o.aspm
        && let Some(a) = read_aspm_policy(root)
        && a.selected != PERFORMANCE
        && a.available.iter().any(|x| x == PERFORMANCE)
    {
        plan.writes.push(Write {
            what: "PCIe ASPM policy".into(),
            path: ASPM_POLICY.into(),
            from: Some(a.selected),
            value: PERFORMANCE.into(),
        });
    }
    plan
}

/// What [`apply`] did.
#[derive(Debug, Default)]
pub struct Applied {
    pub settings: Vec<SettingChange>,
    /// Writes the kernel refused (the run goes on; the findings see the governor).
    pub failures: Vec<String>,
}

/// Carries out the plan through `restorer`, reading each original value first.
pub fn apply(root: &probe::Root, restorer: &Restorer, plan: &Plan) -> Applied {
    let mut out = Applied::default();
    for w in &plan.writes {
        let before = root.read_value(&w.path).unwrap_or_default();
        match restorer.write(&w.path, &w.value) {
            Ok(()) => out.settings.push(SettingChange {
                path: w.path.clone(),
                before,
                set: w.value.clone(),
                after: None,
            }),
            Err(e) => out.failures.push(format!("{e:#}")),
        }
    }
    out
}

/// Restores now and reads every changed file back into `settings[].after`. Returns the paths
/// that could not be restored.
pub fn restore_and_record(
    root: &probe::Root,
    restorer: &Restorer,
    settings: &mut [SettingChange],
) -> Vec<String> {
    let failed = restorer.restore();
    for s in settings.iter_mut() {
        s.after = root.read_value(&s.path).ok();
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(name: &str) -> MachineInfo {
        probe::snapshot::take(&root(name))
    }

    fn root(name: &str) -> probe::Root {
        probe::Root::new(testsupport::probe_root(name))
    }

    #[test]
    fn every_policy_gets_performance_and_only_caps_above_max_khz() {
        let m = machine("rk3588");
        assert!(m.policies.len() >= 3);
        let p = plan(
            &root("rk3588"),
            &m,
            &TuneOptions {
                governors: true,
                max_khz: Some(1_800_000),
                aspm: false,
            },
        );
        for pol in &m.policies {
            let gov = format!(
                "/sys/devices/system/cpu/cpufreq/policy{}/scaling_governor",
                pol.policy
            );
            let has = p.writes.iter().any(|w| w.path == gov);
            assert_eq!(has, pol.governor.as_deref() != Some("performance"), "{gov}");
            let cap = p.writes.iter().any(|w| {
                w.path
                    .ends_with(&format!("policy{}/scaling_max_freq", pol.policy))
            });
            assert_eq!(cap, pol.cpuinfo_max_khz.unwrap() > 1_800_000);
        }
    }

    #[test]
    fn nothing_to_do_without_cpufreq_and_a_remark_for_max_khz() {
        let m = machine("vm");
        let p = plan(
            &root("vm"),
            &m,
            &TuneOptions {
                governors: true,
                max_khz: Some(1_000_000),
                aspm: true,
            },
        );
        assert!(p.writes.iter().all(|w| !w.path.contains("cpufreq")));
        assert!(p.remarks.iter().any(|r| r.contains("no cpufreq")));
    }

    #[test]
    fn no_tune_writes_nothing() {
        let m = machine("rk3588");
        assert!(
            plan(&root("rk3588"), &m, &TuneOptions::default())
                .writes
                .is_empty()
        );
    }
}
