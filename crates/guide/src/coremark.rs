//! CoreMark (EEMBC): run when a `coremark` binary is on PATH (it is built per board, rarely
//! packaged), its report parsed. Not re-implemented: its score is only comparable between
//! builds of the same source with the same compiler flags, which the report prints and we keep.

use std::time::Duration;

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::{Context, external, pinning};

pub const FAMILY: &str = "CoreMark";
pub const CANDIDATES: &[&str] = &["coremark", "coremark.exe"];

/// A parsed CoreMark report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// "2K performance run" / "2K validation run" (the line before the parameters).
    pub run_kind: Option<String>,
    pub iterations_per_sec: f64,
    pub iterations: Option<u64>,
    pub total_time_s: Option<f64>,
    pub compiler: Option<String>,
    pub flags: Option<String>,
    /// "Parallel PThreads : 4" (or Fork/Socket): contexts that ran; 1 when absent.
    pub threads: u32,
    /// "Correct operation validated." seen.
    pub validated: bool,
    /// CoreMark's own complaints ("Must execute for at least 10 secs …", "Errors detected").
    pub errors: Vec<String>,
    /// The final "CoreMark 1.0 : …" line.
    pub summary: Option<String>,
}

/// Parses the report of CoreMark 1.0 / 1.01 (the format did not change between them).
pub fn parse(text: &str) -> Result<Report, String> {
    let mut r = Report {
        threads: 1,
        ..Default::default()
    };
    let mut ips = None;
    for line in text.lines() {
        let t = line.trim();
        if t.contains("run parameters for coremark") {
            r.run_kind = t.split(" parameters").next().map(str::to_string);
        }
        if t.starts_with("CoreMark 1.") && t.contains(" : ") {
            r.summary = Some(t.to_string());
        }
        if t.starts_with("Correct operation validated") {
            r.validated = true;
        }
        if t.starts_with("ERROR") || t.starts_with("Errors detected") {
            r.errors.push(t.to_string());
        }
        let Some((k, v)) = t.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "Iterations/Sec" => ips = v.parse::<f64>().ok(),
            "Iterations" => r.iterations = v.parse().ok(),
            "Total time (secs)" => r.total_time_s = v.parse().ok(),
            "Compiler version" => r.compiler = Some(v.to_string()),
            "Compiler flags" => r.flags = Some(v.to_string()),
            "Parallel PThreads" | "Parallel Fork" | "Parallel Socket" => {
                r.threads = v.parse().unwrap_or(1)
            }
            _ => {}
        }
    }
    r.iterations_per_sec = ips
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or("no 'Iterations/Sec' line")?;
    Ok(r)
}

/// The section: CoreMark as built, pinned to one core when it is single-threaded.
pub fn section(ctx: &Context) -> Outcome {
    let tool = match external::find(FAMILY, CANDIDATES) {
        Ok(t) => t,
        Err(why) => return Outcome::skipped(why),
    };
    let (cpu, mhz) = pinning::single_thread_cpu(ctx);
    // A multi-threaded build must see all CPUs; a single-threaded one is pinned.
    let run = match external::run(
        ctx,
        &tool,
        &[],
        Some(&ctx.workdir),
        &[cpu],
        Duration::from_secs(600),
    ) {
        Ok(r) => r,
        Err(e) => return failed(e),
    };
    let text = external::combined(&run);
    let mut report = match parse(&text) {
        Ok(r) => r,
        Err(e) if ctx.cancelled() => return failed(format!("interrupted: {e}")),
        Err(e) => return failed(format!("unexpected output: {e}")),
    };
    let mut notes = Vec::new();
    if report.threads > 1 {
        // Re-run on all CPUs: this build runs several contexts.
        let all = if ctx.cpus.is_empty() {
            vec![cpu]
        } else {
            ctx.cpus.clone()
        };
        match external::run(
            ctx,
            &tool,
            &[],
            Some(&ctx.workdir),
            &all,
            Duration::from_secs(600),
        )
        .and_then(|r| parse(&external::combined(&r)))
        {
            Ok(r) => report = r,
            Err(e) => notes.push(format!("the all-CPU run failed: {e}")),
        }
    }
    let mut table = GuideTable::perf("CoreMark Benchmarks", "Benchmarks");
    table.push(
        "coremark (Iterations/Sec)",
        Some(GuideValue::one(report.iterations_per_sec)),
    );
    if let (1, Some(m)) = (report.threads, mhz) {
        table.push(
            "coremark_per_mhz (Iterations/Sec/MHz)",
            Some(GuideValue::one(report.iterations_per_sec / m)),
        );
    }
    notes.insert(
        0,
        format!(
            "{} ({} thread(s){}): compiler {}, flags {}",
            tool.path.display(),
            report.threads,
            if report.threads == 1 {
                format!(", pinned to CPU {cpu}")
            } else {
                String::new()
            },
            report.compiler.as_deref().unwrap_or("?"),
            report.flags.as_deref().unwrap_or("?")
        ),
    );
    let mut out = Outcome {
        tables: vec![table],
        notes,
        tool: Some(report.summary.clone().unwrap_or_else(|| tool.name.clone())),
        ..Default::default()
    };
    if !report.validated || !report.errors.is_empty() {
        out.failed = Some(format!(
            "CoreMark did not validate its run: {}",
            if report.errors.is_empty() {
                "no 'Correct operation validated' line".to_string()
            } else {
                report.errors.join("; ")
            }
        ));
    }
    out
}

fn failed(why: String) -> Outcome {
    Outcome {
        failed: Some(why),
        ..Default::default()
    }
}
