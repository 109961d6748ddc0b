//! `boardbench kernel`: Kernel version, origin and upstream support status (sbc-bench -k).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `kernel` is not implemented yet in this release");
    Ok(1)
}
