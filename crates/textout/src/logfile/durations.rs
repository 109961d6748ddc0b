//! Phase timings with their ISO 8601 timestamps (the "Durations" of sbc-bench issue #134, for
//! matching the run with an external power meter) — placed before the summary line, never
//! after it.

use std::fmt::Write;

use document::ResultDocument;
use document::run::PhaseStatus;

use crate::text::one_line;

pub fn render(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let mut out = String::from("Durations:\n\n");
    if let Some(s) = &doc.started {
        let _ = writeln!(out, "Run started:  {}", one_line(s));
    }
    for p in &run.phases {
        let secs = p.finished_unix_ms.saturating_sub(p.started_unix_ms) as f64 / 1000.0;
        let status = match p.status {
            PhaseStatus::Done => "",
            PhaseStatus::Skipped => " (skipped)",
            PhaseStatus::Failed => " (failed)",
        };
        let _ = writeln!(
            out,
            "{} - {} {secs:>8.1} s  {}{status}",
            one_line(&p.started),
            one_line(&p.finished),
            one_line(&p.title)
        );
    }
    if let Some(f) = &doc.finished {
        let _ = writeln!(out, "Run finished: {}", one_line(f));
    }
    if run.duration_s.is_finite() && run.duration_s > 0.0 {
        let _ = writeln!(out, "Total: {:.1} s", run.duration_s);
    }
    Some(out)
}
