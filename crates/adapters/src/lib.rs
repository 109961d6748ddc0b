//! Optional external benchmark tools: found on PATH, version-checked, their output parsed.
//!
//! sbc-bench's headline scores come from four external programs. boardbench runs the same
//! programs (when they are installed) so its numbers can be compared with sbc-bench's database,
//! but treats each one as an *adapter*: a missing or broken tool makes its phase a recorded
//! [`Skip`] with a reason, never a crash.
//!
//! # How the run uses this crate
//!
//! ```no_run
//! use adapters::{SearchPath, SystemRunner, Runner, RunContext, sevenzip};
//!
//! let sp = SearchPath::from_env();                  // or SearchPath::new(custom PATH) in tests
//! let runner = SystemRunner;                        // or a stub implementing `Runner`
//! match sevenzip::find(&sp, &runner) {
//!     Err(skip) => println!("{skip}"),              // record the skip in the document
//!     Ok(found) => {
//!         // found.version.comparable_with_sbc_bench tells whether the score may be compared.
//!         let opts = sevenzip::BenchOptions::sbc_bench(1, 2_000_000);
//!         let inv = sevenzip::invocation(&found.tool, &opts).pinned(&[0]);
//!         let out = runner.run(&inv).expect("started");
//!         let bench = sevenzip::parse(&out.combined()).expect("a Tot: line");
//!         let rows = bench.measurements(&RunContext::pinned(&[0]).variant(&found.version.label()));
//!         println!("{} MIPS, {} rows", bench.tot.rating_mips, rows.len());
//!     }
//! }
//! ```
//!
//! Every tool module has the same shape:
//! * `CANDIDATES` (program names, in order of preference) and `find(&SearchPath, &dyn Runner)
//!   -> Result<Found<Version>, Skip>`, which locates the program and runs `detect`;
//! * `detect(&dyn Runner, &Tool) -> Result<Version, Skip>` and the pure `parse_version(text)`;
//! * `args(..)` / `invocation(..)` building the exact command line sbc-bench uses (or a shorter
//!   one for quick runs);
//! * the pure `parse(output) -> Result<Parsed, ParseError>` (7-Zip and Stockfish also have
//!   `parse_all` for texts holding several runs), whose result has
//!   `measurements(&RunContext) -> Vec<document::Measurement>`; the test names are
//!   constants in each module's `test_names` (OpenSSL: `openssl::test_name(alg, bytes)`).
//!
//! Things the run has to know:
//! * Parse `Output::combined()` (stdout then stderr): Stockfish prints its summary on stderr.
//! * 7-Zip: a run killed by the OOM killer has no `Tot:` line, so `parse` fails; sbc-bench
//!   averages only the finished runs. Record `Version::comparable_with_sbc_bench` with the
//!   scores, and pass `BenchOptions::sbc_bench(threads, MemAvailable in kB)` for the `-md=2m`
//!   rule.
//! * OpenSSL: `Speed::sbc_bench_score` is `None` on 1.0.x (no 16384-byte column).
//! * Stockfish: the output does not say how many threads ran; give them in the `RunContext`.
//! * cpuminer: the run always ends at its time limit (`Output::timed_out` is expected); parse
//!   what it printed until then.
//!
//! Modules:
//! * [`tool`]: [`SearchPath`], [`Tool`], [`Invocation`], [`Runner`] / [`SystemRunner`]
//!   (pinning via `sched_setaffinity` in the child, time limit, capture), [`Skip`].
//! * [`replay`]: [`ReplayRunner`], a runner answering with recorded outputs (for the run's
//!   tests; stub executables on a temporary PATH work with [`SystemRunner`] as well).
//! * [`sevenzip`]: `7z b` (suite "7zip", MIPS). Knows the *real* 7-Zip version behind Debian's
//!   `p7zip 16.02+really26.02` wrapper; only 7-Zip ≤ 16.02 scores compare with sbc-bench.
//! * [`openssl`]: `openssl speed -elapsed -evp aes-*-cbc` (suite "openssl", kB/s with k = 1000 B/s).
//! * [`stockfish`]: `bench 128 <threads> 24 default depth` (suite "stockfish", nodes/s).
//! * [`cpuminer`]: `cpuminer --benchmark` for 5 minutes (suite "cpuminer", kH/s) and sbc-bench's
//!   "Total Scores" rule.

pub mod catalogue;
pub mod cpuminer;
pub mod openssl;
pub mod process;
pub mod replay;
pub mod sevenzip;
pub mod stockfish;
pub mod tool;
mod util;

pub use replay::ReplayRunner;
pub use tool::{Invocation, Output, RunError, Runner, SearchPath, Skip, SystemRunner, Tool};

use document::Measurement;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Output that does not contain what the parser needs (no `Tot:` line, no table …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// The tool family ("7-Zip", "OpenSSL", "Stockfish", "cpuminer").
    pub tool: String,
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(tool: &str, message: impl Into<String>) -> Self {
        ParseError {
            tool: tool.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} output not understood: {}", self.tool, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A tool that was found and whose version was read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Found<V> {
    pub tool: Tool,
    pub version: V,
}

/// What the caller knows about a run that the output does not say: the CPUs it was pinned to,
/// the thread count it asked for and the tool version label that goes into
/// [`Measurement::variant`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunContext {
    /// Threads the tool was told to use. `None`: take it from the output where it says
    /// (7-Zip's "Benchmark threads"), else 1.
    pub threads: Option<u32>,
    pub cpus: Vec<u32>,
    pub variant: Option<String>,
}

impl RunContext {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn pinned(cpus: &[u32]) -> Self {
        RunContext {
            cpus: cpus.to_vec(),
            ..Self::default()
        }
    }

    pub fn threads(mut self, threads: u32) -> Self {
        self.threads = Some(threads);
        self
    }

    pub fn variant(mut self, variant: &str) -> Self {
        self.variant = Some(variant.to_string());
        self
    }

    pub(crate) fn row(
        &self,
        suite: &str,
        test: &str,
        threads: u32,
        value: f64,
        unit: &str,
    ) -> Measurement {
        Measurement {
            variant: self.variant.clone(),
            ..Measurement::new(suite, test, threads, value, unit).with_cpus(&self.cpus)
        }
    }
}

#[cfg(test)]
mod regex_lite_tests {
    /// The parsers' patterns run on regex-lite (ASCII `\d`, `\s`, `\b`; no Unicode tables: the
    /// board binary's size, issue 23). Line by line, as the parsers apply them, over the tools'
    /// recorded output (tests/data) and the shared sbc-bench logs, each finds exactly what regex
    /// finds, capture groups included.
    #[test]
    fn patterns_match_alike_under_regex_and_regex_lite() {
        use testsupport::regex_lite::{lines_of, same_captures, sbc_bench_logs, texts_in};
        let t0 = std::time::Instant::now();
        let mut texts =
            texts_in(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"));
        assert!(texts.len() > 20, "{} recorded outputs", texts.len());
        texts.extend(sbc_bench_logs());
        let lines = lines_of(&texts);
        for (name, pattern) in [
            ("cpuminer version", crate::cpuminer::VERSION_PATTERN),
            ("cpuminer total", crate::cpuminer::TOTAL_PATTERN),
            ("cpuminer threads", crate::cpuminer::THREADS_PATTERN),
            ("openssl version", crate::openssl::VERSION_PATTERN),
            ("stockfish banner", crate::stockfish::BANNER_PATTERN),
            ("7-zip banner", crate::sevenzip::BANNER_PATTERN),
            ("p7zip", crate::sevenzip::P7ZIP_PATTERN),
            ("7-zip ram", crate::sevenzip::RAM_PATTERN),
            ("7-zip freq line", crate::sevenzip::FREQ_LINE_PATTERN),
        ] {
            let n = same_captures(pattern, &lines);
            assert!(n > 0, "{name} matched nothing");
        }
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(60),
            "{:?}",
            t0.elapsed()
        );
    }
}
