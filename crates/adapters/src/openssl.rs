//! `openssl speed -elapsed -evp <cipher>`: version detection, command line and table parser.
//!
//! sbc-bench runs `openssl speed -elapsed -evp aes-{128,192,256}-cbc` and takes the
//! `aes-256-cbc` row's 16384-byte column (awk `$7`) as its AES score, in OpenSSL's unit:
//! "1000s of bytes per second" (the `k` suffix), so the unit here is "kB/s" with k = 1000.
//!
//! Table layouts handled (fixtures in tests/data):
//! * OpenSSL 1.0.x: 5 columns (16 … 8192 bytes), no 16384 column (sbc-bench's `$7` is then
//!   empty and its summary shows 0);
//! * 1.1.x and 3.x: 6 columns up to 16384 bytes;
//! * 3.0.19 prints the algorithm upper-case (`AES-256-CBC`), older ones lower-case; names are
//!   stored lower-case;
//! * sbc-bench's logs append the core type (`(Cortex-A72)`) or `(fully parallel)` to a row;
//!   that trailing text is kept as the row's note.
//!
//! Values below 10000 bytes/s are printed by OpenSSL without the `k` (in bytes/s); they are
//! converted to kB/s.

use std::sync::OnceLock;
use std::time::Duration;

use document::Measurement;
use regex_lite::Regex;
use serde::{Deserialize, Serialize};

use crate::tool::{Invocation, Runner, SearchPath, Skip, Tool, detect_version};
use crate::{Found, ParseError, RunContext};

pub const FAMILY: &str = "OpenSSL";
pub const SUITE: &str = "openssl";
pub const CANDIDATES: &[&str] = &["openssl"];
/// The ciphers sbc-bench measures, in its order.
pub const SBC_BENCH_CIPHERS: &[&str] = &["aes-128-cbc", "aes-192-cbc", "aes-256-cbc"];
/// sbc-bench's score column.
pub const SCORE_BLOCK_SIZE: u32 = 16384;
/// Unit of every value: 1000 bytes per second, as OpenSSL prints them.
pub const UNIT: &str = "kB/s";

/// The OpenSSL (or LibreSSL) that runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// "OpenSSL" or "LibreSSL".
    pub flavour: String,
    /// "3.0.19", "1.1.1n", "1.0.2g", "3.2.2-dev".
    pub version: String,
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
    /// The line as printed.
    pub line: String,
}

impl Version {
    /// "OpenSSL 3.0.19".
    pub fn label(&self) -> String {
        format!("{} {}", self.flavour, self.version)
    }

    /// `speed -seconds N` exists since OpenSSL 1.1.1 (needed by [`SpeedOptions::quick`]).
    pub fn supports_seconds(&self) -> bool {
        self.flavour != "OpenSSL" || (self.major, self.minor, self.patch) >= (1, 1, 1)
    }

    /// `speed -bytes N` (one block size only) exists in OpenSSL ≥ 1.1.1; LibreSSL has none.
    pub fn supports_bytes(&self) -> bool {
        self.flavour == "OpenSSL" && (self.major, self.minor, self.patch) >= (1, 1, 1)
    }

    /// 1.0.x has no 16384-byte column, so no sbc-bench AES score.
    pub fn prints_16k_column(&self) -> bool {
        (self.major, self.minor) >= (1, 1) || self.flavour != "OpenSSL"
    }
}

pub(crate) const VERSION_PATTERN: &str =
    r"^\s*(OpenSSL|LibreSSL)\s+((\d+)\.(\d+)(?:\.(\d+))?[a-z]?(?:-[A-Za-z0-9]+)?)";

fn version_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(VERSION_PATTERN).expect("valid regex"))
}

/// Reads the first `OpenSSL x.y.z …` / `LibreSSL x.y.z` line (`openssl version`, or the first
/// line of a speed table as sbc-bench logs it), or OpenSSL 3's `version: 3.0.19` line at the
/// top of `openssl speed` output.
pub fn parse_version(text: &str) -> Result<Version, ParseError> {
    for line in text.lines() {
        let normalised;
        let line = match line.trim_start().strip_prefix("version:") {
            Some(v) => {
                normalised = format!("OpenSSL {}", v.trim());
                normalised.as_str()
            }
            None => line,
        };
        if let Some(c) = version_re().captures(line)
            && let (Ok(major), Ok(minor)) = (c[3].parse(), c[4].parse())
        {
            return Ok(Version {
                flavour: c[1].to_string(),
                version: c[2].to_string(),
                major,
                minor,
                patch: c.get(5).and_then(|p| p.as_str().parse().ok()).unwrap_or(0),
                line: line.trim().to_string(),
            });
        }
    }
    Err(ParseError::new(FAMILY, "no version line"))
}

/// Runs `openssl version`.
pub fn detect(runner: &dyn Runner, tool: &Tool) -> Result<Version, Skip> {
    let inv = Invocation::new(tool, &["version"]).time_limit(Duration::from_secs(30));
    detect_version(runner, tool, &inv, FAMILY, parse_version)
}

pub fn find(sp: &SearchPath, runner: &dyn Runner) -> Result<Found<Version>, Skip> {
    let tool = sp.find(FAMILY, CANDIDATES)?;
    let version = detect(runner, &tool)?;
    Ok(Found { tool, version })
}

/// What to pass to `openssl speed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpeedOptions {
    /// An EVP cipher name ("aes-256-cbc").
    pub cipher: String,
    /// `-seconds N` per block size (OpenSSL ≥ 1.1.1; default 3 s). `None` = sbc-bench's form.
    pub seconds: Option<u32>,
    /// `-bytes N`: only this block size instead of OpenSSL's six (OpenSSL ≥ 1.1.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u32>,
}

impl SpeedOptions {
    /// Exactly sbc-bench's `openssl speed -elapsed -evp <cipher>` (6 × 3 s).
    pub fn sbc_bench(cipher: &str) -> Self {
        SpeedOptions {
            cipher: cipher.to_string(),
            seconds: None,
            bytes: None,
        }
    }

    /// Only the cell sbc-bench's figure is read from — the 16384-byte column — measured the way
    /// sbc-bench measures it (3 s of wall time), so the figure is the same measurement in a
    /// sixth of the time (OpenSSL ≥ 1.1.1, see [`Version::supports_bytes`]).
    pub fn score_cell(cipher: &str) -> Self {
        SpeedOptions {
            cipher: cipher.to_string(),
            seconds: Some(3),
            bytes: Some(SCORE_BLOCK_SIZE),
        }
    }

    /// One second per block size: a quick, less stable run (OpenSSL ≥ 1.1.1, see
    /// [`Version::supports_seconds`]).
    pub fn quick(cipher: &str) -> Self {
        SpeedOptions {
            cipher: cipher.to_string(),
            seconds: Some(1),
            bytes: None,
        }
    }
}

/// `speed -elapsed [-seconds N] [-bytes N] -evp <cipher>`.
pub fn args(opts: &SpeedOptions) -> Vec<String> {
    let mut a = vec!["speed".to_string(), "-elapsed".to_string()];
    if let Some(s) = opts.seconds {
        a.push("-seconds".to_string());
        a.push(s.to_string());
    }
    if let Some(b) = opts.bytes {
        a.push("-bytes".to_string());
        a.push(b.to_string());
    }
    a.push("-evp".to_string());
    a.push(opts.cipher.clone());
    a
}

pub fn invocation(tool: &Tool, opts: &SpeedOptions) -> Invocation {
    let a = args(opts);
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    Invocation::new(tool, &refs)
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpeedRow {
    /// Lower-case ("aes-256-cbc").
    pub algorithm: String,
    /// kB/s (k = 1000 B/s), one per block size of the header.
    pub kb_per_s: Vec<f64>,
    /// Trailing text after the numbers in sbc-bench logs: "(Cortex-A72)", "(fully parallel)".
    pub note: Option<String>,
}

/// A parsed `openssl speed` output (or sbc-bench's copy of its table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Speed {
    pub version: Option<Version>,
    /// Block sizes of the header, in bytes: [16, 64, 256, 1024, 8192(, 16384)].
    pub block_sizes: Vec<u32>,
    pub rows: Vec<SpeedRow>,
}

impl Speed {
    /// Value of the first row of `algorithm` at `block_size` bytes.
    pub fn value(&self, algorithm: &str, block_size: u32) -> Option<f64> {
        self.values(algorithm, block_size).into_iter().next()
    }

    /// Values of every row of `algorithm` (repeated runs in a log) at `block_size` bytes.
    pub fn values(&self, algorithm: &str, block_size: u32) -> Vec<f64> {
        let Some(col) = self.block_sizes.iter().position(|&b| b == block_size) else {
            return Vec::new();
        };
        let algorithm = algorithm.to_ascii_lowercase();
        self.rows
            .iter()
            .filter(|r| r.algorithm == algorithm)
            .filter_map(|r| r.kb_per_s.get(col).copied())
            .collect()
    }

    /// sbc-bench's per-run score for `algorithm`: the 16384-byte column (None on 1.0.x).
    pub fn sbc_bench_score(&self, algorithm: &str) -> Option<f64> {
        self.value(algorithm, SCORE_BLOCK_SIZE)
    }

    /// One row per algorithm row and block size: test "aes-256-cbc 16384 bytes", unit "kB/s".
    pub fn measurements(&self, ctx: &RunContext) -> Vec<Measurement> {
        let threads = ctx.threads.unwrap_or(1);
        let mut v = Vec::new();
        for row in &self.rows {
            for (size, val) in self.block_sizes.iter().zip(&row.kb_per_s) {
                v.push(ctx.row(
                    SUITE,
                    &test_name(&row.algorithm, *size),
                    threads,
                    *val,
                    UNIT,
                ));
            }
        }
        v
    }
}

/// The measurement test name: "aes-256-cbc 16384 bytes".
pub fn test_name(algorithm: &str, block_size: u32) -> String {
    format!("{algorithm} {block_size} bytes")
}

/// Parses the `type 16 bytes …` header and the rows under it. Rows are recognised by having
/// as many numbers as the header has sizes; anything else (OpenSSL's "Doing …" progress lines,
/// sbc-bench separators) is ignored.
pub fn parse(text: &str) -> Result<Speed, ParseError> {
    let mut block_sizes: Vec<u32> = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("type") {
            if rest.contains("bytes") {
                block_sizes = rest
                    .split_whitespace()
                    .filter(|f| *f != "bytes")
                    .filter_map(|f| f.parse().ok())
                    .collect();
            }
            continue;
        }
        if block_sizes.is_empty() {
            continue;
        }
        if let Some(row) = parse_row(t, block_sizes.len()) {
            rows.push(row);
        }
    }
    if block_sizes.is_empty() {
        return Err(ParseError::new(FAMILY, "no 'type … bytes' header"));
    }
    if rows.is_empty() {
        return Err(ParseError::new(FAMILY, "no result rows under the header"));
    }
    Ok(Speed {
        version: parse_version(text).ok(),
        block_sizes,
        rows,
    })
}

fn parse_row(line: &str, columns: usize) -> Option<SpeedRow> {
    let mut fields = line.split_whitespace();
    let name = fields.next()?;
    // Algorithm names start with a letter ("aes-256-cbc", "AES-256-CBC", "sha256").
    if !name.chars().next()?.is_ascii_alphabetic() {
        return None;
    }
    let rest: Vec<&str> = fields.collect();
    if rest.len() < columns {
        return None;
    }
    let mut values = Vec::with_capacity(columns);
    for f in &rest[..columns] {
        values.push(parse_value(f)?);
    }
    let note = rest[columns..].join(" ");
    Some(SpeedRow {
        algorithm: name.to_ascii_lowercase(),
        kb_per_s: values,
        note: (!note.is_empty()).then_some(note),
    })
}

/// Parses `openssl speed -mr` output (machine-readable, OpenSSL 1.0.2 … 3.x): the `+H:` line
/// gives the block sizes, each `+F:<index>:<alg>:<v>…` line a row in **bytes/s** (converted to
/// kB/s here). With `-multi N` the children's lines come back prefixed `Got: … from <i>`; those
/// are skipped, so the rows are the parent's sums over all children. Progress lines (`+DT:`,
/// `+R:`), public-key rows (`+F2:` …) and anything else are ignored.
pub fn parse_mr(text: &str) -> Result<Speed, ParseError> {
    let mut block_sizes: Vec<u32> = Vec::new();
    let mut child_header: Vec<u32> = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("Got: ") {
            if let Some(h) = rest.strip_prefix("+H:")
                && child_header.is_empty()
            {
                let h = h.split(" from ").next().unwrap_or("");
                child_header = h.split(':').filter_map(|f| f.trim().parse().ok()).collect();
            }
            continue;
        }
        if let Some(h) = t.strip_prefix("+H:") {
            block_sizes = h.split(':').filter_map(|f| f.trim().parse().ok()).collect();
            continue;
        }
        let Some(f) = t.strip_prefix("+F:") else {
            continue;
        };
        let fields: Vec<&str> = f.split(':').collect();
        if fields.len() < 3 || fields[0].parse::<u32>().is_err() {
            return Err(ParseError::new(FAMILY, format!("malformed +F line: {t}")));
        }
        let mut values = Vec::with_capacity(fields.len() - 2);
        for v in &fields[2..] {
            let x: f64 = v
                .trim()
                .parse()
                .map_err(|_| ParseError::new(FAMILY, format!("bad value {v:?} in: {t}")))?;
            if !x.is_finite() {
                return Err(ParseError::new(FAMILY, format!("bad value {v:?} in: {t}")));
            }
            values.push(x / 1000.0);
        }
        rows.push(SpeedRow {
            algorithm: fields[1].to_ascii_lowercase(),
            kb_per_s: values,
            note: None,
        });
    }
    if block_sizes.is_empty() {
        block_sizes = child_header;
    }
    if block_sizes.is_empty() {
        return Err(ParseError::new(FAMILY, "no '+H:' header line"));
    }
    if rows.is_empty() {
        return Err(ParseError::new(FAMILY, "no '+F:' result line"));
    }
    if let Some(r) = rows.iter().find(|r| r.kb_per_s.len() != block_sizes.len()) {
        return Err(ParseError::new(
            FAMILY,
            format!(
                "{} has {} values for {} block sizes",
                r.algorithm,
                r.kb_per_s.len(),
                block_sizes.len()
            ),
        ));
    }
    Ok(Speed {
        version: parse_version(text).ok(),
        block_sizes,
        rows,
    })
}

/// "808221.72k" → 808221.72 (kB/s); "9876.54" (bytes/s, OpenSSL drops the k below 10000) →
/// 9.87654.
fn parse_value(f: &str) -> Option<f64> {
    let v = match f.strip_suffix('k') {
        Some(k) => k.parse::<f64>().ok()?,
        None => f.parse::<f64>().ok()? / 1000.0,
    };
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_follow_sbc_bench() {
        assert_eq!(
            args(&SpeedOptions::sbc_bench("aes-256-cbc")),
            ["speed", "-elapsed", "-evp", "aes-256-cbc"]
        );
        assert_eq!(
            args(&SpeedOptions::quick("aes-128-cbc")),
            ["speed", "-elapsed", "-seconds", "1", "-evp", "aes-128-cbc"]
        );
        assert_eq!(
            args(&SpeedOptions::score_cell("aes-192-cbc")),
            [
                "speed",
                "-elapsed",
                "-seconds",
                "3",
                "-bytes",
                "16384",
                "-evp",
                "aes-192-cbc"
            ]
        );
    }

    #[test]
    fn a_one_cell_table_gives_the_score() {
        let out = "version: 3.0.19\nThe 'numbers' are in 1000s of bytes per second processed.\n\
                   type          16384 bytes\nAES-256-CBC     252666.24k\n";
        let s = parse(out).unwrap();
        assert_eq!(s.block_sizes, [16384]);
        assert_eq!(s.sbc_bench_score("aes-256-cbc"), Some(252666.24));
    }

    #[test]
    fn bytes_needs_openssl_1_1_1() {
        let v = |t: &str| parse_version(t).unwrap().supports_bytes();
        assert!(v("OpenSSL 3.0.19"));
        assert!(v("OpenSSL 1.1.1n"));
        assert!(!v("OpenSSL 1.1.0l"));
        assert!(!v("LibreSSL 3.3.6"));
    }

    #[test]
    fn small_values_are_bytes_per_second() {
        assert_eq!(parse_value("9876.00"), Some(9.876));
        assert_eq!(parse_value("12.5k"), Some(12.5));
        assert_eq!(parse_value("x"), None);
        assert_eq!(parse_value("infk"), None);
    }

    #[test]
    fn libressl_and_dev_versions() {
        let v = parse_version("LibreSSL 3.3.6").unwrap();
        assert_eq!((v.flavour.as_str(), v.major, v.minor), ("LibreSSL", 3, 3));
        let v = parse_version("OpenSSL 3.2.2-dev, built on (Library: OpenSSL 3.2.2-dev )").unwrap();
        assert_eq!(v.version, "3.2.2-dev");
    }
}
