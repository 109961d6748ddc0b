//! `boardbench thermal`: Thermal test: heat the SoC and record throttling (sbc-bench -t / -T).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `thermal` is not implemented yet in this release");
    Ok(1)
}
