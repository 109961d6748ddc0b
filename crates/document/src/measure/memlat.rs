//! Samples of the memlat kernel: chain latency (ramlat's method), random reads (tinymembench's
//! method) and the cache levels found from them.

use serde::{Deserialize, Serialize};

/// One window size of the chain table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ChainRow {
    pub size_bytes: u64,
    /// Nanoseconds per step of all N chains, one value per column of [`ChainTable::chains`].
    /// One step = one dependent load in each of the N chains (ramlat's definition), so a column
    /// equal to the 1-chain column means N misses overlap perfectly.
    pub ns_per_step: Vec<f64>,
    /// Short runs of this row's cells discarded because the thread lost the CPU during them
    /// (each cell is the mean of its undisturbed runs).
    #[serde(default)]
    pub descheduled_retries: u32,
    /// Another task used the measured CPU during this row (a run lost more than 2 % of its
    /// wall time).
    #[serde(default, skip_serializing_if = "crate::measure::is_false")]
    pub disturbed: bool,
}

/// ramlat's chain-latency table: every word of the window visited once per cycle in
/// bit-reversal order, each load depending on the previous one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ChainTable {
    /// Number of parallel chains per column (1, 2, 4, 8).
    pub chains: Vec<u32>,
    /// Bytes per chain word (a pointer).
    pub word_bytes: u32,
    pub rows: Vec<ChainRow>,
    pub wall_s: f64,
}

/// One window size of a random-read table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RandomRow {
    pub size_bytes: u64,
    /// Extra nanoseconds over an L1 hit (baseline subtracted, clamped at 0), as tinymembench.
    pub single_ns: f64,
    pub dual_ns: f64,
    /// Raw nanoseconds per iteration before the baseline was subtracted.
    pub single_raw_ns: f64,
    pub dual_raw_ns: f64,
}

/// tinymembench's single/dual random-read table for one page-size policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RandomTable {
    /// The madvise asked for: `Some(false)` = MADV_NOHUGEPAGE, `Some(true)` = MADV_HUGEPAGE,
    /// `None` = no advice (plain table).
    pub huge_pages: Option<bool>,
    /// Why the madvise failed, when it did (the table then ran without advice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub madvise_error: Option<String>,
    /// Baseline over a 2-byte window (always an L1 hit), ns per iteration.
    pub baseline_single_ns: f64,
    pub baseline_dual_ns: f64,
    pub rows: Vec<RandomRow>,
    pub wall_s: f64,
}

/// A cache as /sys/devices/system/cpu/cpuN/cache/index*/ advertises it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AdvertisedCache {
    pub level: u32,
    /// "Data", "Instruction" or "Unified".
    pub kind: String,
    pub size_bytes: u64,
}

/// A cache level found from the latency ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CacheLevel {
    /// 1, 2, 3 … in the order found.
    pub level: u32,
    /// Largest window still served at this level's latency (the last size before the step).
    pub effective_bytes: u64,
    /// The next window measured (the capacity lies between the two).
    pub next_bytes: u64,
    /// Fastest 1-chain latency of the windows attributed to this level, ns.
    pub latency_ns: f64,
    /// Data or unified cache of the same level that sysfs advertises.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advertised_bytes: Option<u64>,
    /// Whether the effective size is within a factor of two of the advertised one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agrees: Option<bool>,
}

/// Cache levels read from the ladder, set beside what the system advertises.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CacheAnalysis {
    pub levels: Vec<CacheLevel>,
    /// Latency of the largest window, beyond the last level found (memory, if the ladder went
    /// far enough), ns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advertised: Vec<AdvertisedCache>,
    /// Human-readable disagreements ("advertised L3 32 MiB, effective ≈ 4–8 MiB").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

/// The result of `boardbench memlat`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemlatResult {
    /// CPUs the measuring thread was pinned to.
    pub cpus: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainTable>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<RandomTable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caches: Option<CacheAnalysis>,
    pub wall_s: f64,
}
