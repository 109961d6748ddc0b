//! Where a result document goes: `-o FILE`, the results database (`--db`, `--tag`, opt out with
//! `--no-store`) and the device name recorded in it. One set of options for every command that
//! produces a document (`run`, `thermal`, `graph`, `env`, `guide`).
//!
//! Everything is checked before the command starts ([`DocumentArgs::prepare`]): a `-o` that
//! exists (without `--force`) or cannot be written, a `--db` that names no database or cannot be
//! opened and written. A database that fails at the end anyway never loses the run: the document
//! is kept in a file and the command says where (and exits 1).

use std::path::{Path, PathBuf};

use anyhow::Context;
use document::ResultDocument;

use crate::outfile::OutFile;
use crate::output::Usage;

#[derive(Debug, Clone, clap::Args)]
pub struct DocumentArgs {
    /// Also write the result document to this file (an existing file only with --force).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing -o file.
    #[arg(long)]
    pub force: bool,
    /// Results database (default: SQLite in the user's data directory; postgres://… for labs).
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    /// Do not store the document in the results database.
    #[arg(long)]
    pub no_store: bool,
    /// Tags for the stored run (repeatable).
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// Device name to record (default: device tree model, DMI, or host name).
    #[arg(long, value_name = "NAME")]
    pub device: Option<String>,
}

/// Where the document will go, checked.
pub struct Outputs {
    file: Option<OutFile>,
    store: Option<resultsdb::Location>,
    tags: Vec<String>,
}

impl DocumentArgs {
    /// Checks every destination before the command starts (see the module's doc).
    pub fn prepare(&self) -> anyhow::Result<Outputs> {
        let file = match &self.output {
            Some(p) => Some(OutFile::check(p, self.force, &[], "-o")?),
            None => None,
        };
        let store = if self.no_store {
            None
        } else {
            let loc = resultsdb::Location::resolve(self.db.as_deref())
                .map_err(|e| Usage(format!("--db: {e}")))?;
            // Opened (created and migrated) now, so a database that cannot be written is said
            // before the run, not after it.
            resultsdb::Store::open(&loc).map_err(|e| {
                anyhow::anyhow!(
                    "cannot open the results database {}: {e} (--no-store runs without it)",
                    loc.display()
                )
            })?;
            Some(loc)
        };
        for t in &self.tags {
            if t.trim().is_empty() {
                return Err(Usage("--tag: an empty tag".into()).into());
            }
        }
        Ok(Outputs {
            file,
            store,
            tags: self.tags.clone(),
        })
    }
}

impl Outputs {
    /// Writes the document to `-o` and stores it. When the database fails now (after the
    /// check), the document is kept in a file (the `-o` file, or one beside the default
    /// database) and the error says where.
    pub fn save(&self, doc: &ResultDocument) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(doc)? + "\n";
        if let Some(f) = &self.file {
            f.write(json.as_bytes())?;
        }
        let Some(loc) = &self.store else {
            return Ok(());
        };
        let stored = resultsdb::Store::open(loc).and_then(|mut s| s.add_document(doc, &self.tags));
        if let Err(e) = stored {
            let kept = match &self.file {
                Some(f) => f.path().to_path_buf(),
                None => keep_unstored(&json)?,
            };
            anyhow::bail!(
                "result not stored in {}: {e}; the document is in {} (`boardbench results add` stores it later)",
                loc.display(),
                kept.display()
            );
        }
        Ok(())
    }
}

/// A document the database refused, kept beside the default database (the user's data
/// directory; /var/lib/boardbench as root) under a name no other run has.
fn keep_unstored(json: &str) -> anyhow::Result<PathBuf> {
    let resultsdb::Location::Sqlite(default) = resultsdb::Location::default_sqlite() else {
        unreachable!("the default is a file");
    };
    let dir = default
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("unstored");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let stamp = probe::clock::now().format("%Y%m%dT%H%M%S");
    let mut last = None;
    for n in 0..100 {
        let path = dir.join(if n == 0 {
            format!("run-{stamp}.json")
        } else {
            format!("run-{stamp}-{n}.json")
        });
        match OutFile::check(&path, false, &[], "kept document") {
            Ok(f) => {
                f.write(json.as_bytes())?;
                return Ok(path);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("tried").into())
}
