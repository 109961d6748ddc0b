//! `boardbench guide render RUN… --format rst|md|csv|html [-o FILE]`: the guide tables of one
//! or more runs, one column per run (`"<board>: perf"`). RUN is a result-document file or a run
//! id in the results database, as for `report`. The formats are `guidetables`' renderers;
//! HTML is the report's guide page (tables and a bar chart per table).

use std::path::PathBuf;

use anyhow::bail;
use document::ResultDocument;

use crate::cmd::report::{Db, load};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// reStructuredText `.. csv-table::` blocks (Sphinx)
    Rst,
    /// Markdown pipe tables
    Md,
    /// one CSV table, a column per run
    Csv,
    /// a self-contained HTML page with a bar chart per table
    Html,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The runs: result-document files or run ids in the results database.
    #[arg(value_name = "RUN", required = true)]
    pub runs: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Rst)]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing -o file (never one of the runs rendered).
    #[arg(long)]
    pub force: bool,
    /// The document's title.
    #[arg(long, default_value = "Performance Guide")]
    pub title: String,
    /// The results database for run ids (default as for `results`).
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
}

pub fn run(args: &Args) -> anyhow::Result<i32> {
    let inputs: Vec<&std::path::Path> = args.runs.iter().map(std::path::Path::new).collect();
    let out = args
        .output
        .as_deref()
        .map(|p| crate::outfile::OutFile::check(p, args.force, &inputs, "-o"))
        .transpose()?;
    let mut db = Db {
        url: args.db.as_deref(),
        store: None,
    };
    let mut docs: Vec<ResultDocument> = Vec::new();
    for r in &args.runs {
        let (_, doc) = load(r, &mut db)?;
        if doc.guide.is_none() {
            bail!("{r}: not a guide run (no guide tables; made by `boardbench guide`)");
        }
        docs.push(doc);
    }
    let text = render(&docs, args.format, &args.title);
    match out {
        Some(f) => f.write(text.as_bytes())?,
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(text.as_bytes())?;
        }
    }
    Ok(0)
}

/// The documents in `format`: the tables merged by `guidetables`, written by its renderer of
/// that format (HTML: the report's guide page).
pub fn render(docs: &[ResultDocument], format: Format, title: &str) -> String {
    let merged = guidetables::merge_documents(docs);
    match format {
        Format::Rst => guidetables::rst::render(&merged, title),
        Format::Md => guidetables::md::render(&merged, title),
        Format::Csv => guidetables::csv::render(&merged),
        Format::Html => report::guide::page(&merged, title),
    }
}
