//! Which CPUs exist, which are online, and the topology IDs the kernel reports for each.
//!
//! Sources: /sys/devices/system/cpu/{possible,present,online}, `cpuN/topology/*`,
//! `cpuN/cpu_capacity`, and for Intel hybrid CPUs the PMU device lists
//! /sys/devices/cpu_core/cpus (P-cores) and /sys/devices/cpu_atom/cpus (E-cores).
//! An offline CPU has no topology directory (the kernel removes it on unplug), so its IDs are
//! absent; that is normal and not noted.

use document::machine::CpuSets;

use crate::{Notes, Root};

pub const CPU_DIR: &str = "/sys/devices/system/cpu";

/// What sysfs says about one CPU, before grouping.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuIds {
    pub cpu: u32,
    pub online: bool,
    pub package_id: Option<i64>,
    pub cluster_id: Option<i64>,
    pub core_id: Option<i64>,
    pub capacity: Option<u32>,
    /// "P-core" / "E-core".
    pub hybrid: Option<&'static str>,
}

/// Reads the CPU lists. `possible` falls back to the `cpuN` directories; `online` falls back
/// to the per-CPU `online` files (cpu0 usually has none: it is always online).
pub fn read_sets(root: &Root, notes: &mut Notes) -> CpuSets {
    let mut possible = notes
        .keep_optional(root.read_cpu_list(&format!("{CPU_DIR}/possible")))
        .unwrap_or_default();
    if possible.is_empty() {
        possible = cpu_dirs(root);
    }
    let present = notes
        .keep_optional(root.read_cpu_list(&format!("{CPU_DIR}/present")))
        .unwrap_or_else(|| possible.clone());
    let online = match notes.keep_optional(root.read_cpu_list(&format!("{CPU_DIR}/online"))) {
        Some(v) => v,
        None => possible
            .iter()
            .copied()
            .filter(|c| {
                // A missing per-CPU `online` file means the CPU cannot be unplugged: online.
                root.read_value(&format!("{CPU_DIR}/cpu{c}/online"))
                    .map_or(true, |v| v != "0")
            })
            .collect(),
    };
    let offline = possible
        .iter()
        .copied()
        .filter(|c| online.binary_search(c).is_err())
        .collect();
    CpuSets {
        possible,
        present,
        online,
        offline,
    }
}

/// CPU numbers of the `cpuN` directories (for kernels or trees without a `possible` file).
fn cpu_dirs(root: &Root) -> Vec<u32> {
    let mut v: Vec<u32> = root
        .list_dir(CPU_DIR)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.strip_prefix("cpu")?.parse().ok())
        .collect();
    v.sort_unstable();
    v
}

/// Intel hybrid core kinds, from the PMU device lists. Empty on every other machine.
pub fn read_hybrid(root: &Root, notes: &mut Notes) -> Vec<(u32, &'static str)> {
    let mut v = Vec::new();
    for (dev, kind) in [("cpu_core", "P-core"), ("cpu_atom", "E-core")] {
        if let Some(cpus) =
            notes.keep_optional(root.read_cpu_list(&format!("/sys/devices/{dev}/cpus")))
        {
            v.extend(cpus.into_iter().map(|c| (c, kind)));
        }
    }
    v
}

/// Reads the topology IDs of every CPU in `sets.possible`.
pub fn read_ids(root: &Root, notes: &mut Notes, sets: &CpuSets) -> Vec<CpuIds> {
    let hybrid = read_hybrid(root, notes);
    sets.possible
        .iter()
        .map(|&cpu| {
            let t = format!("{CPU_DIR}/cpu{cpu}/topology");
            let online = sets.online.binary_search(&cpu).is_ok();
            let mut id = |name: &str| notes.keep_optional(root.read_i64(&format!("{t}/{name}")));
            CpuIds {
                cpu,
                online,
                package_id: id("physical_package_id"),
                cluster_id: id("cluster_id"),
                core_id: id("core_id"),
                capacity: notes
                    .keep_optional(root.read_u64(&format!("{CPU_DIR}/cpu{cpu}/cpu_capacity")))
                    .and_then(|c| u32::try_from(c).ok()),
                hybrid: hybrid.iter().find(|(c, _)| *c == cpu).map(|(_, k)| *k),
            }
        })
        .collect()
}
