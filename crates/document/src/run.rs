//! The record of a full assessment run (`boardbench run`, sbc-bench's default run): how it was
//! started, what it changed, every phase with its timestamps, tool output, parsed figures and
//! monitor samples, and the state of the machine before and after.
//!
//! This is the raw material of everything said about a run: the findings engine compares
//! [`RunRecord::before`] with [`RunRecord::after`], looks at the samples of each [`Phase`] and at
//! the kernel messages of the run's window; the log and the HTML report render the same fields.
//! Nothing here is judged — judgements are findings.

use serde::{Deserialize, Serialize};

use crate::machine::{SwapArea, Zram, Zswap};
use crate::measure::{
    clock::ClockReading, membw::MembwResult, memlat::MemlatResult, sha256::Sha256Report,
};
use crate::samples::{MonitorLayout, MonitorSample};

/// Everything a run records beyond the machine snapshot and the flat list of measurements.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunRecord {
    /// "quick", "fast", "sbc-bench" (written "standard" before profiles had sbc-bench's name)
    /// or "extensive"; "thermal", "graph", "env-…" for the other modes.
    pub profile: String,
    /// Per headline figure: was it measured the way sbc-bench measures it? Absent in older
    /// documents, where the profile decides (`quick`: none is).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comparability: Vec<FigureComparability>,
    pub options: RunOptions,
    /// How the idle gate went (absent when it was skipped on purpose, e.g. `--no-idle-gate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_gate: Option<IdleGate>,
    /// Every file boardbench changed for the run (governors, frequency caps), with its original
    /// value and what it held after restoring.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingChange>,
    /// What the monitor columns mean on this machine (for the samples of every phase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monitor: Option<MonitorLayout>,
    /// The phases in the order they ran (skipped ones included, with their reason).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
    /// The machine's state right before the first phase and right after the last one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<StateSnapshot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<StateSnapshot>,
    /// Kernel messages written while the run was going on (only that window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kmsg: Option<KmsgWindow>,
    /// Wall time of the whole run in seconds (idle gate excluded).
    #[serde(default)]
    pub duration_s: f64,
    /// The kernel and its support status on the day of the run (sbc-bench's "Kernel info").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<KernelStatus>,
    /// `boardbench thermal`'s verdict beyond its figures (absent in other runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal: Option<crate::thermal::ThermalVerdict>,
}

/// Whether one headline figure (a Results.md column) compares with sbc-bench's figure.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FigureComparability {
    /// "7zip-multi", "7zip-single", "aes", "memcpy", "memset" or "khs".
    pub figure: String,
    /// The profile that made it.
    pub profile: String,
    pub comparable_with_sbc_bench: bool,
    /// How it was measured, in words ("sbc-bench's invocation", "the 16384-byte cell only …").
    pub how: String,
}

/// `boardbench kernel` in short, as judged on the day of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KernelStatus {
    /// `uname -r`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// Who made it: "distribution kernel", "vendor (BSP) kernel" …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// "Debian", "Rockchip", "Armbian" …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maintainer: Option<String>,
    /// CONFIG_HZ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hz: Option<u32>,
    /// Preemption model ("none", "voluntary", "full", "rt" …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preempt: Option<String>,
    /// "ok", "warning", "critical" or "unknown".
    pub level: String,
    /// The plain-words verdict ("still supported until …").
    pub verdict: String,
    /// The day the verdict was made for (YYYY-MM-DD).
    pub judged_on: String,
    /// The month the built-in series table was last checked against kernel.org.
    pub table_as_of: String,
}

/// How the run was asked for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunOptions {
    /// Stockfish phase requested (`-s`, extensive).
    #[serde(default)]
    pub stockfish: bool,
    /// cpuminer phase requested (`-c`, extensive).
    #[serde(default)]
    pub cpuminer: bool,
    /// No prompts; give up instead of waiting forever (sbc-bench's `MODE=unattended`).
    #[serde(default)]
    pub unattended: bool,
    /// Governors were switched to performance (false with `--no-tune` / `NOTUNING=yes`).
    #[serde(default)]
    pub tune: bool,
    /// `MaxKHz` / `MinKHz`: OPPs outside are skipped, policies capped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_khz: Option<u64>,
    /// "boardbench" or "sbc-bench" (the name it was started under).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub invoked_as: String,
    /// The command line as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// The idle gate: a run starts only on an idle box (as sbc-bench promises, docs/sbc-bench-compat.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IdleGate {
    /// True when the box was idle and the run went on.
    pub passed: bool,
    /// Seconds spent waiting.
    pub waited_s: f64,
    /// Thresholds: the 1-minute load, or the total CPU use (percent of all CPUs) over the window.
    pub load1_below: f64,
    pub cpu_pct_below: f64,
    pub window_s: f64,
    /// 1-minute load when the gate decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load1: Option<f64>,
    /// Average CPU use over the last window (percent of all CPUs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_pct: Option<f64>,
    /// Why it decided as it did ("load 0.04 < 0.10", "gave up after 600 s").
    pub reason: String,
    /// The busiest processes over the last window, busiest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_processes: Vec<ProcessUse>,
}

/// CPU use of one process over a window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProcessUse {
    pub pid: u32,
    /// `comm` (or the first word of the command line).
    pub command: String,
    /// Percent of one CPU over the window (may exceed 100 for multi-threaded processes).
    pub cpu_pct: f64,
}

/// One file changed for the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SettingChange {
    /// Machine path ("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor").
    pub path: String,
    /// What it held before the run.
    pub before: String,
    /// What boardbench wrote.
    pub set: String,
    /// What it held after restoring (read back); `None` when it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// How a phase ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum PhaseStatus {
    #[default]
    Done,
    /// Not run (tool missing, not requested on this profile, cluster offline …): see `reason`.
    Skipped,
    /// Started but gave no result (tool failed, killed, unparsable output): see `reason`.
    Failed,
}

/// Stable phase kinds (the `kind` field of [`Phase`]).
pub mod kind {
    pub const CLOCK: &str = "clock";
    pub const MEMBW: &str = "membw";
    pub const MEMLAT: &str = "memlat";
    pub const OPENSSL: &str = "openssl";
    pub const OPENSSL_PARALLEL: &str = "openssl-parallel";
    pub const SHA256: &str = "sha256";
    pub const SEVENZIP_SINGLE: &str = "7zip-single";
    pub const SEVENZIP_MULTI: &str = "7zip-multi";
    pub const SEVENZIP_CLUSTER: &str = "7zip-cluster";
    pub const STOCKFISH: &str = "stockfish";
    pub const CPUMINER: &str = "cpuminer";
    /// The clock check again, right after the hardest phase while the SoC is hot.
    pub const CLOCK_HOT: &str = "clock-hot";
    /// `graph`: one sweep point (a cluster capped at one OPP: its clock, then the workload).
    pub const GRAPH_POINT: &str = "graph-point";
    /// `graph`: the idle consumption before the sweep.
    pub const GRAPH_IDLE: &str = "graph-idle";
    /// `thermal`: waiting until the SoC cooled to the target temperature (`--target-temp`,
    /// sbc-bench -t C).
    pub const THERMAL_COOL: &str = "thermal-cool";
    /// `thermal`: the sustained all-core load.
    pub const THERMAL_HEAT: &str = "thermal-heat";
    /// `env`: the controlled environment while a third-party suite runs (or until Ctrl-C).
    pub const ENV_WAIT: &str = "env-wait";
}

/// How a phase (or a guide section) a signal cut short, or kept from starting, says so in its
/// `reason`: "interrupted by signal N" ([`interrupted_reason`]). The `interrupted` finding
/// looks for it.
pub const INTERRUPTED_REASON: &str = "interrupted by signal";

/// "interrupted by signal N".
pub fn interrupted_reason(signal: i32) -> String {
    format!("{INTERRUPTED_REASON} {signal}")
}

/// How a phase during which boardbench and its tool were stopped (SIGTSTP: Ctrl-Z) says so in
/// its `reason`; its figures include the pause. The `stopped` finding looks for it.
pub const STOPPED_REASON: &str = "disturbed: stopped by job control (Ctrl-Z)";

/// Whether a signal cut the run short or it was stopped while a phase ran (a phase's reason
/// says [`INTERRUPTED_REASON`] or [`STOPPED_REASON`]): such a run is marked with
/// [`CUT_SHORT_MARK`] wherever it is listed — the summary row, `results list` and `results
/// table`.
pub fn cut_short(phases: &[Phase]) -> bool {
    phases.iter().any(|p| {
        p.reason
            .as_deref()
            .is_some_and(|r| r.contains(INTERRUPTED_REASON) || r.contains(STOPPED_REASON))
    })
}

/// What follows the device name of a run that was [`cut_short`].
pub const CUT_SHORT_MARK: &str = " (interrupted)";

/// One phase of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Phase {
    /// Stable kind, one of [`kind`].
    pub kind: String,
    /// Human title as the log shows it ("7-Zip single-threaded on cpu4 (Cortex-A76)").
    pub title: String,
    /// Index into `machine.clusters` when the phase ran on one cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<usize>,
    /// CPUs the work was pinned to (empty = not pinned).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpus: Vec<u32>,
    /// Threads of the work (1 = single-threaded).
    pub threads: u32,
    pub status: PhaseStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// ISO 8601 with time zone ("2026-11-23T12:14:55.123+01:00"), for matching external power
    /// meters.
    pub started: String,
    pub finished: String,
    /// The same instants in milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    pub finished_unix_ms: u64,
    /// Requested interval of the background monitor during this phase.
    pub monitor_interval_s: f64,
    /// Monitor samples taken during this phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<MonitorSample>,
    /// The external tool runs of this phase (several for repeated runs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_runs: Vec<ToolRun>,
    /// Indexes into the document's `measurements` of the figures this phase produced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measurements: Vec<usize>,
    /// Raw results of the built-in kernels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock: Vec<ClockReading>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub membw: Option<MembwResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memlat: Option<MemlatResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<Sha256Report>,
}

/// One run of an external tool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolRun {
    /// Tool family ("7-Zip", "OpenSSL", "Stockfish", "cpuminer").
    pub tool: String,
    /// Path of the program that ran.
    pub program: String,
    /// The real version (for p7zip's "16.02+really26.02" the 26.02 behind the banner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Whether its scores compare with sbc-bench's database (7-Zip ≤ 16.02 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparable_with_sbc_bench: Option<bool>,
    /// The command line as run.
    pub command: String,
    /// How it ended ("exit 0", "killed by signal 9", "time limit").
    pub end: String,
    /// Standard output and error as printed.
    pub output: String,
    pub wall_s: f64,
}

/// The machine state the findings compare before and after a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StateSnapshot {
    /// ISO 8601 with time zone, and the same in ms since the epoch.
    pub taken: String,
    pub unix_ms: u64,
    pub online_cpus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<PolicyState>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devfreq: Vec<DevfreqState>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swaps: Vec<SwapArea>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zram: Vec<Zram>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zswap: Option<Zswap>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_available_kib: Option<u64>,
    /// `oom_kill` of /proc/vmstat (kernel ≥ 4.13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oom_kills: Option<u64>,
    /// Raspberry Pi firmware `get_throttled` bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi_throttled: Option<u32>,
    /// Raspberry Pi config.txt settings that matter for performance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi_config: Option<RpiConfig>,
    /// x86 thermal_throttle counters per CPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thermal_throttle: Vec<ThermalThrottle>,
    /// powercap (RAPL) zones and their limits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub powercap: Vec<PowercapZone>,
    /// Temperature of the run's thermal source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
}

/// One cpufreq policy's state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PolicyState {
    pub policy: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_min_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_max_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpuinfo_max_khz: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cur_khz: Option<u64>,
    /// `stats/time_in_state` (empty when the kernel has no cpufreq statistics).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub time_in_state: Vec<OppTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_trans: Option<u64>,
}

/// Time spent at one OPP since boot (or since the statistics were reset).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OppTime {
    pub khz: u64,
    /// Seconds (time_in_state counts in 10 ms units).
    pub seconds: f64,
}

/// One devfreq device (DRAM controller, GPU, NPU).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DevfreqState {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cur_hz: Option<u64>,
}

/// Raspberry Pi config.txt (the settings relevant for performance).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RpiConfig {
    /// Where it was read (/boot/firmware/config.txt or /boot/config.txt).
    pub path: String,
    /// `key=value` settings in file order (comments and section filters dropped).
    pub settings: Vec<(String, String)>,
}

/// x86 `/sys/devices/system/cpu/cpuN/thermal_throttle/*` counters of one CPU.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThermalThrottle {
    pub cpu: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_throttle_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_throttle_count: Option<u64>,
}

/// One powercap zone (intel-rapl:0 "package-0" …).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PowercapZone {
    /// Machine path of the zone directory.
    pub path: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_uj: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<PowercapConstraint>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PowercapConstraint {
    /// "long_term", "short_term", "peak_power".
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_limit_uw: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_window_us: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_power_uw: Option<u64>,
}

/// The kernel messages of the run's window.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KmsgWindow {
    /// "/dev/kmsg", "dmesg" or "none".
    pub source: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<KmsgLine>,
    /// Why nothing could be read, when so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KmsgLine {
    /// Seconds since boot (the kernel's timestamp).
    pub seconds: f64,
    /// syslog priority 0–7, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    pub text: String,
}

impl RunRecord {
    /// Phases of one kind, in run order.
    pub fn phases_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Phase> + 'a {
        self.phases.iter().filter(move |p| p.kind == kind)
    }
}
