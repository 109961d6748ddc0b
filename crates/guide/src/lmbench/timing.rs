//! lmbench's timing harness ("benchmp") in Rust, so the system costs compare with lmbench's.
//!
//! A figure is the cost of one iteration of a body, timed over intervals of about ENOUGH
//! microseconds. The rules are lmbench 3.0-a9's on purpose — an interval counts only when it
//! took more than 0.95·ENOUGH; the iteration count is rescaled (×1.1·ENOUGH/t, or ×8 for very
//! short intervals) until intervals land in [0.99, 1.2]·ENOUGH; 11 kept intervals, or one when
//! ENOUGH is a second or more; the median (or minimum) of per-iteration times — because a
//! different rule gives a different number. What differs: the clock is CLOCK_MONOTONIC in
//! nanoseconds (lmbench: gettimeofday in µs), the body runs in the calling process (the section
//! runs the system-cost benchmarks in a forked child, `isolate`, as lmbench forks one; one untimed
//! warm-up call replaces the child's warm-up loop), the calibration tries each candidate up to
//! three times and says when it failed, and the caller may stop early through a cancel flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// lmbench's TRIES: kept intervals per figure.
pub const TRIES: usize = 11;

/// One kept interval: `us` microseconds for `n` iterations (overheads already subtracted).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub us: f64,
    pub n: u64,
}

impl Sample {
    /// Microseconds per iteration.
    pub fn per_iter(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.us / self.n as f64
        }
    }
}

/// Why a measurement has no figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The cancel flag was set (Ctrl-C): keep what was measured before.
    Cancelled,
    /// The body could not run (a syscall failed, a server did not answer …).
    Failed(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Cancelled => write!(f, "cancelled"),
            Error::Failed(m) => write!(f, "{m}"),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Failed(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// An error carrying the last OS error with some context.
pub fn os_err(what: &str) -> Error {
    Error::Failed(format!("{what}: {}", std::io::Error::last_os_error()))
}

/// The harness: ENOUGH, the overheads and the repetition rule, shared by every benchmark.
#[derive(Debug, Clone)]
pub struct Timing {
    /// Target length of one timed interval in µs (calibrated or given).
    pub enough_us: f64,
    /// Whether `enough_us` came from the calibration (false: given by the caller/`ENOUGH`).
    pub calibrated: bool,
    /// How the calibration went (None when ENOUGH was given).
    pub calibration: Option<Calibration>,
    /// Cost of one clock read pair in µs, subtracted from every interval.
    pub timer_overhead_us: f64,
    /// Cost of one empty loop iteration in µs, subtracted n times from every interval.
    pub loop_overhead_us: f64,
    /// Kept intervals per figure (lmbench: 11).
    pub tries: usize,
    /// Multiplies the per-benchmark ENOUGH floors (lat_pipe 1 s …); 1 = lmbench, less in quick.
    pub floor_scale: f64,
    /// Upper bound of ENOUGH after the floors (quick runs cap it).
    pub enough_cap_us: Option<f64>,
    cancel: Option<Arc<AtomicBool>>,
    /// The address of a cancel flag in a page shared with the parent (0: none); set in a
    /// measuring child (see `isolate`).
    shared_cancel: usize,
}

impl Timing {
    /// A harness with a fixed ENOUGH (µs) and no overhead correction; tests use tiny values.
    pub fn with_enough(enough_us: f64) -> Timing {
        Timing {
            enough_us,
            calibrated: false,
            calibration: None,
            timer_overhead_us: 0.0,
            loop_overhead_us: 0.0,
            tries: TRIES,
            floor_scale: 1.0,
            enough_cap_us: None,
            cancel: None,
            shared_cancel: 0,
        }
    }

    /// lmbench's start-up: ENOUGH from `given` (the `ENOUGH` variable) or the linearity test,
    /// then the timer and loop overheads.
    pub fn calibrate(given_us: Option<f64>) -> Timing {
        Timing::calibrate_upto(given_us, 1_000_000.0)
    }

    /// [`Timing::calibrate`] trying only the candidates up to `max_us` (and falling back to
    /// `max_us`): quick runs must not spend seconds finding out that a busy machine is noisy.
    pub fn calibrate_upto(given_us: Option<f64>, max_us: f64) -> Timing {
        Timing::calibrate_until(given_us, max_us, &AtomicBool::new(false))
    }

    /// [`Timing::calibrate_upto`] that gives up as soon as `cancel` is set (Ctrl-C during the
    /// calibration, which can take seconds on a noisy machine): the fallback is kept and
    /// the calibration says it was interrupted; the caller's cancel flag stops what follows.
    pub fn calibrate_until(given_us: Option<f64>, max_us: f64, cancel: &AtomicBool) -> Timing {
        let (enough_us, calibration) = match given_us {
            Some(e) if e > 0.0 => (e, None),
            _ => {
                let c = calibrate_cancellable(max_us, cancel);
                (c.enough_us, Some(c))
            }
        };
        let mut t = Timing::with_enough(enough_us);
        t.calibrated = calibration.is_some();
        t.calibration = calibration;
        if enough_us <= 50_000.0 {
            t.timer_overhead_us = timer_overhead_us();
        }
        t.loop_overhead_us = t.loop_overhead();
        t
    }

    /// Stops every later measurement once `flag` is set.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Timing {
        self.cancel = Some(flag);
        self
    }

    pub fn cancelled(&self) -> bool {
        if self.shared_cancel != 0 {
            // SAFETY: set by `set_shared_cancel` from a flag that outlives this harness (the
            // measuring child ends before its shared page is unmapped).
            let flag = unsafe { &*(self.shared_cancel as *const AtomicBool) };
            if flag.load(Ordering::Relaxed) {
                return true;
            }
        }
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Also stop once `flag` is set; `flag` must outlive this harness and its clones (the
    /// measuring child's shared page).
    pub(crate) fn set_shared_cancel(&mut self, flag: &AtomicBool) {
        self.shared_cancel = flag as *const AtomicBool as usize;
    }

    /// ENOUGH for a benchmark whose lmbench floor is `floor_us`.
    pub fn enough_for(&self, floor_us: f64) -> f64 {
        let e = self.enough_us.max(floor_us * self.floor_scale);
        match self.enough_cap_us {
            Some(cap) => e.min(cap.max(self.enough_us)),
            None => e,
        }
    }

    /// How many intervals lmbench keeps at this ENOUGH: one from a second on, else TRIES.
    pub fn repetitions(&self, enough_us: f64) -> usize {
        if enough_us >= 1_000_000.0 {
            1
        } else {
            self.tries
        }
    }

    /// Times `body(n)` (n iterations) with the clock; see [`Timing::benchmp_timed`].
    pub fn benchmp(&self, floor_us: f64, mut body: impl FnMut(u64)) -> Result<Vec<Sample>> {
        self.benchmp_timed(floor_us, |n| {
            let t0 = Instant::now();
            body(n);
            Ok(t0.elapsed())
        })
    }

    /// Like [`Timing::benchmp`] for a body that may fail.
    pub fn benchmp_try(
        &self,
        floor_us: f64,
        mut body: impl FnMut(u64) -> Result<()>,
    ) -> Result<Vec<Sample>> {
        self.benchmp_timed(floor_us, |n| {
            let t0 = Instant::now();
            body(n)?;
            Ok(t0.elapsed())
        })
    }

    /// The benchmp loop for a body that times itself (so it can do untimed set-up and clean-up
    /// around its timed part, like lmbench's per-interval init/cleanup) and returns the timed
    /// duration of `n` iterations. Returns the kept samples, unsorted.
    pub fn benchmp_timed(
        &self,
        floor_us: f64,
        mut interval: impl FnMut(u64) -> Result<Duration>,
    ) -> Result<Vec<Sample>> {
        let enough = self.enough_for(floor_us);
        let reps = self.repetitions(enough);
        if self.cancelled() {
            return Err(Error::Cancelled);
        }
        // The untimed warm-up: faults buffers in, warms caches and connections.
        interval(1)?;
        let mut kept = Vec::with_capacity(reps);
        let mut n: u64 = 1;
        // A bound on the intervals tried, so a body whose time does not scale with n ends.
        let mut attempts = 0usize;
        while kept.len() < reps {
            if self.cancelled() {
                return Err(Error::Cancelled);
            }
            attempts += 1;
            if attempts > 60 + 4 * reps {
                break;
            }
            let raw = interval(n)?.as_secs_f64() * 1e6;
            let t = raw - self.timer_overhead_us - n as f64 * self.loop_overhead_us;
            let t = t.max(0.0);
            if t > 0.95 * enough {
                kept.push(Sample { us: t, n });
            }
            if t < 0.99 * enough || t > 1.2 * enough {
                if t > 150.0 {
                    let scaled = (n as f64 * 1.1 * enough / t).floor() as u64 + 1;
                    n = scaled.max(1);
                } else {
                    n = n.saturating_mul(8);
                }
                if n > 1 << 27 {
                    break;
                }
            }
        }
        if kept.is_empty() {
            return Err(Error::Failed(
                "no interval reached ENOUGH (the body does not scale with its count)".into(),
            ));
        }
        Ok(kept)
    }

    /// The loop overhead per iteration: two loops of 1 and 2 dependent loads,
    /// 2·(t1/n1) − t2/n2, minimum over the kept intervals, never negative.
    fn loop_overhead(&self) -> f64 {
        let ring = Ring::new();
        let one = self.benchmp(0.0, |n| ring.chase(n, 1));
        let two = self.benchmp(0.0, |n| ring.chase(n, 2));
        match (one, two) {
            (Ok(a), Ok(b)) => {
                let a = min_per_iter(&a);
                let b = min_per_iter(&b);
                (2.0 * a - b).max(0.0)
            }
            _ => 0.0,
        }
    }
}

/// lmbench's default figure: the median sample by time per iteration (for an even count the
/// µs and counts of the two middle samples are averaged separately).
pub fn median(samples: &[Sample]) -> Option<Sample> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(|a, b| b.per_iter().total_cmp(&a.per_iter()));
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        Some(s[m])
    } else {
        let (a, b) = (s[m - 1], s[m]);
        Some(Sample {
            us: (a.us + b.us) / 2.0,
            n: (a.n + b.n) / 2,
        })
    }
}

/// The smallest time per iteration (lat_mem_rd's rule).
pub fn min_per_iter(samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(Sample::per_iter)
        .fold(f64::INFINITY, f64::min)
}

/// A figure per sample, for the document's value with its range: `f(µs per iteration)`.
pub fn figures(samples: &[Sample], f: impl Fn(f64) -> f64) -> Vec<f64> {
    samples.iter().map(|s| f(s.per_iter())).collect()
}

/// A small ring of pointers in L1 for the calibration loops (dependent loads).
struct Ring {
    cells: Vec<usize>,
}

impl Ring {
    fn new() -> Ring {
        let len = 16;
        Ring {
            cells: (0..len).map(|i| (i + 7) % len).collect(),
        }
    }

    /// `n` iterations of `per` dependent loads each.
    fn chase(&self, n: u64, per: usize) {
        let mut p = std::hint::black_box(0usize);
        for _ in 0..n {
            for _ in 0..per {
                p = self.cells[p];
            }
        }
        std::hint::black_box(p);
    }

    /// Time of `n` iterations of 10 dependent loads, the minimum of `runs` runs, in µs.
    fn time(&self, n: u64, runs: usize) -> f64 {
        (0..runs)
            .map(|_| {
                let t0 = Instant::now();
                self.chase(n, 10);
                t0.elapsed().as_secs_f64() * 1e6
            })
            .fold(f64::INFINITY, f64::min)
    }
}

/// The candidates of lmbench's calibration (µs).
pub const CANDIDATES: [f64; 4] = [5_000.0, 10_000.0, 50_000.0, 100_000.0];

/// How often a short candidate's (≤ 10 ms) linearity test is tried before the next candidate
/// is: lmbench tries each once, so one disturbance (a vCPU descheduled for a millisecond) makes
/// it take the next, 10 or 20 times longer candidate — or its 1 s fallback. The 50 and 100 ms
/// candidates are tried once each, as lmbench does (a test of them takes seconds).
pub const ATTEMPTS: u32 = 3;

/// How often `candidate` (µs) is tried.
fn attempts_for(candidate: f64) -> u32 {
    if candidate <= 10_000.0 { ATTEMPTS } else { 1 }
}

/// What the calibration found.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// ENOUGH in µs: the first candidate that passed, else the fallback.
    pub enough_us: f64,
    /// Whether a candidate passed (false: `enough_us` is the fallback).
    pub passed: bool,
    /// Linearity tests run in all (each candidate up to [`ATTEMPTS`] times).
    pub tests: u32,
    /// Tests that failed, as "5 ms: 0.41 % off at +2 %" (the largest deviation of each).
    pub failures: Vec<String>,
    /// When no candidate passed: the clock's step in µs (its resolution or read cost,
    /// whichever is larger) that chose `enough_us` instead (see [`calibrate_cancellable`]);
    /// None when a candidate passed, the calibration was interrupted, or the clock is too
    /// coarse for every candidate (then `enough_us` is the fallback).
    pub clock_step_us: Option<f64>,
    /// Whether the candidates above 10 ms were left untried because the clock's step resolves
    /// the short ones: their failures were the machine's wander, which no longer interval cures.
    pub longer_skipped: bool,
}

impl Calibration {
    /// Whether the calibration was cancelled before a candidate passed.
    pub fn interrupted(&self) -> bool {
        !self.passed && self.failures.last().is_some_and(|f| f == INTERRUPTED)
    }

    /// "calibrated", "calibrated at the 2nd attempt …", or the failure, for the section's note.
    pub fn describe(&self) -> String {
        if self.interrupted() {
            return format!(
                "calibration interrupted after {} linearity test(s); fallback used",
                self.tests
            );
        }
        if self.passed && self.failures.is_empty() {
            return "calibrated".into();
        }
        let fails = self.failures.join("; ");
        if let (false, Some(step)) = (self.passed, self.clock_step_us) {
            let skipped = if self.longer_skipped {
                "; the 50 and 100 ms candidates were not tried (a longer interval cures only a coarse clock)"
            } else {
                ""
            };
            return format!(
                "lmbench's linearity test failed in all {} tries ({fails}): the loop's own speed wanders by more than its 0.25 % here (a virtual CPU's clock, a neighbour), which no longer interval cures, while the clock is fine: ENOUGH is the shortest candidate the clock resolves to 0.25 % (step {step:.3} µs){skipped}",
                self.tests
            );
        }
        if self.passed {
            format!(
                "calibrated after {} failed linearity test(s): {fails}",
                self.failures.len()
            )
        } else {
            format!(
                "CALIBRATION FAILED: no candidate passed lmbench's linearity test in {} tries ({fails}); fallback used — the machine was busy or noisy, lmbench would have used 1 s",
                self.tests
            )
        }
    }
}

/// lmbench's ENOUGH calibration: the first of 5, 10, 50, 100 ms at which a loop of dependent
/// loads scales linearly (within 0.25 % at 1.5 %, 2 % and 3.5 % more iterations); the short
/// candidates are tried up to [`ATTEMPTS`] times before the next (lmbench: once). Candidates
/// above `max_us` are not tried.
///
/// When none passes, lmbench falls back to 1 s. Its test exists for coarse clocks (the
/// microsecond `gettimeofday`, a 10 ms tick): it asks whether an interval is long enough for the
/// clock's step to vanish in it. On a virtual machine whose vCPU speed wanders by 0.5–2 %
/// between identical loops of any length (measured: 5 ms to 100 ms alike), it fails for a reason
/// a longer interval does not cure, and lmbench's own `enough` reads 1 s there too. So when the
/// short candidates (≤ 10 ms) all fail, the clock's step is measured directly: if it resolves
/// them to 0.25 %, the longer candidates are not tried — a pass there would be chance (on the
/// 2-vCPU guest of issue 21 the 100 ms candidate passed once after seven failures, and the
/// section took 376 s instead of 87) — and ENOUGH is the shortest candidate the step resolves
/// (said in the result, with every failed test). A clock too coarse for the short candidates
/// goes on to the longer ones, as lmbench does; one too coarse for all of them leaves `max_us`
/// (at most 1 s) as the fallback.
pub fn calibrate(max_us: f64) -> Calibration {
    calibrate_cancellable(max_us, &AtomicBool::new(false))
}

/// [`calibrate`] that stops between two timed loops once `cancel` is set (the longest such
/// loop is ten runs of one candidate, ≤ 1 s at the largest): the result keeps the fallback,
/// is not `passed`, and its last failure says "interrupted".
pub fn calibrate_cancellable(max_us: f64, cancel: &AtomicBool) -> Calibration {
    let ring = Ring::new();
    ladder(
        max_us,
        |candidate| linearity(&ring, candidate, cancel),
        clock_step_us,
        || cancel.load(Ordering::Relaxed),
    )
}

/// The longest candidate tried [`ATTEMPTS`] times; the ones above it are tried only when the
/// clock is too coarse for it.
const SHORT_US: f64 = 10_000.0;

/// The calibration's decisions, with the linearity test, the clock's step and the cancel flag
/// given (so each path is tested without a machine that takes it).
fn ladder(
    max_us: f64,
    mut test: impl FnMut(f64) -> std::result::Result<(), Unfit>,
    mut clock_step: impl FnMut() -> f64,
    cancelled: impl Fn() -> bool,
) -> Calibration {
    let mut c = Calibration {
        enough_us: max_us.min(1_000_000.0),
        passed: false,
        tests: 0,
        failures: Vec::new(),
        clock_step_us: None,
        longer_skipped: false,
    };
    let mut step = None;
    for candidate in CANDIDATES {
        if candidate > max_us {
            break;
        }
        if candidate > SHORT_US && c.tests > 0 {
            let s = *step.get_or_insert_with(&mut clock_step);
            if s <= LINEARITY * SHORT_US {
                c.longer_skipped = true;
                break;
            }
        }
        for _ in 0..attempts_for(candidate) {
            if cancelled() {
                c.failures.push(INTERRUPTED.into());
                return c;
            }
            c.tests += 1;
            match test(candidate) {
                Ok(()) => {
                    c.enough_us = candidate;
                    c.passed = true;
                    return c;
                }
                Err(Unfit::Interrupted) => {
                    c.failures.push(INTERRUPTED.into());
                    return c;
                }
                Err(Unfit::Off(why)) => c
                    .failures
                    .push(format!("{:.0} ms: {why}", candidate / 1000.0)),
            }
        }
    }
    let step = step.unwrap_or_else(clock_step);
    if let Some(&candidate) = CANDIDATES
        .iter()
        .find(|&&k| k <= max_us && step <= LINEARITY * k)
    {
        c.enough_us = candidate;
        c.clock_step_us = Some(step);
    }
    c
}

/// The linearity test's tolerance: 0.25 %.
const LINEARITY: f64 = 0.0025;

/// The clock's step in µs: the shortest of five whole ticks, each timed from one change of
/// `Instant::now()` to the next (its resolution, or its read cost where that is larger). Each
/// tick starts on a change, so a coarse clock shows its whole step every time, not the rest of
/// one; the shortest, because being preempted can only lengthen a tick (under qemu-user in CI
/// the longest of five exceeded 25 µs, too coarse for 10 ms). A clock that does not move in ten
/// million reads counts as 1 s coarse.
pub fn clock_step_us() -> f64 {
    let next_change = |from: Instant| (0..10_000_000).map(|_| Instant::now()).find(|&t| t != from);
    (0..5)
        .map(|_| {
            next_change(Instant::now())
                .and_then(|edge| next_change(edge).map(|t| (t - edge).as_secs_f64() * 1e6))
                .unwrap_or(1e6)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The failure a cancelled calibration ends with.
pub const INTERRUPTED: &str = "interrupted";

/// Why a candidate did not pass: cancelled, or how far off it was.
enum Unfit {
    Interrupted,
    Off(String),
}

/// lmbench's test of one candidate: find the count that takes the candidate's time (±2 %,
/// 10 tries), time it again as the baseline, then at +1.5 %, +2 %, +3.5 % iterations; every
/// time must be within 0.25 % of the baseline scaled. Each time is the minimum of 10 runs.
fn linearity(ring: &Ring, candidate: f64, cancel: &AtomicBool) -> std::result::Result<(), Unfit> {
    let time = |n: u64| {
        if cancel.load(Ordering::Relaxed) {
            Err(Unfit::Interrupted)
        } else {
            Ok(ring.time(n, 10))
        }
    };
    let mut n: u64 = 10_000;
    let mut found = None;
    for _ in 0..10 {
        let t = time(n)?;
        if (t - candidate).abs() <= 0.02 * candidate {
            found = Some(n);
            break;
        }
        if t < 1_000.0 {
            n *= 10;
        } else {
            n = ((n as f64) * candidate / t).max(1.0) as u64 + 1;
        }
    }
    let Some(n) = found else {
        return Err(Unfit::Off("no count reached the time".into()));
    };
    // The baseline and the three longer counts are timed in interleaved rounds, the minimum of
    // each over the rounds: lmbench times each count's ten runs back to back, so a slow change
    // of the machine's speed between two counts' runs (a host changing a vCPU's clock, a
    // neighbour's load) reads as non-linearity; interleaved, every count sees the same phases.
    let factors = [1.0, 1.015, 1.02, 1.035];
    let counts: Vec<u64> = factors.iter().map(|k| (n as f64 * k) as u64).collect();
    let mut best = [f64::INFINITY; 4];
    for _ in 0..10 {
        for (b, &m) in best.iter_mut().zip(&counts) {
            if cancel.load(Ordering::Relaxed) {
                return Err(Unfit::Interrupted);
            }
            *b = b.min(ring.time(m, 1));
        }
    }
    let base = best[0];
    let mut worst = (0.0f64, 0.0f64);
    for (k, got) in factors.iter().zip(best).skip(1) {
        let expect = base * k;
        let dev = (got - expect).abs() / expect;
        if dev > worst.0 {
            worst = (dev, *k);
        }
    }
    if worst.0 > LINEARITY {
        return Err(Unfit::Off(format!(
            "{:.2} % off at +{:.1} %",
            worst.0 * 100.0,
            (worst.1 - 1.0) * 100.0
        )));
    }
    Ok(())
}

/// [`calibrate`] as (ENOUGH, passed).
pub fn calibrate_enough(max_us: f64) -> (f64, bool) {
    let c = calibrate(max_us);
    (c.enough_us, c.passed)
}

/// The cost of one clock read pair in µs: the minimum of 11 trials of 1000 reads.
fn timer_overhead_us() -> f64 {
    (0..11)
        .map(|_| {
            let t0 = Instant::now();
            let mut last = t0;
            for _ in 0..1000 {
                last = std::hint::black_box(Instant::now());
            }
            (last - t0).as_secs_f64() * 1e6 / 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// The candidates a fake linearity test was asked about.
    type Asked = std::rc::Rc<RefCell<Vec<f64>>>;

    /// A linearity test that passes only `passing` candidates and records what it was asked.
    fn tester(passing: &[f64]) -> (impl FnMut(f64) -> std::result::Result<(), Unfit>, Asked) {
        let asked = Asked::default();
        let seen = asked.clone();
        let passing = passing.to_vec();
        let test = move |k: f64| {
            seen.borrow_mut().push(k);
            if passing.contains(&k) {
                Ok(())
            } else {
                Err(Unfit::Off("0.50 % off at +2.0 %".into()))
            }
        };
        (test, asked)
    }

    #[test]
    fn the_first_passing_candidate_is_enough_and_the_clock_is_not_read() {
        let (test, asked) = tester(&[10_000.0, 100_000.0]);
        let c = ladder(100_000.0, test, || panic!("clock read"), || false);
        assert!(c.passed && c.enough_us == 10_000.0, "{c:?}");
        assert_eq!(*asked.borrow(), [5000.0, 5000.0, 5000.0, 10_000.0]);
        assert!(c.describe().contains("after 3 failed"), "{}", c.describe());
    }

    #[test]
    fn with_a_fine_clock_the_longer_candidates_are_not_tried() {
        // Issue 21's guest: the short candidates fail on the vCPU's wander, and the 100 ms one
        // would pass by chance — it is never asked; ENOUGH is the shortest the clock resolves.
        let (test, asked) = tester(&[50_000.0, 100_000.0]);
        let c = ladder(100_000.0, test, || 0.03, || false);
        assert_eq!(asked.borrow().len(), 2 * ATTEMPTS as usize);
        assert!(asked.borrow().iter().all(|&k| k <= SHORT_US));
        assert!(!c.passed && c.longer_skipped, "{c:?}");
        assert_eq!((c.enough_us, c.clock_step_us), (5000.0, Some(0.03)));
        let d = c.describe();
        assert!(
            d.contains("failed in all 6 tries") && d.contains("not tried"),
            "{d}"
        );
    }

    #[test]
    fn a_coarse_clock_goes_on_to_the_longer_candidates_as_lmbench() {
        // A 100 µs step (a 10 kHz clock) is not resolved by 10 ms to 0.25 %: the longer
        // intervals can cure it and are tried; the first that passes is ENOUGH.
        let (test, asked) = tester(&[50_000.0]);
        let c = ladder(100_000.0, test, || 100.0, || false);
        assert!(
            c.passed && c.enough_us == 50_000.0 && !c.longer_skipped,
            "{c:?}"
        );
        assert_eq!(asked.borrow().last(), Some(&50_000.0));
        // None passes: the shortest candidate the step resolves (100 µs ≤ 0.25 % of 50 ms).
        let (test, _) = tester(&[]);
        let c = ladder(100_000.0, test, || 100.0, || false);
        assert!(!c.passed && c.tests == 2 * ATTEMPTS + 2, "{c:?}");
        assert_eq!((c.enough_us, c.clock_step_us), (50_000.0, Some(100.0)));
        // Too coarse for every candidate: the fallback, said as a failure.
        let (test, _) = tester(&[]);
        let c = ladder(100_000.0, test, || 1000.0, || false);
        assert_eq!((c.enough_us, c.clock_step_us), (100_000.0, None));
        assert!(
            c.describe().starts_with("CALIBRATION FAILED"),
            "{}",
            c.describe()
        );
    }

    #[test]
    fn a_quick_calibration_reads_the_clock_only_after_its_candidates_failed() {
        let (test, asked) = tester(&[]);
        let c = ladder(5000.0, test, || 0.03, || false);
        assert_eq!(*asked.borrow(), [5000.0; ATTEMPTS as usize]);
        assert!(!c.longer_skipped && c.enough_us == 5000.0, "{c:?}");
        let (test, asked) = tester(&[]);
        let c = ladder(100_000.0, test, || 0.03, || true);
        assert!(asked.borrow().is_empty() && c.interrupted(), "{c:?}");
    }
}
