//! What `boardbench thermal` concluded beyond its figures, recorded so that a stored thermal run
//! renders its report again (`textout::thermal`). The figures themselves are measurements of
//! suite "thermal" (initial and sustained score, score drop, sustained clock per cluster, time to
//! throttling, the temperature then, peak temperature); the curve is the heat phase's samples.
//!
//! Added to schema version 1 (optional, absent in other runs and in thermal documents written
//! before it): older readers ignore it, older thermal documents render without the verdict's
//! lines.

use serde::{Deserialize, Serialize};

/// Below this many score intervals no stability verdict is given (the last third needs three
/// points for a standard error).
pub const MIN_INTERVALS: usize = 9;
/// The last third must span at least this many seconds for a stability verdict.
pub const MIN_WINDOW_S: f64 = 20.0;
/// A last-third score slope steeper than this (percent of the mean per minute, negative) means
/// the score keeps falling.
pub const FALLING_PCT_PER_MIN: f64 = 1.0;
/// How many standard errors below zero the slope must be to count.
pub const SIGNIFICANCE: f64 = 2.0;

/// The thermal test's verdict (`run.thermal`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ThermalVerdict {
    /// Seconds of load asked for (`--duration`; 300, 900 with `--long`).
    pub load_s: f64,
    /// Seconds between samples (`--interval`).
    pub interval_s: f64,
    /// The load was a command (`--load`): there is no score.
    #[serde(default, skip_serializing_if = "crate::measure::is_false")]
    pub external_load: bool,
    /// How many intervals the built-in load's score was taken over.
    #[serde(default)]
    pub score_intervals: usize,
    /// Whether the score settles.
    pub stability: Stability,
    /// Slope of the score over the first and the last third, percent of the mean per minute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_slope_pct_per_min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_slope_pct_per_min: Option<f64>,
    /// The first sample with a clock below its ceiling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttle: Option<Throttle>,
    /// Per policy, the seconds spent below its top clock during the test (time_in_state).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub below_max: Vec<TimeBelowMax>,
}

/// Whether the built-in load's score settles over the test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Stability {
    /// Fewer than [`MIN_INTERVALS`] intervals, or a last third shorter than [`MIN_WINDOW_S`].
    #[default]
    TooShort,
    /// The last third's slope is within the threshold.
    Stable,
    /// The last third's slope is below −[`FALLING_PCT_PER_MIN`] by more than [`SIGNIFICANCE`]
    /// standard errors.
    KeepsFalling,
}

/// The first throttled sample of the heat phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Throttle {
    /// Index of the sample in the heat phase.
    pub sample: usize,
    /// Seconds since the first sample.
    pub after_s: f64,
    /// Index of the cluster (monitor layout order).
    pub cluster: usize,
    /// The clock then, and the cluster's ceiling (its top clock or `scaling_max_freq` during the
    /// test, the lower), in MHz.
    pub mhz: u32,
    pub ceiling_mhz: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
}

/// Seconds one policy spent below its top clock (from time_in_state before and after).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TimeBelowMax {
    pub policy: u32,
    pub seconds: f64,
}
