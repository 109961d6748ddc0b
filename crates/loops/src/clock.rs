//! The real CPU clock, measured (the mhz method).
//!
//! Two loops of dependent single-cycle XORs, `SHORT_OPS` and `LONG_OPS` long per iteration, run
//! the same number of iterations. Their time difference is exactly `count × (LONG − SHORT)`
//! cycles: call, loop and timer overheads appear in both and cancel. The minimum of a few runs of
//! each hides interrupts and preemption. This measures the clock the core really runs at, which
//! in a VM or with firmware-controlled DVFS is the only trustworthy figure (/proc/cpuinfo shows
//! the TSC rate or the requested frequency).
//!
//! Pure: the caller pins the thread (see [`crate::affinity`]) before calling [`measure`].

mod chains;

pub use chains::{EXACT, LONG_OPS, METHOD, SHORT_OPS};
use document::measure::clock::ClockSample;

use crate::timing::{Interval, now_ns, thread_cpu_ns, time};

/// How to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockOptions {
    /// Calibrate the count so one short run takes at least this long (mhz uses 20 ms, which
    /// keeps the result accurate with 100/250/1000 Hz scheduler ticks).
    pub short_target_ns: u64,
    /// Timed runs of each loop (alternating short/long); the minimum of each is used.
    pub runs: u32,
}

impl Default for ClockOptions {
    /// 20 ms short runs, 3 runs each: one measurement takes about 0.25 s at any clock.
    fn default() -> Self {
        ClockOptions {
            short_target_ns: 20_000_000,
            runs: 3,
        }
    }
}

/// First count tried by the calibration (far below 20 ms on any core faster than ~10 MHz).
const START_COUNT: u64 = 1000;
/// Calibration doubles/quadruples until one short run takes this long, then extrapolates.
const CALIBRATION_NS: u64 = 1_000_000;
/// Upper bound of the count: protects against a broken or frozen timer (loops forever otherwise).
const MAX_COUNT: u64 = if usize::BITS < 64 {
    u32::MAX as u64
} else {
    1 << 40
};

/// Time of one run: wall time (CLOCK_MONOTONIC), or the thread's CPU time when that is shorter,
/// i.e. when the thread was preempted during the run. On a busy machine (this tool's own test
/// suite, a shared VM) the CPU time still counts only the cycles of the loop, so the result does
/// not depend on luck; on a quiet one both agree to a microsecond. Kernels whose thread CPU
/// clock only advances in scheduler ticks (no fine sched_clock, old ARM kernels) would make that
/// substitution wrong by up to a tick, so there only wall time is used.
fn run_ns(f: impl FnOnce()) -> u64 {
    let ((), iv) = time(f);
    effective_ns(&iv)
}

/// The time a timed interval counts (see [`run_ns`]); shared with the other kernels that time
/// a pure CPU loop (recursive SHA-256).
pub(crate) fn effective_ns(iv: &Interval) -> u64 {
    if cpu_clock_is_fine() {
        iv.wall_ns.min(iv.cpu_ns)
    } else {
        iv.wall_ns
    }
}

/// True when the thread CPU clock advances in steps below 50 µs (checked once per process by
/// polling it until it changes; a tick-based clock moves in steps of 1–10 ms).
fn cpu_clock_is_fine() -> bool {
    static FINE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FINE.get_or_init(|| {
        let t0 = now_ns();
        let mut smallest = u64::MAX;
        // A few steps, so one preemption between two reads cannot make a fine clock look coarse.
        for _ in 0..5 {
            let c0 = thread_cpu_ns();
            let mut c1 = c0;
            while c1 == c0 && now_ns() - t0 < 50_000_000 {
                c1 = thread_cpu_ns();
            }
            if c1 == c0 {
                return false;
            }
            smallest = smallest.min(c1 - c0);
        }
        smallest < 50_000
    })
}

/// Finds the count for which a short run takes at least `target_ns`: grow the count until a
/// run takes ≥ 1 ms, then extrapolate linearly with 3 % margin (the clock may still rise).
fn calibrate(target_ns: u64) -> u64 {
    let mut count = START_COUNT;
    loop {
        let t = run_ns(|| chains::run_short(count as usize));
        if t >= CALIBRATION_NS.min(target_ns) || count >= MAX_COUNT {
            let t = t.max(1);
            let want = (count as u128 * target_ns as u128 * 103 / 100 / t as u128) as u64;
            return want.clamp(count, MAX_COUNT);
        }
        count = if t < CALIBRATION_NS / 8 {
            count * 4
        } else {
            count * 2
        };
    }
}

/// MHz from the minimum short and long times: cycles / µs.
pub fn mhz_from(count: u64, short_min_ns: u64, long_min_ns: u64) -> f64 {
    if long_min_ns <= short_min_ns {
        return 0.0;
    }
    let cycles = count as f64 * f64::from(LONG_OPS - SHORT_OPS);
    cycles * 1000.0 / (long_min_ns - short_min_ns) as f64
}

/// Measures the clock of the core the calling thread runs on. Never fails: unusable timings
/// (the long loop not slower than the short one, as under some emulators) give `mhz = 0`.
pub fn measure(opts: &ClockOptions) -> ClockSample {
    let t0 = now_ns();
    let count = calibrate(opts.short_target_ns.max(1));
    let runs = opts.runs.max(1) as usize;
    let mut short_ns = Vec::with_capacity(runs);
    let mut long_ns = Vec::with_capacity(runs);
    // Alternating, so a slow phase (a clock change) hits both loops alike.
    for _ in 0..runs {
        short_ns.push(run_ns(|| chains::run_short(count as usize)));
        long_ns.push(run_ns(|| chains::run_long(count as usize)));
    }
    let smin = short_ns.iter().copied().min().unwrap_or(0);
    let lmin = long_ns.iter().copied().min().unwrap_or(0);
    ClockSample {
        method: METHOD.to_string(),
        exact: EXACT,
        count,
        short_ops: SHORT_OPS,
        long_ops: LONG_OPS,
        short_ns,
        long_ns,
        mhz: mhz_from(count, smin, lmin),
        elapsed_ns: now_ns().saturating_sub(t0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mhz_is_cycles_per_microsecond_of_the_difference() {
        // 1e6 iterations × 100 extra XORs = 1e8 cycles in 50 ms → 2000 MHz.
        assert_eq!(mhz_from(1_000_000, 25_000_000, 75_000_000), 2000.0);
        assert_eq!(mhz_from(1_000_000, 75_000_000, 75_000_000), 0.0);
        assert_eq!(mhz_from(1_000_000, 80_000_000, 75_000_000), 0.0);
    }

    #[test]
    fn loops_run_and_zero_count_returns() {
        chains::run_short(0);
        chains::run_long(0);
        chains::run_short(10);
        chains::run_long(10);
    }
}
