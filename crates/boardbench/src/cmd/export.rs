//! `boardbench export prometheus RUN… [--textfile DIR]` and `boardbench export lava RUN`:
//! stored runs rendered for the tools labs already run (the renderers are the `export` crate).
//!
//! RUN is taken as `report` takes it: a result-document file, or a run id in the results
//! database (opened read-only, only when an id is given). A textfile for node_exporter is
//! written atomically — a temporary file in the same directory, then a rename — so the
//! collector never reads half a file; the temporary name does not end in `.prom`, so the
//! collector ignores it while it exists.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Subcommand;

use crate::cli::Globals;
use crate::cmd::report::{Db, load};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub format: Format,
    /// The results database for run ids: a file path, `sqlite:PATH` or `postgres://…`.
    /// Default: root /var/lib/boardbench/results.sqlite, others
    /// ~/.local/share/boardbench/results.sqlite.
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB", global = true)]
    pub db: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Format {
    /// Prometheus text exposition format (for node_exporter's textfile collector).
    Prometheus {
        /// The runs: result-document files or run ids (a run given twice is written once).
        #[arg(value_name = "RUN", required = true)]
        runs: Vec<String>,
        /// Write NAME.prom into this directory (atomically) instead of standard output.
        #[arg(long, value_name = "DIR")]
        textfile: Option<PathBuf>,
        /// File name (without .prom) inside the --textfile directory.
        #[arg(long, value_name = "NAME", default_value = "boardbench", requires = "textfile", value_parser = parse_name)]
        name: String,
    },
    /// `lava-test-case` lines (one per headline figure, clock and finding) for lava-test-shell.
    Lava {
        /// The run: a result-document file or a run id.
        #[arg(value_name = "RUN")]
        run: String,
    },
}

fn parse_name(s: &str) -> Result<String, String> {
    if s.is_empty()
        || s.starts_with('.')
        || !s
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "{s:?}: a plain file name (letters, digits, - _ .), not starting with a dot"
        ));
    }
    Ok(s.to_string())
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let mut db = Db::new(args.db.as_deref());
    match &args.format {
        Format::Prometheus {
            runs,
            textfile,
            name,
        } => {
            let mut docs = Vec::with_capacity(runs.len());
            for r in runs {
                docs.push(load(r, &mut db)?.1);
            }
            let text = export::prometheus::metrics(&docs);
            match textfile {
                Some(dir) => {
                    let path = write_atomically(dir, &format!("{name}.prom"), text.as_bytes())?;
                    eprintln!("metrics written to {}", path.display());
                }
                None => std::io::stdout().lock().write_all(text.as_bytes())?,
            }
        }
        Format::Lava { run } => {
            let (_, doc) = load(run, &mut db)?;
            std::io::stdout()
                .lock()
                .write_all(export::lava::lines(&doc).as_bytes())?;
        }
    }
    Ok(0)
}

/// Writes `dir/name` through a temporary file in `dir` (same file system, so the rename is
/// atomic), synced before the rename; the temporary file is removed on failure.
fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    if !dir.is_dir() {
        bail!("{}: not a directory", dir.display());
    }
    let target = dir.join(name);
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", target.display()));
    }
    Ok(target)
}
