//! Samples of the background monitor (sbc-bench's `-m` lines). Filled by `probe::sampler`.
//!
//! A run records one [`MonitorLayout`] (what the columns mean on this machine) and a list of
//! [`MonitorSample`]s; the live view (`boardbench monitor`) and the text log render the same
//! values. Values that could not be read are `None`, never a made-up zero.

use serde::{Deserialize, Serialize};

/// Which clock columns the monitor shows, decided once from the machine (docs/sbc-bench-compat.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ClockColumns {
    /// No cpufreq: sbc-bench's "CPU n/a".
    None,
    /// One cluster: "CPU".
    Single,
    /// Two (or four) clusters: "big.LITTLE", big cluster first.
    BigLittle,
    /// Three or more clusters: "cpu0/cpu4/cpu6", at most five columns.
    PerCluster,
    /// Raspberry Pi: the kernel's clock ("fake") next to the firmware's ("real").
    FakeReal,
}

/// One clock source of the monitor: the first CPU of a cluster and where its clock is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MonitoredCluster {
    /// First CPU of the cluster (the name of its column: "cpu4").
    pub first_cpu: u32,
    /// cpufreq policy number, when the cluster has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    /// Highest cpufreq clock (orders big before little).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_khz: Option<u64>,
}

/// What the monitor's columns mean on this machine; recorded once per run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MonitorLayout {
    pub columns: ClockColumns,
    /// The clusters whose clocks each sample carries, in sample order ([`MonitorSample::clocks_mhz`]).
    pub clusters: Vec<MonitoredCluster>,
    /// Indexes into `clusters` in the order the clock column shows them (big first for
    /// big.LITTLE; at most five).
    pub display_order: Vec<usize>,
    /// Path of the temperature sensor, when one was chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal_path: Option<String>,
    /// True when samples carry the Raspberry Pi firmware readings ([`RpiReadings`]).
    #[serde(default)]
    pub raspberry_pi: bool,
}

/// Shares of CPU time over one interval, in percent of all CPU time of all CPUs (0–100).
///
/// From the deltas of the aggregate `cpu` line of /proc/stat, with
/// `total = user + nice + system + idle + iowait + irq + softirq + steal` (guest and guest_nice
/// are already part of user and nice, so they are not added again):
/// `cpu = (total − idle) / total` (iowait and steal count as busy, as in sbc-bench),
/// `sys = system`, `usr = user`, `nice = nice`, `io = iowait`, `irq = irq + softirq`,
/// `steal = steal`, each over `total`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuStates {
    pub cpu: f64,
    pub sys: f64,
    pub usr: f64,
    pub nice: f64,
    pub io: f64,
    pub irq: f64,
    /// Time a hypervisor gave to others (not shown by sbc-bench; telling on shared VMs).
    pub steal: f64,
}

/// Raspberry Pi firmware readings (vcgencmd) of one sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RpiReadings {
    /// `vcgencmd measure_clock arm` in MHz: the clock the firmware really runs ("real").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm_mhz: Option<u32>,
    /// `vcgencmd measure_volts core` in volts ("VCore").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_volts: Option<f64>,
}

/// One line of the monitor: the state at the end of an interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MonitorSample {
    /// Wall-clock time of the reading, milliseconds since the Unix epoch (UTC).
    pub unix_ms: u64,
    /// Length of the interval the CPU states cover, in seconds (measured, not the requested one).
    pub interval_s: f64,
    /// Current clock of each monitored cluster in MHz, in [`MonitorLayout::clusters`] order.
    pub clocks_mhz: Vec<Option<u32>>,
    /// 1-minute load average (first field of /proc/loadavg).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load1: Option<f64>,
    /// CPU states over the interval; `None` when /proc/stat was unreadable or did not advance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuStates>,
    /// SoC/CPU temperature in °C.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// Firmware readings on a Raspberry Pi.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi: Option<RpiReadings>,
}
