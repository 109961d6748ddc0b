//! `boardbench import FILE… [--out DIR]`: sbc-bench logs → result documents.
//!
//! One file without `--out`: the document as JSON on stdout. Several files without `--out`: one
//! summary line per file (file, sbc-bench version, device, the six headline numbers). With
//! `--out DIR`: `DIR/<stem>.json` per log. A bad file gives one line on stderr
//! (`import: <file>: <reason>`) and the others are still imported; exit code 1 if any failed.

use std::io::Write;
use std::path::{Path, PathBuf};

use model::document::ResultDocument;
use model::imported::Headline;

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// sbc-bench log files (results.log, /var/log/sbc-bench.log, or the 0x0.st text).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write one `<stem>.json` result document per log into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0usize;
    for file in &args.files {
        match import_one(file) {
            Ok(doc) => {
                let written = match &args.out {
                    Some(dir) => write_document(dir, file, &doc),
                    None => {
                        let printed = if args.files.len() == 1 {
                            serde_json::to_writer_pretty(&mut out, &doc)
                                .map_err(std::io::Error::from)
                                .and_then(|()| writeln!(out))
                        } else {
                            writeln!(out, "{}", summary(file, &doc))
                        };
                        match printed {
                            // The reader went away (`| head`): stop quietly.
                            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
                            Err(e) => return Err(e.into()),
                            Ok(()) => Ok(()),
                        }
                    }
                };
                if let Err(reason) = written {
                    eprintln!("import: {}: {reason}", file.display());
                    failed += 1;
                }
            }
            Err(reason) => {
                eprintln!("import: {}: {reason}", file.display());
                failed += 1;
            }
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

fn import_one(file: &Path) -> Result<ResultDocument, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    sbclog::import_bytes(&bytes, &name).map_err(|e| e.to_string())
}

fn write_document(dir: &Path, file: &Path, doc: &ResultDocument) -> Result<(), String> {
    let stem = file
        .file_stem()
        .map_or_else(|| "log".into(), |s| s.to_string_lossy().into_owned());
    let path = dir.join(format!("{stem}.json"));
    let json = serde_json::to_string_pretty(doc).map_err(|e| e.to_string())?;
    std::fs::write(&path, json + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `file  version  device  | multi | single | aes | memcpy | memset | kH/s |`, "-" for missing.
fn summary(file: &Path, doc: &ResultDocument) -> String {
    let imp = doc.imported.as_ref();
    let version = imp
        .and_then(|i| i.sbc_bench_version.as_deref())
        .unwrap_or("pre-v0.4");
    let device = doc.device.as_deref().unwrap_or("-");
    let h = imp.map(|i| i.headline.clone()).unwrap_or_default();
    format!(
        "{}\t{version}\t{device}\t{}",
        file.display(),
        headline_cells(&h)
    )
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
