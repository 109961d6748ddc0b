//! `boardbench results`: the results database (`--db URL`, SQLite by default).
//!
//! - `add FILE.json…`: stores result documents made elsewhere (one transaction per document;
//!   one line per file; a bad file gives one error line and the others are still added).
//! - `list`: stored runs, with filters (device, SoC, arch, kernel, date, tag).
//! - `show ID`: summary, measurements and findings of one run.
//! - `table`: sbc-bench's Results.md table, sortable, as Markdown, CSV (`--csv`) or JSON.
//! - `reanalyse RUN…|--all`: stored runs finished again with this build's rules (`finish`),
//!   saying per run what changed in its findings and placement.
//! - `compare A B [C…]`: side by side, ratios to A, per-GHz figures, beyond-spread marks.
//!
//! Machine-readable output is `--json` on every subcommand (as in `info`, `kernel`, `clock` …);
//! `table --format md|csv|json` stays as a hidden older spelling. Only `add` and `reanalyse` write: the other
//! subcommands open the database read-only and never create one.
//!
//! The storage and the comparison are in the `resultsdb` crate; this module only renders.

use std::io::Write;
use std::path::PathBuf;

use document::analysis::PlacementRecord;
use resultsdb::marks as results_marks;
use resultsdb::table::{Column, number, sort_rows, table_csv, table_markdown};
use resultsdb::{Filter, Location, Store};

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The database: a file path, `sqlite:PATH` or `postgres://user@host/db`. Default: root
    /// /var/lib/boardbench/results.sqlite, others ~/.local/share/boardbench/results.sqlite.
    #[arg(long, global = true, value_name = "URL", env = "BOARDBENCH_DB")]
    pub db: Option<String>,
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Add result documents (JSON files, e.g. from `boardbench import --out`).
    Add {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Tag the added runs (repeatable).
        #[arg(long, value_name = "TAG")]
        tag: Vec<String>,
    },
    /// List stored runs.
    List {
        /// Device name contains this (case-insensitive).
        #[arg(long)]
        device: Option<String>,
        /// SoC contains this (case-insensitive).
        #[arg(long)]
        soc: Option<String>,
        /// Architecture (arm64, armhf, amd64, riscv64 …).
        #[arg(long)]
        arch: Option<String>,
        /// Kernel release starts with this (6.1).
        #[arg(long)]
        kernel: Option<String>,
        /// Started on or after this date (YYYY-MM-DD or ISO 8601 time).
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
        /// Started on or before this date.
        #[arg(long, value_name = "DATE")]
        until: Option<String>,
        #[arg(long)]
        tag: Option<String>,
        /// JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Print the header line even when the output is not a terminal (it is printed on a
        /// terminal only, so scripts reading the tab-separated lines are not disturbed).
        #[arg(long, conflicts_with = "json")]
        header: bool,
    },
    /// Show one run: summary, measurements, findings.
    Show {
        id: i64,
        /// Print the stored document as JSON.
        #[arg(long)]
        json: bool,
        /// Print a guide run's tables (Markdown, as `guide render --format md`).
        #[arg(long, conflicts_with = "json")]
        guide: bool,
    },
    /// The Results.md table of every stored run.
    Table {
        /// Column to sort by: device, clockspeed, kernel, distro, 7zip-multi, 7zip-single,
        /// aes, memcpy, memset, khs (or id).
        #[arg(long, default_value = "id")]
        sort: String,
        /// Sort descending.
        #[arg(long)]
        desc: bool,
        /// JSON instead of the Markdown table.
        #[arg(long, conflicts_with_all = ["csv", "format"])]
        json: bool,
        /// CSV (run id first) instead of the Markdown table.
        #[arg(long, conflicts_with = "format")]
        csv: bool,
        /// Older spelling of --json / --csv.
        #[arg(long, value_enum, hide = true)]
        format: Option<Format>,
        /// A guide table instead ("Stream Benchmarks", matched without regard to case) over
        /// every stored guide run, one column per board (its runs merged: the median with the
        /// min and max across them). Sorting does not apply.
        #[arg(long, value_name = "TABLE")]
        guide: Option<String>,
        /// Add each run's placement among sbc-bench's published results (rank in the class,
        /// share of its SoC's median) per figure, and the corpus's source and licence.
        #[arg(long)]
        placement: bool,
    },
    /// Finish stored runs again with this boardbench's rules (findings, headline, comparability
    /// marks, placement) and say per run what changed.
    Reanalyse {
        /// Run ids.
        #[arg(
            value_name = "RUN",
            required_unless_present = "all",
            conflicts_with = "all"
        )]
        runs: Vec<i64>,
        /// Every stored run.
        #[arg(long)]
        all: bool,
        /// Say what would change, store nothing.
        #[arg(long)]
        dry_run: bool,
        /// One JSON object per run instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Compare runs side by side (ratios to the first).
    Compare {
        #[arg(required = true, num_args = 2.., value_name = "ID")]
        ids: Vec<i64>,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Md,
    Csv,
    Json,
}

/// Opens the database: for writing (created and migrated if needed) only for `add` and
/// `reanalyse` (a dry run reads only).
fn open(args: &Args) -> anyhow::Result<Store> {
    let loc = Location::resolve(args.db.as_deref())
        .map_err(|e| crate::output::Usage(format!("--db: {e}")))?;
    let store = if matches!(
        args.command,
        Sub::Add { .. } | Sub::Reanalyse { dry_run: false, .. }
    ) {
        Store::open(&loc)
    } else {
        Store::open_read(&loc)
    };
    store.map_err(|e| match e {
        resultsdb::Error::NoDatabase(_) => anyhow::anyhow!("{e}"),
        e => anyhow::anyhow!("cannot open the results database {}: {e}", loc.display()),
    })
}

/// The columns of `results list` (tab-separated, as the lines).
const LIST_HEADER: &str = "id\tstarted\tdevice\tsoc\tarch\tkernel\tsource\ttags";

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let mut store = open(args)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match &args.command {
        Sub::Add { files, tag } => add(&mut store, files, tag, &mut out),
        Sub::Reanalyse {
            runs,
            all,
            dry_run,
            json,
        } => reanalyse(&mut store, runs, *all, *dry_run, *json, &mut out),
        Sub::List {
            device,
            soc,
            arch,
            kernel,
            since,
            until,
            tag,
            json,
            header,
        } => {
            let filter = Filter {
                device: device.clone(),
                soc: soc.clone(),
                arch: arch.clone(),
                kernel: kernel.clone(),
                since: since.clone(),
                until: until.clone(),
                tag: tag.clone(),
            };
            let runs = store.list(&filter)?;
            if *json {
                serde_json::to_writer_pretty(&mut out, &runs)?;
                writeln!(out)?;
            } else {
                if *header || std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                    writeln!(out, "{LIST_HEADER}")?;
                }
                for r in &runs {
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{}\t{}\t{}\t{}{}",
                        r.id,
                        dash(&r.columns.started),
                        dash(&r.columns.device),
                        dash(&r.columns.soc),
                        dash(&r.columns.arch),
                        dash(&r.columns.kernel),
                        match (r.columns.imported, r.interrupted) {
                            (true, _) => "imported",
                            (false, false) => "native",
                            (false, true) => "native (interrupted)",
                        },
                        if r.tags.is_empty() {
                            String::new()
                        } else {
                            format!("\t[{}]", safe(&r.tags.join(",")))
                        }
                    )?;
                }
            }
            Ok(0)
        }
        Sub::Show { id, json, guide } => {
            let Some(run) = store.run(*id)? else {
                eprintln!("results: no run with id {id}");
                return Ok(1);
            };
            if *guide {
                let doc: document::ResultDocument = serde_json::from_value(run.document)
                    .map_err(|e| anyhow::anyhow!("run {id}: not a result document: {e}"))?;
                if doc.guide.is_none() {
                    eprintln!("results: run {id} is not a guide run (made by `boardbench guide`)");
                    return Ok(1);
                }
                let g = guidetables::merge_documents(std::slice::from_ref(&doc));
                out.write_all(guidetables::md::render(&g, &format!("Guide run {id}")).as_bytes())?;
            } else if *json {
                serde_json::to_writer_pretty(&mut out, &run.document)?;
                writeln!(out)?;
            } else {
                write!(out, "{}", show_text(&run))?;
            }
            Ok(0)
        }
        Sub::Table {
            sort,
            desc,
            json,
            csv,
            format,
            guide,
            placement,
        } => {
            let format = match (json, csv, format) {
                (true, _, _) => Format::Json,
                (_, true, _) => Format::Csv,
                (_, _, Some(f)) => *f,
                _ => Format::Md,
            };
            if let Some(title) = guide {
                return guide_table(&mut store, title, format, &mut out);
            }
            let mut rows = store.table()?;
            let Some(col) = Column::parse(sort) else {
                return crate::output::usage(format!(
                    "--sort: unknown column {sort:?}: use one of {}",
                    Column::NAMES.join(", ")
                ));
            };
            sort_rows(&mut rows, col, *desc);
            let marks = results_marks::load(&mut store);
            if *placement {
                let (reference, _) =
                    resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir());
                let mut placed = Vec::new();
                for r in &rows {
                    placed.push(
                        stored_document(&mut store, r.id)?.map(|d| corpus::shown(&reference, &d)),
                    );
                }
                match format {
                    Format::Md => out.write_all(
                        placement_markdown(&rows, &marks, &placed, &reference).as_bytes(),
                    )?,
                    Format::Csv => {
                        out.write_all(placement_csv(&rows, &marks, &placed).as_bytes())?
                    }
                    Format::Json => {
                        let mut json = resultsdb::table::table_json(&rows, &marks);
                        for (row, p) in json.iter_mut().zip(&placed) {
                            if let Some(obj) = row.as_object_mut() {
                                obj.insert("placement".into(), serde_json::to_value(p)?);
                            }
                        }
                        let v = serde_json::json!({
                            "corpus": {"source": reference.source, "date": reference.date,
                                       "license": corpus::LICENSE},
                            "rows": json,
                        });
                        serde_json::to_writer_pretty(&mut out, &v)?;
                        writeln!(out)?;
                    }
                }
                return Ok(0);
            }
            match format {
                Format::Md => out.write_all(table_markdown(&rows, &marks).as_bytes())?,
                Format::Csv => out.write_all(table_csv(&rows, &marks).as_bytes())?,
                Format::Json => {
                    let rows = resultsdb::table::table_json(&rows, &marks);
                    serde_json::to_writer_pretty(&mut out, &rows)?;
                    writeln!(out)?;
                }
            }
            Ok(0)
        }
        Sub::Compare { ids, json } => {
            let mut runs = Vec::new();
            for id in ids {
                match store.run(*id)? {
                    Some(r) => runs.push(r),
                    None => {
                        eprintln!("results: no run with id {id}");
                        return Ok(1);
                    }
                }
            }
            let cmp = resultsdb::compare::compare(&runs);
            for w in results_marks::compare_warnings(&results_marks::load(&mut store), ids) {
                eprintln!("{w}");
            }
            if *json {
                serde_json::to_writer_pretty(&mut out, &cmp)?;
                writeln!(out)?;
            } else {
                out.write_all(compare_text(&cmp).as_bytes())?;
            }
            Ok(0)
        }
    }
}

fn add(
    store: &mut Store,
    files: &[PathBuf],
    tags: &[String],
    out: &mut impl Write,
) -> anyhow::Result<i32> {
    let mut failed = 0;
    let reference = crate::finishing::reference();
    for file in files {
        // Finished as every stored document is (`finish::finish_value`: findings and analysis
        // renewed, every other field as in the file).
        let result = resultsdb::read_document_file(file)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                // A file that is not JSON, or not a result document, is refused by the store with
                // its own reason.
                let mut parsed = serde_json::from_str::<serde_json::Value>(&text).ok();
                let finished = parsed
                    .as_mut()
                    .is_some_and(|doc| finish::finish_value(doc, &reference).is_ok());
                let added = match parsed {
                    Some(doc) if finished => store.add_value(doc, tags),
                    _ => store.add_json(&text, tags),
                };
                added.map_err(|e| e.to_string())
            });
        match result {
            Ok(resultsdb::Added::New(id)) => writeln!(out, "added {id}\t{}", file.display())?,
            Ok(resultsdb::Added::Duplicate(id)) => {
                writeln!(out, "already stored as {id}\t{}", file.display())?
            }
            Err(reason) => {
                eprintln!("results add: {}: {reason}", file.display());
                failed += 1;
            }
        }
        out.flush()?;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `results reanalyse`: each run's stored document finished again (`finish::refinish_value`:
/// findings of known kinds computed anew, those of unknown kinds kept) and,
/// when that changed it, stored in its place (same id, tags, uploader). One line per run: id,
/// device and what changed in its findings ("+throttling [invalid], -throttling-unchecked
/// [info]"), whether it is the run's first analysis and whether its placement changed; then a
/// total. A run that does not exist or cannot be re-analysed is one line on stderr and exit 1;
/// the others are still done.
fn reanalyse(
    store: &mut Store,
    ids: &[i64],
    all: bool,
    dry_run: bool,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<i32> {
    let ids: Vec<i64> = if all {
        store
            .list(&Filter::default())?
            .into_iter()
            .map(|r| r.id)
            .collect()
    } else {
        ids.to_vec()
    };
    let reference = crate::finishing::reference();
    let (mut failed, mut changed, mut done) = (0usize, 0usize, 0usize);
    for id in ids {
        let Some(run) = store.run(id)? else {
            eprintln!("results reanalyse: no run with id {id}");
            failed += 1;
            continue;
        };
        let device = run.summary.columns.device.clone();
        let mut doc = run.document.clone();
        let change = match finish::refinish_value(&mut doc, &reference) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("results reanalyse: run {id}: {e}");
                failed += 1;
                continue;
            }
        };
        let differs = doc != run.document;
        if differs && !dry_run {
            match store.replace_value(id, doc) {
                Ok(true) => {}
                Ok(false) => {
                    eprintln!("results reanalyse: run {id} vanished while it was re-analysed");
                    failed += 1;
                    continue;
                }
                Err(e) => {
                    eprintln!("results reanalyse: run {id}: not stored: {e}");
                    failed += 1;
                    continue;
                }
            }
        }
        done += 1;
        if differs {
            changed += 1;
        }
        if json {
            let v = serde_json::json!({
                "id": id,
                "device": device,
                "added": change.added,
                "removed": change.removed,
                "changed": change.changed,
                "first_analysis": change.first_analysis,
                "placement_changed": change.placement_changed,
                "stored": differs && !dry_run,
            });
            writeln!(out, "{v}")?;
        } else {
            writeln!(
                out,
                "run {id}\t{}\t{}{}",
                dash(&device),
                change.summary(),
                if differs && dry_run {
                    " (dry run: not stored)"
                } else {
                    ""
                }
            )?;
        }
        out.flush()?;
    }
    if !json {
        let verb = if dry_run { "would change" } else { "changed" };
        writeln!(
            out,
            "reanalysed {done} run{}: {changed} {verb}, rules of {}",
            if done == 1 { "" } else { "s" },
            finish::rules()
        )?;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// A stored value for the terminal (`document::text::terminal_text`), "-" when missing.
fn dash(s: &Option<String>) -> String {
    s.as_deref()
        .map(document::text::terminal_text)
        .unwrap_or_else(|| "-".into())
}

/// `document::text::terminal_text`.
fn safe(s: &str) -> String {
    document::text::terminal_text(s)
}

/// `results table --guide TABLE`: that guide table over every stored guide run, one column per
/// board (`guidetables::MergeBy::Board`), as Markdown, CSV or JSON.
fn guide_table(
    store: &mut Store,
    title: &str,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<i32> {
    let mut docs = Vec::new();
    for r in store.list(&Filter::default())? {
        let Some(run) = store.run(r.id)? else {
            continue;
        };
        // A stored document this build cannot read is left out, not an error of the table.
        if let Ok(doc) = serde_json::from_value::<document::ResultDocument>(run.document)
            && doc.guide.is_some()
        {
            docs.push(doc);
        }
    }
    let g = guidetables::merge_documents_by(&docs, guidetables::MergeBy::Board);
    let want = title.trim().to_lowercase();
    let tables: Vec<&guidetables::Table> = g
        .sections
        .iter()
        .flat_map(|s| &s.tables)
        .filter(|t| t.title.to_lowercase() == want)
        .collect();
    let Some(t) = tables.first() else {
        let mut known: Vec<&str> = g
            .sections
            .iter()
            .flat_map(|s| &s.tables)
            .map(|t| t.title.as_str())
            .collect();
        known.dedup();
        eprintln!(
            "results: no guide table {title:?} in the stored guide runs{}",
            if known.is_empty() {
                " (there are none)".to_string()
            } else {
                format!("; known: {}", known.join(", "))
            }
        );
        return Ok(1);
    };
    match format {
        Format::Md => out.write_all(guidetables::md::table_text(t).as_bytes())?,
        Format::Csv => {
            let only = guidetables::Guide {
                header: guidetables::Table {
                    columns: Vec::new(),
                    rows: Vec::new(),
                    notes: Vec::new(),
                    ..(*t).clone()
                },
                sections: vec![guidetables::Section {
                    name: String::new(),
                    title: t.title.clone(),
                    tables: vec![(*t).clone()],
                    notes: Vec::new(),
                }],
                notes: Vec::new(),
            };
            out.write_all(guidetables::csv::render(&only).as_bytes())?
        }
        Format::Json => {
            let j = guidetables::json::table(t);
            serde_json::to_writer_pretty(&mut *out, &j)?;
            writeln!(out)?;
        }
    }
    Ok(0)
}

fn show_text(run: &resultsdb::RunDetail) -> String {
    use std::fmt::Write as _;
    let id = run.summary.id;
    let s = &run.summary.columns;
    let mut t = String::new();
    let _ = writeln!(t, "run {id}");
    for (k, v) in [
        ("device", &s.device),
        ("started", &s.started),
        ("soc", &s.soc),
        ("arch", &s.arch),
        ("kernel", &s.kernel),
        ("distro", &s.distro),
        ("producer", &s.producer),
        ("clockspeed", &s.clockspeed),
    ] {
        let _ = writeln!(t, "  {k:<11} {}", dash(v));
    }
    let _ = writeln!(
        t,
        "  {:<11} {}",
        "source",
        if s.imported {
            "imported sbc-bench log"
        } else {
            "boardbench run"
        }
    );
    let tags = &run.summary.tags;
    if !tags.is_empty() {
        let _ = writeln!(t, "  {:<11} {}", "tags", safe(&tags.join(", ")));
    }
    let _ = writeln!(t, "measurements ({}):", run.measurements.len());
    for m in &run.measurements {
        let spread = m.spread_pct.map_or(String::new(), |s| format!(" ±{s:.1}%"));
        let variant = m
            .variant
            .as_deref()
            .map_or(String::new(), |v| format!(" [{}]", safe(v)));
        let _ = writeln!(
            t,
            "  {:<14} {:<28} {:>3}T {:>14} {}{spread}{variant}",
            safe(&m.suite),
            safe(&m.test),
            m.threads,
            number(m.value),
            safe(&m.unit)
        );
    }
    let _ = writeln!(t, "findings ({}):", run.findings.len());
    for f in &run.findings {
        let sev = f.severity.name();
        let _ = writeln!(t, "  [{sev}] {}: {}", safe(&f.kind), safe(&f.message));
        for e in &f.evidence {
            let _ = writeln!(t, "      {}", safe(e));
        }
    }
    // What the finisher stored; a run stored before it existed is placed now (and says so).
    if let Ok(doc) = serde_json::from_value::<document::ResultDocument>(run.document.clone()) {
        let stored = doc.analysis.as_ref().and_then(|a| a.placement.as_ref());
        let lines = match stored {
            Some(p) => p.lines.clone(),
            None => {
                let (reference, _) =
                    resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir());
                corpus::place_run(&reference, &doc).lines()
            }
        };
        let _ = writeln!(t, "placement among sbc-bench's published results:");
        for l in lines {
            let _ = writeln!(t, "  {}", safe(&l));
        }
        match &doc.analysis {
            Some(a) => {
                let _ = writeln!(t, "analysed by {}", a.by);
            }
            None => {
                let _ = writeln!(
                    t,
                    "not analysed: stored before boardbench finished documents (findings never computed; `boardbench results reanalyse {id}`)"
                );
            }
        }
    }
    t
}

/// A stored run's typed document (`None` when it does not read as one).
fn stored_document(store: &mut Store, id: i64) -> anyhow::Result<Option<document::ResultDocument>> {
    Ok(store
        .run(id)?
        .and_then(|r| serde_json::from_value(r.document).ok()))
}

/// A figure's placement cell: "41/180 (46 % of SoC median)", with " *" when not comparable;
/// `none` stands for a figure without a rank — "-" in the Markdown table, the empty field in
/// CSV (as the results table's own CSV writes a missing figure).
fn placement_cell(p: Option<&PlacementRecord>, i: usize, none: &str) -> String {
    let fig = corpus::Figure::ALL[i];
    let Some(f) = p
        .and_then(|p| p.figures.as_ref())
        .and_then(|fs| fs.iter().find(|f| corpus::run::figure_of(f) == Some(fig)))
    else {
        return none.into();
    };
    let mut parts = vec![match (f.rank, f.of) {
        (Some(rank), Some(of)) => format!("{rank}/{of}"),
        _ => none.into(),
    }];
    if let Some(soc) = &f.same_soc {
        parts.push(format!("({:.0} % of SoC median)", soc.percent_of_median));
    }
    if f.not_comparable.is_some() {
        parts.push("*".into());
    }
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

fn placement_markdown(
    rows: &[resultsdb::TableRow],
    marks: &results_marks::Marks,
    placed: &[Option<PlacementRecord>],
    reference: &corpus::Corpus,
) -> String {
    use std::fmt::Write as _;
    let mut t = table_markdown(rows, marks);
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Placement among sbc-bench's published results: rank/rows of the run's class (ARM, x86, RISC-V, LoongArch — never across), share of the same SoC's median; * = the run's figure is not comparable with sbc-bench's."
    );
    let _ = writeln!(t);
    let heads: Vec<&str> = corpus::Figure::ALL.iter().map(|f| f.column()).collect();
    let _ = writeln!(t, "| id | class | SoC | {} |", heads.join(" | "));
    let _ = writeln!(t, "|---|---|---|{}", "---|".repeat(heads.len()));
    for (r, p) in rows.iter().zip(placed) {
        let cells: Vec<String> = (0..6).map(|i| placement_cell(p.as_ref(), i, "-")).collect();
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} |",
            r.id,
            p.as_ref().and_then(|p| p.class.as_deref()).unwrap_or("-"),
            p.as_ref().and_then(|p| p.soc.as_deref()).unwrap_or("-"),
            cells.join(" | ")
        );
    }
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "Corpus: {}. Data: {}.",
        reference.provenance(),
        corpus::LICENSE_LINE
    );
    t
}

/// The results table's CSV records with the class and a placement column per figure added to
/// each, written by the one CSV writer (`document::csv::write`).
fn placement_csv(
    rows: &[resultsdb::TableRow],
    marks: &results_marks::Marks,
    placed: &[Option<PlacementRecord>],
) -> String {
    let mut records = resultsdb::table::table_csv_records(rows, marks);
    if let Some(head) = records.first_mut() {
        head.push("class".into());
        head.extend(
            corpus::Figure::ALL
                .iter()
                .map(|f| format!("placement {}", f.column())),
        );
    }
    for (record, p) in records.iter_mut().skip(1).zip(placed) {
        let class = p.as_ref().and_then(|p| p.class.as_deref());
        record.push(class.unwrap_or("").to_string());
        record.extend((0..6).map(|i| placement_cell(p.as_ref(), i, "")));
    }
    document::csv::write(records)
}

fn compare_text(c: &resultsdb::compare::Comparison) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    for (i, r) in c.runs.iter().enumerate() {
        let letter = (b'A' + (i as u8 % 26)) as char;
        let clock = r
            .clock_mhz
            .map_or("clock unknown".to_string(), |c| format!("{c:.0} MHz"));
        let _ = writeln!(t, "{letter}: run {} {} ({clock})", r.id, dash(&r.device));
    }
    let _ = writeln!(
        t,
        "(ratio = value / A; per GHz = value / measured GHz; * = difference beyond both runs' spread, ~ = within it)"
    );
    for row in &c.rows {
        let variant = row
            .variant
            .as_deref()
            .map_or(String::new(), |v| format!(" [{v}]"));
        // The headline rows are figures of the whole run, not of a thread count.
        let threads = if row.suite == resultsdb::compare::HEADLINE_SUITE {
            String::new()
        } else {
            format!(" {}T", row.threads)
        };
        let _ = writeln!(
            t,
            "{} / {}{threads}{variant} ({}{})",
            row.suite,
            row.test,
            row.unit,
            if row.higher_is_better {
                ", higher is better"
            } else {
                ", lower is better"
            }
        );
        for (i, cell) in row.cells.iter().enumerate() {
            let letter = (b'A' + (i as u8 % 26)) as char;
            let Some(cell) = cell else {
                let _ = writeln!(t, "  {letter}: -");
                continue;
            };
            let mut line = format!("  {letter}: {:>14}", number(cell.value));
            if let Some(s) = cell.spread_pct {
                let _ = write!(line, " ±{s:.1}%");
            }
            if let Some(r) = cell.ratio {
                let mark = match cell.beyond_spread {
                    Some(true) => " *",
                    Some(false) => " ~",
                    None => "",
                };
                let _ = write!(line, "  ×{r:.3}{mark}");
            }
            if let Some(p) = cell.per_ghz {
                let _ = write!(line, "  {p:.1} per GHz");
                if let Some(pr) = cell.per_ghz_ratio {
                    let _ = write!(line, " (×{pr:.3})");
                }
            }
            let _ = writeln!(t, "{line}");
        }
    }
    t
}
