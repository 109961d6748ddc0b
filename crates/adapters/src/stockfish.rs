//! Stockfish's `bench` command: version detection, command line and result parser.
//!
//! sbc-bench (extensive or `-s`) builds Stockfish 15 itself and runs, three times,
//! `echo -e "setoption name EvalFile value <net> \n bench 128 <cores> 24 default depth" | ./stockfish`
//! and lists the "Nodes/second" figures. The commands are given on stdin here too, so an
//! evaluation file can be set first.
//!
//! Output: the banner ("Stockfish 15.1 by the Stockfish developers (see AUTHORS file)") and
//! `info` lines on stdout; the `Position: n/48` progress and the summary (`Total time (ms)`,
//! `Nodes searched`, `Nodes/second`) on stderr. With the default `mixed` evaluation type the
//! bench alternates classical and NNUE evaluation per position and says so in
//! `info string … evaluation … enabled` lines; the NNUE network named there matters for
//! comparisons (Debian 12's 15.1 embeds nn-ad9b42354671.nnue, sbc-bench loads Stockfish 15's
//! nn-6877cd24400e.nnue), so the distinct evaluation lines are recorded.

use std::sync::OnceLock;
use std::time::Duration;

use document::Measurement;
use regex_lite::Regex;
use serde::{Deserialize, Serialize};

use crate::tool::{Invocation, Runner, SearchPath, Skip, Tool, detect_version};
use crate::util::{after, parse_grouped_u64};
use crate::{Found, ParseError, RunContext};

pub const FAMILY: &str = "Stockfish";
pub const SUITE: &str = "stockfish";
pub const CANDIDATES: &[&str] = &["stockfish"];
/// The version sbc-bench builds and compares.
pub const SBC_BENCH_VERSION: &str = "15";
/// The network sbc-bench loads with `setoption name EvalFile`.
pub const SBC_BENCH_NET: &str = "nn-6877cd24400e.nnue";

/// Test names of the measurement rows (suite "stockfish").
pub mod test_names {
    /// "Nodes/second", unit "nodes/s": the sbc-bench figure.
    pub const NODES_PER_SECOND: &str = "nodes per second";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// "15.1", "15", "dev-20230507-ab12cd".
    pub version: String,
    /// The banner line as printed.
    pub banner: String,
    /// Same release as the one sbc-bench builds (15). The network must match too for the
    /// scores to compare; see [`Bench::nnue_nets`].
    pub sbc_bench_version: bool,
}

impl Version {
    pub fn label(&self) -> String {
        format!("Stockfish {}", self.version)
    }
}

pub(crate) const BANNER_PATTERN: &str = r"^\s*Stockfish\s+(\S+)\b.*\bby\b";

fn banner_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(BANNER_PATTERN).expect("valid regex"))
}

/// Reads the `Stockfish <version> … by …` banner.
pub fn parse_version(text: &str) -> Result<Version, ParseError> {
    for line in text.lines() {
        if let Some(c) = banner_re().captures(line) {
            let version = c[1].to_string();
            return Ok(Version {
                sbc_bench_version: version == SBC_BENCH_VERSION,
                version,
                banner: line.trim().to_string(),
            });
        }
    }
    Err(ParseError::new(FAMILY, "no 'Stockfish … by' banner"))
}

/// Starts the engine, sends `quit` and reads the banner it prints on start.
pub fn detect(runner: &dyn Runner, tool: &Tool) -> Result<Version, Skip> {
    let inv = Invocation::new(tool, &[])
        .stdin("quit\n")
        .time_limit(Duration::from_secs(30));
    detect_version(runner, tool, &inv, FAMILY, parse_version)
}

pub fn find(sp: &SearchPath, runner: &dyn Runner) -> Result<Found<Version>, Skip> {
    let tool = sp.find(FAMILY, CANDIDATES)?;
    let version = detect(runner, &tool)?;
    Ok(Found { tool, version })
}

/// What to ask `bench` for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchOptions {
    pub hash_mb: u32,
    pub threads: u32,
    pub depth: u32,
    /// `setoption name EvalFile value <file>` before the bench (sbc-bench's NNUE net).
    pub eval_file: Option<String>,
}

impl BenchOptions {
    /// `bench 128 <threads> 24 default depth` (2:20 on 2 cores of this VM).
    pub fn sbc_bench(threads: u32) -> Self {
        BenchOptions {
            hash_mb: 128,
            threads,
            depth: 24,
            eval_file: None,
        }
    }

    /// `bench 16 <threads> 6 default depth`: well under a second, for smoke tests.
    pub fn quick(threads: u32) -> Self {
        BenchOptions {
            hash_mb: 16,
            threads,
            depth: 6,
            eval_file: None,
        }
    }
}

/// The `bench` command line (UCI command, not program arguments).
pub fn bench_command(opts: &BenchOptions) -> String {
    format!(
        "bench {} {} {} default depth",
        opts.hash_mb, opts.threads, opts.depth
    )
}

/// What is written to the engine's stdin: optional `setoption`, the bench, `quit`.
pub fn stdin_script(opts: &BenchOptions) -> String {
    let mut s = String::new();
    if let Some(f) = &opts.eval_file {
        s.push_str(&format!("setoption name EvalFile value {f}\n"));
    }
    s.push_str(&bench_command(opts));
    s.push_str("\nquit\n");
    s
}

/// No program arguments: the commands go to stdin ([`stdin_script`]).
pub fn args(_opts: &BenchOptions) -> Vec<String> {
    Vec::new()
}

pub fn invocation(tool: &Tool, opts: &BenchOptions) -> Invocation {
    Invocation::new(tool, &[]).stdin(stdin_script(opts))
}

/// One parsed bench.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bench {
    pub version: Option<Version>,
    /// The distinct "info string … evaluation …" lines, in order of appearance, e.g.
    /// "classical evaluation enabled", "NNUE evaluation using nn-6877cd24400e.nnue enabled".
    pub evaluations: Vec<String>,
    /// Number of positions the bench announced ("Position: 48/48").
    pub positions: Option<u32>,
    pub total_time_ms: Option<u64>,
    pub nodes_searched: Option<u64>,
    /// The figure sbc-bench lists.
    pub nodes_per_second: u64,
}

impl Bench {
    /// The NNUE network files named by the evaluation lines ("nn-ad9b42354671.nnue").
    pub fn nnue_nets(&self) -> Vec<String> {
        let mut nets: Vec<String> = Vec::new();
        for e in &self.evaluations {
            for w in e.split_whitespace() {
                if w.ends_with(".nnue") && !nets.iter().any(|n| n == w) {
                    nets.push(w.to_string());
                }
            }
        }
        nets
    }

    /// The NNUE evaluation used sbc-bench's network.
    pub fn uses_sbc_bench_net(&self) -> bool {
        self.nnue_nets().iter().any(|n| n == SBC_BENCH_NET)
    }

    /// One row: test "nodes per second", unit "nodes/s".
    pub fn measurements(&self, ctx: &RunContext) -> Vec<Measurement> {
        vec![ctx.row(
            SUITE,
            test_names::NODES_PER_SECOND,
            ctx.threads.unwrap_or(1),
            self.nodes_per_second as f64,
            "nodes/s",
        )]
    }
}

/// Parses the first bench summary in `text`.
pub fn parse(text: &str) -> Result<Bench, ParseError> {
    parse_all(text)
        .into_iter()
        .next()
        .ok_or_else(|| ParseError::new(FAMILY, "no 'Nodes/second' line"))
}

/// Every bench summary in `text` (sbc-bench logs hold three runs).
pub fn parse_all(text: &str) -> Vec<Bench> {
    let version = parse_version(text).ok();
    let mut runs = Vec::new();
    let mut cur = Partial::default();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("info string") {
            let rest = rest.trim();
            if rest.contains("evaluation") && !cur.evaluations.iter().any(|e| e == rest) {
                cur.evaluations.push(rest.to_string());
            }
        } else if let Some(rest) = after(t, "Position:") {
            if let Some(n) = rest
                .split_whitespace()
                .next()
                .and_then(|f| f.split_once('/'))
                .and_then(|(_, total)| total.parse().ok())
            {
                cur.positions = Some(n);
            }
        } else if let Some(v) = field(t, "Total time (ms)") {
            cur.total_time_ms = Some(v);
        } else if let Some(v) = field(t, "Nodes searched") {
            cur.nodes_searched = Some(v);
        } else if let Some(v) = field(t, "Nodes/second") {
            runs.push(Bench {
                version: version.clone(),
                evaluations: std::mem::take(&mut cur.evaluations),
                positions: cur.positions,
                total_time_ms: cur.total_time_ms,
                nodes_searched: cur.nodes_searched,
                nodes_per_second: v,
            });
            cur = Partial::default();
        }
    }
    runs
}

#[derive(Default)]
struct Partial {
    evaluations: Vec<String>,
    positions: Option<u32>,
    total_time_ms: Option<u64>,
    nodes_searched: Option<u64>,
}

/// "Nodes searched  : 259759" → 259759.
fn field(line: &str, name: &str) -> Option<u64> {
    let rest = line.strip_prefix(name)?.trim_start().strip_prefix(':')?;
    parse_grouped_u64(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_script_matches_sbc_bench() {
        let mut o = BenchOptions::sbc_bench(8);
        o.eval_file = Some("nn-6877cd24400e.nnue".into());
        assert_eq!(
            stdin_script(&o),
            "setoption name EvalFile value nn-6877cd24400e.nnue\nbench 128 8 24 default depth\nquit\n"
        );
    }

    #[test]
    fn banner_variants() {
        let v = parse_version("Stockfish 11 64 POPCNT by T. Romstad, M. Costalba").unwrap();
        assert_eq!(v.version, "11");
        let v = parse_version("Stockfish dev-20230507-ab12cd by the Stockfish developers").unwrap();
        assert_eq!(v.version, "dev-20230507-ab12cd");
        assert!(!v.sbc_bench_version);
    }

    #[test]
    fn field_needs_a_number() {
        assert_eq!(
            field("Nodes/second    : 5688180", "Nodes/second"),
            Some(5_688_180)
        );
        assert_eq!(field("Nodes/second    : ", "Nodes/second"), None);
        assert_eq!(field("Nodes/second", "Nodes/second"), None);
    }
}
