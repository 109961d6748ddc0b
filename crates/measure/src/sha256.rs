//! The recursive SHA-256 benchmark procedure (the Fast Recursive SHA256 benchmark's method):
//! clock before, a bounded warm-up, timed runs of each variant, clock after, verification,
//! normalisation to the clock.
//!
//! - Variants (see `loops::sha256::Variant`): Fast and Reference use the SHA extensions and
//!   run the same count, so their final digests must be equal; Portable runs a smaller count
//!   (its rate does not depend on it) and is the truth the hardware variants are checked
//!   against. Without the extension only Portable runs and the report says so.
//! - The clock is measured on the pinned core before and after (mhz method), unless given, so
//!   "MH/s per 0.1 GHz" and cycles per hash are real.
//! - Each result is the best of `runs` runs, with its spread and whether another task used the
//!   CPU meanwhile.

use document::measure::sha256::{Sha256Backend, Sha256Report, Sha256Result, Sha256Sample};
use loops::clock::measure;
use loops::sha256::{SEED, Variant, chain, chain_variant, hex, run_variant};

use crate::Error;
use crate::disturbance;
use crate::pinning::pinned;

/// How to run the benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Sha256Options {
    /// The CPU to pin to.
    pub cpu: u32,
    /// Recursive hashes per run of Fast and Reference.
    pub iterations: u64,
    /// Recursive hashes per run of Portable.
    pub portable_iterations: u64,
    /// Timed runs of each variant (the best counts).
    pub runs: u32,
    /// Normalise to this clock (MHz) instead of measuring it.
    pub given_mhz: Option<f64>,
    /// Time Portable also when the SHA extension exists (it always runs without it).
    pub portable: bool,
}

impl Sha256Options {
    /// `iterations` per run, Portable a tenth of it, 3 runs, clock measured, all variants.
    pub fn new(cpu: u32, iterations: u64) -> Self {
        Sha256Options {
            cpu,
            iterations,
            portable_iterations: (iterations / 10).max(1),
            runs: 3,
            given_mhz: None,
            portable: true,
        }
    }
}

/// What the procedure is doing (for a progress line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// Measuring the clock before (`false`) or after (`true`) the runs.
    Clock { after: bool },
    /// The bounded warm-up run.
    WarmUp,
    /// Timed run `run` (1-based) of `runs` of a variant.
    Run {
        variant: Variant,
        run: u32,
        runs: u32,
    },
}

/// Hashes of the bounded warm-up (the original's "spin run" of N is only there to let the
/// clock ramp up; 5M hardware hashes take ~0.2 s, 500k portable ones ~0.3 s).
const WARM_UP_HW: u64 = 5_000_000;
const WARM_UP_PORTABLE: u64 = 500_000;
/// Count at which the hardware variants are checked against the portable code when Portable
/// is not timed.
const CHECK_ITERATIONS: u64 = 100_000;

/// Runs the benchmark pinned to `opts.cpu`, reporting each step to `progress`.
pub fn run(opts: &Sha256Options, progress: &mut dyn FnMut(Step)) -> Result<Sha256Report, Error> {
    if opts.runs == 0 || opts.iterations == 0 || opts.portable_iterations == 0 {
        return Err(Error::Invalid(
            "runs and iterations must be at least 1".into(),
        ));
    }
    if let Some(m) = opts.given_mhz
        && !(m > 0.0 && m < 100_000.0)
    {
        return Err(Error::Invalid(format!(
            "a clock of {m} MHz cannot be right"
        )));
    }
    pinned(opts.cpu, || procedure(opts, progress))
}

/// The clock as `boardbench clock` reads it (three samples of the reading's kind).
fn clock_now() -> f64 {
    let o = crate::clock_reading::SAMPLE;
    let v: Vec<f64> = (0..3).map(|_| measure(&o).mhz).collect();
    loops::stats::mean(&v).unwrap_or(0.0)
}

fn procedure(opts: &Sha256Options, progress: &mut dyn FnMut(Step)) -> Sha256Report {
    let hardware = loops::sha256::fast_backend().is_some();
    let before = opts.given_mhz.is_none().then(|| {
        progress(Step::Clock { after: false });
        clock_now()
    });
    progress(Step::WarmUp);
    let (warm, warm_n) = if hardware {
        (Variant::Fast, WARM_UP_HW)
    } else {
        (Variant::Portable, WARM_UP_PORTABLE)
    };
    chain_variant(warm, &SEED, opts.iterations.min(warm_n));

    let timed = |variant: Variant, n: u64, progress: &mut dyn FnMut(Step)| {
        let (samples, disturbed) = disturbance::watched(|| {
            (1..=opts.runs)
                .filter_map(|run| {
                    progress(Step::Run {
                        variant,
                        run,
                        runs: opts.runs,
                    });
                    run_variant(variant, &SEED, n)
                })
                .collect::<Vec<_>>()
        });
        variant.backend().map(|b| {
            let mut r = result(variant.label(), b, samples);
            r.disturbed = disturbed;
            r
        })
    };
    let fast = hardware
        .then(|| timed(Variant::Fast, opts.iterations, progress))
        .flatten();
    let reference = hardware
        .then(|| timed(Variant::Reference, opts.iterations, progress))
        .flatten();
    let portable = (opts.portable || !hardware)
        .then(|| timed(Variant::Portable, opts.portable_iterations, progress))
        .flatten();
    let after = opts.given_mhz.is_none().then(|| {
        progress(Step::Clock { after: true });
        clock_now()
    });
    let clock = match (opts.given_mhz, before, after) {
        (Some(mhz), _, _) => Some(mhz),
        (None, Some(b), Some(a)) if b > 0.0 && a > 0.0 => Some((a + b) / 2.0),
        _ => None,
    };

    // Verification. Portable is the truth: every run of a variant must agree, the hardware
    // variants must give Portable's digest at a count Portable computed, and Fast and
    // Reference (same count) must end on the same digest.
    let (check_n, truth) = match portable.as_ref().and_then(|p| p.samples.first()) {
        Some(s) => (s.iterations, Some(s.digest.clone())),
        None => {
            let n = CHECK_ITERATIONS.min(opts.iterations);
            (n, chain(Sha256Backend::Portable, &SEED, n).map(|d| hex(&d)))
        }
    };
    let final_fast = fast
        .as_ref()
        .and_then(|f| f.samples.first())
        .map(|s| &s.digest);
    let final_ref = reference
        .as_ref()
        .and_then(|f| f.samples.first())
        .map(|s| &s.digest);
    let same_end = final_fast == final_ref;
    let verify = |r: Option<Sha256Result>, variant: Variant| {
        r.map(|mut r| {
            let runs_agree =
                !r.samples.is_empty() && r.samples.windows(2).all(|w| w[0].digest == w[1].digest);
            let matches_truth = match variant {
                Variant::Portable => true,
                _ => {
                    same_end
                        && truth.is_some()
                        && chain_variant(variant, &SEED, check_n).map(|d| hex(&d)) == truth
                }
            };
            r.verified = runs_agree && matches_truth;
            normalise(&mut r, clock);
            r
        })
    };
    let fast = verify(fast, Variant::Fast);
    let reference = verify(reference, Variant::Reference);
    let portable = verify(portable, Variant::Portable);
    let (reference, portable) = match (reference, portable) {
        (Some(r), p) => (r, p),
        (None, Some(p)) => (p, None),
        // Unreachable: without hardware Portable always runs; keep an honest empty row.
        (None, None) => (
            result("Portable", Sha256Backend::Portable, Vec::new()),
            None,
        ),
    };
    Sha256Report {
        iterations: opts.iterations,
        cpu: Some(opts.cpu),
        clock_mhz: clock,
        clock_source: clock.map(|_| {
            if opts.given_mhz.is_some() {
                "given".to_string()
            } else {
                "measured".to_string()
            }
        }),
        clock_before_mhz: before,
        clock_after_mhz: after,
        fast,
        reference,
        portable,
    }
}

/// A result row from its samples: the best rate and the spread.
pub fn result(role: &str, backend: Sha256Backend, samples: Vec<Sha256Sample>) -> Sha256Result {
    let rates: Vec<f64> = samples.iter().map(|s| s.mhs).collect();
    Sha256Result {
        role: role.to_string(),
        backend,
        mhs: loops::stats::max(&rates).unwrap_or(0.0),
        spread_pct: loops::stats::stddev_pct(&rates),
        mhs_per_100mhz: None,
        cycles_per_hash: None,
        verified: false,
        disturbed: false,
        samples,
    }
}

/// The clock-dependent figures of a result: MH/s per 0.1 GHz and cycles per hash.
pub fn normalise(r: &mut Sha256Result, clock_mhz: Option<f64>) {
    if let Some(mhz) = clock_mhz.filter(|&m| m > 0.0)
        && r.mhs > 0.0
    {
        r.mhs_per_100mhz = Some(r.mhs / (mhz / 100.0));
        r.cycles_per_hash = Some(mhz / r.mhs);
    }
}

/// Every result of a report in the order they are shown: Fast, Reference, Portable.
pub fn results(r: &Sha256Report) -> Vec<&Sha256Result> {
    r.results()
}

/// True when every result's digests were verified.
pub fn all_verified(r: &Sha256Report) -> bool {
    r.all_verified()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_run_verifies_every_variant_and_labels_them() {
        let cpu = loops::affinity::allowed_cpus()[0];
        let mut steps = Vec::new();
        let opts = Sha256Options {
            runs: 2,
            given_mhz: Some(1000.0),
            ..Sha256Options::new(cpu, 20_000)
        };
        let r = run(&opts, &mut |s| steps.push(s)).unwrap();
        assert!(all_verified(&r), "{r:#?}");
        let roles: Vec<&str> = results(&r).iter().map(|x| x.role.as_str()).collect();
        if loops::sha256::fast_backend().is_some() {
            assert_eq!(roles, ["Fast", "Reference", "Portable"]);
            assert!(r.reference.backend.is_hardware());
            assert_eq!(r.portable.as_ref().unwrap().samples[0].iterations, 2000);
        } else {
            assert_eq!(roles, ["Portable"]);
        }
        assert!(steps.contains(&Step::WarmUp));
        assert!(!steps.iter().any(|s| matches!(s, Step::Clock { .. })));
        assert_eq!(
            steps
                .iter()
                .filter(|s| matches!(s, Step::Run { .. }))
                .count(),
            2 * roles.len()
        );
        assert_eq!(r.clock_source.as_deref(), Some("given"));
        assert!(r.reference.cycles_per_hash.is_some());
    }

    #[test]
    fn zero_runs_are_refused() {
        let opts = Sha256Options {
            runs: 0,
            ..Sha256Options::new(0, 10)
        };
        assert!(run(&opts, &mut |_| {}).is_err());
    }
}
