//! `boardbench schema`: Print the JSON Schema of the result document.

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    eprintln!("boardbench: `schema` is not implemented yet in this release");
    Ok(1)
}
