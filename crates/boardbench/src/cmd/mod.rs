//! One module per subcommand. Each has `Args` (its options) and `run`, which returns the process
//! exit code (0 valid, 2 completed but invalid, 1 error — errors come back as `Err`); the modes
//! built on `session::Session` return a `session::ExitStatus`, mapped to the code here.

pub mod clock;
pub mod completions;
pub mod corpus;
pub mod doctor;
pub mod env;
pub mod export;
pub mod graph;
pub mod guide;
pub mod import;
pub mod info;
pub mod kernel;
pub mod manpage;
pub mod membw;
pub mod memlat;
pub mod monitor;
pub mod monitor_listen;
pub mod report;
pub mod results;
pub mod review;
pub mod run;
pub mod schema;
pub mod selftest_perf;
pub mod serve;
pub mod sha256;
pub mod share;
pub mod thermal;
pub mod upload;

use crate::cli::{Cli, Command};
use crate::session::ExitStatus;

pub fn dispatch(cli: &Cli) -> anyhow::Result<i32> {
    let g = &cli.globals;
    match &cli.command {
        Command::Info(a) => info::run(a, g),
        Command::Doctor(a) => doctor::run(a, g),
        Command::Monitor(a) => monitor::run(a, g),
        Command::Clock(a) => clock::run(a, g).map(ExitStatus::code),
        Command::Membw(a) => membw::run(a, g),
        Command::Memlat(a) => memlat::run(a, g),
        Command::Sha256(a) => sha256::run(a, g),
        Command::SelftestPerf(a) => selftest_perf::run(a, g),
        Command::Import(a) => import::run(a, g),
        Command::Results(a) => results::run(a, g),
        Command::Corpus(a) => corpus::run(a, g),
        Command::Run(a) => run::run(a, g).map(ExitStatus::code),
        Command::Report(a) => report::run(a, g),
        Command::Review(a) => review::run(a, g).map(ExitStatus::code),
        Command::Kernel(a) => kernel::run(a, g),
        Command::Thermal(a) => thermal::run(a, g).map(ExitStatus::code),
        Command::Graph(a) => graph::run(a, g).map(ExitStatus::code),
        Command::Env(a) => env::run(a, g).map(ExitStatus::code),
        Command::Schema(a) => schema::run(a, g),
        Command::Export(a) => export::run(a, g),
        Command::Guide(a) => guide::run(a, g),
        Command::Upload(a) => upload::run(a, g),
        Command::Share(a) => share::run(a, g),
        Command::Serve(a) => serve::run(a, g),
        Command::Completions(a) => completions::run(a, g),
        Command::Manpage(a) => manpage::run(a, g),
    }
}
