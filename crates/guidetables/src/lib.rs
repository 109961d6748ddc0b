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
pub mod md;
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
}

/// A value column of a merged table: which run and which of its columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub run: usize,
    /// The board (run label).
    pub board: String,
    /// The table's own column header ("perf"); empty for the header table.
    pub name: String,
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
}

/// A section's heading and its merged tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub name: String,
    pub title: String,
    pub tables: Vec<Table>,
}

/// Everything a renderer writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Guide {
    pub header: Table,
    pub sections: Vec<Section>,
    /// What a reader must know: skipped, failed or interrupted sections, quick runs, notes.
    pub notes: Vec<String>,
}

/// Unique labels for the runs: the device name, else "run N"; a label given twice gets " (2)",
/// " (3)" … so that two runs of one board stay two columns.
pub fn board_labels(docs: &[&ResultDocument]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let base = d
            .device
            .clone()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| format!("run {}", i + 1));
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
    let refs: Vec<&ResultDocument> = docs.iter().collect();
    let runs: Vec<Run> = board_labels(&refs)
        .into_iter()
        .zip(docs)
        .map(|(board, doc)| Run { board, doc })
        .collect();
    merge(&runs)
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

/// A cell as text (empty for none).
pub fn cell_text(c: &Option<Cell>) -> String {
    match c {
        Some(Cell::Value(v)) => format_value(v),
        Some(Cell::Text(t)) => t.clone(),
        None => String::new(),
    }
}

/// Merges the runs' guide tables into one column per run.
pub fn merge(runs: &[Run]) -> Guide {
    let mut sections: Vec<Section> = Vec::new();
    let mut notes = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        let Some(g) = &run.doc.guide else {
            notes.push(format!("{}: not a guide document (no tables)", run.board));
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
            notes.push(format!(
                "{}: NOT TO BE TRUSTED: {}",
                run.board,
                invalid.join("; ")
            ));
        }
        if g.quick {
            notes.push(format!(
                "{}: a quick guide (--quick): shorter budgets, rough figures",
                run.board
            ));
        }
        for s in &g.sections {
            match s.status {
                SectionStatus::Done => {}
                st => notes.push(format!(
                    "{}: {} {}{}",
                    run.board,
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
                )),
            }
            let si = match sections.iter().position(|x| x.name == s.name) {
                Some(i) => i,
                None => {
                    sections.push(Section {
                        name: s.name.clone(),
                        title: s.title.clone(),
                        tables: Vec::new(),
                    });
                    sections.len() - 1
                }
            };
            let sec = &mut sections[si];
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
                        });
                        sec.tables.len() - 1
                    }
                };
                let mt = &mut sec.tables[ti];
                // This table's columns in the merged table (added once per run and name).
                let idx: Vec<usize> = t
                    .columns
                    .iter()
                    .map(
                        |c| match mt.columns.iter().position(|m| m.run == ri && &m.name == c) {
                            Some(i) => i,
                            None => {
                                mt.columns.push(Column {
                                    run: ri,
                                    board: run.board.clone(),
                                    name: c.clone(),
                                });
                                for r in &mut mt.rows {
                                    r.cells.push(None);
                                }
                                mt.columns.len() - 1
                            }
                        },
                    )
                    .collect();
                for row in &t.rows {
                    let width = mt.columns.len();
                    let r = match mt
                        .rows
                        .iter()
                        .position(|r| r.key == row.key && r.keys == row.keys)
                    {
                        Some(i) => &mut mt.rows[i],
                        None => {
                            mt.rows.push(Row {
                                key: row.key.clone(),
                                keys: row.keys.clone(),
                                cells: vec![None; width],
                            });
                            mt.rows.last_mut().expect("pushed")
                        }
                    };
                    for (ci, v) in row.cells.iter().enumerate() {
                        if let (Some(&at), Some(v)) = (idx.get(ci), v) {
                            r.cells[at] = Some(Cell::Value(v.clone()));
                        }
                    }
                }
            }
            if let Some(t) = &s.tool {
                notes.push(format!("{}: {}: measured with {t}", run.board, s.title));
            }
            for n in &s.notes {
                notes.push(format!("{}: {}: {n}", run.board, s.title));
            }
        }
    }
    Guide {
        header: header(runs),
        sections,
        notes,
    }
}

/// The "Evaluation Modules" table: what each run's machine is.
fn header(runs: &[Run]) -> Table {
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
    let columns = runs
        .iter()
        .enumerate()
        .map(|(i, r)| Column {
            run: i,
            board: r.board.clone(),
            name: String::new(),
        })
        .collect();
    let per_run: Vec<[Option<String>; 8]> = runs.iter().map(|r| identity(r.doc)).collect();
    let rows = KEYS
        .iter()
        .enumerate()
        .map(|(k, key)| Row {
            key: (*key).into(),
            keys: Vec::new(),
            cells: per_run
                .iter()
                .map(|v| v[k].clone().map(Cell::Text))
                .collect(),
        })
        .collect();
    Table {
        title: "Evaluation Modules".into(),
        key_header: "Property".into(),
        key_headers: Vec::new(),
        columns,
        rows,
    }
}

fn identity(doc: &ResultDocument) -> [Option<String>; 8] {
    let m = doc.machine.as_ref();
    let board = doc.device.clone().or_else(|| {
        m.and_then(|m| {
            m.identity
                .device_tree
                .as_ref()
                .and_then(|d| d.model.clone())
                .or_else(|| m.identity.dmi.product_name.clone())
        })
    });
    let soc = m.and_then(|m| {
        m.identity
            .soc
            .as_ref()
            .map(|s| s.name.clone())
            .or_else(|| m.cpuinfo.model.clone())
            .or_else(|| m.clusters.first().and_then(|c| c.core_name.clone()))
    });
    let clocks = measured_clocks(doc);
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

/// "1800 (cpu0-3 Cortex-A53), 2208 (cpu4-5 Cortex-A72)": the guide's measured clock per
/// cluster (the `clock` phase of the session).
fn measured_clocks(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let machine = doc.machine.as_ref();
    let parts: Vec<String> = run
        .phases
        .iter()
        .filter(|p| p.kind == "clock")
        .flat_map(|p| p.clock.iter())
        .map(|r| {
            let cluster = machine.and_then(|m| m.clusters.iter().find(|c| c.cpus.contains(&r.cpu)));
            let what = cluster
                .and_then(|c| c.core_name.clone())
                .map(|n| format!("cpu{} {n}", r.cpu))
                .unwrap_or_else(|| format!("cpu{}", r.cpu));
            format!("{:.0} ({what})", r.mhz)
        })
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
