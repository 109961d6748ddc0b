//! The machine snapshot taken by the probe. Owned by the probe (`probe::snapshot`).

use serde::{Deserialize, Serialize};

/// Everything the probe knows about the machine at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineInfo {
    pub cpuinfo: crate::cpu::CpuInfo,
    /// Groups of CPUs sharing a core type and a cpufreq policy (big.LITTLE clusters).
    pub clusters: Vec<Cluster>,
    /// The temperature source the monitor uses, with the reason it was chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal_source: Option<ThermalSource>,
}

/// One CPU cluster: the unit sbc-bench pins single-threaded benchmarks to (its first core).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    pub cpus: Vec<u32>,
    /// cpufreq policy number (`policyN`) when cpufreq exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_khz: Option<u64>,
}

/// The chosen CPU/SoC temperature sensor.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThermalSource {
    /// Absolute machine path of the file read (e.g. /sys/class/thermal/thermal_zone0/temp).
    pub path: String,
    /// Zone type or hwmon name ("cpu_thermal", "k10temp Tctl").
    pub name: String,
    /// Why this one was picked (the rule that matched).
    pub why: String,
}
