//! EEMBC MultiBench: licensed, built by the user from EEMBC's tree (see docs/guide.md, "Building
//! MultiBench"), never packaged. As for CoreMark-Pro, the adapter runs a program the user
//! provides — the path in `BOARDBENCH_MULTIBENCH`, else `multibench` (or `multibench-run`) on
//! PATH, typically a wrapper that runs the build's workloads and prints the harness's log — and
//! parses the result lines of the MITH harness (the one MultiBench and CoreMark-Pro share):
//!
//! ```text
//! #UID  Suite Name  Ctx Wrk Fails t(s) Iter Iter/s Codesize Datasize
//! #Results for verification run started at …
//! #Results for performance runs started at …
//! #Median for final result md5-4M
//! ```
//!
//! Rows as the guides print them: `<workload, lower case> (workloads/)` with Iter/s of the
//! performance run (the `#Median for final result` line where the harness printed one, else the
//! median of the performance lines of that workload). Workloads run with one context form the
//! table "Multibench Benchmarks"; a run with more contexts (`-c N`) gets a table of its own.
//!
//! The build is checked, not trusted: a workload whose Fails column is not 0 (its output did not
//! verify) leaves its row empty with a note, output without any performance line (a
//! verification-only build) fails the section, and the harness's version line, when the output
//! has one, becomes the section's tool.

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
    Verification,
    Performance,
}

/// One result line of the harness.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub name: String,
    pub contexts: u32,
    pub workers: u32,
    pub fails: u32,
    pub seconds: Option<f64>,
    pub iterations: Option<f64>,
    pub per_second: Option<f64>,
    pub kind: RunKind,
    /// Printed under `#Median for final result`.
    pub final_median: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub lines: Vec<Line>,
    /// The first line naming MultiBench with a version ("EEMBC MultiBench 1.0 …"), without a
    /// leading `#`.
    pub version: Option<String>,
}

/// The default column order of a result line when the output has no `#UID` header.
const DEFAULT_COLUMNS: &[&str] = &[
    "#UID", "Suite", "Name", "Ctx", "Wrk", "Fails", "t(s)", "Iter", "Iter/s", "Codesize",
    "Datasize",
];

/// Parses the harness's result lines (any other output is ignored).
pub fn parse(text: &str) -> Result<Report, String> {
    let mut r = Report::default();
    let mut columns: Vec<String> = DEFAULT_COLUMNS.iter().map(|s| s.to_string()).collect();
    let mut kind = RunKind::Performance;
    let mut median_next = false;
    for raw in text.lines() {
        let t = raw.trim();
        if r.version.is_none() && names_a_version(t) {
            r.version = Some(t.trim_start_matches('#').trim().to_string());
        }
        if let Some(h) = t.strip_prefix("#UID") {
            columns = std::iter::once("#UID".to_string())
                .chain(h.split_whitespace().map(String::from))
                .collect();
            continue;
        }
        if let Some(rest) = t.strip_prefix("#Results for ") {
            kind = if rest.starts_with("verification") {
                RunKind::Verification
            } else {
                RunKind::Performance
            };
            median_next = false;
            continue;
        }
        if t.starts_with("#Median for final result") {
            median_next = true;
            continue;
        }
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        // A result line starts with the workload's numeric UID.
        if f.len() < 4 || !f[0].chars().all(|c| c.is_ascii_digit()) {
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
        let line = Line {
            name: name.to_string(),
            contexts: num("Ctx").map(|v| v as u32).unwrap_or(1),
            workers: num("Wrk").map(|v| v as u32).unwrap_or(1),
            fails: num("Fails").map(|v| v as u32).unwrap_or(0),
            seconds: num("t(s)"),
            iterations: num("Iter"),
            per_second: num("Iter/s"),
            kind,
            final_median: median_next,
        };
        median_next = false;
        if line.per_second.is_none() && line.fails == 0 {
            continue;
        }
        r.lines.push(line);
    }
    if r.lines.is_empty() {
        return Err("no MITH result lines (#UID … Iter/s)".into());
    }
    Ok(r)
}

/// "… MultiBench 1.0.10 …": the word followed by a version number.
fn names_a_version(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.windows(2).any(|p| {
        p[0].eq_ignore_ascii_case("multibench") && p[1].starts_with(|c: char| c.is_ascii_digit())
    })
}

/// One workload's figure in one context count.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub name: String,
    pub contexts: u32,
    /// Iterations per second; None when the workload failed.
    pub per_second: Option<f64>,
    /// Performance lines the figure comes from (1 for the harness's own median line).
    pub samples: usize,
    pub failed: bool,
}

/// The figures of the performance run, per (contexts, workload), with failures.
pub fn figures(r: &Report) -> Vec<Figure> {
    let mut by: BTreeMap<(u32, String), Vec<&Line>> = BTreeMap::new();
    for l in r.lines.iter().filter(|l| l.kind == RunKind::Performance) {
        by.entry((l.contexts, l.name.clone())).or_default().push(l);
    }
    let mut out = Vec::new();
    for ((contexts, name), lines) in by {
        let failed = lines.iter().any(|l| l.fails > 0);
        let finals: Vec<&&Line> = lines.iter().filter(|l| l.final_median).collect();
        let (per_second, samples) = if failed {
            (None, lines.len())
        } else if let Some(f) = finals.last() {
            (f.per_second, 1)
        } else {
            let v: Vec<f64> = lines.iter().filter_map(|l| l.per_second).collect();
            (document::stats::median(&v), v.len())
        };
        out.push(Figure {
            name,
            contexts,
            per_second,
            samples,
            failed,
        });
    }
    out
}

/// The guides' tables: one per context count ("Multibench Benchmarks" for one context,
/// "Multibench Benchmarks (N contexts)" otherwise), rows `<name> (workloads/)` sorted.
pub fn tables(r: &Report) -> Vec<GuideTable> {
    let mut by: BTreeMap<u32, Vec<Figure>> = BTreeMap::new();
    for f in figures(r) {
        by.entry(f.contexts).or_default().push(f);
    }
    let mut out = Vec::new();
    for (contexts, mut figs) in by {
        let title = if contexts == 1 {
            TITLE.to_string()
        } else {
            format!("{TITLE} ({contexts} contexts)")
        };
        let mut t = GuideTable::perf(&title, "Benchmarks");
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
            "only verification results: the build ran no performance run (run the \
             workloads with -v0, as the harness's performance target does)"
                .into(),
        );
    }
    let mut notes = Vec::new();
    for f in figures(r).iter().filter(|f| f.failed) {
        notes.push(format!(
            "{} ({} context{}): the harness reported failures (its output did not verify); \
             no figure",
            f.name,
            f.contexts,
            if f.contexts == 1 { "" } else { "s" }
        ));
    }
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
        "{}: Iter/s of the harness's performance run per workload (its median line where it \
         printed one), on {} CPU{}; a table per context count",
        tool.path.display(),
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
