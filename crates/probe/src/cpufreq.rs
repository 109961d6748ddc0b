//! cpufreq policies: every `policyN` directory (any count: policy10 and above included, which
//! sbc-bench's single-digit globs miss), with limits, operating points, governor and driver.
//!
//! The OPP list comes from `scaling_available_frequencies`; drivers that do not publish it
//! (intel_pstate, amd-pstate, cppc, many vendor kernels) fall back to the rows of
//! `stats/time_in_state`, then to the two values cpuinfo_min_freq/cpuinfo_max_freq.
//! Old kernels (before policy directories, ~3.x) only have `cpuN/cpufreq`: those are read as
//! policies named after their first related CPU.
//!
//! A policy whose CPUs are all offline answers every read with EBUSY (sbc-bench #138); it is
//! kept with what could be read, and the reasons go to the notes.

use document::machine::{CpufreqGlobal, Devfreq, OppSource, Policy};

use crate::topology::CPU_DIR;
use crate::{Notes, Root};

pub const CPUFREQ_DIR: &str = "/sys/devices/system/cpu/cpufreq";

/// The directory of cpufreq policy `policy` — the one rule for every reader and writer:
/// `cpufreq/policyN`, or on kernels without policy directories (old BSP kernels of Allwinner,
/// Rockchip and Amlogic boards) `cpuN/cpufreq`, where [`read_policies`] names each policy
/// after its first CPU. When neither exists the modern path is returned (reads and writes
/// there fail with the reason, as on any machine without that policy).
pub fn policy_dir(root: &Root, policy: u32) -> String {
    let dir = format!("{CPUFREQ_DIR}/policy{policy}");
    let legacy = format!("{CPU_DIR}/cpu{policy}/cpufreq");
    if !root.exists(&dir) && root.exists(&legacy) {
        legacy
    } else {
        dir
    }
}

/// Reads every policy, in numeric order. No cpufreq at all is normal (VMs): an empty list.
pub fn read_policies(root: &Root, notes: &mut Notes) -> Vec<Policy> {
    let names = root.list_dir(CPUFREQ_DIR).unwrap_or_default();
    let mut v: Vec<Policy> = names
        .iter()
        .filter_map(|n| n.strip_prefix("policy")?.parse::<u32>().ok())
        .map(|n| read_policy(root, notes, &format!("{CPUFREQ_DIR}/policy{n}"), n))
        .collect();
    if v.is_empty() {
        v = legacy_policies(root, notes);
    }
    v.sort_by_key(|p| p.policy);
    v
}

/// Kernels without policy directories: `cpuN/cpufreq` per CPU, deduplicated by related_cpus.
fn legacy_policies(root: &Root, notes: &mut Notes) -> Vec<Policy> {
    let mut v: Vec<Policy> = Vec::new();
    let cpus: Vec<u32> = root
        .list_dir(CPU_DIR)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.strip_prefix("cpu")?.parse().ok())
        .collect();
    for c in cpus {
        let base = format!("{CPU_DIR}/cpu{c}/cpufreq");
        if !root.exists(&base) || v.iter().any(|p| p.related_cpus.contains(&c)) {
            continue;
        }
        let mut p = read_policy(root, notes, &base, c);
        if let Some(&first) = p.related_cpus.first() {
            p.policy = first;
        }
        v.push(p);
    }
    v
}

/// Highest clock believed (100 GHz). Above it a value is a driver's error code or an unset
/// field (18446744073709551615 = -1 as u64), shown as invalid rather than as some clock.
pub const MAX_PLAUSIBLE_KHZ: u64 = 100_000_000;

/// Reads a cpufreq frequency (kHz); a value beyond [`MAX_PLAUSIBLE_KHZ`] is absent with a note.
pub fn read_khz(root: &Root, abs: &str) -> Result<u64, crate::Absent> {
    let khz = root.read_u64(abs)?;
    if khz > MAX_PLAUSIBLE_KHZ {
        return Err(crate::Absent {
            path: abs.to_string(),
            reason: format!("invalid clock: {khz} kHz"),
        });
    }
    Ok(khz)
}

/// Removes clocks beyond [`MAX_PLAUSIBLE_KHZ`] from a list read from `abs`, with a note.
fn drop_invalid_khz(notes: &mut Notes, abs: &str, list: &mut Vec<u64>) {
    if let Some(&bad) = list.iter().find(|&&k| k > MAX_PLAUSIBLE_KHZ) {
        notes.push(crate::Absent {
            path: abs.to_string(),
            reason: format!("invalid clock: {bad} kHz (left out)"),
        });
        list.retain(|&k| k <= MAX_PLAUSIBLE_KHZ);
    }
}

/// Reads one policy directory.
pub fn read_policy(root: &Root, notes: &mut Notes, base: &str, number: u32) -> Policy {
    let f = |name: &str| format!("{base}/{name}");
    let num = |notes: &mut Notes, name: &str| notes.keep_optional(read_khz(root, &f(name)));
    let cpuinfo_min_khz = num(notes, "cpuinfo_min_freq");
    let cpuinfo_max_khz = num(notes, "cpuinfo_max_freq");
    let scaling_min_khz = num(notes, "scaling_min_freq");
    let scaling_max_khz = num(notes, "scaling_max_freq");
    let related_cpus = notes
        .keep(root.read_cpu_list(&f("related_cpus")))
        .unwrap_or_default();
    let affected_cpus = notes
        .keep_optional(root.read_cpu_list(&f("affected_cpus")))
        .unwrap_or_default();

    let (mut frequencies_khz, opp_source) = if let Some(list) = notes
        .keep_optional(root.read_u64_list(&f("scaling_available_frequencies")))
        .filter(|l| !l.is_empty())
    {
        (list, OppSource::Available)
    } else if let Some(list) = notes
        .keep_optional(root.read(&f("stats/time_in_state")))
        .map(|t| parse_time_in_state(&t))
        .filter(|l| !l.is_empty())
    {
        (
            list.into_iter().map(|(khz, _)| khz).collect(),
            OppSource::TimeInState,
        )
    } else {
        let mm: Vec<u64> = [cpuinfo_min_khz, cpuinfo_max_khz]
            .into_iter()
            .flatten()
            .collect();
        let src = if mm.is_empty() {
            OppSource::None
        } else {
            OppSource::MinMax
        };
        (mm, src)
    };
    let list_file = match opp_source {
        OppSource::Available => "scaling_available_frequencies",
        OppSource::TimeInState => "stats/time_in_state",
        _ => "cpuinfo_min_freq",
    };
    drop_invalid_khz(notes, &f(list_file), &mut frequencies_khz);
    frequencies_khz.sort_unstable();
    frequencies_khz.dedup();
    let mut boost_khz = notes
        .keep_optional(root.read_u64_list(&f("scaling_boost_frequencies")))
        .unwrap_or_default();
    drop_invalid_khz(notes, &f("scaling_boost_frequencies"), &mut boost_khz);
    boost_khz.sort_unstable();
    boost_khz.dedup();

    let text = |notes: &mut Notes, name: &str| notes.keep_optional(root.read_value(&f(name)));
    Policy {
        policy: number,
        related_cpus,
        affected_cpus,
        cpuinfo_min_khz,
        cpuinfo_max_khz,
        scaling_min_khz,
        scaling_max_khz,
        frequencies_khz,
        opp_source,
        boost_khz,
        governor: text(notes, "scaling_governor"),
        available_governors: text(notes, "scaling_available_governors")
            .map(|s| s.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        driver: text(notes, "scaling_driver"),
    }
}

/// Rows of `stats/time_in_state` ("<kHz> <time in 10 ms units>"); malformed rows are skipped.
pub fn parse_time_in_state(text: &str) -> Vec<(u64, u64)> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let khz = w.next()?.parse().ok()?;
            let t = w.next()?.parse().ok()?;
            Some((khz, t))
        })
        .collect()
}

/// Machine-wide switches: `cpufreq/boost`, intel_pstate and amd_pstate status.
pub fn read_global(root: &Root, notes: &mut Notes) -> CpufreqGlobal {
    let flag = |notes: &mut Notes, p: &str| {
        notes
            .keep_optional(root.read_value(p))
            .and_then(|v| match v.as_str() {
                "1" => Some(true),
                "0" => Some(false),
                _ => None,
            })
    };
    CpufreqGlobal {
        boost: flag(notes, &format!("{CPUFREQ_DIR}/boost")),
        intel_pstate_status: notes
            .keep_optional(root.read_value(&format!("{CPU_DIR}/intel_pstate/status"))),
        intel_no_turbo: flag(notes, &format!("{CPU_DIR}/intel_pstate/no_turbo")),
        amd_pstate_status: notes
            .keep_optional(root.read_value(&format!("{CPU_DIR}/amd_pstate/status"))),
    }
}

/// devfreq devices (memory controller, GPU, NPU …) and their governors. sbc-bench reports the
/// DRAM controller's ("DMC gov") because dmc_ondemand thresholds change memory results a lot.
pub fn read_devfreq(root: &Root, notes: &mut Notes) -> Vec<Devfreq> {
    let base = "/sys/class/devfreq";
    root.list_dir(base)
        .unwrap_or_default()
        .into_iter()
        .map(|name| {
            let f = |n: &str| format!("{base}/{name}/{n}");
            Devfreq {
                governor: notes.keep_optional(root.read_value(&f("governor"))),
                available_governors: notes
                    .keep_optional(root.read_value(&f("available_governors")))
                    .map(|s| s.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
                min_hz: notes.keep_optional(root.read_u64(&f("min_freq"))),
                max_hz: notes.keep_optional(root.read_u64(&f("max_freq"))),
                cur_hz: notes.keep_optional(root.read_u64(&f("cur_freq"))),
                available_hz: root
                    .read_u64_list(&f("available_frequencies"))
                    .unwrap_or_default(),
                compatible: root
                    .resolve(&f("device/of_node"))
                    .ok()
                    .filter(|p| !p.ends_with("/of_node"))
                    .and_then(|p| root.read_dt_strings(&format!("{p}/compatible")).ok())
                    .unwrap_or_default(),
                name,
            }
        })
        .collect()
}
