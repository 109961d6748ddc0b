//! 7-Zip's built-in benchmark (`7z b`): version detection, command line and output parser.
//!
//! sbc-bench runs `7za b [-md=2m] -mmt=1` pinned to the first core of each cluster, then
//! `7za b [-md=2m] -mmt=<cores>` three times unpinned; the score is the 4th column of the
//! `Tot:` line (the total rating in MIPS). Its database only holds 7-Zip 16.02 (and older)
//! results: newer 7-Zip versions are up to 1.5× faster on some ISAs (sbc-bench issue 81).
//!
//! The *real* version matters: Debian 12's `p7zip-full 16.02+really26.02` prints two banners,
//!
//! ```text
//! 7-Zip [64] 26.02 : Copyright (c) 1999-2026 Igor Pavlov : 2026-06-25
//! p7zip Version 16.02 (locale=C.UTF-8,Utf16=on,HugeFiles=on,64 bits,2 CPUs AMD EPYC (A00F11)  (LP))
//! ```
//!
//! and runs 7-Zip 26.02; the `p7zip Version` line only names the wrapper. The real version is
//! always the one on the `7-Zip` line.
//!
//! Output layouts handled (fixtures in tests/data): 9.20 (no `|` in the Avr line), 16.02
//! (`CPU Freq:` line, Avr without speed), 26.0x (`1T CPU Freq (MHz):` lines, `(LP)` markers, Avr
//! with speed), and the official `7zz` banner `7-Zip (z) 26.01 (x64)`.

use std::time::Duration;

use document::Measurement;
use regex_lite::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use crate::tool::{Invocation, Runner, SearchPath, Skip, Tool, detect_version, not_found};
use crate::util::{after, leading_u64s};
use crate::{Found, ParseError, RunContext};

pub const FAMILY: &str = "7-Zip";
pub use document::row_names::sevenzip::SUITE;
/// Program names, in order of preference when none of them is comparable with sbc-bench:
/// the official 7-Zip (`7zz`), then p7zip's names.
pub const CANDIDATES: &[&str] = &["7zz", "7z", "7za", "7zr"];
/// sbc-bench passes `-md=2m` when `free`'s "available" is below this many kB.
pub const SMALL_DICTIONARY_BELOW_KB: u64 = 350_000;
/// The newest version whose scores sbc-bench's database compares.
pub const SBC_BENCH_REFERENCE: (u32, u32) = (16, 2);

/// Test names of the measurement rows (suite "7zip", unit "MIPS"); their home is
/// [`document::row_names::sevenzip`], where readers (headline, findings) find them too.
pub mod test_names {
    pub use document::row_names::sevenzip::{
        COMPRESS_RATING, DECOMPRESS_RATING, TOTAL_RATING, TOTAL_RATING_PER_USAGE,
    };
}

/// The 7-Zip that actually runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// From the `7-Zip` banner line: "26.02", "16.02", "9.20", "9.38 beta".
    pub version: String,
    pub major: u32,
    pub minor: u32,
    /// The `p7zip Version` line's number when present. On Debian 12 this is the wrapper
    /// ("16.02" in front of 7-Zip 26.02), not the code that runs.
    pub p7zip_version: Option<String>,
    /// 64 or 32 when the banner says (`[64]`, `(x64)`, `64 bits`).
    pub bits: Option<u32>,
    /// The banner lines as printed.
    pub banner: Vec<String>,
    /// True only for 7-Zip ≤ 16.02: only those scores may be compared with sbc-bench's
    /// database.
    pub comparable_with_sbc_bench: bool,
    /// sbc-bench's results validation flags every version other than exactly 16.02
    /// ("Distro uses problematic 7-zip version X").
    pub flagged_by_sbc_bench: bool,
}

impl Version {
    /// "7-Zip 26.02" (for [`Measurement::variant`]).
    pub fn label(&self) -> String {
        format!("7-Zip {}", self.version)
    }
}

// 7-Zip (a) [64] 16.02 : …   7-Zip [64] 26.02 : …   7-Zip (A) 9.20  Copyright …
// 7-Zip (z) 26.01 (x64) : …  7-Zip 9.38 beta …
pub(crate) const BANNER_PATTERN: &str = r"^\s*7-Zip\s+(?:\([A-Za-z]\)\s+)?(?:\[(\d+)\]\s+)?(\d+)\.(\d+)((?:\s+(?:alpha|beta))?)(?:\s+\(([^)]*)\))?";
pub(crate) const P7ZIP_PATTERN: &str = r"^\s*p7zip Version (\d+\.\d+)(?:.*?(\d+) bits)?";

fn banner_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(BANNER_PATTERN).expect("valid regex"))
}

fn p7zip_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(P7ZIP_PATTERN).expect("valid regex"))
}

/// Reads the real version from any 7-Zip output (usage text, `7za lalala`, a benchmark run).
pub fn parse_version(text: &str) -> Result<Version, ParseError> {
    let mut banner = Vec::new();
    let mut real: Option<(u32, u32, String, Option<u32>)> = None;
    let mut p7zip: Option<(String, Option<u32>)> = None;
    for line in text.lines() {
        if real.is_none()
            && let Some(c) = banner_re().captures(line)
            && let (Ok(major), Ok(minor)) = (c[2].parse::<u32>(), c[3].parse::<u32>())
        {
            let version = format!("{}.{}{}", &c[2], &c[3], &c[4]);
            let bits = c
                .get(1)
                .and_then(|b| b.as_str().parse().ok())
                .or_else(|| c.get(5).and_then(|a| arch_bits(a.as_str())));
            real = Some((major, minor, version, bits));
            banner.push(line.trim().to_string());
            continue;
        }
        if p7zip.is_none()
            && let Some(c) = p7zip_re().captures(line)
        {
            let bits = c.get(2).and_then(|b| b.as_str().parse().ok());
            p7zip = Some((c[1].to_string(), bits));
            banner.push(line.trim().to_string());
        }
    }
    let (major, minor, version, bits) = match (real, &p7zip) {
        (Some(r), _) => r,
        // Only a p7zip line (a truncated banner): p7zip's own number is the 7-Zip version
        // for every genuine p7zip release (9.20, 16.02).
        (None, Some((v, bits))) => {
            let (maj, min) = v.split_once('.').unwrap_or((v.as_str(), "0"));
            match (maj.parse(), min.parse()) {
                (Ok(maj), Ok(min)) => (maj, min, v.clone(), *bits),
                _ => return Err(ParseError::new(FAMILY, "unreadable p7zip version")),
            }
        }
        (None, None) => return Err(ParseError::new(FAMILY, "no 7-Zip version banner")),
    };
    let bits = bits.or(p7zip.as_ref().and_then(|p| p.1));
    Ok(Version {
        comparable_with_sbc_bench: (major, minor) <= SBC_BENCH_REFERENCE,
        flagged_by_sbc_bench: (major, minor) != SBC_BENCH_REFERENCE,
        version,
        major,
        minor,
        p7zip_version: p7zip.map(|p| p.0),
        bits,
        banner,
    })
}

fn arch_bits(arch: &str) -> Option<u32> {
    match arch {
        "x64" | "arm64" | "riscv64" | "ppc64" | "loongarch64" => Some(64),
        "x86" | "arm" | "i386" | "i686" => Some(32),
        _ => None,
    }
}

/// Runs the program without arguments (it prints its banner and usage) and reads the version.
pub fn detect(runner: &dyn Runner, tool: &Tool) -> Result<Version, Skip> {
    let inv = Invocation::new(tool, &[]).time_limit(Duration::from_secs(30));
    detect_version(runner, tool, &inv, FAMILY, parse_version)
}

/// Finds every candidate, reads each version and picks one comparable with sbc-bench when there
/// is one, else the first in [`CANDIDATES`] order whose version could be read.
pub fn find(sp: &SearchPath, runner: &dyn Runner) -> Result<Found<Version>, Skip> {
    let tools = sp.find_all(CANDIDATES);
    if tools.is_empty() {
        return Err(not_found(FAMILY, CANDIDATES, sp));
    }
    let mut usable = Vec::new();
    let mut last_skip = None;
    for tool in tools {
        match detect(runner, &tool) {
            Ok(version) => usable.push(Found { tool, version }),
            Err(s) => last_skip = Some(s),
        }
    }
    if let Some(i) = usable
        .iter()
        .position(|f| f.version.comparable_with_sbc_bench)
    {
        return Ok(usable.swap_remove(i));
    }
    usable
        .into_iter()
        .next()
        .ok_or_else(|| last_skip.unwrap_or_else(|| Skip::new(FAMILY, "no usable 7-Zip")))
}

/// What to pass to `7z b`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchOptions {
    /// `-mmt=N`.
    pub threads: u32,
    /// `-md=…`: "2m" on low-memory machines (sbc-bench rule), "18" (= 2^18 B) for quick runs.
    pub dictionary: Option<String>,
    /// Number of passes (`7z b N`); `None` = 7-Zip's default.
    pub iterations: Option<u32>,
    /// `-mtime=S`: how long 7-Zip repeats each dictionary size's compression and decompression
    /// (its default is about 4 s each). Every row still makes at least one full pass over the
    /// same generated data, so the rating is the same measurement, averaged over fewer
    /// repetitions. Newer 7-Zip only: p7zip 16.02 rejects it ([`rejects_time_option`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<u32>,
}

impl BenchOptions {
    /// The sbc-bench form: `-md=2m` when less than 350 MB are available.
    pub fn sbc_bench(threads: u32, available_kb: u64) -> Self {
        BenchOptions {
            threads,
            dictionary: needs_small_dictionary(available_kb).then(|| "2m".to_string()),
            iterations: None,
            seconds: None,
        }
    }

    /// The same options with `-mtime=S`.
    pub fn repeating_for(self, seconds: u32) -> Self {
        BenchOptions {
            seconds: Some(seconds),
            ..self
        }
    }

    /// The same options without `-mtime` (for a 7-Zip that rejects it).
    pub fn without_time(self) -> Self {
        BenchOptions {
            seconds: None,
            ..self
        }
    }

    /// One pass with a 256 KiB dictionary: still prints a `Tot:` line, in a few seconds.
    /// Not comparable with anything; for smoke tests.
    pub fn quick(threads: u32) -> Self {
        BenchOptions {
            threads,
            dictionary: Some("18".to_string()),
            iterations: Some(1),
            seconds: None,
        }
    }
}

/// sbc-bench's low-memory rule (`free` "available" < 350000 kB → `-md=2m`).
pub fn needs_small_dictionary(available_kb: u64) -> bool {
    available_kb < SMALL_DICTIONARY_BELOW_KB
}

/// `b [N] [-md=D] -mmt=T`, as sbc-bench writes it.
pub fn args(opts: &BenchOptions) -> Vec<String> {
    let mut a = vec!["b".to_string()];
    if let Some(n) = opts.iterations {
        a.push(n.to_string());
    }
    if let Some(d) = &opts.dictionary {
        a.push(format!("-md={d}"));
    }
    a.push(format!("-mmt={}", opts.threads));
    if let Some(t) = opts.seconds {
        a.push(format!("-mtime={t}"));
    }
    a
}

/// Whether a `7z b` run failed because this 7-Zip does not know an option it was given
/// (p7zip 16.02 answers `-mtime` with "E_INVALIDARG" and no benchmark rows).
pub fn rejects_time_option(output: &str) -> bool {
    output.contains("E_INVALIDARG") && !output.lines().any(|l| l.trim_start().starts_with("Tot:"))
}

/// The benchmark invocation (pin it with [`Invocation::pinned`]).
pub fn invocation(tool: &Tool, opts: &BenchOptions) -> Invocation {
    let a = args(opts);
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    Invocation::new(tool, &refs)
}

/// Speed, CPU usage, rating per usage and rating of one direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rates {
    /// KiB/s (KB/s in 9.20). Not printed on 16.02's Avr line.
    pub speed_kib_s: Option<u64>,
    pub usage_pct: u64,
    pub ru_mips: u64,
    pub rating_mips: u64,
}

/// One dictionary-size row ("22:" = 2^22 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DictRow {
    pub dict_log2: u32,
    pub compress: Rates,
    pub decompress: Rates,
}

/// The `Tot:` line: mean usage, rating per usage and rating of both directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Total {
    pub usage_pct: u64,
    pub ru_mips: u64,
    /// The sbc-bench score (4th column).
    pub rating_mips: u64,
}

/// One `NT CPU Freq (MHz):` line of 7-Zip ≥ 21: clock estimates with N threads, each with the
/// CPU usage it was measured at when 7-Zip prints one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreqLine {
    pub threads: u32,
    pub samples: Vec<FreqSample>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreqSample {
    pub usage_pct: Option<u32>,
    pub mhz: u64,
}

/// One parsed `7z b` run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bench {
    /// From the banner when the output has one.
    pub version: Option<Version>,
    /// The `Compiler:` line (7-Zip ≥ 21), e.g. "ver:12.2.0 GCC 12.2.0 : SSE2": distribution
    /// builds often target the baseline ISA.
    pub compiler: Option<String>,
    /// 16.02's `CPU Freq:` line ("-" = not measured). Values are not always MHz on odd
    /// platforms (40BJ prints 32000000).
    pub cpu_freq: Vec<Option<u64>>,
    /// 7-Zip ≥ 21's `1T CPU Freq (MHz):` / `2T CPU Freq (MHz):` lines.
    pub freq_lines: Vec<FreqLine>,
    pub ram_size_mb: Option<u64>,
    pub hw_threads: Option<u32>,
    pub ram_usage_mb: Option<u64>,
    pub bench_threads: Option<u32>,
    pub rows: Vec<DictRow>,
    /// The `Avr:` line: compress and decompress averages.
    pub avr: Option<(Rates, Rates)>,
    pub tot: Total,
}

impl Bench {
    /// 7-Zip's single-thread clock estimate: the highest sample of the `1T` lines without a
    /// usage figure (the warm-up samples at the start are low), or of all `1T` samples.
    pub fn estimated_mhz_1t(&self) -> Option<u64> {
        let one_t = self.freq_lines.iter().filter(|l| l.threads == 1);
        let plain = one_t
            .clone()
            .flat_map(|l| l.samples.iter())
            .filter(|s| s.usage_pct.is_none())
            .map(|s| s.mhz)
            .max();
        plain.or_else(|| one_t.flat_map(|l| l.samples.iter()).map(|s| s.mhz).max())
    }

    /// Rows for the result document (suite "7zip", unit "MIPS"); see [`test_names`].
    pub fn measurements(&self, ctx: &RunContext) -> Vec<Measurement> {
        let threads = ctx.threads.or(self.bench_threads).unwrap_or(1);
        let mut v = vec![ctx.row(
            SUITE,
            test_names::TOTAL_RATING,
            threads,
            self.tot.rating_mips as f64,
            "MIPS",
        )];
        if let Some((c, d)) = &self.avr {
            v.push(ctx.row(
                SUITE,
                test_names::COMPRESS_RATING,
                threads,
                c.rating_mips as f64,
                "MIPS",
            ));
            v.push(ctx.row(
                SUITE,
                test_names::DECOMPRESS_RATING,
                threads,
                d.rating_mips as f64,
                "MIPS",
            ));
        }
        v.push(ctx.row(
            SUITE,
            test_names::TOTAL_RATING_PER_USAGE,
            threads,
            self.tot.ru_mips as f64,
            "MIPS",
        ));
        v
    }
}

/// Parses one benchmark run (the first `Tot:` line and what precedes it).
pub fn parse(text: &str) -> Result<Bench, ParseError> {
    parse_all(text)
        .into_iter()
        .next()
        .ok_or_else(|| ParseError::new(FAMILY, "no complete run (no Tot: line; killed?)"))
}

/// Every complete run in a text (a log with several `7z b` outputs). A run whose `Tot:` line
/// is missing (out of memory, killed) is not returned.
pub fn parse_all(text: &str) -> Vec<Bench> {
    let mut runs = Vec::new();
    let mut chunk: Vec<&str> = Vec::new();
    for line in text.lines() {
        chunk.push(line);
        if after(line, "Tot:").is_some() {
            if let Some(b) = parse_chunk(&chunk) {
                runs.push(b);
            }
            chunk.clear();
        }
    }
    runs
}

pub(crate) const RAM_PATTERN: &str =
    r"RAM (size|usage):\s*(\d+)\s*MB.*#\s*(?:CPU hardware|Benchmark) threads:\s*(\d+)";
pub(crate) const FREQ_LINE_PATTERN: &str = r"^\s*(\d+)T CPU Freq \(MHz\):(.*)$";

fn ram_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(RAM_PATTERN).expect("valid regex"))
}

fn freq_line_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(FREQ_LINE_PATTERN).expect("valid regex"))
}

fn parse_chunk(lines: &[&str]) -> Option<Bench> {
    let text = lines.join("\n");
    let mut b = Bench {
        version: parse_version(&text).ok(),
        compiler: None,
        cpu_freq: Vec::new(),
        freq_lines: Vec::new(),
        ram_size_mb: None,
        hw_threads: None,
        ram_usage_mb: None,
        bench_threads: None,
        rows: Vec::new(),
        avr: None,
        tot: Total {
            usage_pct: 0,
            ru_mips: 0,
            rating_mips: 0,
        },
    };
    let mut tot = None;
    for line in lines {
        if let Some(rest) = after(line, "Compiler:") {
            b.compiler = Some(rest.trim().to_string());
        } else if let Some(rest) = after(line, "CPU Freq:") {
            b.cpu_freq = rest
                .split_whitespace()
                .map(|f| f.parse::<u64>().ok())
                .collect();
        } else if let Some(c) = freq_line_re().captures(line) {
            if let Ok(threads) = c[1].parse() {
                b.freq_lines.push(FreqLine {
                    threads,
                    samples: parse_freq_samples(&c[2]),
                });
            }
        } else if let Some(c) = ram_re().captures(line) {
            let mb = c[2].parse().ok();
            let threads = c[3].parse().ok();
            if &c[1] == "size" {
                b.ram_size_mb = mb;
                b.hw_threads = threads;
            } else {
                b.ram_usage_mb = mb;
                b.bench_threads = threads;
            }
        } else if let Some(rest) = after(line, "Avr:") {
            b.avr = parse_avr(rest);
        } else if let Some(rest) = after(line, "Tot:") {
            let n = leading_u64s(rest);
            if n.len() >= 3 {
                let n = &n[n.len() - 3..];
                tot = Some(Total {
                    usage_pct: n[0],
                    ru_mips: n[1],
                    rating_mips: n[2],
                });
            }
        } else if let Some(row) = parse_dict_row(line) {
            b.rows.push(row);
        }
    }
    b.tot = tot?;
    Some(b)
}

fn parse_freq_samples(rest: &str) -> Vec<FreqSample> {
    let mut samples = Vec::new();
    let mut usage = None;
    for tok in rest.split_whitespace() {
        if let Some(p) = tok.strip_suffix('%') {
            usage = p.parse().ok();
        } else if let Ok(mhz) = tok.parse() {
            samples.push(FreqSample {
                usage_pct: usage.take(),
                mhz,
            });
        }
    }
    samples
}

/// Last 3 numbers are usage, R/U, rating; a 4th in front is the speed.
fn rates(nums: &[u64]) -> Option<Rates> {
    match nums {
        [u, r, g] => Some(Rates {
            speed_kib_s: None,
            usage_pct: *u,
            ru_mips: *r,
            rating_mips: *g,
        }),
        [s, u, r, g] => Some(Rates {
            speed_kib_s: Some(*s),
            usage_pct: *u,
            ru_mips: *r,
            rating_mips: *g,
        }),
        _ => None,
    }
}

fn parse_avr(rest: &str) -> Option<(Rates, Rates)> {
    if let Some((l, r)) = rest.split_once('|') {
        return Some((rates(&leading_u64s(l))?, rates(&leading_u64s(r))?));
    }
    // 9.20 prints no separator on the Avr line: split the numbers in half.
    let n = leading_u64s(rest);
    if n.len() == 6 || n.len() == 8 {
        let (l, r) = n.split_at(n.len() / 2);
        return Some((rates(l)?, rates(r)?));
    }
    None
}

fn parse_dict_row(line: &str) -> Option<DictRow> {
    let (head, rest) = line.trim_start().split_once(':')?;
    let dict_log2: u32 = head.parse().ok()?;
    let (l, r) = rest.split_once('|')?;
    let c = leading_u64s(l);
    let d = leading_u64s(r);
    if c.len() != 4 || d.len() != 4 {
        return None;
    }
    Some(DictRow {
        dict_log2,
        compress: rates(&c)?,
        decompress: rates(&d)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_follow_sbc_bench() {
        assert_eq!(
            args(&BenchOptions::sbc_bench(1, 2_000_000)),
            ["b", "-mmt=1"]
        );
        assert_eq!(
            args(&BenchOptions::sbc_bench(4, 349_999)),
            ["b", "-md=2m", "-mmt=4"]
        );
        assert_eq!(
            args(&BenchOptions::quick(1)),
            ["b", "1", "-md=18", "-mmt=1"]
        );
    }

    #[test]
    fn time_option_goes_last_and_only_when_asked() {
        let o = BenchOptions::sbc_bench(2, 349_999).repeating_for(1);
        assert_eq!(args(&o), ["b", "-md=2m", "-mmt=2", "-mtime=1"]);
        assert_eq!(args(&o.without_time()), ["b", "-md=2m", "-mmt=2"]);
    }

    #[test]
    fn a_rejected_option_is_told_from_a_finished_run() {
        // What 7-Zip prints for an option its benchmark does not know (recorded from 26.02
        // with `-mtm=1`; p7zip 16.02 answers `-mtime` the same way).
        let rejected = "\n7-Zip (a) [64] 26.02 : Copyright (c) 1999-2026 Igor Pavlov : 2026-06-25\n\
                        \n mt=1 tm=1\n\n\nSystem ERROR:\n\
                        E_INVALIDARG : One or more arguments are invalid\n";
        assert!(rejects_time_option(rejected));
        assert!(!rejects_time_option("Avr: 1 2 3\nTot:   100 3935 3935\n"));
        assert!(!rejects_time_option(
            "ERROR: Can't allocate required memory!\n"
        ));
    }

    #[test]
    fn low_memory_rule_boundary() {
        assert!(needs_small_dictionary(349_999));
        assert!(!needs_small_dictionary(350_000));
    }

    #[test]
    fn freq_samples_with_and_without_usage() {
        let s = parse_freq_samples(" 100% 3198   100% 3202  ");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].usage_pct, Some(100));
        assert_eq!(s[1].mhz, 3202);
        let s = parse_freq_samples("  2634  1776");
        assert_eq!(s[0].usage_pct, None);
    }

    #[test]
    fn version_without_banner_is_an_error() {
        assert!(parse_version("Usage: 7z <command>").is_err());
    }
}
