//! Samples of the membw kernel: memory bandwidth by tinymembench's method.
//!
//! Units: MB/s with 1 MB = 10^6 bytes. A copy counts each byte once (not read + write), as
//! tinymembench and sbc-bench do, so figures compare directly with their databases.

use serde::{Deserialize, Serialize};

/// Name of the libc copy as sbc-bench's database knows it (the kernel measures it, renderers
/// compare the best copy with it).
pub const LIBC_MEMCPY: &str = "libc memcpy copy";
/// Name of the libc fill as sbc-bench's database knows it.
pub const LIBC_MEMSET: &str = "libc memset fill";

/// What a bandwidth test does to memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum BwKind {
    /// Source buffer to destination buffer; bytes counted once.
    Copy,
    /// Stores only.
    Fill,
    /// Loads only (summed so they cannot be elided).
    Read,
}

/// One test (one routine) measured on one thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BwTest {
    /// Name as printed, e.g. "libc memcpy copy" (sbc-bench's headline names are kept verbatim).
    pub name: String,
    pub kind: BwKind,
    /// True for the figures sbc-bench reports as "memcpy" and "memset".
    pub headline: bool,
    /// Every kept sample, MB/s, in measurement order.
    pub samples_mb_s: Vec<f64>,
    /// The reported figure: the best sample (as tinymembench).
    pub best_mb_s: f64,
    /// Median of the samples.
    pub median_mb_s: f64,
    /// Sample standard deviation in % of the mean (None below two samples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_pct: Option<f64>,
    /// Calls of the routine over the whole buffer per sample.
    pub calls_per_sample: u64,
    /// Samples that were re-measured because the thread lost the CPU during them.
    #[serde(default)]
    pub descheduled_retries: u32,
    /// Another task used the measured CPU during this test (at least one sample lost more
    /// than 2 % of its wall time): the figure may be low.
    #[serde(default, skip_serializing_if = "crate::measure::is_false")]
    pub disturbed: bool,
}

/// One test run on several CPUs at once, one pinned thread per CPU with its own buffers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BwAggregate {
    pub name: String,
    pub kind: BwKind,
    pub cpus: Vec<u32>,
    /// Per-thread bandwidth of the best sample, MB/s, in the order of `cpus`.
    pub per_thread_mb_s: Vec<f64>,
    /// Sum of the per-thread bandwidths over the common interval, best sample, MB/s.
    pub total_mb_s: f64,
    /// Totals of every sample.
    pub samples_mb_s: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_pct: Option<f64>,
}

/// The result of `boardbench membw` for one CPU set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MembwResult {
    /// CPUs the single-threaded tests were pinned to.
    pub cpus: Vec<u32>,
    /// "quick" or "full" (tinymembench's 0.5 s batches).
    pub mode: String,
    /// Size of each of the source and destination buffers, bytes.
    pub buffer_bytes: u64,
    pub tests: Vec<BwTest>,
    /// Name of the fastest copy and fill test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_copy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_fill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_read: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aggregate: Vec<BwAggregate>,
    /// Wall time of the single-threaded tests and of the aggregate part, seconds.
    pub single_wall_s: f64,
    #[serde(default)]
    pub aggregate_wall_s: f64,
}
