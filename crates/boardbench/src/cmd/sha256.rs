//! `boardbench sha256`: the Fast Recursive SHA256 benchmark, built in.
//!
//! `hash ← SHA256(hash)` N times from 32 zero bytes; each step is one compression, and each
//! depends on the previous one, so the figure is the latency of the SHA unit. Options as the
//! original: `-i/--iterations` (10M, 50M, 100M default, 200M, 500M or any count), `-s/--ghz`
//! (only normalises), `-m/--unit MH|MB|MiB|cpb`. Beyond the original:
//! - without `-s` the clock of the pinned core is measured before and after (the mhz method), so
//!   "P/U" (MH/s per 0.1 GHz) and cycles per hash are real, not guessed;
//! - the backend is named (SHA-NI, ARMv8 SHA2, portable) and a portable result is never called
//!   "Fast": without SHA instructions only the Reference is reported;
//! - each result is the best of `--runs` runs, with the spread when it exceeds 0.1 %.
//!
//! The Reference is portable Rust, about seven times slower than the hardware paths, so it runs a
//! tenth of the iterations by default (`--reference-iterations`; its rate does not depend on N).
//! The Fast digest is verified against the Reference's at that count.

use std::fmt::Write as _;

use anyhow::bail;
use kernels::clock::{ClockOptions, measure};
use kernels::sha256::{SEED, Sha256Backend, Sha256Sample, chain, fast_backend, hex};
use model::measure::sha256::{Sha256Report, Sha256Result};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Recursive hashes per run: a count with an optional k/M/G suffix (10M, 50M, 100M, 200M,
    /// 500M …).
    #[arg(short = 'i', long, default_value = "100M", value_name = "N")]
    pub iterations: String,
    /// Normalise to this clock (GHz) instead of measuring it.
    #[arg(short = 's', long, value_name = "GHZ")]
    pub ghz: Option<f64>,
    /// Unit of the results: MH (MH/s), MB (MB/s, 64-byte blocks), MiB (MiB/s) or cpb (cycles per
    /// block and per byte).
    #[arg(short = 'm', long, default_value = "MH", value_name = "UNIT")]
    pub unit: String,
    /// Pin to this CPU (default: the first core of the last cluster).
    #[arg(long, value_name = "CPU")]
    pub cpu: Option<u32>,
    /// Timed runs of each implementation (the best counts).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub runs: u32,
    /// Iterations of the portable Reference (default: a tenth of --iterations).
    #[arg(long, value_name = "N")]
    pub reference_iterations: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The result units of the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Mh,
    Mb,
    Mib,
    Cpb,
}

impl Unit {
    pub fn parse(s: &str) -> anyhow::Result<Unit> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "mh" => Unit::Mh,
            "mb" => Unit::Mb,
            "mib" => Unit::Mib,
            "cpb" => Unit::Cpb,
            _ => bail!("unknown unit {s:?}: use MH, MB, MiB or cpb"),
        })
    }
}

/// A count like 100M, 2.5M, 500k, 1G or 12345 (decimal suffixes, as the original's table).
pub fn parse_count(s: &str) -> anyhow::Result<u64> {
    let t = s.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1e3),
        Some((i, 'm' | 'M')) => (&t[..i], 1e6),
        Some((i, 'g' | 'G')) => (&t[..i], 1e9),
        _ => (t, 1.0),
    };
    let bad = || anyhow::anyhow!("bad iteration count {s:?} (a number like 100M, 500k or 12345)");
    let n = if mult == 1.0 {
        num.parse::<u64>().map_err(|_| bad())?
    } else {
        let x: f64 = num.parse().map_err(|_| bad())?;
        if !x.is_finite() || x < 0.0 || x * mult > 1e15 {
            return Err(bad());
        }
        (x * mult).round() as u64
    };
    if n == 0 {
        bail!("iterations must be at least 1 (got {s:?})");
    }
    Ok(n)
}

/// The clock-dependent figures of a result.
fn normalise(r: &mut Sha256Result, clock_mhz: Option<f64>) {
    if let Some(mhz) = clock_mhz.filter(|&m| m > 0.0)
        && r.mhs > 0.0
    {
        r.mhs_per_100mhz = Some(r.mhs / (mhz / 100.0));
        r.cycles_per_hash = Some(mhz / r.mhs);
    }
}

fn result(role: &str, backend: Sha256Backend, samples: Vec<Sha256Sample>) -> Sha256Result {
    let rates: Vec<f64> = samples.iter().map(|s| s.mhs).collect();
    Sha256Result {
        role: role.to_string(),
        backend,
        mhs: kernels::stats::max(&rates).unwrap_or(0.0),
        spread_pct: kernels::stats::stddev_pct(&rates),
        mhs_per_100mhz: None,
        cycles_per_hash: None,
        verified: false,
        samples,
    }
}

fn default_cpu(root: &probe::Root) -> Option<u32> {
    let mut notes = probe::Notes::default();
    let cpuinfo = probe::cpuinfo::read(root, &mut notes);
    let sets = probe::topology::read_sets(root, &mut notes);
    let ids = probe::topology::read_ids(root, &mut notes, &sets);
    let policies = probe::cpufreq::read_policies(root, &mut notes);
    let clusters = probe::cluster::group(&ids, &policies, &cpuinfo);
    let allowed = kernels::affinity::allowed_cpus();
    clusters
        .iter()
        .rev()
        .filter_map(|c| c.online_cpus().first().copied())
        .find(|c| allowed.contains(c))
        .or_else(|| allowed.first().copied())
}

fn clock_now() -> f64 {
    let o = ClockOptions::default();
    let v: Vec<f64> = (0..3).map(|_| measure(&o).mhz).collect();
    kernels::stats::mean(&v).unwrap_or(0.0)
}

pub fn run_cmd(args: &Args, g: &Globals) -> anyhow::Result<(Sha256Report, Unit)> {
    let unit = Unit::parse(&args.unit)?;
    let n = parse_count(&args.iterations)?;
    let ref_n = match &args.reference_iterations {
        Some(s) => parse_count(s)?,
        None => (n / 10).max(1),
    };
    if let Some(ghz) = args.ghz
        && !(ghz > 0.0 && ghz < 100.0)
    {
        bail!("--ghz must be a clock in GHz like 3.6 (got {ghz})");
    }
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let cpu = match args.cpu {
        Some(c) => c,
        None => default_cpu(&g.root()).ok_or_else(|| anyhow::anyhow!("no CPU to run on"))?,
    };
    let fast = fast_backend();
    let report = crate::cmd::clock::pinned(cpu, || {
        let before = args.ghz.is_none().then(clock_now);
        // Warm-up (the original's "spin run"), bounded: the clock only needs to ramp up.
        let warm = fast.unwrap_or(Sha256Backend::Portable);
        chain(
            warm,
            &SEED,
            n.min(if fast.is_some() { 5_000_000 } else { 500_000 }),
        );
        let fast_result = fast.map(|b| {
            let samples = (0..args.runs)
                .filter_map(|_| kernels::sha256::run(b, &SEED, n))
                .collect();
            result("Fast", b, samples)
        });
        let ref_samples = (0..args.runs)
            .filter_map(|_| kernels::sha256::run(Sha256Backend::Portable, &SEED, ref_n))
            .collect();
        let mut reference = result("Reference", Sha256Backend::Portable, ref_samples);
        let after = args.ghz.is_none().then(clock_now);
        let clock = match (args.ghz, before, after) {
            (Some(ghz), _, _) => Some(ghz * 1000.0),
            (None, Some(b), Some(a)) if b > 0.0 && a > 0.0 => Some((a + b) / 2.0),
            _ => None,
        };
        // Verification: the Reference's digest is the truth; the Fast path must give the same
        // after the same count, and all runs of one implementation must agree.
        let ref_digest = reference.samples.first().map(|s| s.digest.clone());
        reference.verified = reference
            .samples
            .iter()
            .all(|s| Some(&s.digest) == ref_digest.as_ref());
        normalise(&mut reference, clock);
        let fast_result = fast_result.map(|mut f| {
            let same_runs = f.samples.windows(2).all(|w| w[0].digest == w[1].digest);
            let at_ref_n = chain(f.backend, &SEED, ref_n).map(|d| hex(&d));
            f.verified = same_runs && at_ref_n.is_some() && at_ref_n == ref_digest;
            normalise(&mut f, clock);
            f
        });
        Sha256Report {
            iterations: n,
            cpu: Some(cpu),
            clock_mhz: clock,
            clock_source: clock.map(|_| {
                if args.ghz.is_some() {
                    "given".to_string()
                } else {
                    "measured".to_string()
                }
            }),
            clock_before_mhz: before,
            clock_after_mhz: after,
            fast: fast_result,
            reference,
        }
    })?;
    Ok((report, unit))
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let (report, unit) = run_cmd(args, g)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report, unit));
    }
    let ok = report.reference.verified && report.fast.as_ref().is_none_or(|f| f.verified);
    if !ok {
        eprintln!("boardbench: the final digests do not agree: results are invalid");
        return Ok(2);
    }
    Ok(0)
}

fn count_text(n: u64) -> String {
    if n >= 1_000_000 && n.is_multiple_of(1_000_000) {
        format!("{}M", n / 1_000_000)
    } else if n >= 1000 && n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// The text report: one row for Fast and one for Reference, as the original's tables.
pub fn render(r: &Sha256Report, unit: Unit) -> String {
    let mut o = String::new();
    let ref_n = r.reference.samples.first().map_or(0, |s| s.iterations);
    let clock = match (r.clock_mhz, r.clock_source.as_deref()) {
        (Some(c), Some("given")) => format!("clock {:.0} MHz (given)", c),
        (Some(c), _) => format!(
            "clock {:.0} MHz (measured before/after: {:.0}/{:.0})",
            c,
            r.clock_before_mhz.unwrap_or(0.0),
            r.clock_after_mhz.unwrap_or(0.0)
        ),
        _ => "clock unknown".to_string(),
    };
    let _ = writeln!(
        o,
        "Recursive SHA-256 on cpu{}: {} iterations (Reference {}), {clock}",
        r.cpu.map_or("?".to_string(), |c| c.to_string()),
        count_text(r.iterations),
        count_text(ref_n),
    );
    let (head, per) = match unit {
        Unit::Mh => ("MH/s", "P/U (MH/s per 0.1 GHz)"),
        Unit::Mb => ("MB/s", "P/U (MB/s per 0.1 GHz)"),
        Unit::Mib => ("MiB/s", "P/U (MiB/s per 0.1 GHz)"),
        Unit::Cpb => ("cycles/block", "cycles/byte"),
    };
    let _ = writeln!(o, "\n{:<11}{:<12}{:>13}   {}", "", "backend", head, per);
    let row = |o: &mut String, x: &Sha256Result| {
        let scale = match unit {
            Unit::Mh => 1.0,
            Unit::Mb => 64.0,
            Unit::Mib => 64.0 * 1e6 / 1_048_576.0,
            Unit::Cpb => 1.0,
        };
        let (a, b) = match unit {
            Unit::Cpb => (
                x.cycles_per_hash.map_or("-".into(), |c| format!("{c:.1}")),
                x.cycles_per_hash
                    .map_or("-".into(), |c| format!("{:.2}", c / 64.0)),
            ),
            _ => (
                format!("{:.2}", x.mhs * scale),
                x.mhs_per_100mhz
                    .map_or("-".into(), |p| format!("{:.3}", p * scale)),
            ),
        };
        let mut extra = String::new();
        if unit != Unit::Cpb
            && let Some(c) = x.cycles_per_hash
        {
            let _ = write!(extra, "   {c:.1} cycles/hash");
        }
        let _ = write!(extra, "   (best of {}", x.samples.len());
        if let Some(sp) = x.spread_pct.filter(|&s| s > 0.1) {
            let _ = write!(extra, ", spread {sp:.1}%");
        }
        extra.push(')');
        let _ = writeln!(
            o,
            "{:<11}{:<12}{:>13}   {:<23}{}",
            x.role,
            x.backend.label(),
            a,
            b,
            extra
        );
    };
    match &r.fast {
        Some(f) => row(&mut o, f),
        None => {
            let _ = writeln!(
                o,
                "{:<11}not available: no SHA-NI or ARMv8 SHA2 on this CPU (the portable code is only the Reference)",
                "Fast"
            );
        }
    }
    row(&mut o, &r.reference);
    let digest = r.fast.as_ref().unwrap_or(&r.reference);
    if let Some(s) = digest.samples.first() {
        let verdict = match (&r.fast, digest.verified) {
            (Some(_), true) => format!(
                "verified: Fast = Reference after {} iterations",
                count_text(ref_n)
            ),
            (None, true) => "all runs agree".to_string(),
            (_, false) => "NOT VERIFIED: digests disagree".to_string(),
        };
        let _ = writeln!(
            o,
            "\nFinal digest after {}: {} ({verdict})",
            count_text(s.iterations),
            s.digest
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_suffixes() {
        assert_eq!(parse_count("100M").unwrap(), 100_000_000);
        assert_eq!(parse_count("2.5M").unwrap(), 2_500_000);
        assert_eq!(parse_count("500k").unwrap(), 500_000);
        assert_eq!(parse_count("1G").unwrap(), 1_000_000_000);
        assert_eq!(parse_count("12345").unwrap(), 12345);
        assert!(
            parse_count("0")
                .unwrap_err()
                .to_string()
                .contains("at least 1")
        );
        assert!(parse_count("0M").is_err());
        assert!(parse_count("-5M").is_err());
        assert!(parse_count("x").is_err());
        assert!(parse_count("").is_err());
        assert_eq!(count_text(100_000_000), "100M");
    }

    #[test]
    fn units_are_the_originals() {
        assert_eq!(Unit::parse("MH").unwrap(), Unit::Mh);
        assert_eq!(Unit::parse("MiB").unwrap(), Unit::Mib);
        assert_eq!(Unit::parse("cpb").unwrap(), Unit::Cpb);
        assert!(
            Unit::parse("GB")
                .unwrap_err()
                .to_string()
                .contains("unknown unit")
        );
    }

    fn sample(backend: Sha256Backend, mhs: f64) -> Sha256Sample {
        Sha256Sample {
            backend,
            iterations: 1_000_000,
            wall_ns: 1,
            cpu_ns: 1,
            digest: "ab".into(),
            mhs,
        }
    }

    #[test]
    fn render_shows_fast_and_reference_rows_with_per_clock_figures() {
        let mut fast = result(
            "Fast",
            Sha256Backend::ShaNi,
            vec![sample(Sha256Backend::ShaNi, 25.0)],
        );
        fast.verified = true;
        normalise(&mut fast, Some(3500.0));
        let mut reference = result(
            "Reference",
            Sha256Backend::Portable,
            vec![sample(Sha256Backend::Portable, 3.5)],
        );
        reference.verified = true;
        normalise(&mut reference, Some(3500.0));
        assert_eq!(fast.cycles_per_hash, Some(140.0));
        assert!((fast.mhs_per_100mhz.unwrap() - 0.714).abs() < 0.001);
        let r = Sha256Report {
            iterations: 10_000_000,
            cpu: Some(1),
            clock_mhz: Some(3500.0),
            clock_source: Some("given".into()),
            clock_before_mhz: None,
            clock_after_mhz: None,
            fast: Some(fast),
            reference,
        };
        let t = render(&r, Unit::Mh);
        assert!(t.contains("Fast       SHA-NI"), "{t}");
        assert!(t.contains("25.00"), "{t}");
        assert!(t.contains("0.714"), "{t}");
        assert!(t.contains("140.0 cycles/hash"), "{t}");
        assert!(t.contains("Reference  portable"), "{t}");
        let t = render(&r, Unit::Cpb);
        assert!(t.contains("140.0"), "{t}");
        assert!(t.contains("2.19"), "{t}");
        let t = render(&r, Unit::Mb);
        assert!(t.contains("1600.00"), "{t}");
    }
}
