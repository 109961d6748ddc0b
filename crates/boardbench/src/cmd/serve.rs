//! `boardbench serve ARGS…`: the results service is a program of its own, `boardbench-serve`
//! (crates/serve/src/main.rs, its own package from scripts/dist), so that a board carries no
//! web server, HTTP stack or service pages. This command starts it with the same arguments, in
//! this process's place (same PID, signals and exit status): the one next to this binary, else
//! the one on PATH.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use crate::cli::Globals;

/// The program's name.
pub const PROGRAM: &str = "boardbench-serve";

#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// The service's options and commands (`boardbench-serve --help`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<OsString>,
}

/// `boardbench-serve` beside this binary (an unpacked release, a cargo build), else the name
/// to be looked up on PATH.
fn program() -> PathBuf {
    std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(PROGRAM))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(PROGRAM))
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let program = program();
    let err = std::process::Command::new(&program).args(&args.args).exec();
    if err.kind() == std::io::ErrorKind::NotFound {
        eprintln!(
            "boardbench serve: the results service is its own program, {PROGRAM}, and it is not \
             installed here (neither beside this binary nor on PATH). Install the {PROGRAM} \
             package (scripts/dist builds it) on the machine that keeps the results; a board \
             needs only boardbench."
        );
        return Ok(1);
    }
    Err(anyhow::anyhow!("cannot start {}: {err}", program.display()))
}
