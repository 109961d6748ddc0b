//! NBench (BYTEmark, Uwe Mayer's Linux port `nbench-byte` 2.2.x): run when an `nbench` binary
//! is on PATH, in its own directory (it reads NNET.DAT from the working directory), its table
//! parsed. The guides' rows are the iterations per second of each test.

use std::time::Duration;

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::{Context, external, pinning};

pub const FAMILY: &str = "NBench";
pub const CANDIDATES: &[&str] = &["nbench", "nbench-byte"];

/// BYTEmark's test names and the guides' row names.
pub const TESTS: &[(&str, &str)] = &[
    ("NUMERIC SORT", "numeric_sort"),
    ("STRING SORT", "string_sort"),
    ("BITFIELD", "bitfield"),
    ("FP EMULATION", "fp_emulation"),
    ("FOURIER", "fourier"),
    ("ASSIGNMENT", "assignment"),
    ("IDEA", "idea"),
    ("HUFFMAN", "huffman"),
    ("NEURAL NET", "neural_net"),
    ("LU DECOMPOSITION", "lu_decomposition"),
];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// (row name, iterations per second), in BYTEmark's order.
    pub tests: Vec<(String, f64)>,
    /// "INTEGER INDEX", "FLOATING-POINT INDEX", "MEMORY INDEX" … as printed (last one wins:
    /// the Linux-data block comes after the original BYTEmark block).
    pub indexes: Vec<(String, f64)>,
}

/// Parses `TEST : iterations/s : old index : new index` rows and the `… INDEX : v` lines.
pub fn parse(text: &str) -> Result<Report, String> {
    let mut r = Report::default();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(':').map(str::trim).collect();
        if fields.len() == 4 {
            if let Some((_, row)) = TESTS.iter().find(|(n, _)| *n == fields[0])
                && let Ok(v) = fields[1].parse::<f64>()
                && v.is_finite()
            {
                r.tests.push((row.to_string(), v));
            }
        } else if fields.len() == 2
            && fields[0].ends_with("INDEX")
            && let Ok(v) = fields[1].parse::<f64>()
        {
            r.indexes.push((fields[0].to_string(), v));
        }
    }
    if r.tests.is_empty() {
        return Err("no BYTEmark result rows".into());
    }
    Ok(r)
}

/// The guides' table: rows sorted by name, `<test> (Iterations)`.
pub fn table(r: &Report) -> GuideTable {
    let mut t = GuideTable::perf("NBench Benchmarks", "Benchmarks");
    let mut rows = r.tests.clone();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, v) in rows {
        t.push(format!("{name} (Iterations)"), Some(GuideValue::one(v)));
    }
    t
}

pub fn section(ctx: &Context) -> Outcome {
    let tool = match external::find(FAMILY, CANDIDATES) {
        Ok(t) => t,
        Err(why) => return Outcome::skipped(why),
    };
    let (cpu, _) = pinning::single_thread_cpu(ctx);
    let run = match external::run(ctx, &tool, &[], None, &[cpu], Duration::from_secs(1200)) {
        Ok(r) => r,
        Err(e) => {
            return Outcome {
                failed: Some(e),
                ..Default::default()
            };
        }
    };
    match parse(&external::combined(&run)) {
        Ok(r) => {
            let missing: Vec<&str> = TESTS
                .iter()
                .filter(|(_, row)| !r.tests.iter().any(|(n, _)| n == row))
                .map(|(_, row)| *row)
                .collect();
            let mut notes = vec![format!(
                "{} pinned to CPU {cpu}, run in its own directory; iterations per second per test.",
                tool.path.display()
            )];
            if !r.indexes.is_empty() {
                notes.push(
                    r.indexes
                        .iter()
                        .map(|(k, v)| format!("{k} {v}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                );
            }
            if !missing.is_empty() {
                notes.push(format!("not reported: {}", missing.join(", ")));
            }
            Outcome {
                tables: vec![table(&r)],
                notes,
                tool: Some(tool.name.clone()),
                ..Default::default()
            }
        }
        Err(e) => Outcome {
            failed: Some(format!("unexpected output: {e}")),
            tool: Some(tool.name.clone()),
            ..Default::default()
        },
    }
}
