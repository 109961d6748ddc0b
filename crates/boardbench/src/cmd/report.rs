//! `boardbench report RUN --html FILE [--against RUN …] [--db URL]`: one self-contained HTML
//! page for a run (summary, findings, charts as inline SVG; no scripts, no network).
//!
//! RUN is a result-document JSON file (from `run --out`, `import --out`, `results show --json`)
//! or the id of a run in the results database. The database is only read (opened read-only), and
//! only opened when an id is given; a missing SQLite file is an error rather than a new empty
//! database. A run given twice (as RUN and in `--against`, or twice in `--against`, by id or by
//! the same document) is drawn once. The page itself is rendered by the `report` crate.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use document::ResultDocument;
use resultsdb::{Location, Store};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The run: a result-document JSON file, or a run id in the results database.
    #[arg(value_name = "RUN")]
    pub run: String,
    /// Write the HTML report to this file (`-` = standard output).
    #[arg(long, value_name = "FILE", required = true)]
    pub html: PathBuf,
    /// Overwrite an existing --html file (never one of the runs drawn).
    #[arg(long)]
    pub force: bool,
    /// Another run to set beside it in the bars (file or id; repeatable).
    #[arg(long, value_name = "RUN")]
    pub against: Vec<String>,
    /// The results database for run ids: a file path, `sqlite:PATH` or `postgres://…`.
    /// Default: root /var/lib/boardbench/results.sqlite, others
    /// ~/.local/share/boardbench/results.sqlite.
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
}

/// The database, opened on first use (also used by `export`, `guide render` and `upload`).
pub(crate) struct Db<'a> {
    pub(crate) url: Option<&'a str>,
    pub(crate) store: Option<Store>,
}

impl<'a> Db<'a> {
    pub(crate) fn new(url: Option<&'a str>) -> Self {
        Db { url, store: None }
    }

    pub(crate) fn get(&mut self) -> anyhow::Result<&mut Store> {
        if self.store.is_none() {
            let loc = Location::resolve(self.url)
                .map_err(|e| crate::output::Usage(format!("--db: {e}")))?;
            let store = Store::open_read(&loc).map_err(|e| match e {
                resultsdb::Error::NoDatabase(_) => anyhow::anyhow!("{e}"),
                e => anyhow::anyhow!("cannot open the results database {}: {e}", loc.display()),
            })?;
            self.store = Some(store);
        }
        Ok(self.store.as_mut().expect("opened above"))
    }
}

/// A document with the name it goes by beside others (RUN as `report`, `export` and `upload` take it).
pub(crate) fn load(arg: &str, db: &mut Db<'_>) -> anyhow::Result<(String, ResultDocument)> {
    let path = Path::new(arg);
    let (value, fallback_name) = if path.is_file() {
        let text = resultsdb::read_document_file(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| arg.to_string());
        (v, name)
    } else if let Ok(id) = arg.trim().trim_start_matches('#').parse::<i64>() {
        let run = db
            .get()?
            .run(id)
            .map_err(|e| anyhow::anyhow!("cannot read run {id}: {e}"))?
            .with_context(|| format!("no run {id} in the results database"))?;
        (run.document, format!("run {id}"))
    } else if path.exists() {
        bail!("{arg}: not a regular file (a result document or a run id is expected)");
    } else {
        bail!("{arg}: no such file, and not a run id");
    };
    // A newer document is refused with "update boardbench"; one without a version (or 0)
    // gets the parser's answer below.
    if let Err(e @ document::version::Unreadable::Newer(_)) = document::version::check(&value) {
        bail!("{arg}: {e}");
    }
    let doc: ResultDocument =
        serde_json::from_value(value).with_context(|| format!("{arg}: not a result document"))?;
    // The values the results database would refuse are not drawn either (a negative
    // bandwidth, an infinite rate): the same rule on every way in.
    for m in &doc.measurements {
        if let Err(why) = resultsdb::ranges::check(m.value, &m.unit) {
            bail!(
                "{arg}: measurement {}/{} ({} threads): {why}",
                m.suite,
                m.test,
                m.threads
            );
        }
    }
    let name = headline::device::of_document(&doc)
        .map(|d| format!("{d} ({fallback_name})"))
        .unwrap_or(fallback_name);
    Ok((name, doc))
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let to_stdout = args.html.as_os_str() == "-";
    let mut inputs: Vec<&Path> = std::iter::once(&args.run)
        .chain(&args.against)
        .map(Path::new)
        .collect();
    // The database the run ids are read from is an input too.
    let db_file = match Location::resolve(args.db.as_deref()) {
        Ok(Location::Sqlite(p)) => Some(p),
        _ => None,
    };
    inputs.extend(db_file.as_deref());
    let out = (!to_stdout)
        .then(|| crate::outfile::OutFile::check(&args.html, args.force, &inputs, "--html"))
        .transpose()?;
    let mut db = Db {
        url: args.db.as_deref(),
        store: None,
    };
    let (_, doc) = load(&args.run, &mut db)?;
    let mut others: Vec<(String, ResultDocument)> = Vec::new();
    for a in &args.against {
        let (name, other) = load(a, &mut db)?;
        if other == doc || others.iter().any(|(_, o)| *o == other) {
            eprintln!("report: {a}: the same run is already in the report; drawn once");
            continue;
        }
        others.push((name, other));
    }
    let (reference, _) = resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir());
    let html = report::html_with(&doc, &others, &reference);
    match out {
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(html.as_bytes())?;
        }
        Some(f) => {
            f.write(html.as_bytes())?;
            eprintln!("report written to {}", args.html.display());
        }
    }
    Ok(0)
}
