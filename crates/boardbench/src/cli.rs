//! The command line: global options and the subcommands. Each subcommand's own options live in
//! its module under `cmd/`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::cmd;

#[derive(Debug, Parser)]
#[command(
    name = "boardbench",
    version,
    about = "How fast a single-board computer (or any Linux box) really is, and why"
)]
pub struct Cli {
    #[command(flatten)]
    pub globals: Globals,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command understands.
#[derive(Debug, Clone, clap::Args)]
pub struct Globals {
    /// Read the machine from this directory instead of / (a fixture tree, a mounted image).
    #[arg(long, global = true, value_name = "DIR", env = "BOARDBENCH_SYSROOT", value_parser = existing_dir)]
    pub sysroot: Option<PathBuf>,
    /// Use this file as /proc/cpuinfo (sbc-bench's CPUINFOFILE).
    #[arg(long, global = true, value_name = "FILE", env = "CPUINFOFILE")]
    pub cpuinfo_file: Option<PathBuf>,
}

/// `--sysroot` must name a directory: a typo would otherwise report every value "unknown".
fn existing_dir(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() {
        Ok(p)
    } else if p.exists() {
        Err("not a directory".into())
    } else {
        Err("no such directory".into())
    }
}

impl Globals {
    /// The root every probe reads through.
    pub fn root(&self) -> probe::Root {
        let dir = self.sysroot.clone().unwrap_or_else(|| PathBuf::from("/"));
        probe::Root::new(dir).with_cpuinfo_file(self.cpuinfo_file.clone())
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the hardware, topology, thermal source, memory and settings (sbc-bench's header).
    Info(cmd::info::Args),
    /// Live view of clocks, load, CPU states and temperature (sbc-bench -m).
    Monitor(cmd::monitor::Args),
    /// Measure the real CPU clock of each cluster (and each cpufreq OPP with --opp-walk).
    Clock(cmd::clock::Args),
    /// Measure memory bandwidth (libc memcpy/memset as sbc-bench, and the best variants).
    Membw(cmd::membw::Args),
    /// Measure memory latency (chain latency ladder, random reads, cache levels).
    Memlat(cmd::memlat::Args),
    /// Recursive SHA-256 benchmark (fast hardware path and portable reference).
    Sha256(cmd::sha256::Args),
    /// Run every kernel several times and compare with its target (a benchmark, not a test).
    SelftestPerf(cmd::selftest_perf::Args),
    /// Import sbc-bench logs into result documents.
    Import(cmd::import::Args),
    /// The results database: add, list, show, table.
    Results(cmd::results::Args),
    /// The full assessment run: idle gate, tuned governors, clock check, memory, OpenSSL,
    /// SHA-256, 7-Zip (and Stockfish/cpuminer), monitored; findings, log and summary line.
    Run(cmd::run::Args),
    /// Render a result document (HTML report with charts).
    Report(cmd::report::Args),
    /// Review settings and bottlenecks, then tune and monitor (sbc-bench -r / -R).
    Review(cmd::review::Args),
    /// Kernel version, origin and upstream support status (sbc-bench -k).
    Kernel(cmd::kernel::Args),
    /// Thermal test: sustained load, temperature curve, throttling (sbc-bench -t / -T).
    Thermal(cmd::thermal::Args),
    /// Performance (and per-watt) sweep over clusters and OPPs (sbc-bench -g).
    Graph(cmd::graph::Args),
    /// Controlled environment for Geekbench or Phoronix (sbc-bench -G / -P).
    Env(cmd::env::Args),
    /// Print the JSON Schema of the result document.
    Schema(cmd::schema::Args),
}
