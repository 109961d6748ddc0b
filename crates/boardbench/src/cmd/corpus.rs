//! `boardbench corpus`: the reference corpus runs are placed in (sbc-bench's published
//! Results.md, BSD-3-Clause).
//!
//! - `show`: the corpus in use — source, date, rows, where it comes from (built in or stored by
//!   `update`), the licence notice; `--soc SOC` lists that SoC's rows.
//! - `update FILE`: a newer Results.md; parsed (every row, or an error naming each bad row),
//!   compared with the corpus in use (added, removed, changed rows), stored beside the results
//!   database (`resultsdb::corpus_store`) and used from then on by `run`, `results` and `report`.
//! - `update DB|EXPORT`: the user's own runs — a results database (SQLite) or the results
//!   service's table export (`GET /api/v1/table?format=json`) — as the *local layer*: compared
//!   with the previous local layer (added, removed, changed runs), stored beside the published
//!   corpus, listed by `show` apart from the published rows (each marked "local"); never used
//!   to place runs or to judge outliers (those stay among the published rows).
//! - `reset`: back to the built-in corpus (the local layer is removed too).
//!
//! The corpus's source and date are printed by every subcommand.

use std::io::Write;
use std::path::PathBuf;

use corpus::{ArchClass, Corpus, Mark};
use resultsdb::corpus_store;

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the stored corpus is kept (default: beside the results database,
    /// ~/.local/share/boardbench/corpus or /var/lib/boardbench/corpus for root).
    #[arg(long, global = true, value_name = "DIR", env = "BOARDBENCH_CORPUS_DIR")]
    pub dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Source, date, row counts and licence of the corpus in use.
    Show {
        /// List the rows of this SoC (as the table or boardbench spells it: RK3588, BCM2711 …).
        #[arg(long)]
        soc: Option<String>,
        /// JSON (with every row and the licence notice).
        #[arg(long)]
        json: bool,
    },
    /// Use a newer sbc-bench Results.md, or keep your own runs (a results database or the
    /// service's table export) as a local layer beside the published rows: says what changed,
    /// then stores it.
    Update {
        /// sbc-bench's Results.md; a boardbench results database (SQLite file); or the results
        /// service's export (`GET /api/v1/table?format=json`). Told apart by content.
        file: PathBuf,
        /// Where it comes from, in words (default: "sbc-bench Results.md from FILE").
        #[arg(long)]
        source: Option<String>,
        /// Its date, YYYY-MM-DD (default: the file's modification date).
        #[arg(long, value_parser = parse_date)]
        date: Option<chrono::NaiveDate>,
        /// Say what would change, store nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Remove the stored corpus: the built-in one is used again.
    Reset,
}

fn parse_date(s: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|e| format!("{s:?}: {e}"))
}

pub fn run(args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    let dir = args.dir.clone().unwrap_or_else(corpus_store::default_dir);
    let mut out = std::io::stdout().lock();
    match &args.command {
        Sub::Show { soc, json } => {
            let (c, whence) = corpus_store::active(&dir);
            let local = corpus_store::load_local(&dir).map(|l| l.map(|l| l.corpus(&c).0));
            if *json {
                let local_json = match &local {
                    Ok(Some(l)) => {
                        let rows: Vec<&corpus::Entry> = match soc {
                            Some(s) => l.by_soc(s).collect(),
                            None => l.entries.iter().collect(),
                        };
                        serde_json::json!({
                            "source": l.source,
                            "date": l.date,
                            "rows": l.entries.len(),
                            "entries": rows,
                        })
                    }
                    Ok(None) => serde_json::Value::Null,
                    Err(e) => serde_json::json!({ "error": e }),
                };
                let rows: Vec<&corpus::Entry> = match soc {
                    Some(s) => c.by_soc(s).collect(),
                    None => c.entries.iter().collect(),
                };
                let v = serde_json::json!({
                    "source": c.source,
                    "date": c.date,
                    "in_use": whence,
                    "rows": c.entries.len(),
                    "license": corpus::LICENSE,
                    "entries": rows,
                    "local": local_json,
                });
                serde_json::to_writer_pretty(&mut out, &v)?;
                writeln!(out)?;
            } else {
                write!(out, "{}", show_text(&c, &whence, soc.as_deref()))?;
                match &local {
                    Ok(Some(l)) => write!(out, "{}", local_text(l, soc.as_deref()))?,
                    Ok(None) => writeln!(
                        out,
                        "local layer: none (`corpus update` with a results database or a service export adds your own runs)"
                    )?,
                    Err(e) => writeln!(out, "local layer: could not be read: {e}")?,
                }
            }
            Ok(0)
        }
        Sub::Update {
            file,
            source,
            date,
            dry_run,
        } => {
            let kind = match corpus_store::Input::detect(file) {
                Ok(k) => k,
                Err(e) => {
                    eprintln!("corpus update: {e}");
                    eprintln!("corpus update: nothing stored; the corpus in use is unchanged");
                    return Ok(1);
                }
            };
            let date = date
                .or_else(|| {
                    let m = std::fs::metadata(file).ok()?.modified().ok()?;
                    Some(chrono::DateTime::<chrono::Utc>::from(m).date_naive())
                })
                .map_or_else(|| corpus::UNKNOWN_DATE.to_string(), |d| d.to_string());
            if kind != corpus_store::Input::ResultsMd {
                return update_local(
                    &mut out,
                    &dir,
                    file,
                    kind,
                    source.as_deref(),
                    &date,
                    *dry_run,
                );
            }
            let text = match std::fs::read_to_string(file) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("corpus update: {}: {e}", file.display());
                    eprintln!("corpus update: nothing stored; the corpus in use is unchanged");
                    return Ok(1);
                }
            };
            let source = source
                .clone()
                .unwrap_or_else(|| format!("sbc-bench Results.md from {}", file.display()));
            let new = match Corpus::from_markdown(&text) {
                Ok(c) => c.with_provenance(&source, &date),
                Err(e) => {
                    eprintln!("corpus update: {}: {e}", file.display());
                    eprintln!("corpus update: nothing stored; the corpus in use is unchanged");
                    return Ok(1);
                }
            };
            let (old, _) = corpus_store::active(&dir);
            let d = corpus::diff(&old, &new);
            writeln!(
                out,
                "was:  {} ({} rows)",
                old.provenance(),
                old.entries.len()
            )?;
            writeln!(
                out,
                "new:  {} ({} rows)",
                new.provenance(),
                new.entries.len()
            )?;
            write!(out, "{}", diff_text(&d))?;
            if *dry_run {
                writeln!(out, "dry run: nothing stored")?;
                return Ok(0);
            }
            let page = corpus_store::save(&dir, &text, &new).map_err(anyhow::Error::msg)?;
            writeln!(
                out,
                "stored in {}; `run`, `results` and `report` place runs in it from now on (`boardbench corpus reset` goes back to the built-in one)",
                page.display()
            )?;
            writeln!(out, "data: {}", corpus::LICENSE_LINE)?;
            Ok(0)
        }
        Sub::Reset => {
            let removed = corpus_store::reset(&dir).map_err(anyhow::Error::msg)?;
            let c = corpus::corpus();
            if removed {
                writeln!(out, "removed the stored corpus in {}", dir.display())?;
            } else {
                writeln!(out, "no stored corpus in {}", dir.display())?;
            }
            writeln!(out, "in use: {} (built in)", c.provenance())?;
            Ok(0)
        }
    }
}

/// `corpus update` with a results database or a service export: the local layer.
fn update_local(
    out: &mut impl Write,
    dir: &std::path::Path,
    file: &std::path::Path,
    kind: corpus_store::Input,
    source: Option<&str>,
    date: &str,
    dry_run: bool,
) -> anyhow::Result<i32> {
    let read = match kind {
        corpus_store::Input::Database => corpus_store::local_from_database(file, date),
        _ => std::fs::read_to_string(file)
            .map_err(|e| format!("{}: {e}", file.display()))
            .and_then(|t| corpus_store::local_from_export(&t, &file.display().to_string(), date)),
    };
    let mut layer = match read {
        Ok(l) => l,
        Err(e) => {
            eprintln!("corpus update: {e}");
            eprintln!("corpus update: nothing stored; the corpus in use is unchanged");
            return Ok(1);
        }
    };
    if let Some(s) = source {
        layer.source = s.to_string();
    }
    let (published, _) = corpus_store::active(dir);
    let (new, left_out) = layer.corpus(&published);
    let old = match corpus_store::load_local(dir) {
        Ok(Some(l)) => Some(l.corpus(&published).0),
        Ok(None) => None,
        Err(e) => {
            writeln!(
                out,
                "the previous local layer could not be read ({e}); replacing it"
            )?;
            None
        }
    };
    let what = match kind {
        corpus_store::Input::Database => "a results database",
        _ => "a results service export",
    };
    writeln!(
        out,
        "{} is {what}: its runs become the local layer — your own runs, kept apart from the published rows (marked \"local\"), not used to place runs or judge outliers",
        file.display()
    )?;
    writeln!(
        out,
        "published: {} ({} rows, unchanged)",
        published.provenance(),
        published.entries.len()
    )?;
    match &old {
        Some(o) => writeln!(
            out,
            "local was: {} ({} runs)",
            o.provenance(),
            o.entries.len()
        )?,
        None => writeln!(out, "local was: none")?,
    }
    writeln!(
        out,
        "local new: {} ({} runs)",
        new.provenance(),
        new.entries.len()
    )?;
    for (key, why) in &left_out {
        writeln!(out, "  left out {key}: {why}")?;
    }
    let empty = Corpus {
        source: String::new(),
        date: String::new(),
        entries: vec![],
    };
    let d = corpus::diff(old.as_ref().unwrap_or(&empty), &new);
    write!(out, "{}", diff_text(&d))?;
    if dry_run {
        writeln!(out, "dry run: nothing stored")?;
        return Ok(0);
    }
    let p = corpus_store::save_local(dir, &layer).map_err(anyhow::Error::msg)?;
    writeln!(
        out,
        "stored in {}; `boardbench corpus show` lists it apart from the published rows (`boardbench corpus reset` removes it)",
        p.display()
    )?;
    Ok(0)
}

/// One row as `show --soc` lists it.
fn row_text(e: &corpus::Entry) -> String {
    let cell = |v: Option<f64>| v.map_or_else(|| "-".into(), |v| format!("{v}"));
    format!(
        "  {} | {} | {} | {} | 7-zip {} / {} | AES {} | memcpy {} | memset {} | kH/s {}{}",
        e.device,
        e.clock_text,
        e.kernel,
        e.distro,
        cell(e.figures[0]),
        cell(e.figures[1]),
        cell(e.figures[2]),
        cell(e.figures[3]),
        cell(e.figures[4]),
        cell(e.figures[5]),
        if e.comparable() {
            ""
        } else {
            " (not comparable)"
        }
    )
}

/// The local layer, after the published corpus and apart from it.
fn local_text(l: &Corpus, soc: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "local layer (your own runs, not published rows; not used for placements or findings):"
    );
    let _ = writeln!(t, "  source:  {}", l.source);
    let _ = writeln!(t, "  date:    {}", l.date);
    let _ = writeln!(t, "  runs:    {}", l.entries.len());
    if let Some(s) = soc {
        let rows: Vec<&corpus::Entry> = l.by_soc(s).collect();
        let _ = writeln!(
            t,
            "  local runs of {} ({}):",
            corpus::normalise_soc(s),
            rows.len()
        );
        for e in rows {
            let _ = writeln!(t, "  local {} {}", e.key(), row_text(e).trim_start());
        }
    }
    t
}

fn show_text(c: &Corpus, whence: &str, soc: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(t, "source:  {}", c.source);
    let _ = writeln!(t, "date:    {}", c.date);
    let _ = writeln!(t, "in use:  {whence}");
    let class = |cl: ArchClass| c.entries.iter().filter(|e| e.class == cl).count();
    let _ = writeln!(
        t,
        "rows:    {} (ARM {}, x86 {}, RISC-V {}, LoongArch {}; ranked only within their class)",
        c.entries.len(),
        class(ArchClass::Arm),
        class(ArchClass::X86),
        class(ArchClass::RiscV),
        class(ArchClass::LoongArch)
    );
    let count =
        |f: &dyn Fn(&Mark) -> bool| c.entries.iter().filter(|e| e.marks.iter().any(f)).count();
    let _ = writeln!(
        t,
        "marks:   {} not comparable (left out of placements), {} preliminary, {} with a userland in bold, {} with a footnote",
        count(&|m| matches!(m, Mark::NotComparable { .. })),
        count(&|m| matches!(m, Mark::Preliminary { .. })),
        count(&|m| matches!(m, Mark::Bold { .. })),
        count(&|m| matches!(m, Mark::Footnote { .. })),
    );
    let socs: std::collections::BTreeSet<&str> =
        c.entries.iter().filter_map(|e| e.soc.as_deref()).collect();
    let _ = writeln!(t, "SoCs:    {}", socs.len());
    if let Some(s) = soc {
        let rows: Vec<&corpus::Entry> = c.by_soc(s).collect();
        let _ = writeln!(t, "rows of {} ({}):", corpus::normalise_soc(s), rows.len());
        for e in rows {
            let _ = writeln!(t, "{}", row_text(e));
        }
    }
    let _ = writeln!(t, "licence of the data:");
    for l in corpus::LICENSE.lines() {
        let _ = writeln!(t, "  {l}");
    }
    t
}

fn diff_text(d: &corpus::Diff) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    if d.is_empty() {
        let _ = writeln!(t, "no row changed ({} the same)", d.unchanged);
        return t;
    }
    let _ = writeln!(
        t,
        "{} added, {} removed, {} changed, {} the same",
        d.added.len(),
        d.removed.len(),
        d.changed.len(),
        d.unchanged
    );
    for e in &d.added {
        let _ = writeln!(t, "  + {} ({})", e.device, e.clock_text);
    }
    for e in &d.removed {
        let _ = writeln!(t, "  - {} ({})", e.device, e.clock_text);
    }
    for c in &d.changed {
        let _ = writeln!(t, "  ~ {}: {}", c.new.device, c.fields.join(", "));
    }
    t
}
