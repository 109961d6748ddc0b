//! The controlled environment: every cpufreq policy (any number of them) and every devfreq
//! device that offers it runs the `performance` governor, and `MaxKHz` caps the policies. All
//! writes go through the [`Restorer`], which puts every file back on exit, error, signal and
//! panic; [`Applied::settings`] records what was changed for the result document.
//!
//! sbc-bench applies policy0's governor to all policies, never touches devfreq in a normal run
//! and leaves MaxKHz caps behind (docs/sbc-bench-compat.md); here each file is handled alone.

use document::machine::MachineInfo;
use document::run::SettingChange;

use crate::Restorer;

/// What to change.
#[derive(Debug, Clone, Default)]
pub struct TuneOptions {
    /// Switch governors to performance (false: `--no-tune` / `NOTUNING=yes`).
    pub governors: bool,
    /// Cap every policy whose top clock is above this (kHz): sbc-bench's MaxKHz.
    pub max_khz: Option<u64>,
}

/// One planned write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    pub path: String,
    pub value: String,
}

/// The writes for this machine, and remarks for the user (e.g. how a cap is applied).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub writes: Vec<Write>,
    pub remarks: Vec<String>,
}

pub const PERFORMANCE: &str = "performance";

fn policy_dir(p: u32) -> String {
    format!("/sys/devices/system/cpu/cpufreq/policy{p}")
}

/// Pure: what must be written so that the machine runs at full speed (within MaxKHz).
pub fn plan(m: &MachineInfo, o: &TuneOptions) -> Plan {
    let mut plan = Plan::default();
    for p in &m.policies {
        let offers = p.available_governors.is_empty()
            || p.available_governors.iter().any(|g| g == PERFORMANCE);
        if o.governors && offers && p.governor.as_deref() != Some(PERFORMANCE) {
            plan.writes.push(Write {
                path: format!("{}/scaling_governor", policy_dir(p.policy)),
                value: PERFORMANCE.into(),
            });
        }
        if let Some(cap) = o.max_khz {
            let top = p.cpuinfo_max_khz.or(p.scaling_max_khz);
            if top.is_some_and(|t| t > cap) {
                plan.writes.push(Write {
                    path: format!("{}/scaling_max_freq", policy_dir(p.policy)),
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
                    path: format!("/sys/class/devfreq/{}/governor", d.name),
                    value: PERFORMANCE.into(),
                });
            }
        }
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

/// A mode's controlled environment in one value: [`Tuning::start`] plans and applies, the
/// restorer stays available for the mode's own writes (an OPP walk), [`Tuning::finish`]
/// restores and returns what the result document lists. Dropping it restores too.
#[derive(Debug)]
pub struct Tuning {
    root: probe::Root,
    restorer: Restorer,
    applied: Applied,
    remarks: Vec<String>,
}

impl Tuning {
    /// Plans the environment for `m` and applies it through a new restorer on `root`.
    pub fn start(root: &probe::Root, m: &MachineInfo, o: &TuneOptions) -> Self {
        let restorer = Restorer::new(root);
        let plan = plan(m, o);
        let applied = apply(root, &restorer, &plan);
        Tuning {
            root: root.clone(),
            restorer,
            applied,
            remarks: plan.remarks,
        }
    }

    /// Writes through the same ledger (restored with everything else).
    pub fn restorer(&self) -> &Restorer {
        &self.restorer
    }

    /// What the plan says the user should know (how a cap is applied, why it cannot be).
    pub fn remarks(&self) -> &[String] {
        &self.remarks
    }

    /// Writes the kernel refused, each "could not change X to V: reason" (not recorded).
    pub fn refused(&self) -> &[String] {
        &self.applied.failures
    }

    /// The planned changes that were made, without `after` yet.
    pub fn settings(&self) -> &[SettingChange] {
        &self.applied.settings
    }

    /// Restores everything now: the changes with the value read back after restoring, and the
    /// files that could not be restored.
    pub fn finish(mut self) -> (Vec<SettingChange>, Vec<String>) {
        let mut settings = std::mem::take(&mut self.applied.settings);
        let failed = restore_and_record(&self.root, &self.restorer, &mut settings);
        (settings, failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(root: &str) -> MachineInfo {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../probe/tests/roots")
            .join(root);
        probe::snapshot::take(&probe::Root::new(dir))
    }

    #[test]
    fn every_policy_gets_performance_and_only_caps_above_max_khz() {
        let m = machine("rk3588");
        assert!(m.policies.len() >= 3);
        let p = plan(
            &m,
            &TuneOptions {
                governors: true,
                max_khz: Some(1_800_000),
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
            &m,
            &TuneOptions {
                governors: true,
                max_khz: Some(1_000_000),
            },
        );
        assert!(p.writes.iter().all(|w| !w.path.contains("cpufreq")));
        assert!(p.remarks.iter().any(|r| r.contains("no cpufreq")));
    }

    #[test]
    fn no_tune_writes_nothing() {
        let m = machine("rk3588");
        assert!(plan(&m, &TuneOptions::default()).writes.is_empty());
    }
}
