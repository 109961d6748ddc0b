//! Samples of the clock kernel: the real core clock measured with two chains of dependent
//! single-cycle operations (the mhz method), and readings built from several such samples.

use serde::{Deserialize, Serialize};

/// One clock measurement: a calibrated count, the raw timings of the short and the long loop
/// runs, and the clock they give. `mhz = count × (long_ops − short_ops) / (min long − min short)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockSample {
    /// Which loop ran: "x86_64 asm", "aarch64 asm", "arm asm", "riscv64 asm" or "portable".
    pub method: String,
    /// False for the portable chain: the compiler decides the instructions, so one operation per
    /// cycle is likely but not guaranteed.
    pub exact: bool,
    /// Loop iterations of every run (calibrated so one short run takes at least the target).
    pub count: u64,
    /// Dependent operations per iteration of the short and the long loop.
    pub short_ops: u32,
    pub long_ops: u32,
    /// Time of every short and long run in nanoseconds: wall time (CLOCK_MONOTONIC), or the
    /// thread's CPU time when the thread was preempted during the run (it is then shorter).
    pub short_ns: Vec<u64>,
    pub long_ns: Vec<u64>,
    /// The measured clock in MHz (0 when the timings were unusable).
    pub mhz: f64,
    /// Wall time of the whole measurement including calibration, in nanoseconds.
    pub elapsed_ns: u64,
}

/// Several clock samples of one CPU, optionally at one cpufreq OPP (sbc-bench's
/// `Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)    (-10.0%)` line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockReading {
    /// The CPU the samples ran on.
    pub cpu: u32,
    /// cpufreq policy of that CPU, when cpufreq exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<u32>,
    /// The OPP the policy was capped to (kHz), when walking OPPs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opp_khz: Option<u64>,
    pub samples: Vec<ClockSample>,
    /// Mean of the samples' MHz (what sbc-bench prints as "Measured").
    pub mhz: f64,
    /// Highest sample.
    pub best_mhz: f64,
    /// Sample standard deviation in percent of the mean (None below two samples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_pct: Option<f64>,
    /// Deviation of the measured clock from the OPP in percent (negative = slower than claimed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deviation_pct: Option<f64>,
    /// Another task used the CPU during the reading (the thread lost more than 2 % of the
    /// wall time).
    #[serde(default, skip_serializing_if = "crate::measure::is_false")]
    pub disturbed: bool,
}

/// The result of `boardbench clock`: one reading per measured CPU (and per OPP with a walk).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockReport {
    /// True when the system has cpufreq (otherwise the clocks are measured as they run).
    pub cpufreq: bool,
    pub readings: Vec<ClockReading>,
}
