//! EEMBC MultiBench: licensed, built by the user from EEMBC's tree (see docs/guide.md, "Building
//! MultiBench"), never packaged. As for CoreMark-Pro, the adapter runs a program the user
//! provides — the path in `BOARDBENCH_MULTIBENCH`, else `multibench` (or `multibench-run`) on
//! PATH, typically a wrapper around the tree's `make TARGET=… certify-all` — and reads what the
//! MITH harness's make targets write (the same harness, scripts and formats as EEMBC's public
//! CoreMark-Pro tree, checked against it):
//!
//! - the **results log** (`builds/<target>/<toolchain>/logs/<target>.<toolchain>.log`): a
//!   `#UID  Suite Name  Ctx Wrk Fails t(s) Iter Iter/s Codesize Datasize` header, then blocks
//!   `#Results for verification run started at … XCMD=…` (one line per workload, run with
//!   `-v1`), `#Results for performance runs started at … XCMD=…` (three lines, `-v0`) and
//!   `#Median for final result <workload>` followed by the median line, which ends
//!   `median single` or `median best` (the certification's one-context run and its
//!   best-concurrency run); `make run-all` writes `#Results for run started at … XCMD=…` and
//!   one line per workload — a performance figure only with `XCMD=-v0`: the harness verifies
//!   (one iteration) unless told `-v0`;
//! - the **mark tables** `certify-all` prints at its end (`WORKLOAD RESULTS TABLE`: MultiCore
//!   = the best-concurrency median, SingleCore = the single one; `MARK RESULTS TABLE`), with
//!   the script's `ERROR: Errors encountered in test NAME, single run` lines.
//!
//! Rows as the guides print them: `<workload, lower case> (workloads/)` with Iter/s. The
//! one-context figures (`median single`, or lines with one context and at most one worker)
//! form the table "Multibench Benchmarks"; other concurrencies get a table of their own
//! ("Multibench Benchmarks (4 contexts)", "(MultiCore)" from the mark table).
//!
//! The build is checked, not trusted, as EEMBC's own scripts check it: a workload whose
//! verification run reported failures (the Fails column: only a `-v1` run counts them; a
//! performance run always prints 0) keeps an empty row and a note, as does one whose run log
//! the harness could not read (its line has UID 0 and the log's path as name) or whose time
//! was 0 (Iter/s `Inf`); output with verification results only fails the section.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::time::Duration;

use adapters::{SearchPath, Tool};
use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::{Context, external};

pub const FAMILY: &str = "MultiBench";
pub const CANDIDATES: &[&str] = &["multibench", "multibench-run"];
/// The environment variable naming the user's MultiBench program (a path).
pub const ENV: &str = "BOARDBENCH_MULTIBENCH";
pub const TITLE: &str = "Multibench Benchmarks";

/// Which run of the harness a result line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// `-v1` (the harness's default): one iteration, output verified, Fails counted.
    Verification,
    /// `-v0`: timed, not verified (Fails is always 0 there).
    Performance,
}

/// One result line of the harness's log.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub name: String,
    /// Contexts (`-c`); 0 for the mark table's MultiCore column, whose concurrency it does not
    /// print.
    pub contexts: u32,
    /// Workers (`-w`); 0 where the harness printed its default.
    pub workers: u32,
    pub fails: u32,
    pub seconds: Option<f64>,
    pub iterations: Option<f64>,
    /// Iterations per second; None when not a finite number (`Inf` for a time of 0).
    pub per_second: Option<f64>,
    pub kind: RunKind,
    /// The median line EEMBC's script wrote under `#Median for final result`.
    pub final_median: bool,
    /// A line the harness wrote for a run log it could not read (UID 0).
    pub invalid: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub lines: Vec<Line>,
    /// A line naming MultiBench with a version ("EEMBC MultiBench 1.0 …", printed by the
    /// user's wrapper: the harness prints none), without a leading `#`.
    pub version: Option<String>,
    /// What EEMBC's scripts said about the run ("Could not find 3 valid results for …", the
    /// mark script's errors), for the notes.
    pub messages: Vec<String>,
    /// Workloads the mark script reported errors for (the mark-table form).
    pub errors: Vec<String>,
    /// The figures came from the mark tables, not from result lines.
    pub from_mark_table: bool,
}

/// The column order of a result line when the output has no `#UID` header (the harness's).
const DEFAULT_COLUMNS: &[&str] = &[
    "#UID", "Suite", "Name", "Ctx", "Wrk", "Fails", "t(s)", "Iter", "Iter/s", "Codesize",
    "Datasize",
];

/// `#Results for …` → the kind of the lines that follow: `verification run`, `performance
/// runs`, or `make run-all`'s `run started at … XCMD=…`, a performance run only with `-v0`.
fn results_kind(rest: &str) -> RunKind {
    if rest.starts_with("verification") {
        return RunKind::Verification;
    }
    if rest.starts_with("performance") {
        return RunKind::Performance;
    }
    let xcmd = rest.split_once("XCMD=").map_or("", |(_, x)| x);
    if xcmd.split_whitespace().any(|a| a == "-v0") {
        RunKind::Performance
    } else {
        RunKind::Verification
    }
}

/// `…/logs/md5-4M.run.log` (the name of a UID-0 line) → `md5-4M`.
fn name_of_run_log(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.strip_suffix(".run.log").unwrap_or(base).to_string()
}

/// Parses the harness's result lines, or else the mark tables (any other output is ignored).
pub fn parse(text: &str) -> Result<Report, String> {
    let mut r = Report::default();
    let mut columns: Vec<String> = DEFAULT_COLUMNS.iter().map(|s| s.to_string()).collect();
    let mut kind = RunKind::Performance;
    let mut in_median = false;
    for raw in text.lines() {
        let t = raw.trim();
        if r.version.is_none() && names_a_version(t) {
            r.version = Some(t.trim_start_matches('#').trim().to_string());
        }
        if let Some(h) = t.strip_prefix("#UID") {
            columns = std::iter::once("#UID".to_string())
                .chain(h.split_whitespace().map(String::from))
                .collect();
            in_median = false;
            continue;
        }
        if let Some(rest) = t.strip_prefix("#Results for ") {
            kind = results_kind(rest);
            in_median = false;
            continue;
        }
        if t.starts_with("#Median for final result") {
            in_median = true;
            continue;
        }
        if t.starts_with("Could not find 3 valid results for ") {
            r.messages.push(t.to_string());
            continue;
        }
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        // A result line starts with the workload's numeric UID and its suite.
        if f.len() < 6 || !f[0].chars().all(|c| c.is_ascii_digit()) || f[1] != "MLT" {
            continue;
        }
        let col = |name: &str| {
            columns
                .iter()
                .position(|c| c == name)
                .and_then(|i| f.get(i))
        };
        let num = |name: &str| col(name).and_then(|v| v.parse::<f64>().ok());
        let Some(name) = col("Name") else { continue };
        let invalid = f[0].chars().all(|c| c == '0');
        // cert_median.pl's line ends "median single" / "median best".
        let median_word = f[f.len() - 2] == "median";
        let line = Line {
            name: if invalid {
                name_of_run_log(name)
            } else {
                name.to_string()
            },
            contexts: num("Ctx").map(|v| v as u32).unwrap_or(1),
            workers: num("Wrk").map(|v| v as u32).unwrap_or(0),
            fails: num("Fails").map(|v| v as u32).unwrap_or(0),
            seconds: num("t(s)"),
            iterations: num("Iter"),
            per_second: num("Iter/s").filter(|v| v.is_finite()),
            kind: if in_median || median_word {
                RunKind::Performance
            } else {
                kind
            },
            final_median: in_median || median_word,
            invalid,
        };
        r.lines.push(line);
    }
    if r.lines.is_empty() {
        mark_tables(text, &mut r);
    }
    if r.lines.is_empty() {
        return Err(
            "no MITH result lines (#UID … Iter/s) and no WORKLOAD RESULTS TABLE".to_string(),
        );
    }
    Ok(r)
}

/// The mark script's tables (`make certify-all`'s last output): each workload's SingleCore
/// figure as a one-context median, its MultiCore figure as the best-concurrency one (contexts
/// 0: not printed), and the workloads its ERROR lines name.
fn mark_tables(text: &str, r: &mut Report) {
    for l in text.lines() {
        let t = l.trim();
        if let Some((_, rest)) = t.split_once("ERROR: Errors encountered in test ") {
            if let Some((name, _)) = rest.rsplit_once(", ") {
                r.errors.push(name.trim().to_string());
            }
            r.messages.push(t.to_string());
        } else if t.contains("ERROR: Missing score for ") || t.contains("WARNING: Score for ") {
            r.messages.push(t.to_string());
        }
    }
    let Ok(tables) = crate::coremark_pro::parse(text) else {
        return;
    };
    for w in tables.workloads {
        for (contexts, v) in [(1, w.single), (0, w.multi)] {
            r.lines.push(Line {
                name: w.name.clone(),
                contexts,
                workers: 0,
                fails: 0,
                seconds: None,
                iterations: None,
                per_second: v.filter(|v| v.is_finite()),
                kind: RunKind::Performance,
                final_median: true,
                invalid: false,
            });
        }
    }
    r.from_mark_table = !r.lines.is_empty();
}

/// "… MultiBench 1.0.10 …": the word followed by a version number.
fn names_a_version(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.windows(2).any(|p| {
        p[0].eq_ignore_ascii_case("multibench") && p[1].starts_with(|c: char| c.is_ascii_digit())
    })
}

/// One workload's figure in one concurrency.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub name: String,
    pub contexts: u32,
    pub workers: u32,
    /// Iterations per second; None when the workload failed or has no valid figure.
    pub per_second: Option<f64>,
    /// Performance lines the figure comes from (1 for the harness's own median line).
    pub samples: usize,
    /// Why there is no figure (failed verification, unreadable run log, a time of 0).
    pub failed: Option<String>,
}

/// Whether a (contexts, workers) pair is the single-concurrency run of the seed's table.
fn single(contexts: u32, workers: u32) -> bool {
    contexts == 1 && workers <= 1
}

/// Failure of a workload in any verification run (or a performance line with Fails, or the
/// mark script's errors): its output did not verify, so none of its figures count.
fn verification_failures(r: &Report) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for l in &r.lines {
        if l.invalid {
            out.entry(l.name.clone()).or_insert_with(|| {
                "the harness could not read the workload's run log (a UID 0 line: it crashed or \
                 printed no result)"
                    .to_string()
            });
        } else if l.fails > 0 {
            out.entry(l.name.clone()).or_insert_with(|| {
                format!(
                    "its {} run reported {} failure{} (the output did not verify)",
                    match l.kind {
                        RunKind::Verification => "verification",
                        RunKind::Performance => "performance",
                    },
                    l.fails,
                    if l.fails == 1 { "" } else { "s" }
                )
            });
        }
    }
    for e in &r.errors {
        out.entry(e.clone()).or_insert_with(|| {
            "EEMBC's mark script reported errors in its verification run".to_string()
        });
    }
    out
}

/// The figures of the performance runs, per (contexts, workers, workload), with failures.
pub fn figures(r: &Report) -> Vec<Figure> {
    let failures = verification_failures(r);
    let mut by: BTreeMap<(u32, u32, String), Vec<&Line>> = BTreeMap::new();
    for l in r
        .lines
        .iter()
        .filter(|l| l.kind == RunKind::Performance && !l.invalid)
    {
        // A mark-table MultiCore figure and a best-concurrency median of one context are both
        // "not the single run": keep each line's own pair.
        by.entry((l.contexts, l.workers, l.name.clone()))
            .or_default()
            .push(l);
    }
    // Names that only have verification or invalid lines still get a row (empty, with why).
    for l in &r.lines {
        if !r
            .lines
            .iter()
            .any(|p| p.name == l.name && p.kind == RunKind::Performance && !p.invalid)
        {
            by.entry((1, 1, l.name.clone())).or_default();
        }
    }
    let mut out = Vec::new();
    for ((contexts, workers, name), lines) in by {
        let finals: Vec<&&Line> = lines.iter().filter(|l| l.final_median).collect();
        let (value, samples) = if let Some(f) = finals.last() {
            (f.per_second, 1)
        } else {
            let v: Vec<f64> = lines.iter().filter_map(|l| l.per_second).collect();
            (document::stats::median(&v), v.len())
        };
        let failed = failures.get(&name).cloned().or_else(|| {
            if lines.is_empty() {
                Some("no performance result (only a verification run)".to_string())
            } else if value.is_none() {
                Some("no valid Iter/s (the harness measured a time of 0: Inf)".to_string())
            } else {
                None
            }
        });
        out.push(Figure {
            name,
            contexts,
            workers,
            per_second: if failed.is_some() { None } else { value },
            samples,
            failed,
        });
    }
    out
}

/// A table's title for a concurrency.
fn title(contexts: u32, workers: u32) -> String {
    let plural = |n: u32, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if single(contexts, workers) {
        TITLE.to_string()
    } else if contexts == 0 {
        format!("{TITLE} (MultiCore)")
    } else if workers > 1 {
        format!(
            "{TITLE} ({}, {})",
            plural(contexts, "context"),
            plural(workers, "worker")
        )
    } else {
        format!("{TITLE} ({})", plural(contexts, "context"))
    }
}

/// The guides' tables: "Multibench Benchmarks" for the single-concurrency run, one more per
/// other concurrency; rows `<name> (workloads/)` sorted.
pub fn tables(r: &Report) -> Vec<GuideTable> {
    let mut by: BTreeMap<(bool, u32, u32), Vec<Figure>> = BTreeMap::new();
    for f in figures(r) {
        // The single run first, then by contexts (MultiCore, 0, last).
        let key = (
            !single(f.contexts, f.workers),
            if f.contexts == 0 {
                u32::MAX
            } else {
                f.contexts
            },
            f.workers,
        );
        by.entry(key).or_default().push(f);
    }
    let mut out = Vec::new();
    for (_, mut figs) in by {
        let (c, w) = (figs[0].contexts, figs[0].workers);
        let mut t = GuideTable::perf(&title(c, w), "Benchmarks");
        figs.sort_by_key(|f| row_name(&f.name));
        for f in figs {
            t.push(row_name(&f.name), f.per_second.map(GuideValue::one));
        }
        out.push(t);
    }
    out
}

/// `md5-4M` → `md5-4m (workloads/)`: the guides print the workload names in lower case.
pub fn row_name(workload: &str) -> String {
    format!("{} (workloads/)", workload.to_ascii_lowercase())
}

/// What the run says about the build: failed workloads, a verification-only run.
pub fn check(r: &Report) -> Result<Vec<String>, String> {
    if !r.lines.iter().any(|l| l.kind == RunKind::Performance) {
        return Err(
            "only verification results: the harness verifies (one iteration) unless run with \
             -v0 — run the tree's `certify-all` target, or `run-all` with XCMD=-v0"
                .into(),
        );
    }
    let mut notes = Vec::new();
    for f in figures(r) {
        if let Some(why) = &f.failed {
            notes.push(format!(
                "{} ({}): {why}; no figure",
                f.name,
                title(f.contexts, f.workers)
            ));
        }
    }
    notes.extend(r.messages.iter().map(|m| format!("EEMBC's scripts: {m}")));
    Ok(notes)
}

/// The user's program: the path in `user` (the value of [`ENV`]) when given — it must be an
/// executable file —, else the first of [`CANDIDATES`] on `sp`. `Err` is the skip reason.
pub fn locate(user: Option<&OsStr>, sp: &SearchPath) -> Result<Tool, String> {
    if let Some(p) = user.filter(|p| !p.is_empty()) {
        let shown = std::path::Path::new(p).display().to_string();
        let as_path = if shown.contains('/') {
            shown.clone()
        } else {
            format!("./{shown}")
        };
        return sp.find_one(&as_path).ok_or_else(|| {
            format!("{ENV}={shown} is not an executable file (the MultiBench program to run)")
        });
    }
    sp.find(FAMILY, CANDIDATES).map_err(|s| {
        format!(
            "{} — or set {ENV} to the program that runs your MultiBench build (docs/guide.md)",
            s.reason
        )
    })
}

pub fn section(ctx: &Context) -> Outcome {
    let tool = match locate(std::env::var_os(ENV).as_deref(), &SearchPath::from_env()) {
        Ok(t) => t,
        Err(why) => return Outcome::skipped(why),
    };
    run_tool(ctx, &tool)
}

/// Runs `tool` on the context's CPUs and turns its output into the tables.
pub fn run_tool(ctx: &Context, tool: &Tool) -> Outcome {
    let cpus = ctx.cpus.clone();
    let run = match external::run(ctx, tool, &[], None, &cpus, Duration::from_secs(4 * 3600)) {
        Ok(r) => r,
        Err(e) => {
            return Outcome {
                failed: Some(e),
                ..Default::default()
            };
        }
    };
    let text = external::combined(&run);
    let report = match parse(&text) {
        Ok(r) => r,
        Err(e) => {
            let end = match run.code {
                Some(0) => String::new(),
                Some(c) => format!(" (exit code {c})"),
                None => " (ended by a signal)".into(),
            };
            return Outcome {
                failed: Some(format!("unexpected output{end}: {e}")),
                tool: Some(tool.name.clone()),
                ..Default::default()
            };
        }
    };
    let tool_name = report
        .version
        .clone()
        .unwrap_or_else(|| format!("{} (version not printed)", tool.name));
    let mut notes = match check(&report) {
        Ok(n) => n,
        Err(e) => {
            return Outcome {
                failed: Some(e),
                tool: Some(tool_name),
                ..Default::default()
            };
        }
    };
    notes.push(format!(
        "{}: Iter/s of the harness's performance runs per workload ({}), on {} CPU{}; the \
         one-context run is \"{TITLE}\", each other concurrency a table of its own",
        tool.path.display(),
        if report.from_mark_table {
            "the mark table's SingleCore and MultiCore columns: no result lines were printed"
        } else {
            "EEMBC's median line where its script wrote one, else the median of the performance \
             lines"
        },
        cpus.len(),
        if cpus.len() == 1 { "" } else { "s" }
    ));
    Outcome {
        tables: tables(&report),
        notes,
        tool: Some(tool_name),
        ..Default::default()
    }
}
