//! `boardbench memlat`: memory latency — ramlat's chain table (1/2/4/8 parallel chains),
//! tinymembench's random reads without and with transparent huge pages, and the cache levels
//! found from the ladder beside those /sys advertises (`measure::caches`, read by
//! `probe::cache`). Rows measured while another task used the CPU are counted once under the
//! table ("7 of 15 rows disturbed"); each row's `disturbed` flag is in the JSON. The kernel is
//! `loops::memlat`, the text `textout::memlat`.

use anyhow::bail;
use loops::memlat::{self, Config};

use super::membw::{parse_size, resolve_cpus};
use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// CPUs to pin the measuring thread to (taskset syntax). Default: the last CPU this process
    /// may use.
    #[arg(long, value_name = "LIST")]
    pub cpu: Option<String>,
    /// Largest window, a power of two (default 64M; units K, M, G).
    #[arg(long, value_name = "SIZE")]
    pub max_size: Option<String>,
    /// Milliseconds per chain-table cell (default 36).
    #[arg(long, value_name = "MS")]
    pub cell_ms: Option<u64>,
    /// Only the chain table (no random-read tables).
    #[arg(long, conflicts_with = "random_only")]
    pub no_random: bool,
    /// Only the random-read tables.
    #[arg(long)]
    pub random_only: bool,
    /// Print the result as JSON (the model's `MemlatResult`).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let mut cfg = Config::standard();
    if let Some(s) = &args.max_size {
        cfg.max_size = parse_size(s)?;
    }
    if let Some(ms) = args.cell_ms {
        if ms == 0 {
            bail!("--cell-ms 0: a cell needs some time to measure");
        }
        cfg.cell_ns = ms.saturating_mul(1_000_000);
    }
    cfg.random = !args.no_random;
    cfg.validate().map_err(anyhow::Error::msg)?;
    let cpus = resolve_cpus(args.cpu.as_deref())?;
    let advertised = measure::caches::advertised(&g.root(), cpus[0]);
    if !args.json {
        eprintln!(
            "measuring memory latency on CPU {} …",
            loops::affinity::format_cpu_list(&cpus)
        );
    }
    let r = memlat::run(&cpus, &cfg, !args.random_only, &advertised).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", textout::memlat::render(&r));
    }
    Ok(0)
}
