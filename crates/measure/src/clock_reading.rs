//! The real clock of one CPU: several mhz-method samples on that CPU, summarised as sbc-bench
//! prints them (mean, samples, deviation from the cap), with the spread and whether the CPU was
//! shared meanwhile.

use document::measure::clock::{ClockReading, ClockSample};
use loops::clock::{ClockOptions, measure};

use crate::Error;
use crate::disturbance;
use crate::pinning::pinned;

/// How to read the clock.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadingOptions {
    /// Samples per reading (shown as a/b/c).
    pub samples: u32,
    /// How each sample measures.
    pub kernel: ClockOptions,
}

/// Each sample of a reading: the shortest run 5 ms, three runs of each loop. The minimum of
/// three 5 ms runs already hides ordinary interrupts (a tick costs ~1 µs, 0.02 %), and three
/// such samples take ~0.2 s: a whole `boardbench clock --cpu N` stays below 0.3 s while agreeing
/// with a long measurement within ±0.5 % (`boardbench selftest-perf` checks both).
pub const SAMPLE: ClockOptions = ClockOptions {
    short_target_ns: 5_000_000,
    runs: 3,
};

impl Default for ReadingOptions {
    /// sbc-bench's three samples (shown a/b/c), each [`SAMPLE`].
    fn default() -> Self {
        ReadingOptions {
            samples: 3,
            kernel: SAMPLE,
        }
    }
}

impl ReadingOptions {
    /// `samples` default measurements.
    pub fn samples(samples: u32) -> Self {
        ReadingOptions {
            samples,
            ..ReadingOptions::default()
        }
    }
}

/// What a reading is about: the CPU, its policy and the cap it runs under.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Target {
    pub cpu: u32,
    pub policy: Option<u32>,
    /// The OPP (kHz) the policy is capped to; the deviation is measured against it.
    pub opp_khz: Option<u64>,
}

/// Measures `opts.samples` times on `target.cpu` (pinned) and summarises. The thread's
/// affinity is put back afterwards.
pub fn reading(target: Target, opts: &ReadingOptions) -> Result<ClockReading, Error> {
    if opts.samples == 0 {
        return Err(Error::Invalid(
            "a clock reading needs at least 1 sample".into(),
        ));
    }
    let (samples, disturbed) = pinned(target.cpu, || {
        disturbance::watched(|| {
            (0..opts.samples)
                .map(|_| measure(&opts.kernel))
                .collect::<Vec<_>>()
        })
    })?;
    let mut r = summarise(target, samples);
    r.disturbed = disturbed;
    Ok(r)
}

/// Mean, best, spread and deviation of a set of samples.
pub fn summarise(target: Target, samples: Vec<ClockSample>) -> ClockReading {
    let mhz: Vec<f64> = samples.iter().map(|s| s.mhz).collect();
    let mean = loops::stats::mean(&mhz).unwrap_or(0.0);
    let deviation_pct = target
        .opp_khz
        .filter(|&k| k > 0 && mean > 0.0)
        .map(|k| (mean * 1000.0 / k as f64 - 1.0) * 100.0);
    ClockReading {
        cpu: target.cpu,
        policy: target.policy,
        opp_khz: target.opp_khz,
        best_mhz: loops::stats::max(&mhz).unwrap_or(0.0),
        spread_pct: loops::stats::stddev_pct(&mhz),
        mhz: mean,
        deviation_pct,
        disturbed: false,
        samples,
    }
}
