//! The machine snapshot taken by the probe. Owned by the probe (`probe::snapshot`).
//!
//! Everything here is data as read (or derived by a documented rule in the probe); values that
//! could not be read are `None`/empty and the reason is in [`MachineInfo::notes`].

use serde::{Deserialize, Serialize};

/// Everything the probe knows about the machine at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MachineInfo {
    pub cpuinfo: crate::cpu::CpuInfo,
    /// Groups of CPUs sharing a core type and a cpufreq policy (big.LITTLE clusters).
    pub clusters: Vec<Cluster>,
    /// The temperature source the monitor uses, with the reason it was chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal_source: Option<ThermalSource>,
    /// Which CPUs exist and which are online.
    #[serde(default)]
    pub cpus: CpuSets,
    /// One entry per CPU the kernel knows (possible CPUs), online or not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topology: Vec<CpuTopology>,
    /// Every cpufreq policy (`policy0` … `policy19` …), in numeric order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<Policy>,
    /// Global cpufreq switches (boost, intel_pstate status).
    #[serde(default)]
    pub cpufreq: CpufreqGlobal,
    /// devfreq devices (DRAM controller, GPU, NPU) with their governors: sbc-bench's "DMC gov".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devfreq: Vec<Devfreq>,
    /// Every thermal zone and hwmon temperature found, ranked (best first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thermal_sensors: Vec<ThermalSensor>,
    #[serde(default)]
    pub memory: Memory,
    #[serde(default)]
    pub identity: Identity,
    /// Raspberry Pi firmware readings (only when the device tree says Raspberry Pi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi: Option<RpiFirmware>,
    /// Why values are absent: files that were missing where expected, empty, garbage, unreadable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// One CPU cluster: the unit sbc-bench pins single-threaded benchmarks to (its first core).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cluster {
    /// All CPUs of the cluster, online or not (see `offline_cpus`).
    pub cpus: Vec<u32>,
    /// cpufreq policy number (`policyN`) when cpufreq exists. With per-CPU policies (x86,
    /// many servers) the policy of the cluster's first CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    /// Core name ("Cortex-A76"; the model name on x86).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_khz: Option<u64>,
    /// The nominal clock the device tree states for the cluster's first CPU, in kHz: the
    /// highest usable OPP of its `operating-points-v2` table (or of `operating-points`), else
    /// its `clock-frequency` (`probe::devicetree`). Where cpufreq runs, `max_khz` is the one
    /// to state; this is the clock of a board without cpufreq.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt_max_khz: Option<u64>,
    /// Where `dt_max_khz` was read: "operating-points-v2 /cpus/opp-table-0", "clock-frequency
    /// of /cpus/cpu@0".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt_clock_from: Option<String>,
    /// ARM stepping ("r4p0").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepping: Option<String>,
    /// Intel hybrid core kind ("P-core" from /sys/devices/cpu_core, "E-core" from cpu_atom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hybrid: Option<String>,
    /// The CPUs of `cpus` that are offline (sbc-bench #138: a policy whose CPUs are all
    /// unplugged still exists in sysfs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offline_cpus: Vec<u32>,
    /// `cpu_capacity` of the first CPU (the scheduler's relative performance, 1024 = biggest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// Caches of the cluster's first online CPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caches: Vec<Cache>,
}

impl Cluster {
    /// The CPUs of the cluster that are online (where work can be pinned).
    pub fn online_cpus(&self) -> Vec<u32> {
        let offline: std::collections::BTreeSet<u32> = self.offline_cpus.iter().copied().collect();
        self.cpus
            .iter()
            .copied()
            .filter(|c| !offline.contains(c))
            .collect()
    }

    /// "Cortex-A76 / r4p0", "Intel Core i7-1260P / P-core": the label of the topology table.
    pub fn core_label(&self) -> Option<String> {
        let name = self.core_name.as_deref()?;
        Some(match (&self.stepping, &self.hybrid) {
            (Some(s), _) => format!("{name} / {s}"),
            (None, Some(h)) => format!("{name} / {h}"),
            (None, None) => name.to_string(),
        })
    }
}

/// The chosen CPU/SoC temperature sensor.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThermalSource {
    /// Absolute machine path of the file read (e.g. /sys/class/thermal/thermal_zone0/temp).
    pub path: String,
    /// Zone type or hwmon name ("cpu_thermal", "k10temp Tctl").
    pub name: String,
    /// Why this one was picked (the rule that matched).
    pub why: String,
}

/// CPU lists of /sys/devices/system/cpu.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuSets {
    pub possible: Vec<u32>,
    pub present: Vec<u32>,
    pub online: Vec<u32>,
    pub offline: Vec<u32>,
}

/// Where one CPU sits: its cluster, policy and the topology IDs the kernel reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuTopology {
    pub cpu: u32,
    pub online: bool,
    /// Index into [`MachineInfo::clusters`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_id: Option<i64>,
    /// topology/cluster_id (newer kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// "Cortex-A55 / r2p0" (from /proc/cpuinfo; offline CPUs are not listed there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_label: Option<String>,
    /// "P-core" / "E-core" on Intel hybrid CPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hybrid: Option<String>,
}

/// Where a policy's list of operating points came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OppSource {
    /// scaling_available_frequencies
    Available,
    /// stats/time_in_state (drivers that do not list their table)
    TimeInState,
    /// only cpuinfo_min_freq and cpuinfo_max_freq were known
    MinMax,
    /// nothing
    #[default]
    None,
}

/// One cpufreq policy (`/sys/devices/system/cpu/cpufreq/policyN`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Policy {
    pub policy: u32,
    /// related_cpus: every CPU the policy covers, online or not.
    pub related_cpus: Vec<u32>,
    /// affected_cpus: the online ones.
    #[serde(default)]
    pub affected_cpus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpuinfo_min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpuinfo_max_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_max_khz: Option<u64>,
    /// Operating points in kHz, ascending (see `opp_source`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frequencies_khz: Vec<u64>,
    #[serde(default)]
    pub opp_source: OppSource,
    /// scaling_boost_frequencies (OPPs above the normal maximum), ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boost_khz: Vec<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub available_governors: Vec<String>,
    /// scaling_driver: cpufreq-dt, intel_pstate, amd-pstate, acpi-cpufreq, scmi …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
}

/// One devfreq device (/sys/class/devfreq/NAME).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Devfreq {
    /// "dmc", "fb000000.gpu", "ff9a0000.gpu".
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub available_governors: Vec<String>,
    /// Hz, as devfreq reports them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_hz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cur_hz: Option<u64>,
    /// `available_frequencies` in Hz (the driver's OPPs; `max_hz` may be a lowered limit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub available_hz: Vec<u64>,
    /// The `compatible` strings of the device's device-tree node (`device/of_node`):
    /// "rockchip,rk3588-dmc", "allwinner,sun50i-a64-mbus" — which driver, so what its
    /// frequency means.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compatible: Vec<String>,
}

impl Devfreq {
    /// The DRAM's data rate in MT/s where this device is a DRAM controller whose frequency's
    /// meaning is known, with what it was derived from. The highest of
    /// `available_frequencies` (else `max_freq`): the rate the board's DRAM is set up to run.
    ///
    /// What the drivers expose (read in their sources):
    /// - Rockchip's `dmc` (mainline rk3399_dmc, the vendor kernels' rockchip_dmc:
    ///   `rockchip,*-dmc`, device `dmc`) and Allwinner's vendor dmc drivers
    ///   (`allwinner,*-dmc`, devices `*.dmc`, `*.dmcfreq`): the DRAM clock (`clk_get_rate` of
    ///   the DDR clock; the A523 vendor driver's load formula counts two transfers per clock),
    ///   so the data rate of DDR is **twice** the frequency (RK3588's 2112 MHz =
    ///   LPDDR4x-4224);
    /// - Allwinner's mainline MBUS driver (`allwinner,*-mbus`, sun8i-a33-mbus.c, device
    ///   `*.dram-controller`): the frequency is already the DDR transfer rate (the driver
    ///   divides it by 2 for the DRAM's clock), so the data rate **is** the frequency;
    /// - anything else (i.MX's `imx8m-ddrc` counts the controller's clock, a quarter of the
    ///   DRAM's, …): no rate is claimed.
    pub fn dram_data_rate_mts(&self) -> Option<(u64, String)> {
        let hz = self.available_hz.iter().copied().max().or(self.max_hz)?;
        let name = self.name.to_lowercase();
        let compat = |vendor: &str, suffix: &str| {
            self.compatible
                .iter()
                .any(|c| c.starts_with(vendor) && c.ends_with(suffix))
        };
        let mhz = hz as f64 / 1e6;
        if compat("allwinner,", "-mbus") || name.ends_with(".dram-controller") {
            return Some((
                (mhz.round()) as u64,
                format!("devfreq {}: {mhz:.0} MHz, the DDR transfer rate", self.name),
            ));
        }
        let dmc = compat("rockchip,", "-dmc")
            || compat("allwinner,", "-dmc")
            || name == "dmc"
            || name.ends_with(".dmc")
            || name.ends_with(".dmcfreq");
        dmc.then(|| {
            (
                (2.0 * mhz).round() as u64,
                format!("devfreq {}: 2 × {mhz:.0} MHz DRAM clock", self.name),
            )
        })
    }
}

/// Machine-wide cpufreq switches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpufreqGlobal {
    /// /sys/devices/system/cpu/cpufreq/boost (acpi-cpufreq, some arm64 drivers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost: Option<bool>,
    /// /sys/devices/system/cpu/intel_pstate/status ("active", "passive", "off").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intel_pstate_status: Option<String>,
    /// /sys/devices/system/cpu/intel_pstate/no_turbo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intel_no_turbo: Option<bool>,
    /// /sys/devices/system/cpu/amd_pstate/status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amd_pstate_status: Option<String>,
}

/// One CPU cache (`cpuN/cache/indexM`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cache {
    pub level: u32,
    /// "Data", "Instruction", "Unified".
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_kib: Option<u64>,
    /// shared_cpu_list: the CPUs sharing this cache.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_cpus: Vec<u32>,
}

/// Thermal zone or hwmon channel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SensorKind {
    #[default]
    Zone,
    Hwmon,
}

/// One temperature sensor found, with the rank the selection rule gave it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThermalSensor {
    /// Absolute machine path of the value file.
    pub path: String,
    pub kind: SensorKind,
    /// Zone `type` or hwmon `name`.
    pub name: String,
    /// hwmon `tempN_label` ("Tctl", "Package id 0").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Reading at snapshot time, °C.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// Rank tier of the selection rule (1 = best); `None` = never chosen automatically.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<u8>,
    /// The rule that gave the tier, or why the sensor is not eligible.
    pub why: String,
}

/// Memory and swap.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Memory {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_total_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_free_kib: Option<u64>,
    /// Active swap areas from /proc/swaps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swaps: Vec<SwapArea>,
    /// zram devices (/sys/block/zram*), used as swap or not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zram: Vec<Zram>,
    /// zswap settings, when the kernel has zswap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zswap: Option<Zswap>,
    /// The DRAM devices, where the firmware or the kernel states them: the SMBIOS memory
    /// devices (`/sys/firmware/dmi/entries/17-*/raw`, what `dmidecode -t 17` decodes; root
    /// only), EDAC's DIMMs (`/sys/devices/system/edac/mc/mc*/dimm*`) and the device tree's
    /// JEDEC memory nodes (`jedec,lpddr4` …: the type). Most boards have none of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dram: Vec<DramDevice>,
}

/// One DRAM device as SMBIOS or EDAC states it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DramDevice {
    /// "smbios", "edac" or "devicetree" (a JEDEC memory node: the type only).
    pub source: String,
    /// SMBIOS's device locator or EDAC's DIMM label (else its sysfs name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// "DDR4", "LPDDR4" (SMBIOS's type), "Unbuffered-DDR4" (EDAC's words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_mib: Option<u64>,
    /// The device's rated speed in MT/s (SMBIOS "Speed").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mts: Option<u32>,
    /// The speed it is configured to run at in MT/s (SMBIOS "Configured Memory Speed"): the
    /// data rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configured_mts: Option<u32>,
}

/// What backs a swap area.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SwapKind {
    Zram,
    File,
    Partition,
    #[default]
    Unknown,
}

/// One line of /proc/swaps.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwapArea {
    pub path: String,
    pub kind: SwapKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_kib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
}

/// One zram device.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Zram {
    /// "zram0".
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disksize_bytes: Option<u64>,
    /// The selected algorithm (the bracketed one of comp_algorithm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
    /// mm_stat orig_data_size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orig_data_bytes: Option<u64>,
    /// mm_stat compr_data_size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compr_data_bytes: Option<u64>,
    /// mm_stat mem_used_total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_used_bytes: Option<u64>,
}

/// /sys/module/zswap/parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Zswap {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compressor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zpool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pool_percent: Option<u64>,
}

/// Who and what the machine is: kernel, distribution, userland, board, virtualisation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Identity {
    #[serde(default)]
    pub kernel: Kernel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distro: Option<Distro>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub userland: Option<Userland>,
    /// `None` = no sign of a hypervisor or container was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtualization: Option<Virtualization>,
    #[serde(default)]
    pub dmi: Dmi,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_tree: Option<DeviceTree>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soc: Option<SocGuess>,
}

/// uname fields, read through the root.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Kernel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ostype: Option<String>,
    /// `uname -r`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// `uname -v`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `uname -m` ("aarch64", "x86_64", "armv7l").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    /// Where `arch` came from: "/proc/sys/kernel/arch", "uname", "cpuinfo".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch_source: Option<String>,
}

/// os-release.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Distro {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pretty_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_codename: Option<String>,
    /// The file read (/etc/os-release or /usr/lib/os-release).
    pub source: String,
}

/// The userland's architecture, from the ELF header of a system binary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Userland {
    /// Debian-style name: arm64, armhf, armel, amd64, i386, riscv64, loongarch64 …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    /// 32 or 64 (ELF class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<u32>,
    /// The binary whose header was read (/bin/sh, /usr/bin/env).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// /var/lib/dpkg/arch lines (architectures dpkg was configured for), when present.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dpkg_architectures: Vec<String>,
    /// A 32-bit userland on a 64-bit kernel.
    #[serde(default)]
    pub mixed: bool,
}

/// A hypervisor or container, with the evidence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Virtualization {
    /// "kvm", "qemu", "vmware", "hyperv", "xen", "amazon", "gunyah", "container", or "vm" (a hypervisor of unknown kind) …
    pub kind: String,
    /// The observations that led to it ("cpuinfo flag hypervisor", "DMI sys_vendor QEMU").
    pub evidence: Vec<String>,
    /// The container runtime when running in one ("docker", "podman", "lxc"), also inside a VM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
}

/// /sys/class/dmi/id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Dmi {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bios_vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bios_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bios_date: Option<String>,
}

/// The device tree's model and compatible strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeviceTree {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compatible: Vec<String>,
}

/// The probe's SoC guess and its reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SocGuess {
    pub name: String,
    pub why: String,
}

/// Raspberry Pi firmware (VideoCore) readings via vcgencmd.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RpiFirmware {
    /// `vcgencmd measure_clock arm`, Hz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm_clock_hz: Option<u64>,
    /// `vcgencmd measure_volts core`, V.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_volts: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttled: Option<Throttled>,
}

/// `vcgencmd get_throttled`, decoded. Bits 0–3 are the state now, bits 16–19 whether it
/// happened since boot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Throttled {
    pub raw: u32,
    pub under_voltage_now: bool,
    pub arm_freq_capped_now: bool,
    pub throttled_now: bool,
    pub soft_temp_limit_now: bool,
    pub under_voltage_occurred: bool,
    pub arm_freq_capped_occurred: bool,
    pub throttled_occurred: bool,
    pub soft_temp_limit_occurred: bool,
}

/// Why a value is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Note {
    pub path: String,
    pub reason: String,
}
