//! Repeating one timed measurement until its range is small enough or its time budget is
//! spent — how every CPU method here turns runs into a figure with a range. The caller's
//! closure times `n` iterations of its kernel; this module picks `n` so one sample lasts about
//! `sample`, then takes samples.

use std::time::{Duration, Instant};

use crate::Context;

/// How long and how often to measure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// The whole measurement's time budget (calibration included).
    pub budget: Duration,
    /// About how long one sample lasts.
    pub sample: Duration,
    /// Stop early when the range of at least `min_samples` samples ([`range_pct`]) is below
    /// this (percent).
    pub max_range_pct: f64,
    pub min_samples: usize,
}

impl Plan {
    /// A method's plan: `full` normally, a fifth with `--quick` (see [`Context::budget`]);
    /// ten samples per budget, stop at a 1 % range after 5 samples.
    pub fn for_context(ctx: &Context, full: Duration) -> Plan {
        let budget = ctx.budget(full);
        Plan {
            budget,
            sample: budget / 10,
            max_range_pct: 1.0,
            min_samples: 5,
        }
    }
}

/// The iteration count per sample and the rates (`work(n) / seconds`) of each sample.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    pub iterations: u64,
    pub rates: Vec<f64>,
}

/// Calibrates `n` by doubling until `timed(n)` lasts at least `plan.sample`, then samples
/// `rate = n / seconds` until the range is below the bound, the budget is spent or `cancelled`
/// says stop. `timed(n)` runs the kernel `n` times and returns the elapsed time.
pub fn measure(
    plan: Plan,
    cancelled: &dyn Fn() -> bool,
    mut timed: impl FnMut(u64) -> Duration,
) -> Samples {
    let start = Instant::now();
    let mut n = 1u64;
    loop {
        let t = timed(n);
        if t >= plan.sample || start.elapsed() >= plan.budget || n >= u64::MAX / 4 {
            break;
        }
        // Jump close to the target once a run is long enough to be trusted.
        n = if t >= Duration::from_millis(10) {
            let f = plan.sample.as_secs_f64() / t.as_secs_f64();
            ((n as f64 * f * 1.05).ceil() as u64).max(n + 1)
        } else {
            n * 2
        };
        if cancelled() {
            return Samples::default();
        }
    }
    let mut rates = Vec::new();
    while !cancelled() {
        let t = timed(n).as_secs_f64().max(1e-9);
        rates.push(n as f64 / t);
        if rates.len() >= plan.min_samples && range_pct(&rates) <= plan.max_range_pct {
            break;
        }
        if start.elapsed() + plan.sample > plan.budget && !rates.is_empty() {
            break;
        }
    }
    Samples {
        iterations: n,
        rates,
    }
}

/// The range of the samples: (max − min) / median in percent (0 for fewer than two). Not a
/// spread, which names the sample standard deviation in percent (docs/names.md).
pub fn range_pct(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let med = s[s.len() / 2];
    if med == 0.0 {
        return 0.0;
    }
    (s[s.len() - 1] - s[0]) / med.abs() * 100.0
}
