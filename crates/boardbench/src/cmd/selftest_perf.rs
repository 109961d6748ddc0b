//! `boardbench selftest-perf`: runs every kernel several times in one process and prints, per
//! kernel, the median, the spread and the ratio to its target, so anyone can see the targets of
//! the "Measurement kernels" issue met or missed.
//!
//! This is a benchmark, not a test: nothing here fails on a slow machine. The targets are the
//! ones set for the reference machine (a 2-vCPU AMD EPYC Zen 5 guest); on other hardware the
//! ratios are information only. Ratios are written so that ≤ 1.00 means "target met" for
//! time-like figures and ≥ 1.00 for rate-like figures; the `met` column says which applies.

use anyhow::{Context, bail};
use document::measure::sha256::Sha256Backend;
use loops::{affinity, clock, membw, memlat, sha256, stats};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many times each kernel runs (medians are taken over these).
    #[arg(short = 'n', long, default_value_t = 5)]
    pub repeats: u32,
    /// CPU to pin to (default: the last allowed CPU, away from most interrupts).
    #[arg(long)]
    pub cpu: Option<u32>,
    /// Recursive SHA-256 iterations per run.
    #[arg(long, default_value_t = 20_000_000)]
    pub sha_iterations: u64,
    /// Only these kernels (comma list of clock, sha256, membw, memlat).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

/// Targets of the reference machine, of docs/comparisons.md's Benchmarks section.
mod target {
    /// One clock measurement takes at most this long (wtarreau/mhz: 0.9 s).
    pub const CLOCK_SECONDS: f64 = 0.3;
    /// A clock reading agrees with an independent long measurement within this (percent).
    pub const CLOCK_ERROR_PCT: f64 = 0.5;
    /// Recursive SHA-256 with SHA-NI: cycles per hash at most (instruction-latency bound ~138–140).
    pub const SHA_CYCLES_PER_HASH: f64 = 145.0;
    /// … i.e. at least this many MH/s per 0.1 GHz.
    pub const SHA_MHS_PER_100MHZ: f64 = 0.70;
    /// tinymembench's `libc memcpy copy` on the reference VM, pinned, sbc-bench's quick form
    /// (MB/s). The issue asks for ±3 % of tinymembench measured side by side; this is the
    /// recorded figure, so only a rough guide on a noisy machine.
    pub const TINYMEMBENCH_LIBC_MEMCPY: f64 = 21359.6;
    /// Best copy and fill variant, MB/s.
    pub const BEST_COPY: f64 = 26_000.0;
    pub const BEST_FILL: f64 = 45_000.0;
    /// Quick membw mode per cluster, seconds (tinymembench in sbc-bench's form: 89 s).
    pub const MEMBW_QUICK_SECONDS: f64 = 20.0;
    /// Standard latency table, seconds (ramlat in sbc-bench's form: 32 s).
    pub const MEMLAT_SECONDS: f64 = 15.0;
}

/// One printed row: a figure's samples and how they compare with the target.
struct Row {
    kernel: &'static str,
    figure: String,
    unit: &'static str,
    samples: Vec<f64>,
    target: Option<f64>,
    /// True when larger is better (rates); false for times and cycles.
    higher_is_better: bool,
}

impl Row {
    /// Median / target, and whether the target is met; `None` without a target or samples.
    fn verdict(&self) -> Option<(f64, bool)> {
        let med = stats::median(&self.samples)?;
        let t = self.target.filter(|&t| t > 0.0)?;
        let r = med / t;
        Some((
            r,
            if self.higher_is_better {
                r >= 1.0
            } else {
                r <= 1.0
            },
        ))
    }

    fn render(&self) -> String {
        let med = stats::median(&self.samples).unwrap_or(f64::NAN);
        let spread = stats::stddev_pct(&self.samples)
            .map(|s| format!("{s:5.1}%"))
            .unwrap_or_else(|| "    -".into());
        let (ratio, met) = match self.verdict() {
            Some((r, ok)) => (format!("{r:6.3}"), if ok { "yes" } else { "NO" }),
            None => ("     -".into(), "-"),
        };
        let target = self
            .target
            .map(|t| {
                format!(
                    "{}{}",
                    if self.higher_is_better { "≥" } else { "≤" },
                    fmt_num(t)
                )
            })
            .unwrap_or_else(|| "-".into());
        format!(
            "{:<8} {:<34} {:>11} {:<9} {} {:>10} {} {:>4}  (n={})",
            self.kernel,
            self.figure,
            fmt_num(med),
            self.unit,
            spread,
            target,
            ratio,
            met,
            self.samples.len()
        )
    }
}

fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        "-".into()
    } else if x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    if args.repeats == 0 {
        return Err(crate::output::Usage("--repeats must be at least 1".into()).into());
    }
    if args.sha_iterations == 0 {
        return Err(crate::output::Usage("--sha-iterations must be at least 1".into()).into());
    }
    let known = ["clock", "sha256", "membw", "memlat"];
    for k in &args.only {
        if !known.contains(&k.as_str()) {
            bail!(
                "unknown kernel {k:?} in --only (known: {})",
                known.join(", ")
            );
        }
    }
    let wants = |k: &str| args.only.is_empty() || args.only.iter().any(|o| o == k);
    let cpu = match args.cpu {
        Some(c) => c,
        None => *affinity::allowed_cpus()
            .last()
            .context("no CPU is allowed for this process")?,
    };
    affinity::pin_current_thread(&[cpu]).map_err(|e| anyhow::anyhow!("{e}"))?;
    let n = args.repeats as usize;
    println!(
        "boardbench selftest-perf: {n} repeats per kernel on cpu{cpu}; targets are those of the reference VM (Zen 5 guest)"
    );
    println!(
        "{:<8} {:<34} {:>11} {:<9} {:>6} {:>10} {:>6} {:>4}",
        "kernel", "figure", "median", "unit", "spread", "target", "ratio", "met"
    );

    let mut rows: Vec<Row> = Vec::new();
    let mut emit = |row: Row| {
        println!("{}", row.render());
        rows.push(row);
    };

    if wants("clock") {
        let opts = clock::ClockOptions::default();
        let samples: Vec<_> = (0..n).map(|_| clock::measure(&opts)).collect();
        emit(Row {
            kernel: "clock",
            figure: "measured clock".into(),
            unit: "MHz",
            samples: samples.iter().map(|s| s.mhz).collect(),
            target: None,
            higher_is_better: true,
        });
        emit(Row {
            kernel: "clock",
            figure: "time per measurement".into(),
            unit: "s",
            samples: samples.iter().map(|s| s.elapsed_ns as f64 / 1e9).collect(),
            target: Some(target::CLOCK_SECONDS),
            higher_is_better: false,
        });
    }

    if wants("clock") {
        clock_accuracy_rows(cpu, n, &mut emit)?;
    }

    if wants("sha256") {
        sha_rows(args, n, &mut emit);
    }

    if wants("membw") {
        let variants = membw::available_variants();
        let cfg = membw::Config::quick();
        let mut memcpy = Vec::new();
        let mut memset = Vec::new();
        let mut best_copy = Vec::new();
        let mut best_fill = Vec::new();
        let mut wall = Vec::new();
        let mut best_names = (String::new(), String::new());
        for _ in 0..n {
            let r = membw::run(&[cpu], &variants, &cfg, "quick", None)
                .map_err(|e| anyhow::anyhow!("membw: {e}"))?;
            let get = |name: &str| r.tests.iter().find(|t| t.name == name).map(|t| t.best_mb_s);
            memcpy.extend(get(membw::LIBC_MEMCPY));
            memset.extend(get(membw::LIBC_MEMSET));
            if let Some(b) = &r.best_copy {
                best_copy.extend(get(b));
                best_names.0 = b.clone();
            }
            if let Some(b) = &r.best_fill {
                best_fill.extend(get(b));
                best_names.1 = b.clone();
            }
            wall.push(r.single_wall_s);
        }
        emit(Row {
            kernel: "membw",
            figure: membw::LIBC_MEMCPY.into(),
            unit: "MB/s",
            samples: memcpy,
            target: Some(target::TINYMEMBENCH_LIBC_MEMCPY),
            higher_is_better: true,
        });
        emit(Row {
            kernel: "membw",
            figure: membw::LIBC_MEMSET.into(),
            unit: "MB/s",
            samples: memset,
            target: None,
            higher_is_better: true,
        });
        emit(Row {
            kernel: "membw",
            figure: format!("best copy ({})", best_names.0),
            unit: "MB/s",
            samples: best_copy,
            target: Some(target::BEST_COPY),
            higher_is_better: true,
        });
        emit(Row {
            kernel: "membw",
            figure: format!("best fill ({})", best_names.1),
            unit: "MB/s",
            samples: best_fill,
            target: Some(target::BEST_FILL),
            higher_is_better: true,
        });
        emit(Row {
            kernel: "membw",
            figure: "quick mode wall time (1 cluster)".into(),
            unit: "s",
            samples: wall,
            target: Some(target::MEMBW_QUICK_SECONDS),
            higher_is_better: false,
        });
    }

    if wants("memlat") {
        let cfg = memlat::Config::standard();
        let mut wall = Vec::new();
        let mut l1 = Vec::new();
        let mut dram = Vec::new();
        for _ in 0..n {
            let r =
                memlat::run(&[cpu], &cfg, true, &[]).map_err(|e| anyhow::anyhow!("memlat: {e}"))?;
            wall.push(r.wall_s);
            if let Some(t) = &r.chain {
                let col = t.chains.iter().position(|&c| c == 1).unwrap_or(0);
                if let Some(first) = t.rows.first() {
                    l1.push(first.ns_per_step[col]);
                }
                if let Some(last) = t.rows.last() {
                    dram.push(last.ns_per_step[col]);
                }
            }
        }
        emit(Row {
            kernel: "memlat",
            figure: "1 chain, smallest window".into(),
            unit: "ns",
            samples: l1,
            target: None,
            higher_is_better: false,
        });
        emit(Row {
            kernel: "memlat",
            figure: "1 chain, largest window".into(),
            unit: "ns",
            samples: dram,
            target: None,
            higher_is_better: false,
        });
        emit(Row {
            kernel: "memlat",
            figure: "standard table wall time".into(),
            unit: "s",
            samples: wall,
            target: Some(target::MEMLAT_SECONDS),
            higher_is_better: false,
        });
    }
    let missed = rows
        .iter()
        .filter(|r| matches!(r.verdict(), Some((_, false))))
        .count();
    println!(
        "{} figures, {} with a target, {} missed (information only: exit code is 0)",
        rows.len(),
        rows.iter().filter(|r| r.target.is_some()).count(),
        missed
    );
    Ok(0)
}

/// The clock reading `boardbench clock` takes against an independent long measurement: `n`
/// pairs (reading, then a dependent-chain measurement with 200 ms short runs), the error of
/// each pair's ratio, the reading's wall time and its spread between samples.
fn clock_accuracy_rows(cpu: u32, n: usize, emit: &mut impl FnMut(Row)) -> anyhow::Result<()> {
    use measure::clock_reading::{ReadingOptions, Target, reading};
    let long = clock::ClockOptions {
        short_target_ns: 200_000_000,
        runs: 3,
    };
    let (mut ratio, mut error, mut secs, mut spread) = (vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let t0 = std::time::Instant::now();
        let r = reading(
            Target {
                cpu,
                ..Target::default()
            },
            &ReadingOptions::default(),
        )?;
        secs.push(t0.elapsed().as_secs_f64());
        let reference = clock::measure(&long).mhz;
        if reference > 0.0 && r.mhz > 0.0 {
            ratio.push(r.mhz / reference);
            error.push((r.mhz / reference - 1.0).abs() * 100.0);
        }
        spread.push(r.spread_pct.unwrap_or(0.0));
    }
    emit(Row {
        kernel: "clock",
        figure: "reading / long chain (paired)".into(),
        unit: "ratio",
        samples: ratio,
        target: None,
        higher_is_better: true,
    });
    emit(Row {
        kernel: "clock",
        figure: "reading error vs long chain".into(),
        unit: "%",
        samples: error,
        target: Some(target::CLOCK_ERROR_PCT),
        higher_is_better: false,
    });
    emit(Row {
        kernel: "clock",
        figure: "time per reading (3 samples)".into(),
        unit: "s",
        samples: secs,
        target: Some(target::CLOCK_SECONDS),
        higher_is_better: false,
    });
    emit(Row {
        kernel: "clock",
        figure: "spread within a reading".into(),
        unit: "%",
        samples: spread,
        target: None,
        higher_is_better: false,
    });
    Ok(())
}

/// Recursive SHA-256, fast path and reference, each bracketed by clock measurements on the same
/// core so cycles per hash use the clock of this very run.
fn sha_rows(args: &Args, n: usize, emit: &mut impl FnMut(Row)) {
    let clock_opts = clock::ClockOptions::default();
    let mut backends: Vec<Sha256Backend> = sha256::fast_backend().into_iter().collect();
    backends.push(Sha256Backend::Portable);
    for backend in backends {
        let mut mhs = Vec::new();
        let mut cycles = Vec::new();
        let mut per_100mhz = Vec::new();
        for _ in 0..n {
            let before = clock::measure(&clock_opts).mhz;
            let Some(s) = sha256::run(backend, &sha256::SEED, args.sha_iterations) else {
                continue;
            };
            let after = clock::measure(&clock_opts).mhz;
            let mhz = (before + after) / 2.0;
            mhs.push(s.mhs);
            if mhz > 0.0 && s.mhs > 0.0 {
                cycles.push(mhz / s.mhs);
                per_100mhz.push(s.mhs / (mhz / 100.0));
            }
        }
        let fast = backend.is_hardware();
        let label = backend.label();
        emit(Row {
            kernel: "sha256",
            figure: format!("{label} MH/s"),
            unit: "MH/s",
            samples: mhs,
            target: None,
            higher_is_better: true,
        });
        emit(Row {
            kernel: "sha256",
            figure: format!("{label} cycles per hash"),
            unit: "cycles",
            samples: cycles,
            target: fast.then_some(target::SHA_CYCLES_PER_HASH),
            higher_is_better: false,
        });
        emit(Row {
            kernel: "sha256",
            figure: format!("{label} MH/s per 0.1 GHz"),
            unit: "MH/s",
            samples: per_100mhz,
            target: fast.then_some(target::SHA_MHS_PER_100MHZ),
            higher_is_better: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_direction_follows_the_figure_kind() {
        let time_row = Row {
            kernel: "k",
            figure: "t".into(),
            unit: "s",
            samples: vec![0.2, 0.25, 0.22],
            target: Some(0.3),
            higher_is_better: false,
        };
        assert!(time_row.render().contains(" yes"), "{}", time_row.render());
        let rate_row = Row {
            kernel: "k",
            figure: "r".into(),
            unit: "MB/s",
            samples: vec![10.0, 12.0],
            target: Some(20.0),
            higher_is_better: true,
        };
        assert!(rate_row.render().contains(" NO"), "{}", rate_row.render());
        let no_target = Row {
            target: None,
            ..rate_row
        };
        assert!(
            no_target.render().ends_with("-  (n=2)"),
            "{}",
            no_target.render()
        );
    }
}
