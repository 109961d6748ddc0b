//! Where a result document goes: `-o FILE`, the results database (`--db`, `--tag`, opt out with
//! `--no-store`) and the device name recorded in it. One set of options for every command that
//! produces a document (`run`, `thermal`, `graph`, `env`, `guide`).
//!
//! Everything is checked before the command starts ([`DocumentArgs::prepare`]): a `-o` that
//! exists (without `--force`) or cannot be written, a `--db` that names no database or cannot be
//! opened and written. A database or a `-o` that fails at the end anyway never loses the run:
//! the run is stored first, the document is kept in a file, and the command says where (and
//! exits 1).

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
        self.prepare_besides(&[])
    }

    /// [`DocumentArgs::prepare`] for a command that also writes or reads `others` (`run`'s
    /// log): `-o` is never one of them, nor the results database, not even with `--force`.
    pub fn prepare_besides(&self, others: &[&Path]) -> anyhow::Result<Outputs> {
        let loc = if self.no_store {
            None
        } else {
            Some(
                resultsdb::Location::resolve(self.db.as_deref())
                    .map_err(|e| Usage(format!("--db: {e}")))?,
            )
        };
        let mut protected: Vec<&Path> = others.to_vec();
        if let Some(resultsdb::Location::Sqlite(db)) = &loc {
            if let Some(o) = others.iter().find(|o| crate::outfile::same_file(o, db)) {
                return Err(Usage(format!(
                    "--db {}: also the log {} of this command: not writing both into one file",
                    db.display(),
                    o.display()
                ))
                .into());
            }
            // An explicit database is taken as -o is: its directory must exist (only the
            // default database's is created).
            let dir = db.parent().filter(|d| !d.as_os_str().is_empty());
            if self.db.is_some()
                && let Some(dir) = dir
                && !dir.is_dir()
            {
                return Err(Usage(format!(
                    "--db {}: the directory {} does not exist",
                    db.display(),
                    dir.display()
                ))
                .into());
            }
            protected.push(db);
        }
        let file = match &self.output {
            Some(p) => Some(OutFile::check(p, self.force, &protected, "-o")?),
            None => None,
        };
        let store = if let Some(loc) = loc {
            // Opened (created and migrated) now, so a database that cannot be written is said
            // before the run, not after it.
            resultsdb::Store::open(&loc).map_err(|e| {
                anyhow::anyhow!(
                    "cannot open the results database {}: {e} (--no-store runs without it)",
                    loc.display()
                )
            })?;
            Some(loc)
        } else {
            None
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
    /// Stores the document and writes it to `-o`. When the database fails now (after the
    /// check), the document is kept in a file (the `-o` file, or one beside the default
    /// database) and the error says where.
    ///
    /// The database comes first: a `-o` that fails at the end (a full disk, a file created
    /// there meanwhile) never loses the run — it is stored, the document is kept beside the
    /// default database, and the error says both.
    pub fn save(&self, doc: &ResultDocument) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(doc)? + "\n";
        let stored = self.store.as_ref().map(|loc| {
            resultsdb::Store::open(loc)
                .and_then(|mut s| s.add_document(doc, &self.tags))
                .map(resultsdb::Added::id)
                .map_err(|e| format!("result not stored in {}: {e}", loc.display()))
        });
        let written = self.file.as_ref().map(|f| {
            f.write(json.as_bytes())
                .map_err(|e| format!("{e:#}"))
                .map(|()| f.path().to_path_buf())
        });
        let kept_in_file = matches!(&written, Some(Ok(_)));
        match (stored, written) {
            (None | Some(Ok(_)), None | Some(Ok(_))) => Ok(()),
            (Some(Err(e)), _) if kept_in_file => {
                let f = self.file.as_ref().expect("written").path();
                anyhow::bail!(
                    "{e}; the document is in {} (`boardbench results add` stores it later)",
                    f.display()
                )
            }
            (Some(Err(e)), _) => match keep_unstored(&json) {
                Ok(kept) => anyhow::bail!(
                    "{e}; the document is in {} (`boardbench results add` stores it later)",
                    kept.display()
                ),
                Err(k) => anyhow::bail!("{e}; the document could not be kept either: {k:#}"),
            },
            (Some(Ok(id)), Some(Err(w))) => {
                let loc = self.store.as_ref().expect("stored").display();
                match keep_unstored(&json) {
                    Ok(kept) => anyhow::bail!(
                        "{w}; the run is stored as run {id} in {loc} and the document kept in {}",
                        kept.display()
                    ),
                    Err(_) => anyhow::bail!(
                        "{w}; the run is stored as run {id} in {loc} \
                         (`boardbench results show {id} --json` gives the document)"
                    ),
                }
            }
            (None, Some(Err(w))) => match keep_unstored(&json) {
                Ok(kept) => anyhow::bail!("{w}; the document is kept in {}", kept.display()),
                Err(k) => anyhow::bail!("{w}; the document could not be kept either: {k:#}"),
            },
        }
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
