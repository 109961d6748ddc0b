//! `boardbench env`: A controlled environment for Geekbench or Phoronix (sbc-bench -G / -P).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `env` is not implemented yet in this release");
    Ok(1)
}
