//! `boardbench membw`: memory bandwidth by tinymembench's method — sbc-bench's headline
//! `libc memcpy copy` / `libc memset fill`, read bandwidth, the architecture's best variants and
//! the all-cores aggregate.
//!
//! Also home of the small parsers `memlat` shares: CPU lists checked against the CPUs this
//! process may use, and sizes with binary units.

use anyhow::{Context, bail};
use document::measure::membw::{BwKind, BwTest, MembwResult};
use loops::membw::{self, Config};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// CPUs to pin the single-threaded tests to (taskset syntax: "1", "4-7"). Default: the last
    /// CPU this process may use (on big.LITTLE boards usually a big core).
    #[arg(long, value_name = "LIST")]
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
    #[arg(long, value_name = "LIST")]
    pub aggregate_cpus: Option<String>,
    /// Skip the all-cores aggregate.
    #[arg(long, conflicts_with = "aggregate_cpus")]
    pub no_aggregate: bool,
    /// Size of the source and of the destination buffer (default 32M; units K, M, G = KiB, MiB, GiB).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Maximum samples per test (default 10).
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
        cfg.buffer_bytes = usize::try_from(parse_size(s)?).context("buffer size")?;
    }
    if let Some(n) = args.samples {
        if n == 0 {
            bail!("--samples 0: at least one sample is needed");
        }
        cfg.max_samples = n;
        cfg.min_samples = cfg.min_samples.min(n);
    }
    cfg.validate().map_err(anyhow::Error::msg)?;
    let cpus = resolve_cpus(args.cpu.as_deref())?;
    let variants = if args.variants.is_empty() {
        membw::available_variants()
    } else {
        membw::select_variants(&args.variants).map_err(anyhow::Error::msg)?
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
        print!("{}", render(&r));
    }
    Ok(0)
}

/// tinymembench's "(samples, stddev %)" suffix, the spread shown only above 0.1 %.
fn spread_suffix(n: usize, spread: Option<f64>) -> String {
    match spread {
        Some(s) if s >= 0.1 => format!(" ({n}, {s:.1}%)"),
        _ => String::new(),
    }
}

fn line(t: &BwTest) -> String {
    let disturbed = if t.disturbed {
        format!("   ({})", measure::disturbance::REMARK)
    } else {
        String::new()
    };
    format!(
        " {:<32} : {:>9.1} MB/s{}{disturbed}\n",
        t.name,
        t.best_mb_s,
        spread_suffix(t.samples_mb_s.len(), t.spread_pct)
    )
}

/// The text report.
pub fn render(r: &MembwResult) -> String {
    let cpus = loops::affinity::format_cpu_list(&r.cpus);
    let mut out = format!(
        "Memory bandwidth on CPU {cpus} ({} mode, {} buffers; MB/s, 1 MB = 10^6 B, a copy counts each byte once)\n",
        r.mode,
        loops::memlat::caches::format_bytes(r.buffer_bytes)
    );
    for t in &r.tests {
        out += &line(t);
    }
    let find = |name: &Option<String>| {
        name.as_ref()
            .and_then(|n| r.tests.iter().find(|t| &t.name == n))
    };
    let libc = |n: &str| r.tests.iter().find(|t| t.name == n);
    for (what, best, head) in [
        ("copy", find(&r.best_copy), libc(membw::LIBC_MEMCPY)),
        ("fill", find(&r.best_fill), libc(membw::LIBC_MEMSET)),
        ("read", find(&r.best_read), None),
    ] {
        let Some(b) = best else { continue };
        out += &format!("Best {what}: {} {:.1} MB/s", b.name, b.best_mb_s);
        if let Some(h) = head.filter(|h| h.name != b.name && b.best_mb_s > 0.0) {
            out += &format!(
                " ({} reaches {:.0} % of it)",
                h.name,
                h.best_mb_s / b.best_mb_s * 100.0
            );
        }
        out += "\n";
    }
    if let Some(a0) = r.aggregate.first() {
        out += &format!(
            "All cores (CPUs {}, one pinned thread each, own buffers, started together):\n",
            loops::affinity::format_cpu_list(&a0.cpus)
        );
        for a in &r.aggregate {
            let per: Vec<String> = a
                .cpus
                .iter()
                .zip(&a.per_thread_mb_s)
                .map(|(c, v)| format!("CPU {c} {v:.1}"))
                .collect();
            out += &format!(
                " {:<32} : {:>9.1} MB/s{} = {}\n",
                a.name,
                a.total_mb_s,
                spread_suffix(a.samples_mb_s.len(), a.spread_pct),
                per.join(" + ")
            );
        }
    }
    out += &format!(
        "Took {:.1} s (single-threaded {:.1} s, aggregate {:.1} s)\n",
        r.single_wall_s + r.aggregate_wall_s,
        r.single_wall_s,
        r.aggregate_wall_s
    );
    out
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
    let bad: Vec<String> = cpus
        .iter()
        .filter(|c| !allowed.contains(c))
        .map(u32::to_string)
        .collect();
    if !bad.is_empty() {
        bail!(
            "CPU {} not online or not allowed for this process (allowed: {})",
            bad.join(","),
            loops::affinity::format_cpu_list(&allowed)
        );
    }
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

    #[test]
    fn a_disturbed_test_says_so_next_to_its_figure() {
        let mut t = BwTest {
            name: "libc memcpy copy".into(),
            kind: BwKind::Copy,
            headline: true,
            samples_mb_s: vec![2931.0],
            best_mb_s: 2931.0,
            median_mb_s: 2931.0,
            spread_pct: None,
            calls_per_sample: 1,
            descheduled_retries: 3,
            disturbed: true,
        };
        assert_eq!(
            line(&t),
            " libc memcpy copy                 :    2931.0 MB/s   (disturbed: another task used the measured CPU)\n"
        );
        t.disturbed = false;
        assert_eq!(
            line(&t),
            " libc memcpy copy                 :    2931.0 MB/s\n"
        );
    }

    #[test]
    fn spread_is_shown_only_above_a_tenth_of_a_percent() {
        assert_eq!(spread_suffix(3, Some(3.71)), " (3, 3.7%)");
        assert_eq!(spread_suffix(3, Some(0.05)), "");
        assert_eq!(spread_suffix(1, None), "");
    }
}
