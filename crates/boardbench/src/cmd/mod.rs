//! One module per subcommand. Each has `Args` (its options) and `run`, which returns the process
//! exit code (0 valid, 2 completed but invalid, 1 error — errors come back as `Err`).

pub mod clock;
pub mod import;
pub mod info;
pub mod membw;
pub mod memlat;
pub mod monitor;
pub mod results;
pub mod selftest_perf;
pub mod sha256;

use crate::cli::{Cli, Command};

pub fn dispatch(cli: &Cli) -> anyhow::Result<i32> {
    let g = &cli.globals;
    match &cli.command {
        Command::Info(a) => info::run(a, g),
        Command::Monitor(a) => monitor::run(a, g),
        Command::Clock(a) => clock::run(a, g),
        Command::Membw(a) => membw::run(a, g),
        Command::Memlat(a) => memlat::run(a, g),
        Command::Sha256(a) => sha256::run(a, g),
        Command::SelftestPerf(a) => selftest_perf::run(a, g),
        Command::Import(a) => import::run(a, g),
        Command::Results(a) => results::run(a, g),
        Command::Other(words) => {
            let name = words.first().map(String::as_str).unwrap_or("");
            match name {
                "run" | "report" | "compare" | "review" | "kernel" | "thermal" | "graph"
                | "env" | "schema" => {
                    eprintln!("boardbench: `{name}` is not implemented yet in this release");
                    Ok(1)
                }
                _ => anyhow::bail!("unknown command {name:?} (see boardbench --help)"),
            }
        }
    }
}
