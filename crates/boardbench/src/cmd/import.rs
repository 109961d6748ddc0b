//! `boardbench import FILE… [--out DIR] [--no-store] [--db URL] [--tag T]`: sbc-bench logs →
//! result documents, stored in the results database by default (as `run` stores its own).
//!
//! Every document is finished before it is written or stored (`finish::finish`: findings,
//! headline, comparability marks, placement), as a native run's is.
//!
//! Output: one log without `--out` prints its document as JSON on stdout (as before storing
//! existed); otherwise one summary line per log (file, run id, sbc-bench version, device, the
//! SoC as placement names it — "SoC Rockchip RK3588" or "SoC not known" — the six headline
//! numbers and the findings: kinds of the invalid and warning ones, how many infos). With
//! `--out DIR`: one `<stem>.json` per log. A bad file gives one line
//! on stderr (`import: <file>: <reason>`) and the others are still imported; exit code 1 if any
//! failed.
//!
//! Nothing is ever overwritten: two logs with the same stem in one call become `<stem>.json` and
//! `<stem>-2.json`; a file that already exists in DIR is an error for that log unless `--force`.
//! A file is read up to 256 MiB (binary data refused after 8 KiB), and a file holding several
//! logs one after another imports each as its own run (`<stem>-1.json`, `<stem>-2.json` …).

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use document::ResultDocument;
use document::imported::Headline;
use resultsdb::{Location, Store};

use crate::cli::Globals;
use crate::output::Usage;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// sbc-bench log files (results.log, /var/log/sbc-bench.log, or the 0x0.st text).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write one `<stem>.json` result document per log into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Overwrite documents that already exist in --out DIR.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Do not store the imported runs in the results database.
    #[arg(long)]
    pub no_store: bool,
    /// Results database (default: SQLite in the user's data directory; postgres://… for labs).
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    /// Tags for the stored runs (repeatable).
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
}

/// What happened to one log in the database, for the summary line.
enum Stored {
    New(i64),
    Already(i64),
    No,
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    // As `run`: an empty tag is a mistake, not a tag.
    if args.tags.iter().any(|t| t.trim().is_empty()) {
        return crate::output::usage("--tag: an empty tag");
    }
    let loc = if args.no_store {
        None
    } else {
        Some(Location::resolve(args.db.as_deref()).map_err(|e| Usage(format!("--db: {e}")))?)
    };
    // What an --out document must never replace: the logs read and the database.
    let mut inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    if let Some(Location::Sqlite(db)) = &loc {
        inputs.push(db);
    }
    let mut store = if let Some(loc) = &loc {
        let s = Store::open(loc).map_err(|e| {
            anyhow::anyhow!(
                "cannot open the results database {}: {e} (--no-store imports without it)",
                loc.display()
            )
        })?;
        Some(s)
    } else {
        None
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    // Every log of every file, in order; a file-level failure is one entry.
    let mut logs: Vec<(PathBuf, Option<usize>, Result<ResultDocument, String>)> = Vec::new();
    for file in &args.files {
        match read(file) {
            Err(reason) => logs.push((file.clone(), None, Err(reason))),
            Ok(bytes) => {
                let docs = sbcimport::import_logs(&bytes, &display_name(file));
                if docs.len() > 1 {
                    eprintln!(
                        "import: {}: holds {} sbc-bench logs one after another; importing each",
                        file.display(),
                        docs.len()
                    );
                }
                let several = docs.len() > 1;
                for (k, doc) in docs.into_iter().enumerate() {
                    let part = several.then_some(k + 1);
                    logs.push((file.clone(), part, doc.map_err(|e| e.to_string())));
                }
            }
        }
    }
    let print_document = args.out.is_none() && logs.len() == 1;
    // The one finisher (findings, headline, comparability marks, placement), with the corpus
    // the user's commands place against: an imported log is a whole run like a native one.
    let reference = crate::finishing::reference();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut names = OutputNames::default();
    let mut failed = 0usize;
    for (file, part, doc) in logs {
        let label = match part {
            Some(k) => format!("{} (log {k})", file.display()),
            None => file.display().to_string(),
        };
        let doc = match doc {
            Ok(mut doc) => {
                finish::finish(&mut doc, &reference);
                doc
            }
            Err(reason) => {
                eprintln!("import: {label}: {reason}");
                failed += 1;
                continue;
            }
        };
        if let Some(dir) = &args.out {
            let path = dir.join(names.next(&file, part));
            if let Err(reason) = write_document(&path, &doc, args.force, &inputs) {
                eprintln!("import: {label}: {reason}");
                failed += 1;
                continue;
            }
        }
        let stored = match store.as_mut() {
            None => Stored::No,
            Some(s) => match s.add_document(&doc, &args.tags) {
                Ok(resultsdb::Added::New(id)) => Stored::New(id),
                Ok(resultsdb::Added::Duplicate(id)) => Stored::Already(id),
                Err(e) => {
                    eprintln!("import: {label}: not stored: {e}");
                    failed += 1;
                    continue;
                }
            },
        };
        let printed = if print_document {
            if let Stored::New(id) | Stored::Already(id) = stored {
                eprintln!("import: {label}: stored as run {id}");
            }
            serde_json::to_writer_pretty(&mut out, &doc)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
        } else {
            writeln!(out, "{}", stored_row(&label, &stored, &doc))
        };
        match printed {
            // The reader went away (`| head`): stop quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e.into()),
            Ok(()) => {}
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

fn display_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The file's bytes, bounded (see `sbcimport::input`).
fn read(file: &Path) -> Result<Vec<u8>, String> {
    let f = std::fs::File::open(file).map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if meta.is_dir() {
        return Err("is a directory".into());
    }
    if meta.is_file() && meta.len() > sbcimport::input::MAX_LOG_BYTES {
        return Err(sbcimport::ImportError::TooLarge(sbcimport::input::MAX_LOG_BYTES).to_string());
    }
    sbcimport::input::read_log(f, sbcimport::input::MAX_LOG_BYTES).map_err(|e| e.to_string())
}

/// Unique output names within one call: `<stem>.json`, then `<stem>-2.json` … for the same stem;
/// the logs of a file with several get `<stem>-<k>.json`.
#[derive(Default)]
struct OutputNames {
    used: HashSet<String>,
}

impl OutputNames {
    fn next(&mut self, file: &Path, part: Option<usize>) -> String {
        let stem = file
            .file_stem()
            .map_or_else(|| "log".into(), |s| s.to_string_lossy().into_owned());
        let base = match part {
            Some(k) => format!("{stem}-{k}"),
            None => stem,
        };
        let mut name = format!("{base}.json");
        let mut n = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{base}-{n}.json");
            n += 1;
        }
        name
    }
}

/// Writes a new file by the one output rule (`crate::outfile`): never one of `inputs` (the
/// logs read, the results database), an existing one only with `force`, and whole — a
/// temporary file renamed into place, so a full disk leaves no truncated document behind.
fn write_document(
    path: &Path,
    doc: &ResultDocument,
    force: bool,
    inputs: &[&Path],
) -> Result<(), String> {
    let json = serde_json::to_string_pretty(doc).map_err(|e| e.to_string())? + "\n";
    // A document nothing could read back (a log with a line of 100 MB) is not written.
    if json.len() as u64 > resultsdb::MAX_DOCUMENT_BYTES {
        return Err(format!(
            "the document would be {} MiB, larger than boardbench reads ({} MiB): not written",
            json.len() / (1024 * 1024),
            resultsdb::MAX_DOCUMENT_BYTES / (1024 * 1024)
        ));
    }
    let out = crate::outfile::OutFile::check(path, force, inputs, "--out").map_err(|e| e.0)?;
    out.write(json.as_bytes()).map_err(|e| format!("{e:#}"))
}

/// `file  run  version  device  | multi | single | aes | memcpy | memset | kH/s |  findings: …`,
/// "-" for missing; `(partial)` after the version for a cut log.
fn stored_row(label: &str, stored: &Stored, doc: &ResultDocument) -> String {
    let imp = doc.imported.as_ref();
    let version = imp
        .and_then(|i| i.sbc_bench_version.as_deref())
        .unwrap_or("pre-v0.4");
    let partial = if imp.is_some_and(|i| i.partial) {
        " (partial)"
    } else {
        ""
    };
    let run = match stored {
        Stored::New(id) => format!("run {id}"),
        Stored::Already(id) => format!("run {id} (already stored)"),
        Stored::No => "-".into(),
    };
    let device = doc
        .device
        .as_deref()
        .map(document::text::terminal_text)
        .unwrap_or_else(|| "-".into());
    let version = document::text::terminal_text(version);
    let label = document::text::terminal_text(label);
    let soc = match corpus::run::soc_of_document(corpus::corpus(), doc).soc {
        Some(s) => format!("SoC {}", document::text::terminal_text(&s)),
        None => "SoC not known".into(),
    };
    let h = imp.map(|i| i.headline.clone()).unwrap_or_default();
    format!(
        "{label}\t{run}\t{version}{partial}\t{device}\t{soc}\t{}\t{}",
        headline_cells(&h),
        findings_cell(doc)
    )
}

/// "findings: throttling [invalid], outlier [warning], 2 info" or "findings: none" — what a
/// reviewer scanning a folder of logs looks for first.
fn findings_cell(doc: &ResultDocument) -> String {
    let mut parts: Vec<String> = doc
        .findings
        .iter()
        .filter(|f| f.severity != document::Severity::Info)
        .map(|f| format!("{} [{}]", f.kind, f.severity.name()))
        .collect();
    let info = doc
        .findings
        .iter()
        .filter(|f| f.severity == document::Severity::Info)
        .count();
    if info > 0 {
        parts.push(format!("{info} info"));
    }
    if parts.is_empty() {
        "findings: none".into()
    } else {
        format!("findings: {}", parts.join(", "))
    }
}

fn headline_cells(h: &Headline) -> String {
    let n = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let khs = h.khs.map_or("-".to_string(), |v| format!("{v:.2}"));
    format!(
        "| {} | {} | {} | {} | {} | {khs} |",
        n(h.zip_multi),
        n(h.zip_single),
        n(h.aes),
        n(h.memcpy),
        n(h.memset)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_never_repeat() {
        let mut n = OutputNames::default();
        assert_eq!(n.next(Path::new("a/results.log"), None), "results.json");
        assert_eq!(n.next(Path::new("b/results.log"), None), "results-2.json");
        assert_eq!(n.next(Path::new("c/results.log"), None), "results-3.json");
        assert_eq!(n.next(Path::new("all.txt"), Some(1)), "all-1.json");
        assert_eq!(n.next(Path::new("all.txt"), Some(2)), "all-2.json");
    }
}
