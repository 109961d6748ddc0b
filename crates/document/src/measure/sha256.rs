//! Samples of the recursive SHA-256 kernel (`hash ← SHA256(hash)`, one compression per step).

use serde::{Deserialize, Serialize};

/// Which implementation computed the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Sha256Backend {
    /// x86_64 SHA extensions (sha256rnds2/msg1/msg2).
    ShaNi,
    /// ARMv8 cryptographic extension SHA2 instructions (sha256h/h2/su0/su1).
    Armv8Sha2,
    /// Plain Rust, no special instructions (the "Portable" variant).
    Portable,
}

impl Sha256Backend {
    pub fn label(self) -> &'static str {
        match self {
            Sha256Backend::ShaNi => "SHA-NI",
            Sha256Backend::Armv8Sha2 => "ARMv8 SHA2",
            Sha256Backend::Portable => "portable",
        }
    }
    /// Only hardware paths may be called "Fast".
    pub fn is_hardware(self) -> bool {
        !matches!(self, Sha256Backend::Portable)
    }
}

/// One timed run of N recursive hashes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sha256Sample {
    pub backend: Sha256Backend,
    pub iterations: u64,
    /// Wall time (CLOCK_MONOTONIC) of the timed run, in nanoseconds.
    pub wall_ns: u64,
    /// CPU time of the thread over the same run (the original tool uses CPU time).
    pub cpu_ns: u64,
    /// Final digest, hex.
    pub digest: String,
    /// Million hashes per second: iterations / wall time, or / CPU time when the thread was
    /// preempted (CPU time shorter than wall time).
    pub mhs: f64,
}

/// One result row: the Fast, Reference or Portable result, as the original prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sha256Result {
    /// "Fast" (the SHA extensions, latency-optimised), "Reference" (the SHA extensions,
    /// written straightforwardly: the benchmark's published comparison figure) or "Portable"
    /// (no special instructions).
    pub role: String,
    pub backend: Sha256Backend,
    pub samples: Vec<Sha256Sample>,
    /// Best (highest) MH/s over the samples.
    pub mhs: f64,
    /// Sample standard deviation of the MH/s in percent (None below two samples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_pct: Option<f64>,
    /// MH/s per 0.1 GHz of the clock used for normalising (None without a clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mhs_per_100mhz: Option<f64>,
    /// Core cycles per hash at that clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles_per_hash: Option<f64>,
    /// The final digest was checked against the portable reference chain.
    pub verified: bool,
    /// Another task used the measured CPU during these runs (the thread lost more than 2 % of
    /// the wall time): the figure is likely low.
    #[serde(default, skip_serializing_if = "crate::measure::is_false")]
    pub disturbed: bool,
}

/// The result of `boardbench sha256`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sha256Report {
    pub iterations: u64,
    pub cpu: Option<u32>,
    /// The clock used for normalising, in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_mhz: Option<f64>,
    /// Where that clock came from: "given" (`-s`) or "measured" (before/after the runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_source: Option<String>,
    /// Clock measured before and after the runs (MHz), when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_before_mhz: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_after_mhz: Option<f64>,
    /// Fast result (absent when the CPU lacks the SHA extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fast: Option<Sha256Result>,
    /// The Reference result; on a CPU without the SHA extension the Portable result (its
    /// `role` says "Portable"), the only one there is.
    pub reference: Sha256Result,
    /// The Portable result beside a hardware Reference (absent when not run, or when it is
    /// already `reference`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portable: Option<Sha256Result>,
}

impl Sha256Report {
    /// The results in the order they are shown: Fast, Reference (or Portable alone), Portable.
    pub fn results(&self) -> Vec<&Sha256Result> {
        self.fast
            .iter()
            .chain(std::iter::once(&self.reference))
            .chain(self.portable.iter())
            .collect()
    }

    /// True when every result's digests were verified.
    pub fn all_verified(&self) -> bool {
        self.results().iter().all(|x| x.verified)
    }
}
