//! x86 evidence of throttling that cpufreq does not show: the per-CPU `thermal_throttle`
//! counters (Intel: how often PROCHOT throttled a core or the package) and the powercap zones
//! (RAPL package/core/psys limits that cap the clock under sustained load, on Intel and AMD;
//! also the DTPM zones of some arm64 SoCs).

use document::run::{PowercapConstraint, PowercapZone, ThermalThrottle};

use crate::topology::CPU_DIR;
use crate::{Notes, Root};

pub const POWERCAP_DIR: &str = "/sys/class/powercap";

/// `cpuN/thermal_throttle/{core,package}_throttle_count` of every CPU that has them, in CPU
/// order (offline CPUs lose the directory, so they are simply not listed).
pub fn read_thermal_throttle(root: &Root, notes: &mut Notes) -> Vec<ThermalThrottle> {
    root.list_dir(CPU_DIR)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.strip_prefix("cpu")?.parse::<u32>().ok())
        .filter_map(|cpu| {
            let d = format!("{CPU_DIR}/cpu{cpu}/thermal_throttle");
            if !root.exists(&d) {
                return None;
            }
            let t = ThermalThrottle {
                cpu,
                core_throttle_count: notes
                    .keep_optional(root.read_u64(&format!("{d}/core_throttle_count"))),
                package_throttle_count: notes
                    .keep_optional(root.read_u64(&format!("{d}/package_throttle_count"))),
            };
            (t.core_throttle_count.is_some() || t.package_throttle_count.is_some()).then_some(t)
        })
        .collect()
}

/// Every powercap zone (`intel-rapl:0`, `intel-rapl:0:0`, `amd-rapl:0` …) with its limits.
/// Control-type directories (`intel-rapl` itself) have no `name` and are not zones.
pub fn read_powercap(root: &Root, notes: &mut Notes) -> Vec<PowercapZone> {
    root.list_dir(POWERCAP_DIR)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|entry| {
            let d = format!("{POWERCAP_DIR}/{entry}");
            let name = notes.keep_optional(root.read_value(&format!("{d}/name")))?;
            let enabled = notes
                .keep_optional(root.read_value(&format!("{d}/enabled")))
                .and_then(|v| match v.as_str() {
                    "1" => Some(true),
                    "0" => Some(false),
                    _ => None,
                });
            // energy_uj is root-only since Linux 5.10 (the PLATYPUS side channel): a
            // "permission denied" note says so.
            let energy_uj = notes.keep_optional(root.read_u64(&format!("{d}/energy_uj")));
            let constraints = constraint_numbers(root, &d)
                .into_iter()
                .map(|n| {
                    let f = |what: &str| format!("{d}/constraint_{n}_{what}");
                    PowercapConstraint {
                        name: notes
                            .keep_optional(root.read_value(&f("name")))
                            .unwrap_or_else(|| format!("constraint_{n}")),
                        power_limit_uw: notes.keep_optional(root.read_u64(&f("power_limit_uw"))),
                        time_window_us: notes.keep_optional(root.read_u64(&f("time_window_us"))),
                        max_power_uw: notes.keep_optional(root.read_u64(&f("max_power_uw"))),
                    }
                })
                .collect();
            Some(PowercapZone {
                path: d,
                name,
                enabled,
                energy_uj,
                constraints,
            })
        })
        .collect()
}

/// The N of every `constraint_N_*` file of a zone, ascending (a zone may have 1 to 3).
fn constraint_numbers(root: &Root, zone: &str) -> Vec<u32> {
    let mut v: Vec<u32> = root
        .list_dir(zone)
        .unwrap_or_default()
        .iter()
        .filter_map(|f| {
            let rest = f.strip_prefix("constraint_")?;
            let (n, _) = rest.split_once('_')?;
            n.parse().ok()
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    // A corrupted tree cannot make a zone list thousands of constraints.
    v.truncate(16);
    v
}
