//! The monitor tables: `Thermal source: …`, then one "System health while running <title>:"
//! table per phase with samples, in sbc-bench's monitor line format.

use std::fmt::Write;

use document::ResultDocument;

use crate::health_lines;
use crate::text::{offset_of, one_line};

pub fn render(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let mut out = String::new();
    let thermal = doc
        .machine
        .as_ref()
        .and_then(|m| m.thermal_source.as_ref())
        .map(|t| format!("{} ({})", one_line(&t.path), one_line(&t.name)))
        .or_else(|| {
            run.monitor
                .as_ref()
                .and_then(|l| l.thermal_path.as_deref().map(one_line))
        })
        .unwrap_or_else(|| "none".into());
    let _ = writeln!(out, "Thermal source: {thermal}");
    let Some(layout) = &run.monitor else {
        out.push_str("\nNo monitor layout recorded: the samples cannot be shown.\n");
        return Some(out);
    };
    let tz = offset_of(doc);
    let mut any = false;
    for p in run.phases.iter().filter(|p| !p.samples.is_empty()) {
        any = true;
        let _ = writeln!(
            out,
            "\nSystem health while running {}:\n",
            one_line(&p.title)
        );
        let _ = writeln!(out, "{}", health_lines::header(layout));
        for s in &p.samples {
            let _ = writeln!(out, "{}", health_lines::line(layout, s, &tz));
        }
    }
    if !any {
        out.push_str("\nNo monitor samples recorded.\n");
    }
    Some(out)
}
