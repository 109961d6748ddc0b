//! cpuminer-multi's `--benchmark` mode: version detection, command line, log parser and
//! sbc-bench's "Total Scores" rule.
//!
//! sbc-bench starts `cpuminer --benchmark --cpu-priority=2` in the background, waits 300 s and
//! kills it, so the run always ends at the time limit ([`invocation`] sets it). Every few
//! seconds the miner logs `[date] Total: 41.39 kH/s` (coloured when it believes it writes to a
//! terminal; escapes are removed before parsing).
//!
//! The score rule (sbc-bench ≥ 0.9.20): drop the first sample (the first two when there are at
//! least 10), sort the rest in descending order, remove duplicates; the score is the **second**
//! value of that list. sbc-bench sorts and de-duplicates the values as printed (two decimals),
//! which is what comparing the parsed numbers does.

use std::sync::OnceLock;
use std::time::Duration;

use document::Measurement;
use regex_lite::Regex;
use serde::{Deserialize, Serialize};

use crate::tool::{Invocation, Runner, SearchPath, Skip, Tool, detect_version};
use crate::util::plain_text;
use crate::{Found, ParseError, RunContext};

pub const FAMILY: &str = "cpuminer";
pub const SUITE: &str = "cpuminer";
/// sbc-bench's build is `cpuminer` (tpruvot/cpuminer-multi); some packages name it
/// `cpuminer-multi`.
pub const CANDIDATES: &[&str] = &["cpuminer", "cpuminer-multi"];
/// How long sbc-bench lets the miner run.
pub const SBC_BENCH_DURATION: Duration = Duration::from_secs(300);
pub const UNIT: &str = "kH/s";

/// Test names of the measurement rows (suite "cpuminer", unit "kH/s").
pub mod test_names {
    /// The sbc-bench score (2nd of the "Total Scores" list).
    pub const TOTAL_SCORE: &str = "total score";
    /// The median of all `Total:` samples after the dropped warm-up ones (robust companion).
    pub const TOTAL_MEDIAN: &str = "total median";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// "cpuminer-multi", "cpuminer-opt", "cpuminer".
    pub program: String,
    /// "1.3.7".
    pub version: String,
    pub line: String,
}

impl Version {
    pub fn label(&self) -> String {
        format!("{} {}", self.program, self.version)
    }
}

pub(crate) const VERSION_PATTERN: &str = r"^[*\s]*(cpuminer(?:-[a-z]+)?)\s+v?(\d+(?:\.\d+)+)";

fn version_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(VERSION_PATTERN).expect("valid regex"))
}

/// Reads `cpuminer-multi 1.3.7 by tpruvot@github` (`--version`, or the `** … **` log banner).
pub fn parse_version(text: &str) -> Result<Version, ParseError> {
    for line in plain_text(text).lines() {
        if let Some(c) = version_re().captures(line) {
            return Ok(Version {
                program: c[1].to_string(),
                version: c[2].to_string(),
                line: line.trim().trim_matches('*').trim().to_string(),
            });
        }
    }
    Err(ParseError::new(FAMILY, "no 'cpuminer… <version>' line"))
}

/// Runs `cpuminer --version`.
pub fn detect(runner: &dyn Runner, tool: &Tool) -> Result<Version, Skip> {
    let inv = Invocation::new(tool, &["--version"]).time_limit(Duration::from_secs(30));
    detect_version(runner, tool, &inv, FAMILY, parse_version)
}

pub fn find(sp: &SearchPath, runner: &dyn Runner) -> Result<Found<Version>, Skip> {
    let tool = sp.find(FAMILY, CANDIDATES)?;
    let version = detect(runner, &tool)?;
    Ok(Found { tool, version })
}

/// `--benchmark --cpu-priority=2`.
pub fn args() -> Vec<String> {
    vec!["--benchmark".to_string(), "--cpu-priority=2".to_string()]
}

/// The benchmark, ended after `duration` (sbc-bench: [`SBC_BENCH_DURATION`]).
pub fn invocation(tool: &Tool, duration: Duration) -> Invocation {
    let a = args();
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    Invocation::new(tool, &refs).time_limit(duration)
}

/// A parsed benchmark log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bench {
    pub version: Option<Version>,
    /// From "8 miner threads started, using 'scrypt' algorithm."
    pub threads: Option<u32>,
    pub algorithm: Option<String>,
    /// Every `Total:` sample in order, in kH/s.
    pub samples_khs: Vec<f64>,
    /// sbc-bench's "Total Scores" list computed from the samples ([`total_scores`]).
    pub total_scores: Vec<f64>,
    /// The 2nd value of `total_scores` (None with fewer than two distinct values).
    pub score_khs: Option<f64>,
    /// The "Total Scores:" list as an sbc-bench log prints it, when the text has one.
    pub logged_total_scores: Option<Vec<f64>>,
}

impl Bench {
    /// Median of the samples sbc-bench keeps (after dropping the warm-up ones).
    pub fn median_khs(&self) -> Option<f64> {
        let mut kept: Vec<f64> =
            self.samples_khs[warmup_samples(self.samples_khs.len())..].to_vec();
        if kept.is_empty() {
            return None;
        }
        kept.sort_by(f64::total_cmp);
        let n = kept.len();
        Some(if n % 2 == 1 {
            kept[n / 2]
        } else {
            (kept[n / 2 - 1] + kept[n / 2]) / 2.0
        })
    }

    /// "total score" (when there is one) and "total median" rows, unit "kH/s".
    pub fn measurements(&self, ctx: &RunContext) -> Vec<Measurement> {
        let threads = ctx.threads.or(self.threads).unwrap_or(1);
        let mut v = Vec::new();
        if let Some(s) = self.score_khs {
            v.push(ctx.row(SUITE, test_names::TOTAL_SCORE, threads, s, UNIT));
        }
        if let Some(m) = self.median_khs() {
            v.push(ctx.row(SUITE, test_names::TOTAL_MEDIAN, threads, m, UNIT));
        }
        v
    }
}

/// How many leading samples sbc-bench drops: 1, or 2 when there are at least 10.
pub fn warmup_samples(n: usize) -> usize {
    if n >= 10 { 2 } else { 1.min(n) }
}

/// sbc-bench's "Total Scores" list: warm-up samples dropped, sorted descending, de-duplicated.
pub fn total_scores(samples: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = samples[warmup_samples(samples.len())..]
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .collect();
    v.sort_by(|a, b| b.total_cmp(a));
    v.dedup();
    v
}

/// sbc-bench's score: the second value of [`total_scores`].
pub fn sbc_bench_score(samples: &[f64]) -> Option<f64> {
    total_scores(samples).get(1).copied()
}

pub(crate) const TOTAL_PATTERN: &str = r"\bTotal:\s+([0-9]+(?:\.[0-9]+)?)\s*([kMG]?)H/s";
pub(crate) const THREADS_PATTERN: &str = r"(\d+) miner threads started, using '([^']+)' algorithm";

fn total_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(TOTAL_PATTERN).expect("valid regex"))
}

fn threads_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(THREADS_PATTERN).expect("valid regex"))
}

/// Parses a (possibly coloured, possibly cut off by the kill) benchmark log.
pub fn parse(text: &str) -> Result<Bench, ParseError> {
    let text = plain_text(text);
    let mut samples = Vec::new();
    let mut threads = None;
    let mut algorithm = None;
    let mut logged: Option<Vec<f64>> = None;
    let mut in_logged_list = false;
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("Total Scores:") {
            logged = Some(parse_list(rest));
            in_logged_list = true;
            continue;
        }
        // A long "Total Scores" list wraps onto lines starting with a comma (sbc-bench log
        // Xd38a).
        if in_logged_list && line.starts_with(',') {
            if let Some(l) = logged.as_mut() {
                l.extend(parse_list(line));
            }
            continue;
        }
        in_logged_list = false;
        if let Some(c) = total_re().captures(line) {
            if let Ok(v) = c[1].parse::<f64>() {
                let factor = match &c[2] {
                    "" => 0.001,
                    "M" => 1000.0,
                    "G" => 1_000_000.0,
                    _ => 1.0,
                };
                samples.push(v * factor);
            }
        } else if let Some(c) = threads_re().captures(line) {
            threads = c[1].parse().ok();
            algorithm = Some(c[2].to_string());
        }
    }
    if samples.is_empty() {
        return Err(ParseError::new(FAMILY, "no 'Total: … kH/s' line"));
    }
    let scores = total_scores(&samples);
    Ok(Bench {
        version: parse_version(&text).ok(),
        threads,
        algorithm,
        score_khs: scores.get(1).copied(),
        total_scores: scores,
        samples_khs: samples,
        logged_total_scores: logged,
    })
}

fn parse_list(s: &str) -> Vec<f64> {
    s.split(',')
        .filter_map(|f| f.trim().parse::<f64>().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_drops_one_or_two_samples() {
        // 3 samples: the first is dropped, the rest sorted.
        assert_eq!(total_scores(&[9.0, 1.0, 2.0]), vec![2.0, 1.0]);
        // 10 samples: the first two are dropped.
        let s = [99.0, 98.0, 1.0, 2.0, 3.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        assert_eq!(total_scores(&s), vec![7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);
        assert_eq!(sbc_bench_score(&s), Some(6.0));
        assert_eq!(sbc_bench_score(&[5.0, 4.0]), None);
        assert!(total_scores(&[]).is_empty());
    }

    #[test]
    fn coloured_lines_are_read() {
        let log = "\u{1b}[01;37m[2023-03-10 16:49:44]\u{1b}[0m \u{1b}[01;32mTotal: 41.39 kH/s\u{1b}[0m\n\
                   [2023-03-10 16:49:49] Total: 1.5 MH/s\n[2023-03-10 16:49:54] Total: 900 H/s\n";
        let b = parse(log).unwrap();
        assert_eq!(b.samples_khs, vec![41.39, 1500.0, 0.9]);
    }

    #[test]
    fn args_follow_sbc_bench() {
        assert_eq!(args(), ["--benchmark", "--cpu-priority=2"]);
    }
}
