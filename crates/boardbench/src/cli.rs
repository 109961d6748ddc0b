//! The command line: global options and the subcommands. Each subcommand's own options live in
//! its module under `cmd/`.
//!
//! The global options (`--sysroot`, `--cpuinfo-file`) are accepted everywhere, so scripts may put
//! them first, but they are only shown in the help of commands that read the machine: in
//! `import`, `results`, `report`, `schema`, `membw` and `selftest-perf` they change nothing.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::cmd;

#[derive(Debug, Parser)]
#[command(
    name = "boardbench",
    version,
    long_version = LONG_VERSION,
    about = "How fast a single-board computer (or any Linux box) really is, and why",
    override_usage = USAGE,
    after_help = "A link named sbc-bench (or `boardbench` with sbc-bench's switches) behaves like \
sbc-bench: a bare `sbc-bench` starts the full run, `sbc-bench -h` lists its switches and \
environment variables."
)]
pub struct Cli {
    #[command(flatten)]
    pub globals: Globals,
    #[command(subcommand)]
    pub command: Command,
}

/// `--version`: the version on the first line (what `-V` prints alone), then the build (target,
/// profile, git revision) and the oldest glibc the binary starts on (build.rs).
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\n",
    env!("BOARDBENCH_BUILD"),
    "\n",
    env!("BOARDBENCH_GLIBC")
);

/// No command is required when sbc-bench's switches (or its name) are used.
const USAGE: &str = "boardbench [OPTIONS] <COMMAND>
       boardbench [-c] [-s] | -m [SEC] | -r | -R | -k | -t | -T | -g | -G | -P ARGS…   (sbc-bench's switches)
       sbc-bench [SWITCHES]   (a link to boardbench; no switch: the full run)";

/// Commands where the global options mean nothing (they read no machine).
const WITHOUT_MACHINE: &[&str] = &[
    "import",
    "results",
    "corpus",
    "report",
    "export",
    "schema",
    "membw",
    "selftest-perf",
    "completions",
    "manpage",
];

impl Cli {
    /// The command line with the global options hidden where they mean nothing.
    pub fn command_for_help() -> clap::Command {
        let mut cmd = Cli::command();
        // Global options are copied into every subcommand when the command is built; hiding
        // them afterwards touches only the help, they are still accepted.
        cmd.build();
        for name in WITHOUT_MACHINE {
            cmd = cmd.mut_subcommand(name, hide_globals);
        }
        cmd
    }

    /// Parses `argv` (after [`crate::compat::translate`]); exits with clap's message on errors
    /// and for `--help`/`--version`.
    pub fn try_parse_argv(argv: Vec<OsString>) -> Result<Cli, clap::Error> {
        let matches = Cli::command_for_help().try_get_matches_from(argv)?;
        Cli::from_arg_matches(&matches)
    }
}

/// Hides `--sysroot` and `--cpuinfo-file` in `cmd` and all its subcommands.
fn hide_globals(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.mut_args(|a| match a.get_id().as_str() {
        "sysroot" | "cpuinfo_file" => a.hide(true),
        _ => a,
    });
    for n in names {
        cmd = cmd.mut_subcommand(n, hide_globals);
    }
    cmd
}

/// Options every command understands.
#[derive(Debug, Clone, clap::Args)]
pub struct Globals {
    /// Read the machine from this directory instead of / (a fixture tree, a mounted image).
    #[arg(long, global = true, value_name = "DIR", env = "BOARDBENCH_SYSROOT",
          value_parser = crate::values::existing_dir)]
    pub sysroot: Option<PathBuf>,
    /// Use this file as /proc/cpuinfo (sbc-bench's CPUINFOFILE).
    #[arg(long, global = true, value_name = "FILE", env = "CPUINFOFILE",
          value_parser = crate::values::cpuinfo_file)]
    pub cpuinfo_file: Option<PathBuf>,
}

impl Globals {
    /// The root every probe reads through.
    pub fn root(&self) -> probe::Root {
        let dir = self.sysroot.clone().unwrap_or_else(|| PathBuf::from("/"));
        probe::Root::new(dir).with_cpuinfo_file(self.cpuinfo_file.clone())
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the hardware, topology, thermal source, memory and settings (sbc-bench's header).
    Info(cmd::info::Args),
    /// The external tools (7-Zip, OpenSSL, Stockfish, fio …): found or missing, version,
    /// comparable with sbc-bench or not, what is missing for which mode and how to install it.
    Doctor(cmd::doctor::Args),
    /// Live view of clocks, load, CPU states and temperature (sbc-bench -m).
    Monitor(cmd::monitor::Args),
    /// Measure the real CPU clock of each cluster (and each cpufreq OPP with --opp-walk).
    Clock(cmd::clock::Args),
    /// Measure memory bandwidth (libc memcpy/memset as sbc-bench, and the best variants).
    Membw(cmd::membw::Args),
    /// Measure memory latency (chain latency ladder, random reads, cache levels).
    Memlat(cmd::memlat::Args),
    /// Recursive SHA-256 benchmark (fast hardware path and portable reference).
    Sha256(cmd::sha256::Args),
    /// Run every kernel several times and compare with its target (a benchmark, not a test).
    SelftestPerf(cmd::selftest_perf::Args),
    /// Import sbc-bench logs into result documents.
    Import(cmd::import::Args),
    /// The results database: add, list, show, table.
    Results(cmd::results::Args),
    /// sbc-bench's published results that runs are placed among: show, update FILE, reset.
    Corpus(cmd::corpus::Args),
    /// The full assessment run: idle gate, tuned governors, clock check, memory, OpenSSL,
    /// SHA-256, 7-Zip (and Stockfish/cpuminer), monitored; findings, log and summary line.
    Run(cmd::run::Args),
    /// Render a result document (HTML report with charts).
    Report(cmd::report::Args),
    /// The results service: HTTP API and web pages over the results database; upload tokens
    /// (starts boardbench-serve, a program and package of its own).
    Serve(cmd::serve::Args),
    /// Review settings and bottlenecks, then tune and monitor (sbc-bench -r / -R).
    Review(cmd::review::Args),
    /// Kernel version, origin and upstream support status (sbc-bench -k).
    Kernel(cmd::kernel::Args),
    /// Thermal test: sustained load, temperature curve, throttling (sbc-bench -t / -T).
    Thermal(cmd::thermal::Args),
    /// Performance (and per-watt) sweep over clusters and OPPs (sbc-bench -g).
    Graph(cmd::graph::Args),
    /// Controlled environment for Geekbench or Phoronix (sbc-bench -G / -P).
    Env(cmd::env::Args),
    /// Print the JSON Schema of the result document.
    Schema(cmd::schema::Args),
    /// Stored runs for lab tools: Prometheus metrics (textfile collector), LAVA test cases.
    Export(cmd::export::Args),
    /// The board performance guide (lmbench-style costs, STREAM, Linpack … as the vendors'
    /// tables); `guide render RUN…` prints them side by side (rst, md, csv, html).
    Guide(cmd::guide::Args),
    /// Send runs to a results service (`boardbench serve`), host names, addresses and serial
    /// numbers redacted; remembers what the service has.
    Upload(cmd::upload::Args),
    /// Share one run's log with a link, as sbc-bench does: redacted as `upload` redacts, sent
    /// to a paste service (0x0.st by default); the link is printed with the summary row.
    Share(cmd::share::Args),
    /// Print the shell completion script for bash, zsh or fish (used by the packages).
    #[command(hide = true)]
    Completions(cmd::completions::Args),
    /// Print the man page (roff), or write one page per command into a directory.
    #[command(hide = true)]
    Manpage(cmd::manpage::Args),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help(path: &[&str]) -> String {
        let mut cmd = Cli::command_for_help();
        let mut sub = &mut cmd;
        for name in path {
            sub = sub.find_subcommand_mut(name).unwrap();
        }
        sub.render_help().to_string()
    }

    #[test]
    fn global_options_show_only_where_they_mean_something() {
        for name in WITHOUT_MACHINE {
            let h = help(&[name]);
            assert!(!h.contains("--sysroot"), "{name}: {h}");
            assert!(!h.contains("--cpuinfo-file"), "{name}: {h}");
        }
        let h = help(&["results", "list"]);
        assert!(!h.contains("--sysroot"), "{h}");
        for name in [
            "info", "monitor", "run", "review", "kernel", "memlat", "sha256",
        ] {
            let h = help(&[name]);
            assert!(h.contains("--sysroot"), "{name}: {h}");
            assert!(h.contains("--cpuinfo-file"), "{name}: {h}");
        }
    }

    #[test]
    fn hidden_global_options_are_still_accepted() {
        let cli = Cli::try_parse_argv(
            ["boardbench", "--sysroot", "/", "schema"]
                .map(OsString::from)
                .to_vec(),
        )
        .unwrap();
        assert_eq!(
            cli.globals.sysroot.as_deref(),
            Some(std::path::Path::new("/"))
        );
        let cli = Cli::try_parse_argv(
            // A readable regular file (crate::values::cpuinfo_file).
            [
                "boardbench",
                "import",
                "--cpuinfo-file",
                "/proc/cpuinfo",
                "log.txt",
            ]
            .map(OsString::from)
            .to_vec(),
        )
        .unwrap();
        assert!(cli.globals.cpuinfo_file.is_some());
    }

    #[test]
    fn the_usage_line_does_not_require_a_command_for_sbc_bench() {
        let h = help(&[]);
        let usage: Vec<&str> = h
            .lines()
            .skip_while(|l| !l.starts_with("Usage:"))
            .take(3)
            .collect();
        assert!(usage[0].contains("boardbench [OPTIONS] <COMMAND>"), "{h}");
        assert!(usage[2].contains("sbc-bench [SWITCHES]"), "{h}");
        assert!(usage[2].contains("no switch: the full run"), "{h}");
    }
}
