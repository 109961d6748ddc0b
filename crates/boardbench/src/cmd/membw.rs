//! `boardbench membw`: memory bandwidth by tinymembench's method — sbc-bench's headline
//! `libc memcpy copy` / `libc memset fill`, read bandwidth, the architecture's best variants and
//! the all-cores aggregate. The kernel is `loops::membw`, the text `textout::membw`.
//!
//! Also home of the small parsers `memlat` shares: CPU lists checked against the CPUs this
//! process may use, and sizes with binary units.

use anyhow::{Context, bail};
use document::measure::membw::BwKind;
use loops::membw::{self, Config};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// CPUs to pin the single-threaded tests to (taskset syntax: "1", "4-7"). Default: the last
    /// CPU this process may use (on big.LITTLE boards usually a big core).
    #[arg(long, value_name = "LIST", value_parser = crate::values::cpu_list)]
    pub cpu: Option<String>,
    /// tinymembench's full method: batches of ≥ 0.5 s re-found by doubling for every sample, up
    /// to 10 samples (minutes instead of seconds).
    #[arg(long)]
    pub full: bool,
    /// Measure only these variants (repeat the option or separate names by commas; see --list).
    #[arg(long = "variant", value_name = "NAME", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// List the variants this CPU can run and exit.
    #[arg(long)]
    pub list: bool,
    /// CPUs for the all-cores aggregate (default: every CPU this process may use).
    #[arg(long, value_name = "LIST", value_parser = crate::values::cpu_list)]
    pub aggregate_cpus: Option<String>,
    /// Skip the all-cores aggregate.
    #[arg(long, conflicts_with = "aggregate_cpus")]
    pub no_aggregate: bool,
    /// Size of the source and of the destination buffer (default 32M; units K, M, G = KiB, MiB, GiB).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Maximum samples per test (default 10; libc memcpy/memset: tinymembench's 2–3 unless this
    /// is given, which measures them by the mode's method too).
    #[arg(long, value_name = "N")]
    pub samples: Option<u32>,
    /// Print the result as JSON (the model's `MembwResult`).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    if args.list {
        for v in membw::available_variants() {
            let kind = match v.kind() {
                BwKind::Copy => "copy",
                BwKind::Fill => "fill",
                BwKind::Read => "read",
            };
            println!("{kind}  {}", v.name);
        }
        return Ok(0);
    }
    let mut cfg = if args.full {
        Config::full()
    } else {
        Config::quick()
    };
    if let Some(s) = &args.size {
        let n = parse_size(s).map_err(|e| crate::output::Usage(format!("--size: {e}")))?;
        cfg.buffer_bytes = usize::try_from(n)
            .map_err(|_| crate::output::Usage(format!("--size: {s:?} is too large")))?;
    }
    if let Some(n) = args.samples {
        if n == 0 {
            return Err(
                crate::output::Usage("--samples 0: at least one sample is needed".into()).into(),
            );
        }
        cfg.max_samples = n;
        cfg.min_samples = cfg.min_samples.min(n);
        // Samples asked for: every variant by this mode's method, the headline ones too (else
        // they follow tinymembench's -b 2 -B 3, see loops::membw).
        cfg.headline_tinymembench = false;
    }
    // A buffer or sample count the kernel cannot use is the caller's value: a usage error.
    cfg.validate()
        .map_err(|e| crate::output::Usage(format!("--size/--samples: {e}")))?;
    let cpus = resolve_cpus(args.cpu.as_deref())?;
    let variants = if args.variants.is_empty() {
        membw::available_variants()
    } else {
        membw::select_variants(&args.variants).map_err(crate::output::Usage)?
    };
    let aggregate = if args.no_aggregate {
        None
    } else {
        Some(match &args.aggregate_cpus {
            Some(list) => resolve_cpus(Some(list))?,
            None => loops::affinity::allowed_cpus(),
        })
    };
    let mode = if args.full { "full" } else { "quick" };
    if !args.json {
        eprintln!(
            "measuring {} test(s) on CPU {} ({mode} mode) …",
            variants.len(),
            loops::affinity::format_cpu_list(&cpus)
        );
    }
    let r = membw::run(&cpus, &variants, &cfg, mode, aggregate.as_deref())
        .map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", textout::membw::render(&r));
    }
    Ok(0)
}

/// A CPU list from the command line, checked against the CPUs this process may use; without
/// one, the last of them.
pub fn resolve_cpus(list: Option<&str>) -> anyhow::Result<Vec<u32>> {
    let allowed = loops::affinity::allowed_cpus();
    let Some(list) = list else {
        return allowed
            .last()
            .map(|&c| vec![c])
            .context("cannot read this process's CPU affinity");
    };
    let cpus = loops::affinity::parse_cpu_list(list).map_err(|e| anyhow::anyhow!("--cpu: {e}"))?;
    crate::values::allowed_cpus(&cpus, "--cpu")?;
    Ok(cpus)
}

/// A size in bytes: a number with an optional binary unit (B, K/KiB, M/MiB, G/GiB; case does
/// not matter). "32M" = 33554432.
pub fn parse_size(s: &str) -> anyhow::Result<u64> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        bail!("size {s:?} does not start with a number");
    }
    let n: u64 = num
        .parse()
        .with_context(|| format!("size {s:?} is too large"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        other => bail!("unknown unit {other:?} in size {s:?} (use K, M or G)"),
    };
    n.checked_mul(mult)
        .with_context(|| format!("size {s:?} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_units() {
        assert_eq!(parse_size("32M").unwrap(), 32 << 20);
        assert_eq!(parse_size("4k").unwrap(), 4096);
        assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
        assert_eq!(parse_size("100").unwrap(), 100);
        let e = parse_size("32X").unwrap_err().to_string();
        assert!(e.contains("unknown unit") && e.contains("32X"), "{e}");
        assert!(parse_size("M").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
    }

    #[test]
    fn cpu_lists_are_checked_against_the_allowed_cpus() {
        let e = resolve_cpus(Some("999")).unwrap_err().to_string();
        assert!(e.contains("CPU 999 not online"), "{e}");
        assert!(resolve_cpus(Some("x")).is_err());
        let allowed = loops::affinity::allowed_cpus();
        assert_eq!(resolve_cpus(None).unwrap(), vec![*allowed.last().unwrap()]);
    }
}
