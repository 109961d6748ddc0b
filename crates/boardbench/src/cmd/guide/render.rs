//! `boardbench guide render RUN… --format rst|md|csv|html [-o FILE] [--merge-by run|board]
//! [--reference PUBLISHED.rst]… [--style default|ti]`: the guide tables of one or more runs, one
//! column per run or per board (`"<board>: perf"`), a published guide's columns beside them. RUN is a result-document file or a run
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

/// How runs become columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeBy {
    /// one column per run (two runs of one board: `board`, `board (2)`)
    Run,
    /// one column per board (device name): each figure the median of the board's runs, with
    /// their min and max; sections measured in separate runs in one column; a board's quick
    /// runs (--quick) in a column of their own, "<board> (quick)", never merged with full ones
    Board,
}

/// The document's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Style {
    /// boardbench's: the tables, then every note at the end
    Default,
    /// the published TI guides' (reStructuredText only): their heading levels, an "Evaluation
    /// Modules" grid, two decimals throughout, conditions and command under each table
    Ti,
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
    /// One column per run, or one per board (the runs of a board combined).
    #[arg(long, value_enum, default_value_t = MergeBy::Run)]
    pub merge_by: MergeBy,
    /// A published guide (reStructuredText with `.. csv-table::` blocks) whose tables are set
    /// beside the measured ones, with a ratio column where the units agree. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub reference: Vec<PathBuf>,
    /// The layout: boardbench's, or the published TI guides' (`--format rst` only).
    #[arg(long, value_enum, default_value_t = Style::Default)]
    pub style: Style,
    /// The results database for run ids (default as for `results`).
    #[arg(long, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
}

pub fn run(args: &Args) -> anyhow::Result<i32> {
    if args.style == Style::Ti && args.format != Format::Rst {
        bail!(
            "--style ti is the published guides' reStructuredText layout: use it with --format rst"
        );
    }
    let mut inputs: Vec<&std::path::Path> = args.runs.iter().map(std::path::Path::new).collect();
    inputs.extend(args.reference.iter().map(PathBuf::as_path));
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
    let mut references = Vec::new();
    for path in &args.reference {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("--reference {}: {e}", path.display()))?;
        let tables = guidetables::reference::parse_rst(&text)
            .map_err(|e| anyhow::anyhow!("--reference {}: {e}", path.display()))?;
        if tables.is_empty() {
            bail!(
                "--reference {}: no `.. csv-table::` block found (a published guide in reStructuredText is expected)",
                path.display()
            );
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        references.push((name, tables));
    }
    let opts = Options {
        format: args.format,
        title: &args.title,
        merge_by: args.merge_by,
        style: args.style,
        references: &references,
    };
    let text = render_with(&docs, &opts);
    match out {
        Some(f) => f.write(text.as_bytes())?,
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(text.as_bytes())?;
        }
    }
    Ok(0)
}

/// What to render and how.
pub struct Options<'a> {
    pub format: Format,
    pub title: &'a str,
    pub merge_by: MergeBy,
    pub style: Style,
    /// Published guides: (file name, their tables).
    pub references: &'a [(String, Vec<guidetables::reference::RefTable>)],
}

/// The documents as `o` says: the tables merged by `guidetables` (per run or per board), the
/// published guides set beside, written by its renderer of that format (HTML: the report's
/// guide page; reStructuredText in boardbench's or the TI guides' layout).
pub fn render_with(docs: &[ResultDocument], o: &Options) -> String {
    let by = match o.merge_by {
        MergeBy::Run => guidetables::MergeBy::Run,
        MergeBy::Board => guidetables::MergeBy::Board,
    };
    let mut merged = guidetables::merge_documents_by(docs, by);
    for (name, tables) in o.references {
        guidetables::reference::add(&mut merged, tables, name);
    }
    let (format, title) = (o.format, o.title);
    match format {
        Format::Rst if o.style == Style::Ti => guidetables::rst::render_ti(&merged, title),
        Format::Rst => guidetables::rst::render(&merged, title),
        Format::Md => guidetables::md::render(&merged, title),
        Format::Csv => guidetables::csv::render(&merged),
        Format::Html => report::guide::page(&merged, title),
    }
}
