//! `boardbench guide console LOG… --device BOARD [--medium NAME] [--prompt TEXT]… [-o FILE]`:
//! a guide document from serial console logs — the boot-time tables (every boot of the logs,
//! each figure the median with min and max) and U-Boot's storage tables — for a lab PC or a
//! LAVA server, where the board's console is recorded. `guide render --merge-by board`
//! combines such documents (several jobs of one board) with each other and with the board's
//! measured guide. The parsing is `guide::console`'s.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use document::ResultDocument;
use document::guide::{GuideRecord, SectionStatus};

use crate::outfile::OutFile;

/// The largest log read (a LAVA job log of a long reboot loop is tens of MiB).
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Console logs: LAVA job logs (`lavacli jobs logs --raw JOB`), captures with the host's
    /// time per line (grabserial `-t`, `ts`), or plain captures (kernel stamps only).
    #[arg(value_name = "LOG", required = true)]
    pub logs: Vec<PathBuf>,
    /// The board: the document's device name (`guide render --merge-by board` merges by it).
    #[arg(long, value_name = "NAME")]
    pub device: String,
    /// The boot medium of every boot ("mmc-sd", "emmc", "nfs" …), instead of the one the
    /// kernel's lines show.
    #[arg(long, value_name = "NAME")]
    pub medium: Option<String>,
    /// A prompt that ends a boot, beside login and root-shell prompts (a substring). Repeatable.
    #[arg(long, value_name = "TEXT")]
    pub prompt: Vec<String>,
    /// Write the document to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing -o file (never one of the logs).
    #[arg(long)]
    pub force: bool,
}

/// A log's text, bounded; lossy UTF-8 (a console carries line noise).
fn read_log(p: &Path) -> anyhow::Result<String> {
    let f = std::fs::File::open(p).with_context(|| format!("{}", p.display()))?;
    let meta = f.metadata().with_context(|| format!("{}", p.display()))?;
    if meta.is_dir() {
        anyhow::bail!("{}: is a directory", p.display());
    }
    let mut bytes = Vec::new();
    f.take(MAX_LOG_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}", p.display()))?;
    if bytes.len() as u64 > MAX_LOG_BYTES {
        anyhow::bail!(
            "{}: larger than {} MiB",
            p.display(),
            MAX_LOG_BYTES / (1024 * 1024)
        );
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The document of `logs` ((name, text) each) for `device`.
pub fn document(
    logs: &[(String, String)],
    device: &str,
    o: &guide::console::Options,
) -> ResultDocument {
    // When the lab measured: a LAVA log's times are the dispatcher's, in UTC.
    let stamp = |t: f64| {
        chrono::DateTime::from_timestamp(t.floor() as i64, ((t.fract()) * 1e9) as u32)
            .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, false))
    };
    let span = guide::console::lava_time_span(logs);
    ResultDocument {
        schema_version: document::SCHEMA_VERSION,
        producer: format!("boardbench {}", env!("CARGO_PKG_VERSION")),
        device: Some(device.to_string()),
        started: span.and_then(|(a, _)| stamp(a)),
        finished: span.and_then(|(_, b)| stamp(b)),
        machine: None,
        measurements: Vec::new(),
        findings: Vec::new(),
        imported: None,
        run: None,
        guide: Some(GuideRecord {
            quick: false,
            sections: guide::console::sections(logs, o),
            build: None,
        }),
        redaction: None,
        analysis: None,
    }
}

/// Exit 0 with a table, 2 when the logs gave none (the document is written all the same), 1
/// when every log is empty.
pub fn run(a: &Args) -> anyhow::Result<i32> {
    let inputs: Vec<&Path> = a.logs.iter().map(PathBuf::as_path).collect();
    let out = a
        .output
        .as_deref()
        .map(|p| OutFile::check(p, a.force, &inputs, "-o"))
        .transpose()?;
    let mut logs = Vec::new();
    for p in &a.logs {
        let name = p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = read_log(p)?;
        if text.trim().is_empty() {
            // An empty log is a capture or a `lavacli jobs logs` that failed: say so, and
            // refuse when no log has anything.
            eprintln!("warning: {}: empty (no console line)", p.display());
            continue;
        }
        logs.push((name, text));
    }
    if logs.is_empty() {
        anyhow::bail!(
            "no console line in {}: the log{} empty",
            a.logs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if a.logs.len() == 1 { " is" } else { "s are" }
        );
    }
    let o = guide::console::Options {
        medium: a.medium.clone(),
        prompts: a.prompt.clone(),
    };
    let mut doc = document(&logs, &a.device, &o);
    crate::finishing::finish(&mut doc);
    let sections = doc
        .guide
        .as_ref()
        .map(|g| g.sections.as_slice())
        .unwrap_or(&[]);
    let mut any = false;
    for s in sections {
        match (&s.status, &s.reason) {
            (SectionStatus::Done, _) => {
                any = true;
                let rows: usize = s.tables.iter().map(|t| t.rows.len()).sum();
                eprintln!(
                    "{}: {} table{}, {rows} row{}",
                    s.name,
                    s.tables.len(),
                    if s.tables.len() == 1 { "" } else { "s" },
                    if rows == 1 { "" } else { "s" }
                );
            }
            (_, reason) => eprintln!(
                "{}: skipped — {}",
                s.name,
                reason.as_deref().unwrap_or("nothing found")
            ),
        }
    }
    let mut json = serde_json::to_string_pretty(&doc)?;
    json.push('\n');
    match out {
        Some(f) => f.write(json.as_bytes())?,
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(json.as_bytes())?;
        }
    }
    Ok(if any { 0 } else { 2 })
}
