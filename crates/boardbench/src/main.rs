//! boardbench: how fast a single-board computer (or any Linux box) really is, and why.
//!
//! This binary is the only place that knows about the command line, files and output. It wires
//! the probe (reads the machine), the kernels (measure) and the model (the result document)
//! together; renderers turn documents into text.

mod cli;
mod cmd;
mod compat;
mod monitor_view;
mod opp_writer;
mod restore;
mod run;
mod session;

use clap::Parser;

fn main() {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // sbc-bench's switches (`-m 5`, `-c`, `-k` …) and its name are translated first, so existing
    // users and scripts carry over.
    let argv = match compat::translate(argv) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(1);
        }
    };
    let cli = cli::Cli::parse_from(argv);
    let code = match cmd::dispatch(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("boardbench: {e:#}");
            1
        }
    };
    std::process::exit(code);
}
