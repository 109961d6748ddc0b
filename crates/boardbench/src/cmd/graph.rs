//! `boardbench graph`: Performance (per watt) sweep over clusters and OPPs (sbc-bench -g).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `graph` is not implemented yet in this release");
    Ok(1)
}
