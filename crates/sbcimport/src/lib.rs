//! Parses sbc-bench logs of every era into boardbench result documents (see the README of
//! the `sbc-bench-logs` fixtures for the formats and the headline rules).
//!
//! [`parse_log`] turns the text into an [`ImportedLog`] (everything the log says, plus the
//! headline numbers derived by sbc-bench's rules); [`import`] wraps it into a
//! [`ResultDocument`] with `Measurement` rows for the headline numbers. [`signals`] extracts
//! the evidence the findings need (throttling, swapping, background activity).
//!
//! Module map: [`version`] (versions, eras), `sysinfo` (header, kernel, arch, core types),
//! `clock`, `memory`, `sevenzip`, `openssl`, `miner` (cpuminer, Stockfish), `health_tables`,
//! `aftermath` (throttling, swap, dmesg, validation), `results_row`, [`headline`], `document`.

mod aftermath;
mod assemble;
mod clock;
pub mod headline;
mod health_tables;
pub mod input;
mod memory;
mod miner;
mod openssl;
mod results_row;
mod rpi;
mod sevenzip;
pub mod signals;
mod sysinfo;
mod text;
mod truncation;
pub mod version;

use document::ResultDocument;
use document::imported::ImportedLog;

pub use assemble::{import, measurements};

/// Why a file could not be imported. The message is one line, meant for `import: <file>: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("empty file")]
    Empty,
    #[error("binary data, not a text log")]
    Binary,
    /// Text with binary data inside (past its first 8 KiB): damaged, its figures unreliable.
    #[error("binary data at byte {0} inside the log: damaged, not imported")]
    BinaryInside(usize),
    #[error("not an sbc-bench log (no `sbc-bench vX.Y` header and no benchmark sections)")]
    NotSbcBench,
    #[error("truncated sbc-bench log: no benchmark results (ends after {0} lines)")]
    NoResults(usize),
    #[error("larger than {} MiB: not an sbc-bench log", .0 / (1024 * 1024))]
    TooLarge(u64),
    #[error("the file holds {0} sbc-bench logs, one after another; import them one by one")]
    SeveralLogs(usize),
    #[error("{0}")]
    Read(String),
}

/// Parses the text of one log. `source` is the file name recorded in the result.
pub fn parse_log(text: &str, source: &str) -> Result<ImportedLog, ImportError> {
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let lines = truncation::complete_lines(text);
    let header = lines.first().and_then(|l| sysinfo::header(l));
    // Logs older than v0.4 start with lsb_release output and carry tinymembench/7-Zip.
    let old_style = header.is_none()
        && lines
            .first()
            .is_some_and(|l| l.starts_with("Distributor ID:"));
    if header.is_none() && !old_style {
        return Err(ImportError::NotSbcBench);
    }
    let version = header
        .as_ref()
        .and_then(|h| h.version.as_deref())
        .and_then(version::Version::parse);
    let era = version::Era::of(version);

    let summary_line = results_row::find(&lines, version);
    let partial = !truncation::reached_end(&lines, summary_line.is_some());
    // A cut log: the headline figures come only from blocks sbc-bench finished.
    let finished = if partial {
        truncation::finished_blocks(&lines)
    } else {
        lines.len()
    };
    let bench = &lines[..finished];
    let memory = memory::memory_runs(bench);
    let sevenzip = sevenzip::sevenzip(bench);
    let openssl = openssl::openssl(bench);
    let cpuminer = miner::cpuminer(bench);
    if memory.is_empty() && sevenzip.is_none() && openssl.is_none() && cpuminer.is_none() {
        return Err(if old_style {
            ImportError::NotSbcBench
        } else {
            ImportError::NoResults(lines.len())
        });
    }
    let iostat = sysinfo::iostat(&lines);
    let (core_types, core_types_source) = sysinfo::core_types(&lines);
    let cpu_count = iostat.as_ref().and_then(|i| i.cpus);
    let headline = headline::derive(&headline::Inputs {
        version,
        cpu_count,
        sevenzip: sevenzip.as_ref(),
        openssl: openssl.as_ref(),
        memory: &memory,
        total_scores: cpuminer.as_ref().map_or(&[][..], |m| &m.total_scores),
    });
    let mut problems = Vec::new();
    if memory.is_empty() {
        problems.push("no tinymembench results".to_string());
    }
    if openssl.is_none() {
        problems.push("no OpenSSL results".to_string());
    }
    match &sevenzip {
        None => problems.push("no 7-Zip results".to_string()),
        Some(z) if z.totals.is_empty() => {
            problems.push("no 7-Zip multi-threaded `Total:` line (log cut off?)".to_string())
        }
        _ => {}
    }
    if cpuminer
        .as_ref()
        .is_some_and(|m| m.total_scores.is_empty() && !m.samples_khs.is_empty())
    {
        problems.push(
            "cpuminer ran but the log has no `Total Scores:` line (log cut off?)".to_string(),
        );
    }
    if partial {
        problems.splice(
            0..0,
            cut_off_problems(
                &lines,
                finished,
                &headline,
                miner::cpuminer(&lines).is_some(),
            ),
        );
    }
    let kernel_machine = iostat.as_ref().and_then(|i| i.machine.clone());
    Ok(ImportedLog {
        source: source.to_string(),
        sha256: None,
        sbc_bench_version: version.map(|_| {
            header
                .as_ref()
                .and_then(|h| h.version.clone())
                .unwrap_or_default()
        }),
        era: era.name().to_string(),
        header: header.as_ref().map(|h| h.line.clone()),
        device: header.as_ref().and_then(|h| h.device.clone()),
        date: header.as_ref().and_then(|h| h.date.clone()),
        modes: header.map(|h| h.modes).unwrap_or_default(),
        distro: sysinfo::distro(&lines),
        kernel_release: iostat.as_ref().map(|i| i.release.clone()),
        arch: sysinfo::arch(&lines, kernel_machine.as_deref()),
        kernel_machine,
        cpu_count,
        soc_guess: sysinfo::soc_guess(&lines),
        core_types,
        core_types_source: core_types_source.map(str::to_string),
        clock_checks: clock::clock_checks(&lines),
        memory,
        sevenzip,
        openssl,
        cpuminer,
        stockfish: miner::stockfish(bench),
        monitor: health_tables::read(&lines),
        throttling: aftermath::throttling(&lines),
        swap: aftermath::swap(&lines),
        kmsg: aftermath::kmsg(&lines),
        validation: aftermath::validation(&lines),
        rpi_config: rpi::config(&lines),
        rpi_throttled: rpi::throttled(&lines),
        summary_line,
        headline,
        partial,
        problems,
    })
}

/// What the problems list says about a log that stops before sbc-bench's end: where it stops,
/// which unfinished block was ignored, which headline figures are therefore missing.
fn cut_off_problems(
    lines: &[&str],
    finished: usize,
    h: &document::imported::Headline,
    cpuminer_seen: bool,
) -> Vec<String> {
    let mut out = vec![format!(
        "log cut off after line {}: it ends before sbc-bench's end (the summary row, or the \
         system information after the benchmarks)",
        lines.len()
    )];
    let rest = &lines[(finished + 1).min(lines.len())..];
    if rest.iter().any(|l| !l.trim().is_empty()) {
        let what = truncation::unfinished_block_name(rest).map_or_else(
            || "the unfinished last block".to_string(),
            |n| format!("the unfinished {n} block"),
        );
        out.push(format!(
            "{what} (lines {}-{}) is not used for figures",
            finished + 2,
            lines.len()
        ));
    }
    let mut missing: Vec<&str> = [
        ("7-zip multi", h.zip_multi.is_none()),
        ("7-zip single", h.zip_single.is_none()),
        ("AES", h.aes.is_none()),
        ("memcpy", h.memcpy.is_none()),
        ("memset", h.memset.is_none()),
    ]
    .iter()
    .filter(|(_, gone)| *gone)
    .map(|(n, _)| *n)
    .collect();
    if cpuminer_seen && h.khs.is_none() {
        missing.push("kH/s (cpuminer)");
    }
    if !missing.is_empty() {
        out.push(format!("missing figures: {}", missing.join(", ")));
    }
    out
}

/// Imports the raw bytes of one log: text check, parse, checksum, result document. Several
/// logs one after another are refused ([`import_logs`] imports each).
pub fn import_bytes(bytes: &[u8], source: &str) -> Result<ResultDocument, ImportError> {
    let logs = input::split_logs(bytes);
    if logs.len() > 1 {
        return Err(ImportError::SeveralLogs(logs.len()));
    }
    import_one(bytes, source)
}

/// Imports every log of a file (usually one; several when logs were concatenated): one result
/// per log, in file order. Source names get ` (log k of n)` when there are several.
pub fn import_logs(bytes: &[u8], source: &str) -> Vec<Result<ResultDocument, ImportError>> {
    let logs = input::split_logs(bytes);
    let n = logs.len();
    logs.into_iter()
        .enumerate()
        .map(|(k, range)| {
            let name = if n > 1 {
                format!("{source} (log {} of {n})", k + 1)
            } else {
                source.to_string()
            };
            import_one(&bytes[range], &name)
        })
        .collect()
}

fn import_one(bytes: &[u8], source: &str) -> Result<ResultDocument, ImportError> {
    if bytes.is_empty() {
        return Err(ImportError::Empty);
    }
    match binary_at(bytes) {
        Some(at) if at < 8192 => return Err(ImportError::Binary),
        Some(at) => return Err(ImportError::BinaryInside(at)),
        None => {}
    }
    let text = String::from_utf8_lossy(bytes);
    let mut log = parse_log(&text, source)?;
    log.sha256 = Some(sha256_hex(bytes));
    Ok(import(log))
}

/// NUL bytes, or many control characters in any 8 KiB of it, mean "not a text log": binary
/// data in the middle of a log (a damaged file, bytes pasted in) would otherwise change its
/// figures silently (3 KB of random bytes once turned memcpy 17950 into 17510).
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    binary_at(bytes).is_some()
}

/// The offset of the first 8 KiB window that [`looks_binary`].
pub(crate) fn binary_at(bytes: &[u8]) -> Option<usize> {
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Some(i);
    }
    bytes.chunks(8192).enumerate().find_map(|(k, w)| {
        let ctrl = w
            .iter()
            .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x1b | 0x0c))
            .count();
        (ctrl * 20 > w.len()).then_some(k * 8192)
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
