//! `boardbench report`: Render a stored or saved result document (HTML with charts).

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `report` is not implemented yet in this release");
    Ok(1)
}
