//! `boardbench kernel`: Kernel version, origin and upstream support status (sbc-bench -k).
//!
//! The machine is read through the root (the probe's snapshot for uname and the device tree,
//! plus /proc/version and the kernel configuration); the judgement is the pure
//! `kernelinfo::assess` with today's date. Unlike sbc-bench, every kernel gets a verdict:
//! distribution kernels, x86, virtual machines and release candidates included.

use std::io::Write;

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Judge as of this date (YYYY-MM-DD) instead of today.
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub today: Option<chrono::NaiveDate>,
}

fn parse_date(s: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|e| format!("{s:?}: {e}"))
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    let machine = probe::snapshot::take(&root);
    let input = kernelinfo::read::gather(&root, &machine);
    let today = args.today.unwrap_or_else(probe::clock::today);
    let report = kernelinfo::assess(&input, today);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{}", kernelinfo::render(&report))?;
    }
    // The check itself completed; an unsupported kernel is a finding, not a failure.
    Ok(if report.release.is_some() { 0 } else { 1 })
}
