//! `boardbench sha256`: the Fast Recursive SHA256 benchmark, built in.
//!
//! `hash ← SHA256(hash)` N times from 32 zero bytes; each step is one compression, and each
//! depends on the previous one, so the figure is the latency of the SHA unit. Options as the
//! original: `-i/--iterations` (10M, 50M, 100M default, 200M, 500M or any count), `-s/--ghz`
//! (only normalises), `-m/--unit MH|MB|MiB|cpb`. The procedure is `measure::sha256`; this
//! module parses the options and shows progress; the text is `textout::sha256`. Beyond the original:
//! - three labelled rows: **Fast** (SHA extensions, latency-optimised), **Reference** (SHA
//!   extensions written straightforwardly — the figure the original publishes and people
//!   compare) and **Portable** (no special instructions, a tenth of the iterations by default,
//!   `--portable-iterations`; its rate does not depend on N). Without SHA-NI / ARMv8 SHA2 the
//!   output says so and only Portable runs;
//! - without `-s` the clock of the pinned core is measured before and after, so "P/U" (MH/s
//!   per 0.1 GHz) and cycles per hash are real, not guessed;
//! - each result is the best of `--runs` runs, with the spread beyond 0.1 % and a remark when
//!   another task used the CPU meanwhile;
//! - on a terminal a progress line on stderr says what runs (nothing extra when piped).

use std::io::{IsTerminal, Write as _};

use anyhow::bail;
use measure::sha256::{Sha256Options, Step};
use textout::sha256::{Unit, count_text};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Recursive hashes per run of Fast and Reference: a count with an optional k/M/G suffix
    /// (10M, 50M, 100M, 200M, 500M …).
    #[arg(short = 'i', long, default_value = "100M", value_name = "N",
          value_parser = crate::values::count)]
    pub iterations: String,
    /// Normalise to this clock (GHz) instead of measuring it.
    #[arg(short = 's', long, value_name = "GHZ", value_parser = crate::values::ghz)]
    pub ghz: Option<f64>,
    /// Unit of the results: MH (MH/s), MB (MB/s, 64-byte blocks), MiB (MiB/s) or cpb (cycles per
    /// block and per byte).
    #[arg(short = 'm', long, default_value = "MH", value_name = "UNIT",
          value_parser = unit_name)]
    pub unit: String,
    /// Pin to this CPU (default: the first core of the last cluster).
    #[arg(long, value_name = "CPU")]
    pub cpu: Option<u32>,
    /// Timed runs of each implementation (the best counts). One by default, as the
    /// original (the rate of a dependent chain hardly varies); 3 on a noisy machine.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Iterations of Portable (default: a tenth of --iterations).
    #[arg(long, value_name = "N", alias = "reference-iterations",
          value_parser = crate::values::count)]
    pub portable_iterations: Option<String>,
    /// Skip the Portable row when the CPU has the SHA extension.
    #[arg(long)]
    pub no_portable: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `-m`: a unit `Unit::parse` knows, kept as given.
fn unit_name(s: &str) -> Result<String, String> {
    Unit::parse(s).map(|_| s.to_string())
}

/// A count like 100M, 2.5M, 500k, 1G or 12345 (`crate::values::parse_count`).
pub fn parse_count(s: &str) -> anyhow::Result<u64> {
    crate::values::parse_count(s).map_err(anyhow::Error::msg)
}

fn default_cpu(root: &probe::Root) -> Option<u32> {
    let mut notes = probe::Notes::default();
    let cpuinfo = probe::cpuinfo::read(root, &mut notes);
    let sets = probe::topology::read_sets(root, &mut notes);
    let ids = probe::topology::read_ids(root, &mut notes, &sets);
    let policies = probe::cpufreq::read_policies(root, &mut notes);
    let clusters = probe::cluster::group(&ids, &policies, &cpuinfo);
    let allowed = loops::affinity::allowed_cpus();
    clusters
        .iter()
        .rev()
        .filter_map(|c| c.online_cpus().first().copied())
        .find(|c| allowed.contains(c))
        .or_else(|| allowed.first().copied())
}

/// The procedure's options from the command line.
fn options(args: &Args, g: &Globals) -> anyhow::Result<Sha256Options> {
    let n = parse_count(&args.iterations)?;
    if let Some(ghz) = args.ghz
        && !(ghz > 0.0 && ghz < 100.0)
    {
        bail!("--ghz must be a clock in GHz like 3.6 (got {ghz})");
    }
    if args.runs == 0 {
        return Err(crate::output::Usage("--runs must be at least 1".into()).into());
    }
    let cpu = match args.cpu {
        Some(c) => {
            crate::values::allowed_cpus(&[c], "--cpu")?;
            c
        }
        None => default_cpu(&g.root()).ok_or_else(|| anyhow::anyhow!("no CPU to run on"))?,
    };
    let mut o = Sha256Options::new(cpu, n);
    if let Some(s) = &args.portable_iterations {
        o.portable_iterations = parse_count(s)?;
    }
    o.runs = args.runs;
    o.given_mhz = args.ghz.map(|g| g * 1000.0);
    o.portable = !args.no_portable;
    Ok(o)
}

/// The progress line's text for a step.
fn step_text(s: Step, o: &Sha256Options) -> String {
    match s {
        Step::Clock { after: false } => "measuring the clock before".into(),
        Step::Clock { after: true } => "measuring the clock after".into(),
        Step::WarmUp => "warm-up".into(),
        Step::Run { variant, run, runs } => {
            let n = if variant == loops::sha256::Variant::Portable {
                o.portable_iterations
            } else {
                o.iterations
            };
            format!(
                "{} run {run}/{runs} ({} iterations)",
                variant.label(),
                count_text(n)
            )
        }
    }
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let unit = Unit::parse(&args.unit).map_err(anyhow::Error::msg)?;
    let opts = options(args, g)?;
    let tty = std::io::stderr().is_terminal();
    if !tty {
        // Without a terminal there is no progress line: one line says what runs, so a log or a
        // CI job does not look hung.
        let rows = if opts.portable && loops::sha256::fast_backend().is_some() {
            "Fast, Reference and Portable"
        } else if loops::sha256::fast_backend().is_some() {
            "Fast and Reference"
        } else {
            "Portable"
        };
        eprintln!(
            "sha256 on cpu{}: {rows}, {} run(s) each of {} recursive hashes (Portable {}) …",
            opts.cpu,
            opts.runs,
            count_text(opts.iterations),
            count_text(opts.portable_iterations)
        );
    }
    let mut progress = |s: Step| {
        if tty {
            let mut e = std::io::stderr();
            let _ = write!(
                e,
                "\r\x1b[Ksha256 on cpu{}: {} …",
                opts.cpu,
                step_text(s, &opts)
            );
            let _ = e.flush();
        }
    };
    let report = measure::sha256::run(&opts, &mut progress);
    if tty {
        eprint!("\r\x1b[K");
    }
    let report = report?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", textout::sha256::render(&report, unit));
    }
    if !measure::sha256::all_verified(&report) {
        eprintln!("boardbench: the final digests do not agree: results are invalid");
        return Ok(2);
    }
    Ok(0)
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
    }
}
