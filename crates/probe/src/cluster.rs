//! Groups CPUs into clusters: the units benchmarks are pinned to and the monitor shows.
//!
//! The rule (deliberately independent of virtualisation, sbc-bench #116):
//! 1. A CPU covered by a cpufreq policy that spans several CPUs belongs to that policy's group
//!    (big.LITTLE, DynamIQ with three core types such as RK3588's 4+2+2 → policies 0/4/6).
//!    Should one policy span two core types, it is split by core type.
//! 2. A CPU with a per-CPU policy (intel_pstate, amd-pstate, acpi-cpufreq, CPPC servers with
//!    policy0 … policy19) or with no cpufreq at all is grouped by what it is: core name and
//!    stepping (from /proc/cpuinfo), Intel hybrid kind (cpu_core/cpu_atom → P-core/E-core) and
//!    physical package. Twenty identical Neoverse cores are one cluster; an Intel laptop is a
//!    P-core and an E-core cluster. The clock limits are *not* part of the key, because Intel's
//!    favoured cores (Turbo Boost Max 3.0) have a higher maximum than their siblings.
//! 3. An offline CPU has no cpuinfo entry and no topology files. If its policy is readable
//!    (related_cpus) it joins that policy's group; otherwise consecutive offline CPUs form one
//!    cluster whose policy is the inactive `policyN` named after its first CPU, if that policy
//!    exists (policies are named after the first CPU they were created for). sbc-bench #138.
//!
//! Clusters are ordered by their first CPU. A cluster's min/max are the lowest
//! cpuinfo_min_freq and highest cpuinfo_max_freq of its policies.

use document::cpu::CpuInfo;
use document::machine::{Cluster, Policy};

use crate::topology::CpuIds;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    /// Rule 1: shared policy number, core name, stepping.
    Policy(u32, Option<String>, Option<String>),
    /// Rule 2: core name, stepping, hybrid kind, package.
    Kind(
        Option<String>,
        Option<String>,
        Option<&'static str>,
        Option<i64>,
    ),
    /// Rule 3: an offline run starting at this CPU.
    Offline(u32),
}

/// Builds the clusters. `ids` lists every possible CPU in ascending order.
pub fn group(ids: &[CpuIds], policies: &[Policy], cpuinfo: &CpuInfo) -> Vec<Cluster> {
    // CPU → policy, built once (machines with thousands of per-CPU policies exist).
    let mut owner: std::collections::HashMap<u32, &Policy> = std::collections::HashMap::new();
    for p in policies {
        for &c in p.related_cpus.iter().chain(&p.affected_cpus) {
            owner.entry(c).or_insert(p);
        }
    }
    let policy_of = |cpu: u32| owner.get(&cpu).copied();
    let mut keys: Vec<(Key, &CpuIds)> = Vec::new();
    for id in ids {
        let proc_ = cpuinfo.processors.iter().find(|p| p.index == id.cpu);
        let name = proc_.and_then(|p| p.core_name.clone().or_else(|| p.model_name.clone()));
        let stepping = proc_.and_then(|p| p.stepping.clone());
        let key = match policy_of(id.cpu) {
            Some(p) if p.related_cpus.len() > 1 => {
                // An offline CPU of a shared policy inherits the core of an online sibling.
                let (name, stepping) = if proc_.is_none() {
                    sibling_core(p, cpuinfo)
                } else {
                    (name, stepping)
                };
                Key::Policy(p.policy, name, stepping)
            }
            _ if !id.online && proc_.is_none() => {
                let start = match keys.last() {
                    Some((Key::Offline(s), prev)) if prev.cpu + 1 == id.cpu => *s,
                    _ => id.cpu,
                };
                Key::Offline(start)
            }
            _ => Key::Kind(name, stepping, id.hybrid, id.package_id),
        };
        keys.push((key, id));
    }

    let mut groups: Vec<(Key, Vec<&CpuIds>)> = Vec::new();
    for (k, id) in keys {
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, v)) => v.push(id),
            None => groups.push((k, vec![id])),
        }
    }

    groups
        .into_iter()
        .map(|(key, members)| {
            let cpus: Vec<u32> = members.iter().map(|m| m.cpu).collect();
            let member_policies: Vec<&Policy> = match &key {
                Key::Offline(start) => policies.iter().filter(|p| p.policy == *start).collect(),
                _ => {
                    let mut v: Vec<&Policy> = cpus.iter().filter_map(|&c| policy_of(c)).collect();
                    v.dedup_by_key(|p| p.policy);
                    v
                }
            };
            let (core_name, stepping, hybrid) = match key {
                Key::Policy(_, n, s) => (n, s, members[0].hybrid),
                Key::Kind(n, s, h, _) => (n, s, h),
                Key::Offline(_) => (None, None, None),
            };
            Cluster {
                policy: member_policies.first().map(|p| p.policy),
                min_khz: member_policies
                    .iter()
                    .filter_map(|p| p.cpuinfo_min_khz)
                    .min(),
                max_khz: member_policies
                    .iter()
                    .filter_map(|p| p.cpuinfo_max_khz)
                    .max(),
                core_name,
                stepping,
                hybrid: hybrid.map(str::to_string),
                offline_cpus: members
                    .iter()
                    .filter(|m| !m.online)
                    .map(|m| m.cpu)
                    .collect(),
                capacity: members.iter().find_map(|m| m.capacity),
                caches: Vec::new(),
                dt_max_khz: None,
                dt_clock_from: None,
                cpus,
            }
        })
        .collect()
}

/// Core name and stepping of the first online CPU of a policy that cpuinfo lists.
fn sibling_core(p: &Policy, cpuinfo: &CpuInfo) -> (Option<String>, Option<String>) {
    p.related_cpus
        .iter()
        .find_map(|&c| cpuinfo.processors.iter().find(|q| q.index == c))
        .map(|q| {
            (
                q.core_name.clone().or_else(|| q.model_name.clone()),
                q.stepping.clone(),
            )
        })
        .unwrap_or_default()
}
