//! Renderers of guide documents: the tables of several runs merged into one column per run
//! (`"<board>: perf"`), then written as reStructuredText (`.. csv-table::` blocks, to paste into
//! Sphinx), Markdown, CSV or an HTML fragment. All of them are pure functions of the documents;
//! [`merge`] is the one place that decides which rows and columns exist, so the formats agree.
//!
//! Tables are matched across runs by title and first-column header; rows by their key (the
//! guides' row names), in the order they first appear. A run without a table or row leaves its
//! cells empty. The header table ("Evaluation Modules") comes from each run's machine snapshot
//! and the clock the guide measured per cluster.

pub mod csv;
pub mod html;
pub mod json;
pub mod md;
pub mod order;
pub mod reference;
pub mod rst;

use document::ResultDocument;
use document::guide::{GuideValue, SectionStatus};

/// One run to render: its column label (the board) and its document.
pub struct Run<'a> {
    pub board: String,
    pub doc: &'a ResultDocument,
}

/// A cell of a merged table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Value(GuideValue),
    Text(String),
    /// A measured figure divided by a published one (the reference column's ratio).
    Ratio(f64),
}

/// What a value column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColumnKind {
    /// Figures of the runs rendered.
    #[default]
    Measured,
    /// Figures of a published guide (`--reference`), read from its tables.
    Reference,
    /// A measured column divided by a reference column, where the units agree.
    Ratio,
}

/// A value column of a merged table: which run and which of its columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub run: usize,
    /// The board (run label).
    pub board: String,
    /// The table's own column header ("perf"); empty for the header table.
    pub name: String,
    pub kind: ColumnKind,
}

impl Column {
    /// `"<board>: <column>"` as the guides print it (just the board where there is no name).
    pub fn header(&self) -> String {
        if self.name.is_empty() {
            self.board.clone()
        } else {
            format!("{}: {}", self.board, self.name)
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub key: String,
    /// The values of the further key columns ([`Table::key_headers`]).
    pub keys: Vec<String>,
    pub cells: Vec<Option<Cell>>,
}

impl Row {
    /// The row's name with its further keys ("aes-128-cbc 16"), where one line must say it.
    pub fn label(&self) -> String {
        std::iter::once(self.key.as_str())
            .chain(self.keys.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One table with one column per (run, column).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: String,
    pub key_header: String,
    /// Further key columns, printed once (not per board) after the first.
    pub key_headers: Vec<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// What a reader must know about this table's figures (how many runs a merged column
    /// combines; a reference column's caveats), printed under it.
    pub notes: Vec<String>,
}

/// A section's heading and its merged tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The section's `--sections` name ("lmbench").
    pub name: String,
    pub title: String,
    pub tables: Vec<Table>,
    /// The notes of [`Guide::notes`] that belong to this section (its tool, its conditions).
    pub notes: Vec<String>,
}

/// Everything a renderer writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Guide {
    pub header: Table,
    pub sections: Vec<Section>,
    /// What a reader must know: skipped, failed or interrupted sections, quick runs, notes.
    pub notes: Vec<String>,
}

/// Unique labels for the runs: the device name (`headline::device::of_document`, the one rule:
/// given, imported, else the machine's device tree or DMI name), else "run N"; a label given
/// twice gets " (2)", " (3)" … so that two runs of one board stay two columns.
pub fn board_labels(docs: &[&ResultDocument]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let base = headline::device::of_document(d).unwrap_or_else(|| format!("run {}", i + 1));
        let mut label = base.clone();
        let mut n = 2;
        while out.contains(&label) {
            label = format!("{base} ({n})");
            n += 1;
        }
        out.push(label);
    }
    out
}

/// The tables of these documents merged, one column per run labelled by [`board_labels`]: what
/// `boardbench guide render` writes in each format.
pub fn merge_documents(docs: &[ResultDocument]) -> Guide {
    merge_documents_by(docs, MergeBy::Run)
}

/// The tables of these documents merged into columns as `by` says: per run (labelled by
/// [`board_labels`]) or per board (the device name; a run without one is a column of its own).
pub fn merge_documents_by(docs: &[ResultDocument], by: MergeBy) -> Guide {
    let refs: Vec<&ResultDocument> = docs.iter().collect();
    let labels = match by {
        MergeBy::Run => board_labels(&refs),
        MergeBy::Board => docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                d.device
                    .clone()
                    .filter(|s| !s.trim().is_empty())
                    .unwrap_or_else(|| format!("run {}", i + 1))
            })
            .collect(),
    };
    let runs: Vec<Run> = labels
        .into_iter()
        .zip(docs)
        .map(|(board, doc)| Run { board, doc })
        .collect();
    merge_by(&runs, by)
}

/// The figure as the guides print it: `4733.08`, or `4733.08 (min 2024.29, max 7441.86)` for a
/// repeated measurement.
pub fn format_value(v: &GuideValue) -> String {
    match (v.min, v.max) {
        (Some(lo), Some(hi)) => format!("{} (min {}, max {})", num(v.value), num(lo), num(hi)),
        _ => num(v.value),
    }
}

/// Two decimals as the guides print them; figures below 1 keep four (a 0.05 µs syscall would
/// otherwise read 0.05 whether it is 0.046 or 0.054).
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x != 0.0 && x.abs() < 1.0 {
        format!("{x:.4}")
    } else {
        format!("{x:.2}")
    }
}

/// A ratio as the reference column prints it: two decimals.
pub fn ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.2}")
    } else {
        "-".into()
    }
}

/// The figure with two decimals throughout, as the published TI guides print every figure
/// (`--style ti`): `0.01`, `4733.08 (min 2024.29, max 7441.86)`.
pub fn format_value_2(v: &GuideValue) -> String {
    let two = |x: f64| {
        if x.is_finite() {
            format!("{x:.2}")
        } else {
            "-".into()
        }
    };
    match (v.min, v.max) {
        (Some(lo), Some(hi)) => format!("{} (min {}, max {})", two(v.value), two(lo), two(hi)),
        _ => two(v.value),
    }
}

/// A cell as text with two decimals throughout (`--style ti`).
pub fn cell_text_2(c: &Option<Cell>) -> String {
    match c {
        Some(Cell::Value(v)) => format_value_2(v),
        other => cell_text(other),
    }
}

/// A cell as text (empty for none).
pub fn cell_text(c: &Option<Cell>) -> String {
    match c {
        Some(Cell::Value(v)) => format_value(v),
        Some(Cell::Text(t)) => t.clone(),
        Some(Cell::Ratio(r)) => ratio(*r),
        None => String::new(),
    }
}

/// How runs become columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MergeBy {
    /// One column per run (two runs of one board: `board`, `board (2)`).
    #[default]
    Run,
    /// One column per board: the runs of one board (same device name) combined — each figure
    /// the median of the runs' figures with their min and max, sections measured in separate
    /// runs in the same column.
    Board,
}

/// One column's runs: its label and the indexes of the runs in it.
struct Group {
    board: String,
    runs: Vec<usize>,
}

/// The runs put into columns: one group per run, or (by board) one per board label — where a
/// board has both, its quick guides' runs (`--quick`: shorter budgets, rough figures) in a
/// column of their own, "<board> (quick)", never in one median with its full runs (a quick
/// lat_ctx of 11 intervals and a full one of 100 are not one measurement repeated).
fn groups(runs: &[Run], by: MergeBy) -> Vec<Group> {
    let quick = |r: &Run| r.doc.guide.as_ref().is_some_and(|g| g.quick);
    let mut out: Vec<Group> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let named = r
            .doc
            .device
            .as_deref()
            .is_some_and(|d| !d.trim().is_empty());
        let has_full = runs.iter().any(|o| o.board == r.board && !quick(o));
        let board = if by == MergeBy::Board && named && quick(r) && has_full {
            format!("{} (quick)", r.board)
        } else {
            r.board.clone()
        };
        match out.iter_mut().find(|g| g.board == board) {
            Some(g) if by == MergeBy::Board && named => g.runs.push(i),
            _ => out.push(Group {
                board,
                runs: vec![i],
            }),
        }
    }
    out
}

/// A run within its board's column, for notes: "am62 (run 2 of 3, 2026-11-25 10:40)".
fn run_label(runs: &[Run], g: &Group, i: usize) -> String {
    if g.runs.len() == 1 {
        return g.board.clone();
    }
    format!("{} ({})", g.board, run_of(runs, g, i))
}

/// "run 3 of 3, 2026-11-26 08:00": which of its board's runs run `i` is, without the board.
fn run_of(runs: &[Run], g: &Group, i: usize) -> String {
    let k = g.runs.iter().position(|&r| r == i).unwrap_or(0) + 1;
    let when = runs[i]
        .doc
        .started
        .as_deref()
        .map(|s| format!(", {}", s.get(..16).unwrap_or(s).replace('T', " ")))
        .unwrap_or_default();
    format!("run {k} of {}{when}", g.runs.len())
}

/// A merged cell before it is final: the figure of every run of the column that measured it.
#[derive(Default)]
struct Acc {
    values: Vec<GuideValue>,
}

/// A merged table's figures before they are final (per row, per column) and the runs that had
/// the table.
type TableAcc = (Vec<Vec<Acc>>, Vec<usize>);

/// A header property read from one document.
type Property = fn(&ResultDocument) -> Option<String>;

/// One figure from several runs' figures: the median, with the min and max across the runs and
/// the number of runs as its samples; one run's figure stays as it is (with its own range).
pub fn combine(values: &[GuideValue]) -> Option<GuideValue> {
    match values {
        [] => None,
        [one] => Some(one.clone()),
        many => {
            let figures: Vec<f64> = many
                .iter()
                .map(|v| v.value)
                .filter(|v| v.is_finite())
                .collect();
            GuideValue::from_samples(&figures)
        }
    }
}

/// Merges the runs' guide tables into one column per run.
pub fn merge(runs: &[Run]) -> Guide {
    merge_by(runs, MergeBy::Run)
}

/// Merges the runs' guide tables into columns as `by` says. With [`MergeBy::Board`] the runs
/// whose labels are equal (the device name) share one column; a note under each table says how
/// many runs a column's figures come from.
pub fn merge_by(runs: &[Run], by: MergeBy) -> Guide {
    let groups = groups(runs, by);
    let group_of = |i: usize| {
        groups
            .iter()
            .position(|g| g.runs.contains(&i))
            .expect("every run is in a group")
    };
    let mut sections: Vec<Section> = Vec::new();
    // (table position, its cells' figures per row and column, which runs had it)
    let mut accs: Vec<Vec<TableAcc>> = Vec::new();
    // (group, section name or "", text, run)
    let mut raw_notes: Vec<(usize, String, String, usize)> = Vec::new();
    let done_in = |gi: usize, name: &str| {
        groups[gi].runs.iter().any(|&r| {
            runs[r].doc.guide.as_ref().is_some_and(|g| {
                g.sections
                    .iter()
                    .any(|s| s.name == name && s.status == SectionStatus::Done)
            })
        })
    };
    for (ri, run) in runs.iter().enumerate() {
        let gi = group_of(ri);
        let Some(g) = &run.doc.guide else {
            raw_notes.push((
                gi,
                String::new(),
                "not a guide document (no tables)".into(),
                ri,
            ));
            continue;
        };
        // The run's verdict stands beside its figures: a guide built from a run whose findings
        // say "not to be trusted" must not read as a clean one.
        let invalid: Vec<String> = run
            .doc
            .findings
            .iter()
            .filter(|f| f.severity == document::Severity::Invalid)
            .map(|f| format!("{} ({})", f.message.trim_end_matches('.'), f.kind))
            .collect();
        if !invalid.is_empty() {
            raw_notes.push((
                gi,
                String::new(),
                format!("NOT TO BE TRUSTED: {}", invalid.join("; ")),
                ri,
            ));
        }
        if g.quick {
            raw_notes.push((
                gi,
                String::new(),
                "a quick guide (--quick): shorter budgets, rough figures".into(),
                ri,
            ));
        }
        for s in &g.sections {
            match s.status {
                SectionStatus::Done => {}
                // Measured in another run of the same board: not a gap of the column.
                SectionStatus::Skipped if groups[gi].runs.len() > 1 && done_in(gi, &s.name) => {}
                st => raw_notes.push((
                    gi,
                    s.name.clone(),
                    format!(
                        "{} {}{}",
                        s.title,
                        match st {
                            SectionStatus::Skipped => "skipped",
                            SectionStatus::Failed => "failed",
                            _ => "interrupted (the figures measured until then are shown)",
                        },
                        s.reason
                            .as_deref()
                            .map(|r| format!(": {r}"))
                            .unwrap_or_default()
                    ),
                    ri,
                )),
            }
            let si = match sections.iter().position(|x| x.name == s.name) {
                Some(i) => i,
                None => {
                    sections.push(Section {
                        name: s.name.clone(),
                        title: s.title.clone(),
                        tables: Vec::new(),
                        notes: Vec::new(),
                    });
                    accs.push(Vec::new());
                    sections.len() - 1
                }
            };
            let sec = &mut sections[si];
            let sacc = &mut accs[si];
            for t in &s.tables {
                let ti = match sec
                    .tables
                    .iter()
                    .position(|x| x.title == t.title && x.key_header == t.key_header)
                {
                    Some(i) => i,
                    None => {
                        sec.tables.push(Table {
                            title: t.title.clone(),
                            key_header: t.key_header.clone(),
                            key_headers: t.key_headers.clone(),
                            columns: Vec::new(),
                            rows: Vec::new(),
                            notes: Vec::new(),
                        });
                        sacc.push((Vec::new(), Vec::new()));
                        sec.tables.len() - 1
                    }
                };
                let mt = &mut sec.tables[ti];
                let (cells, had) = &mut sacc[ti];
                if !had.contains(&ri) {
                    had.push(ri);
                }
                // This table's columns in the merged table (added once per column and name).
                let idx: Vec<usize> = t
                    .columns
                    .iter()
                    .map(
                        |c| match mt.columns.iter().position(|m| m.run == gi && &m.name == c) {
                            Some(i) => i,
                            None => {
                                mt.columns.push(Column {
                                    run: gi,
                                    board: groups[gi].board.clone(),
                                    name: c.clone(),
                                    kind: ColumnKind::Measured,
                                });
                                for r in cells.iter_mut() {
                                    r.push(Acc::default());
                                }
                                mt.columns.len() - 1
                            }
                        },
                    )
                    .collect();
                for row in &t.rows {
                    let width = mt.columns.len();
                    let at = match mt
                        .rows
                        .iter()
                        .position(|r| r.key == row.key && r.keys == row.keys)
                    {
                        Some(i) => i,
                        None => {
                            mt.rows.push(Row {
                                key: row.key.clone(),
                                keys: row.keys.clone(),
                                cells: Vec::new(),
                            });
                            cells.push((0..width).map(|_| Acc::default()).collect());
                            mt.rows.len() - 1
                        }
                    };
                    for (ci, v) in row.cells.iter().enumerate() {
                        if let (Some(&c), Some(v)) = (idx.get(ci), v) {
                            cells[at][c].values.push(v.clone());
                        }
                    }
                }
            }
            if let Some(t) = &s.tool {
                raw_notes.push((
                    gi,
                    s.name.clone(),
                    format!("{}: measured with {t}", s.title),
                    ri,
                ));
            }
            for n in &s.notes {
                raw_notes.push((gi, s.name.clone(), format!("{}: {n}", s.title), ri));
            }
        }
    }
    // The figures: one run's as it is, several runs' combined; the number of runs said under
    // the table.
    for (sec, sacc) in sections.iter_mut().zip(accs) {
        for (t, (cells, had)) in sec.tables.iter_mut().zip(sacc) {
            let width = t.columns.len();
            for (row, accs) in t.rows.iter_mut().zip(&cells) {
                row.cells = (0..width)
                    .map(|c| {
                        accs.get(c)
                            .and_then(|a| combine(&a.values))
                            .map(Cell::Value)
                    })
                    .collect();
            }
            for (gi, g) in groups.iter().enumerate() {
                if g.runs.len() < 2 {
                    continue;
                }
                let k = g.runs.iter().filter(|r| had.contains(r)).count();
                match k {
                    0 => continue,
                    1 => {
                        let r = g.runs.iter().find(|r| had.contains(r)).expect("one");
                        t.notes.push(format!(
                            "{}: measured in one of its {} runs ({})",
                            g.board,
                            g.runs.len(),
                            run_of(runs, g, *r)
                        ));
                        continue;
                    }
                    _ => t.notes.push(format!(
                        "{}: each figure is the median of the {k} runs that measured it, (min, max) across those runs",
                        g.board
                    )),
                }
                let cols: Vec<usize> = (0..width).filter(|&c| t.columns[c].run == gi).collect();
                for (row, accs) in t.rows.iter().zip(&cells) {
                    let n = cols
                        .iter()
                        .map(|&c| accs.get(c).map_or(0, |a| a.values.len()))
                        .max()
                        .unwrap_or(0);
                    if n > 0 && n < k {
                        t.notes.push(format!(
                            "{}: {} from {n} of the {k} runs",
                            g.board,
                            row.label()
                        ));
                    }
                }
            }
        }
    }
    // The notes: said once per column where every run of it says the same, else per run.
    let mut notes = Vec::new();
    let mut seen: Vec<(usize, &str, &str)> = Vec::new();
    for (gi, sec, text, _) in &raw_notes {
        if seen.contains(&(*gi, sec.as_str(), text.as_str())) {
            continue;
        }
        seen.push((*gi, sec, text));
        let g = &groups[*gi];
        let by: Vec<usize> = raw_notes
            .iter()
            .filter(|(g2, s2, t2, _)| g2 == gi && s2 == sec && t2 == text)
            .map(|n| n.3)
            .collect();
        let who = if by.len() >= g.runs.len() {
            g.board.clone()
        } else if by.len() == 1 {
            run_label(runs, g, by[0])
        } else {
            let ks: Vec<String> = by
                .iter()
                .filter_map(|r| g.runs.iter().position(|x| x == r))
                .map(|k| (k + 1).to_string())
                .collect();
            format!("{} (runs {} of {})", g.board, ks.join(", "), g.runs.len())
        };
        let line = format!("{who}: {text}");
        if let Some(s) = sections.iter_mut().find(|s| &s.name == sec) {
            s.notes.push(line.clone());
        }
        notes.push(line);
    }
    Guide {
        header: header(runs, &groups),
        sections,
        notes,
    }
}

/// The "Evaluation Modules" table: what each column's machine is (the runs of a merged column
/// agreeing, or their values joined with " / "), and with merged columns how many runs each has.
fn header(runs: &[Run], groups: &[Group]) -> Table {
    const KEYS: [&str; 8] = [
        "Board",
        "SoC",
        "CPU clock (measured, MHz)",
        "Memory",
        "Kernel",
        "Distribution",
        "Built with",
        "Measured",
    ];
    let columns = groups
        .iter()
        .enumerate()
        .map(|(i, g)| Column {
            run: i,
            board: g.board.clone(),
            name: String::new(),
            kind: ColumnKind::Measured,
        })
        .collect();
    let per_group: Vec<[Option<String>; 8]> = groups
        .iter()
        .map(|g| {
            let docs: Vec<&ResultDocument> = g.runs.iter().map(|&r| runs[r].doc).collect();
            let each: Vec<[Option<String>; 8]> = docs.iter().map(|d| identity(d)).collect();
            std::array::from_fn(|k| {
                if k == 2 {
                    return measured_clocks(&docs);
                }
                let mut vals: Vec<String> = Vec::new();
                for v in each.iter().filter_map(|e| e[k].clone()) {
                    if !vals.contains(&v) {
                        vals.push(v);
                    }
                }
                (!vals.is_empty()).then(|| vals.join(" / "))
            })
        })
        .collect();
    // What the machine says of its nominal clocks, where it says anything.
    let extra: [(&str, Property); 3] = [
        (NOMINAL_KEY, nominal_clocks),
        (DRAM_KEY, dram),
        ("Memory controller (devfreq max)", memory_controller),
    ];
    let mut rows: Vec<Row> = KEYS
        .iter()
        .enumerate()
        .map(|(k, key)| Row {
            key: (*key).into(),
            keys: Vec::new(),
            cells: per_group
                .iter()
                .map(|v| v[k].clone().map(Cell::Text))
                .collect(),
        })
        .collect();
    let mut at = 3;
    for (key, f) in extra {
        let cells: Vec<Option<Cell>> = groups
            .iter()
            .map(|g| {
                let mut vals: Vec<String> = Vec::new();
                for v in g.runs.iter().filter_map(|&r| f(runs[r].doc)) {
                    if !vals.contains(&v) {
                        vals.push(v);
                    }
                }
                (!vals.is_empty()).then(|| Cell::Text(vals.join(" / ")))
            })
            .collect();
        if cells.iter().any(Option::is_some) {
            rows.insert(
                at,
                Row {
                    key: key.into(),
                    keys: Vec::new(),
                    cells,
                },
            );
            at += 1;
        }
    }
    // A row no column has anything for (a document made by `guide console` knows no SoC,
    // kernel or build) is left out rather than printed empty.
    rows.retain(|r| r.cells.iter().any(Option::is_some));
    if groups.iter().any(|g| g.runs.len() > 1) {
        rows.push(Row {
            key: "Runs".into(),
            keys: Vec::new(),
            cells: groups
                .iter()
                .map(|g| Some(Cell::Text(g.runs.len().to_string())))
                .collect(),
        });
    }
    Table {
        title: "Evaluation Modules".into(),
        key_header: "Property".into(),
        key_headers: Vec::new(),
        columns,
        rows,
        notes: Vec::new(),
    }
}

fn identity(doc: &ResultDocument) -> [Option<String>; 8] {
    let m = doc.machine.as_ref();
    let board = headline::device::of_document(doc);
    let soc = m.and_then(|m| {
        m.identity
            .soc
            .as_ref()
            .map(|s| s.name.clone())
            .or_else(|| m.cpuinfo.model.clone())
            .or_else(|| m.clusters.first().and_then(|c| c.core_name.clone()))
    });
    let clocks = measured_clocks(&[doc]);
    let memory = m
        .and_then(|m| m.memory.total_kib)
        .map(|k| format!("{:.1} GiB", k as f64 / 1024.0 / 1024.0));
    let kernel = m.and_then(|m| m.identity.kernel.release.clone());
    let distro = m.and_then(|m| {
        m.identity
            .distro
            .as_ref()
            .and_then(|d| d.pretty_name.clone().or_else(|| d.name.clone()))
    });
    let built = doc.guide.as_ref().and_then(|g| g.build.as_ref()).map(|b| {
        format!("{} {} {}", b.compiler, b.target, b.flags)
            .trim()
            .to_string()
    });
    let quick = doc.guide.as_ref().is_some_and(|g| g.quick);
    let measured = match (doc.started.as_deref(), quick) {
        (Some(s), q) => Some(format!(
            "{}{}",
            s.get(..10).unwrap_or(s),
            if q { " (quick)" } else { "" }
        )),
        (None, true) => Some("quick".into()),
        (None, false) => None,
    };
    [board, soc, clocks, memory, kernel, distro, built, measured]
}

/// The header's row of the nominal CPU clock.
pub(crate) const NOMINAL_KEY: &str = "CPU clock (nominal)";

/// "1.8 GHz", "1.416 GHz", "800 MHz".
fn clock_text(khz: u64) -> String {
    let mhz = (khz as f64 / 1000.0).round() as u64;
    if mhz < 1000 {
        return format!("{mhz} MHz");
    }
    let g = format!("{:.3}", mhz as f64 / 1000.0);
    format!("{} GHz", g.trim_end_matches('0').trim_end_matches('.'))
}

/// "4× 1.8 GHz Cortex-A55 + 4× 2.4 GHz Cortex-A76 (cpufreq)": the nominal clock a guide's
/// "Evaluation Modules" states, per cluster (clusters of one core type and clock counted
/// together) — cpufreq's maximum where cpufreq runs, else the device tree's (the highest OPP
/// of the CPU's table, or its `clock-frequency`), the source said.
fn nominal_clocks(doc: &ResultDocument) -> Option<String> {
    let m = doc.machine.as_ref()?;
    // (cpus, khz, core, source)
    let mut groups: Vec<(usize, u64, Option<&str>, &str)> = Vec::new();
    for c in &m.clusters {
        let (khz, source) = match (c.max_khz, c.dt_max_khz) {
            (Some(k), _) => (k, "cpufreq"),
            (None, Some(k)) => (k, "device tree"),
            (None, None) => continue,
        };
        let core = c.core_name.as_deref();
        match groups
            .iter_mut()
            .find(|g| g.1 == khz && g.2 == core && g.3 == source)
        {
            Some(g) => g.0 += c.cpus.len(),
            None => groups.push((c.cpus.len(), khz, core, source)),
        }
    }
    let one_source = groups.windows(2).all(|w| w[0].3 == w[1].3);
    let parts: Vec<String> = groups
        .iter()
        .map(|(n, khz, core, source)| {
            let mut p = format!("{n}× {}", clock_text(*khz));
            if let Some(c) = core {
                p.push_str(&format!(" {c}"));
            }
            if !one_source {
                p.push_str(&format!(" ({source})"));
            }
            p
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    let mut text = parts.join(" + ");
    if one_source {
        text.push_str(&format!(" ({})", groups[0].3));
    }
    Some(text)
}

/// The header's row of the DRAM type and data rate.
pub(crate) const DRAM_KEY: &str = "DRAM (type, data rate)";

/// "LPDDR4, 4266 MT/s, 2 devices, 8192 MiB (SMBIOS)", "LPDDR4 (device tree); 4224 MT/s (devfreq
/// dmc: 2 × 2112 MHz DRAM clock)": the DRAM devices as the machine's SMBIOS, the kernel's EDAC
/// or the device tree's JEDEC memory nodes state them (the data rate: SMBIOS's configured
/// speed, else its rated one), and the data rate of a DRAM controller's devfreq whose driver's
/// meaning is known ([`document::machine::Devfreq::dram_data_rate_mts`]); None where none of
/// them does.
fn dram(doc: &ResultDocument) -> Option<String> {
    let m = doc.machine.as_ref()?;
    let mut parts = Vec::new();
    for (source, shown) in [
        ("smbios", "SMBIOS"),
        ("edac", "EDAC"),
        ("devicetree", "device tree"),
    ] {
        let ds: Vec<&document::machine::DramDevice> = m
            .memory
            .dram
            .iter()
            .filter(|d| d.source == source)
            .collect();
        if ds.is_empty() {
            continue;
        }
        let mut words: Vec<String> = Vec::new();
        let mut push = |w: String| {
            if !words.contains(&w) {
                words.push(w);
            }
        };
        for d in &ds {
            if let Some(t) = &d.mem_type {
                push(t.clone());
            }
        }
        let mut rates: Vec<String> = Vec::new();
        for d in &ds {
            if let Some(r) = d.configured_mts.or(d.speed_mts) {
                let r = format!("{r} MT/s");
                if !rates.contains(&r) {
                    rates.push(r);
                }
            }
        }
        let mut p = if words.is_empty() {
            "type not stated".to_string()
        } else {
            words.join(" / ")
        };
        if source == "devicetree" {
            // The JEDEC nodes state the type only (a channel or a rank each).
            parts.push(format!("{p} ({shown})"));
            continue;
        }
        if !rates.is_empty() {
            p.push_str(&format!(", {}", rates.join(" / ")));
        }
        p.push_str(&format!(
            ", {} device{}",
            ds.len(),
            if ds.len() == 1 { "" } else { "s" }
        ));
        let total: u64 = ds.iter().filter_map(|d| d.size_mib).sum();
        if total > 0 {
            p.push_str(&format!(", {total} MiB"));
        }
        parts.push(format!("{p} ({shown})"));
    }
    for d in &m.devfreq {
        if let Some((mts, from)) = d.dram_data_rate_mts() {
            parts.push(format!("{mts} MT/s ({from})"));
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// "dmc: 2112 MHz": the memory controller's devfreq maximum (the DRAM clock where the kernel
/// scales it; not the DDR type or data rate — [`dram`] has those where SMBIOS or EDAC state
/// them).
fn memory_controller(doc: &ResultDocument) -> Option<String> {
    let m = doc.machine.as_ref()?;
    let parts: Vec<String> = m
        .devfreq
        .iter()
        .filter(|d| {
            let n = d.name.to_lowercase();
            n.contains("dmc") || n.contains("ddr") || n.contains("dram") || n.contains("memory")
        })
        .filter_map(|d| Some(format!("{}: {:.0} MHz", d.name, d.max_hz? as f64 / 1e6)))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// "1800 (cpu0 Cortex-A53), 2208 (cpu4 Cortex-A72)": the guide's measured clock per cluster
/// (the `clock` phase of the session); over several runs the median per CPU.
fn measured_clocks(docs: &[&ResultDocument]) -> Option<String> {
    let mut per_cpu: Vec<(u32, String, Vec<f64>)> = Vec::new();
    for doc in docs {
        let Some(run) = doc.run.as_ref() else {
            continue;
        };
        let machine = doc.machine.as_ref();
        for r in run
            .phases
            .iter()
            .filter(|p| p.kind == "clock")
            .flat_map(|p| p.clock.iter())
        {
            let cluster = machine.and_then(|m| m.clusters.iter().find(|c| c.cpus.contains(&r.cpu)));
            let what = cluster
                .and_then(|c| c.core_name.clone())
                .map(|n| format!("cpu{} {n}", r.cpu))
                .unwrap_or_else(|| format!("cpu{}", r.cpu));
            match per_cpu
                .iter_mut()
                .find(|(c, w, _)| *c == r.cpu && *w == what)
            {
                Some(e) => e.2.push(r.mhz),
                None => per_cpu.push((r.cpu, what, vec![r.mhz])),
            }
        }
    }
    let parts: Vec<String> = per_cpu
        .iter()
        .filter_map(|(_, what, mhz)| Some(format!("{:.0} ({what})", document::stats::median(mhz)?)))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::guide::{GuideRecord, GuideSection, GuideTable};

    fn doc(device: &str, rows: &[(&str, f64)]) -> ResultDocument {
        let mut t = GuideTable::perf("Stream Benchmarks", "Benchmarks");
        for (k, v) in rows {
            t.push(*k, Some(GuideValue::one(*v)));
        }
        ResultDocument {
            redaction: None,
            analysis: None,
            schema_version: document::SCHEMA_VERSION,
            producer: "test".into(),
            device: Some(device.into()),
            started: None,
            finished: None,
            machine: None,
            measurements: Vec::new(),
            findings: Vec::new(),
            imported: None,
            run: None,
            guide: Some(GuideRecord {
                sections: vec![GuideSection {
                    name: "stream".into(),
                    title: "Stream Benchmarks".into(),
                    tables: vec![t],
                    ..Default::default()
                }],
                ..Default::default()
            }),
        }
    }

    #[test]
    fn rows_merge_by_key_one_column_per_run() {
        let a = doc("a", &[("copy (MB/s)", 1.0), ("add (MB/s)", 2.0)]);
        let b = doc("b", &[("add (MB/s)", 3.0), ("triad (MB/s)", 4.0)]);
        let g = merge(&[
            Run {
                board: "a".into(),
                doc: &a,
            },
            Run {
                board: "b".into(),
                doc: &b,
            },
        ]);
        let t = &g.sections[0].tables[0];
        let headers: Vec<String> = t.columns.iter().map(Column::header).collect();
        assert_eq!(headers, ["a: perf", "b: perf"]);
        let keys: Vec<&str> = t.rows.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["copy (MB/s)", "add (MB/s)", "triad (MB/s)"]);
        assert_eq!(cell_text(&t.rows[0].cells[1]), "");
        assert_eq!(cell_text(&t.rows[1].cells[1]), "3.00");
        assert_eq!(cell_text(&t.rows[2].cells[0]), "");
    }

    #[test]
    fn values_print_like_the_guides() {
        let v = GuideValue {
            value: 4733.08,
            min: Some(2024.29),
            max: Some(7441.86),
            samples: 3,
            range_pct: None,
        };
        assert_eq!(format_value(&v), "4733.08 (min 2024.29, max 7441.86)");
        assert_eq!(num(0.04567), "0.0457");
        assert_eq!(num(0.0), "0.00");
    }

    #[test]
    fn a_board_twice_stays_two_columns() {
        let a = doc("am62", &[]);
        let b = doc("am62", &[]);
        let mut c = doc("x", &[]);
        c.device = None;
        assert_eq!(board_labels(&[&a, &b, &c]), ["am62", "am62 (2)", "run 3"]);
    }
}

#[cfg(test)]
mod two_keys {
    use super::*;
    use document::guide::{GuideRecord, GuideRow, GuideSection, GuideTable};

    fn doc(device: &str, kb: f64) -> ResultDocument {
        let rows = ["16", "16384"]
            .iter()
            .map(|s| GuideRow {
                key: "aes-128-cbc".into(),
                keys: vec![(*s).into()],
                cells: vec![Some(GuideValue::one(kb))],
            })
            .collect();
        let mut d: ResultDocument =
            serde_json::from_str(r#"{"schema_version":1,"producer":"test"}"#).unwrap();
        d.device = Some(device.into());
        d.guide = Some(GuideRecord {
            sections: vec![GuideSection {
                name: "openssl".into(),
                title: "OpenSSL".into(),
                tables: vec![GuideTable {
                    title: "OpenSSL Performance".into(),
                    key_header: "Algorithm".into(),
                    key_headers: vec!["Buffer Size (in bytes)".into()],
                    columns: vec!["throughput (KBytes/Sec)".into()],
                    rows,
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        d
    }

    #[test]
    fn rows_with_a_second_key_stay_apart_and_the_key_is_not_per_board() {
        let (a, b) = (doc("A", 1.0), doc("B", 2.0));
        let g = merge(&[
            Run {
                board: "A".into(),
                doc: &a,
            },
            Run {
                board: "B".into(),
                doc: &b,
            },
        ]);
        let t = &g.sections[0].tables[0];
        assert_eq!(t.rows.len(), 2, "one row per (algorithm, size)");
        assert_eq!(t.columns.len(), 2, "one value column per board");
        let rst = rst::render(&g, "Guide");
        assert!(
            rst.contains(r#":header: "Algorithm","Buffer Size (in bytes)","A: throughput (KBytes/Sec)","B: throughput (KBytes/Sec)""#),
            "{rst}"
        );
        assert!(
            rst.contains(r#""aes-128-cbc","16384","1.00","2.00""#),
            "{rst}"
        );
        assert!(csv::render(&g).contains("aes-128-cbc 16384"));
    }
}
