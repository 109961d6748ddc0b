//! `boardbench info`: what the machine is, as sbc-bench prints it when monitoring starts, and
//! more: SoC and CPU, device, kernel and userland, the CPU topology table, caches, the chosen
//! temperature source and why, memory and swap, virtualisation, and the notes of everything
//! that could not be read. `--json` prints the snapshot document instead. With a foreign cpuinfo
//! (`--cpuinfo-file`, sbc-bench's CPUINFOFILE) the CPU line and a core-type table describe the
//! file's processors, and the topology below is said to be this machine's.
//!
//! The text is a pure function of the snapshot (`textout::machine::render`), so fixture trees
//! pin it.

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the machine snapshot as JSON.
    #[arg(long)]
    pub json: bool,
    /// Use this temperature source instead of the ranked choice: a sensor path
    /// (/sys/class/hwmon/hwmon2/temp1_input) or a zone type / hwmon name ("soc-thermal").
    #[arg(long, value_name = "PATH|NAME", env = "BOARDBENCH_THERMAL_SOURCE")]
    pub thermal_source: Option<String>,
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    let opts = probe::snapshot::Options {
        thermal_override: args.thermal_source.clone(),
    };
    let m = probe::snapshot::take_with(&root, &opts);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&m)?);
    } else {
        print!("{}", textout::machine::render(&m));
    }
    Ok(0)
}
