//! `boardbench results` (to be written).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    anyhow::bail!("not implemented yet")
}
