//! RAPL energy counters through powercap (Documentation/power/powercap/powercap.rst):
//! `/sys/class/powercap/intel-rapl:<N>/energy_uj` counts microjoules and wraps to 0 after
//! `max_energy_range_uj`. Power is the difference of two readings over the time between them.
//!
//! Only top-level zones count (`intel-rapl:0`, not its `core`/`uncore`/`dram` subzones
//! `intel-rapl:0:N`, which are parts of the package). AMD CPUs appear under the same
//! `intel-rapl` control type (or `amd-rapl` on some kernels). `intel-rapl-mmio:*` repeats the
//! package zone through another interface and would count it twice, so it is skipped. `psys`
//! (the whole platform, where the firmware supports it) overlaps the packages, so it is a
//! source of its own.
//!
//! Reading `energy_uj` needs root on kernels ≥ 5.10 (a side-channel fix); then the source is
//! absent for a normal user.

use probe::Root;

use crate::{Kind, PowerSource, Reading};

pub const POWERCAP_DIR: &str = "/sys/class/powercap";

/// One energy counter and the running total read from it so far.
#[derive(Debug, Clone)]
struct Zone {
    dir: String,
    max_range_uj: Option<u64>,
    last_raw: Option<u64>,
    total_uj: u128,
}

/// The sum of one or more RAPL zones.
#[derive(Debug, Clone)]
pub struct RaplSource {
    root: Root,
    /// "package-0 + package-1" or "psys".
    pub label: String,
    zones: Vec<Zone>,
}

/// Microjoules between two readings of a counter that wraps to 0 after `max_range_uj`. A lower
/// second reading is one wrap (readings are seconds apart; a wrap takes minutes even at
/// hundreds of watts). Without a known range the counter is taken to have restarted at 0.
pub fn energy_delta_uj(before: u64, after: u64, max_range_uj: Option<u64>) -> u64 {
    if after >= before {
        return after - before;
    }
    match max_range_uj {
        Some(max) if max >= before => max - before + after,
        _ => after,
    }
}

/// Whether a powercap entry is a top-level RAPL zone ("intel-rapl:0", "amd-rapl:1").
fn is_top_level(entry: &str) -> bool {
    ["intel-rapl:", "amd-rapl:"].iter().any(|p| {
        entry
            .strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// The package source (all package zones summed) and a psys source, when present.
pub fn discover(root: &Root) -> Vec<RaplSource> {
    let Ok(entries) = root.list_dir(POWERCAP_DIR) else {
        return Vec::new();
    };
    let mut packages = Vec::new();
    let mut psys = Vec::new();
    for e in entries.iter().filter(|e| is_top_level(e)) {
        let dir = format!("{POWERCAP_DIR}/{e}");
        if !root.exists(&format!("{dir}/energy_uj")) {
            continue;
        }
        let name = root
            .read_value(&format!("{dir}/name"))
            .unwrap_or_else(|_| e.clone());
        let zone = Zone {
            max_range_uj: root.read_u64(&format!("{dir}/max_energy_range_uj")).ok(),
            dir,
            last_raw: None,
            total_uj: 0,
        };
        if name == "psys" {
            psys.push((name, zone));
        } else {
            packages.push((name, zone));
        }
    }
    [packages, psys]
        .into_iter()
        .filter(|z| !z.is_empty())
        .map(|z| RaplSource {
            root: root.clone(),
            label: z
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(" + "),
            zones: z.into_iter().map(|(_, z)| z).collect(),
        })
        .collect()
}

impl PowerSource for RaplSource {
    fn kind(&self) -> Kind {
        Kind::Rapl
    }

    fn describe(&self) -> String {
        format!("RAPL {}", self.label)
    }

    fn read(&mut self) -> Result<Reading, String> {
        let mut total = 0u128;
        for z in &mut self.zones {
            let raw = self
                .root
                .read_u64(&format!("{}/energy_uj", z.dir))
                .map_err(|a| a.to_string())?;
            if let Some(last) = z.last_raw {
                z.total_uj += u128::from(energy_delta_uj(last, raw, z.max_range_uj));
            }
            z.last_raw = Some(raw);
            total += z.total_uj;
        }
        Ok(Reading::Joules(total as f64 / 1e6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_wrap_at_the_range() {
        assert_eq!(energy_delta_uj(100, 250, Some(1000)), 150);
        assert_eq!(energy_delta_uj(900, 50, Some(1000)), 150);
        assert_eq!(energy_delta_uj(900, 50, None), 50);
        assert_eq!(energy_delta_uj(5000, 50, Some(1000)), 50);
    }

    #[test]
    fn only_top_level_zones() {
        assert!(is_top_level("intel-rapl:0"));
        assert!(is_top_level("amd-rapl:12"));
        assert!(!is_top_level("intel-rapl:0:1"));
        assert!(!is_top_level("intel-rapl-mmio:0"));
        assert!(!is_top_level("intel-rapl"));
        assert!(!is_top_level("intel-rapl:"));
    }
}
