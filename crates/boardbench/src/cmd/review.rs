//! `boardbench review`: Review settings and bottlenecks, then tune and monitor (sbc-bench -r / -R).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `review` is not implemented yet in this release");
    Ok(1)
}
