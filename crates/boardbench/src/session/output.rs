//! Where a result document goes: `-o FILE`, the results database (`--db`, `--tag`, opt out with
//! `--no-store`) and the device name recorded in it. One set of options for every command that
//! produces a document (`run`, `thermal`, `graph`, `env`).

use std::path::PathBuf;

use anyhow::Context;
use document::ResultDocument;

#[derive(Debug, Clone, clap::Args)]
pub struct DocumentArgs {
    /// Also write the result document to this file.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
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

impl DocumentArgs {
    /// Writes the document to `-o` and stores it. A store failure is a warning (the run's
    /// numbers are in the log and the file anyway); a failed `-o` write is an error.
    pub fn save(&self, doc: &ResultDocument) -> anyhow::Result<()> {
        if let Some(out) = &self.output {
            std::fs::write(out, serde_json::to_string_pretty(doc)?)
                .with_context(|| format!("writing {}", out.display()))?;
        }
        if !self.no_store {
            let loc = store::Location::resolve(self.db.as_deref());
            if let Err(e) = loc
                .and_then(|loc| store::Store::open(&loc))
                .and_then(|mut s| s.add_document(doc, &self.tags))
            {
                eprintln!("boardbench: result not stored ({e}); use --no-store to silence this");
            }
        }
        Ok(())
    }
}
