//! What an imported sbc-bench log contributes (its headline numbers, version, raw sections).
//!
//! Everything here is what the log *says*, parsed but not judged: the `sbcimport` crate fills it,
//! and its `headline` is derived by sbc-bench's own rules so imported and native runs can be
//! compared. Fields are optional because logs of different eras carry different sections.

use serde::{Deserialize, Serialize};

/// An sbc-bench log as imported. Owned by the `sbcimport` crate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ImportedLog {
    /// File name the log was read from.
    pub source: String,
    /// sha256 of the log file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// "v0.9.72"; `None` for the logs before v0.4 (no header line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sbc_bench_version: Option<String>,
    /// `manual-pre-v0.8.4`, `auto-v0.8.4-v0.9.3` or `auto-v0.9.4+` (how the headline was made).
    pub era: String,
    /// The first line as written (`sbc-bench v0.9.72 <device> (<date>)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Device name from the header line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// Date from the header line, as written (RFC 2822).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Mode words in the header (`extensive`, `review`, `unattended` …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<String>,
    /// `Description:` of lsb_release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distro: Option<String>,
    /// `uname -r` from the iostat header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_release: Option<String>,
    /// Kernel machine from the iostat header (`aarch64`, `armv7l`, `x86_64` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_machine: Option<String>,
    /// Userland architecture in Debian naming (`arm64`, `armhf`, `amd64` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    /// Number of CPUs from the iostat header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_count: Option<u32>,
    /// The `SoC guess:` line (newer logs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soc_guess: Option<String>,
    /// Distinct core types in the order the log names them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core_types: Vec<String>,
    /// Where `core_types` came from (topology table, benchmark headers, lscpu, device name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_types_source: Option<String>,
    /// Clock check blocks ("Checking cpufreq OPP …" and the re-check under load).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clock_checks: Vec<ClockCheck>,
    /// One tinymembench run per cluster, lowest cluster first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory: Vec<MemoryRun>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sevenzip: Option<SevenZip>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openssl: Option<OpenSsl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpuminer: Option<Cpuminer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stockfish: Option<Stockfish>,
    /// "System health while running X:" tables (and the "System health now" snapshot).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub monitor: Vec<MonitorTable>,
    /// "Throttling statistics" tables, one per cluster.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub throttling: Vec<ThrottlingTable>,
    /// swap before and after the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<SwapInfo>,
    /// "dmesg output while running the benchmarks:" lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kmsg: Vec<String>,
    /// The "Results validation:" bullets (v0.9.x), as written; in the logs before that block
    /// existed, sbc-bench's own "Throttling occured." verdict line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation: Vec<String>,
    /// A Raspberry Pi log's "ThreadX configuration (<path>):" block: config.txt as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi_config: Option<RpiConfigText>,
    /// The firmware's `get_throttled` bits as the log prints them ("0100000000000000000": the
    /// highest bit first), from "Querying ThreadX on RPi …" or throttling_info.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi_throttled: Option<String>,
    /// sbc-bench's own summary line (last line of the log, since v0.8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_line: Option<SummaryLine>,
    /// The six headline numbers, derived from the log by sbc-bench's rules of its version.
    pub headline: Headline,
    /// true when the log ends before sbc-bench's own end (its summary row, or the system
    /// information after the benchmarks): a cut log. Its figures come only from finished blocks.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// Sections that were missing or cut off (for a partial log: where it stops and which
    /// figures are missing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// config.txt as a Raspberry Pi log shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RpiConfigText {
    /// "/boot/config.txt", "/boot/firmware/config.txt".
    pub path: String,
    /// Its lines as written (`key=value`, `[pi4]` sections …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
}

/// One "Checking cpufreq OPP" block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockCheck {
    /// The block's heading after "Checking cpufreq OPP" (e.g. "for cpu0-cpu3 (Cortex-A53)").
    pub cluster: String,
    /// true for the re-check at the end of the run, under full load.
    #[serde(default)]
    pub under_load: bool,
    pub rows: Vec<ClockRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockRow {
    /// The cpufreq OPP in MHz; `None` without cpufreq support.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opp_mhz: Option<u32>,
    /// The measured clock in MHz (the headline figure of the row).
    pub measured_mhz: f64,
}

/// tinymembench figures of one cluster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryRun {
    /// Section heading ("cpu4 (Cortex-A72)", "a big core").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub libc_memcpy_mb_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub libc_memset_mb_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_memcpy_mb_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_memset_mb_s: Option<f64>,
}

/// The 7-Zip benchmark runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SevenZip {
    /// "16.02", "23.01" …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Single-threaded runs (one per cluster).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub single: Vec<SevenZipRun>,
    /// Multi-threaded runs (the `Tot:` lines before `Total:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub multi: Vec<SevenZipRun>,
    /// The `Total: a,b,c` line (the ratings sbc-bench averaged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SevenZipRun {
    /// Section heading ("cpu4 (Cortex-A72)").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// The total rating in MIPS (4th column of `Tot:`).
    pub rating: u64,
}

/// The OpenSSL speed table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpenSsl {
    /// The version line as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `twice_on_cluster0`, `each_cluster` or `None` (older logs print neither).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Block sizes of the columns (16 … 16384).
    pub sizes: Vec<u32>,
    pub rows: Vec<OpenSslRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpenSslRow {
    pub cipher: String,
    /// Throughput per block size in 1000 bytes/s (the `k` figures).
    pub values_k: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_type: Option<String>,
    /// extensive mode's "(fully parallel)" rows.
    #[serde(default)]
    pub fully_parallel: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cpuminer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The `[date] Total: x kH/s` samples in log order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples_khs: Vec<f64>,
    /// The `Total Scores:` list (distinct samples, sorted descending by sbc-bench).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub total_scores: Vec<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Stockfish {
    /// The heading ("Executing Stockfish 15 using … 3 times in a row:").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// `Total Scores (<net>):` in nodes/second.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub total_scores: Vec<f64>,
}

/// One "System health while running X:" table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MonitorTable {
    /// "tinymembench", "7-zip multi core benchmark", "now" (the snapshot under load) …
    pub phase: String,
    /// Column names of the header line.
    pub columns: Vec<String>,
    pub rows: Vec<MonitorRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MonitorRow {
    /// "10:10:25" as written.
    pub time: String,
    /// Clock cell as written ("2208/2016MHz", "1800 MHz").
    pub clock: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sys_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usr_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nice_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irq_pct: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// Anything after the temperature (voltage, power) as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
}

/// Time spent on each cpufreq OPP of one cluster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThrottlingTable {
    /// The heading's tail ("for CPUs 0-3 (Cortex-A53)"), empty for one cluster.
    pub cluster: String,
    pub rows: Vec<OppTime>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OppTime {
    pub mhz: u32,
    pub seconds: f64,
}

/// Swap as `swapon -s` / `free` showed it before and after the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwapInfo {
    /// `Swap:` line of `free` and the swapon lines, before the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// Sum of the swapon `Used` column (KiB) before the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_kib_before: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_kib_after: Option<u64>,
}

/// sbc-bench's summary line, parsed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SummaryLine {
    pub raw: String,
    pub device: String,
    pub clock: String,
    pub kernel: String,
    pub distro: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zip_multi: Option<u64>,
    /// 7-zip single (v0.9.9 on); `None` when the column held AES-128.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zip_single: Option<u64>,
    /// AES-128 16-byte figure (the column before v0.9.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aes128: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memcpy: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub khs: Option<f64>,
    /// Upload URL cell, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

// One struct for both forms (plain comment: the doc line below is the schema's description):
// `Headline` (= `Headline<u64>`) holds the cells as Results.md prints them (rounded by
// sbc-bench's rules; what an imported log records), `Headline<f64>` the figures before rounding
// (what the results database indexes and the report compares). The rules that fill it live in
// the `headline` crate.
/// The six numbers of Results.md, derived by sbc-bench's rules; `None` = "-".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Headline"))]
pub struct Headline<N = u64> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zip_multi: Option<N>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zip_single: Option<N>,
    /// aes-256-cbc 16 KiB blocks, in 1000 bytes/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aes: Option<N>,
    /// MB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memcpy: Option<N>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memset: Option<N>,
    /// cpuminer kH/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub khs: Option<f64>,
}
