//! CoreMark-Pro (EEMBC): its binaries come out of a make-based build tree and are rarely
//! installed, so the adapter runs a program named `coremark-pro` (or `coremark_pro`) on PATH —
//! typically a wrapper around `make TARGET=linux64 certify-all` — and parses the two tables
//! the harness prints: WORKLOAD RESULTS (iterations/s per workload, MultiCore and SingleCore)
//! and MARK RESULTS (the CoreMark-PRO score).

use std::time::Duration;

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::{Context, external};

pub const FAMILY: &str = "CoreMark-Pro";
pub const CANDIDATES: &[&str] = &["coremark-pro", "coremark_pro", "coremarkpro"];

/// One line of a results table: name, MultiCore, SingleCore, Scaling.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub name: String,
    pub multi: Option<f64>,
    pub single: Option<f64>,
    pub scaling: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub workloads: Vec<Line>,
    /// The CoreMark-PRO mark line.
    pub mark: Option<Line>,
}

/// Parses the harness's tables (a workload or mark that failed prints no number: None).
pub fn parse(text: &str) -> Result<Report, String> {
    #[derive(PartialEq)]
    enum In {
        None,
        Workloads,
        Marks,
    }
    let mut state = In::None;
    let mut r = Report::default();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("WORKLOAD RESULTS TABLE") {
            state = In::Workloads;
            continue;
        }
        if t.starts_with("MARK RESULTS TABLE") {
            state = In::Marks;
            continue;
        }
        if state == In::None
            || t.is_empty()
            || t.starts_with('-')
            || t.starts_with("Workload Name")
            || t.starts_with("Mark Name")
            || t.starts_with("MultiCore")
        {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        if f.len() < 2 || f[0].starts_with('(') {
            continue;
        }
        let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
        let l = Line {
            name: f[0].to_string(),
            multi: num(1),
            single: num(2),
            scaling: num(3),
        };
        if l.multi.is_none() && l.single.is_none() {
            continue;
        }
        match state {
            In::Workloads => r.workloads.push(l),
            In::Marks if l.name.eq_ignore_ascii_case("coremark-pro") => r.mark = Some(l),
            _ => {}
        }
    }
    if r.workloads.is_empty() && r.mark.is_none() {
        return Err("no WORKLOAD or MARK RESULTS table".into());
    }
    Ok(r)
}

/// The guides' table from one column (MultiCore or SingleCore): workloads as
/// `<name> (workloads/)` sorted, then `coremark-pro ()`.
pub fn table(r: &Report, single: bool, title: &str) -> GuideTable {
    let pick = |l: &Line| if single { l.single } else { l.multi };
    let mut t = GuideTable::perf(title, "Benchmarks");
    let mut w: Vec<&Line> = r.workloads.iter().collect();
    w.sort_by(|a, b| a.name.cmp(&b.name));
    for l in w {
        t.push(
            format!("{} (workloads/)", l.name),
            pick(l).map(GuideValue::one),
        );
    }
    if let Some(m) = &r.mark {
        t.push("coremark-pro ()", pick(m).map(GuideValue::one));
    }
    t
}

pub fn section(ctx: &Context) -> Outcome {
    let tool = match external::find(FAMILY, CANDIDATES) {
        Ok(t) => t,
        Err(why) => return Outcome::skipped(why),
    };
    let cpus = ctx.cpus.clone();
    let run = match external::run(ctx, &tool, &[], None, &cpus, Duration::from_secs(3600)) {
        Ok(r) => r,
        Err(e) => {
            return Outcome {
                failed: Some(e),
                ..Default::default()
            };
        }
    };
    match parse(&external::combined(&run)) {
        Ok(r) => Outcome {
            tables: vec![
                table(&r, false, "CoreMarkPro Benchmarks"),
                table(&r, true, "CoreMarkPro Benchmarks (single core)"),
            ],
            notes: vec![format!(
                "{}: the first table is the harness's MultiCore column (the certification's \
                 best-concurrency run: the contexts your tree's BEST_CONCURRENCY/XCMD set; the \
                 guide gave it {} CPU{}), the second its SingleCore column (one context).",
                tool.path.display(),
                cpus.len(),
                if cpus.len() == 1 { "" } else { "s" }
            )],
            tool: Some(tool.name.clone()),
            ..Default::default()
        },
        Err(e) => Outcome {
            failed: Some(format!("unexpected output: {e}")),
            tool: Some(tool.name.clone()),
            ..Default::default()
        },
    }
}
