//! `boardbench run`: The full assessment run (sbc-bench's default run and -c).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `run` is not implemented yet in this release");
    Ok(1)
}
