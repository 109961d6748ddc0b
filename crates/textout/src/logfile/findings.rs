//! The findings, as the analysis recorded them in the document: kind, severity, message and
//! the evidence each is based on.

use std::fmt::Write;

use document::ResultDocument;

use document::text::{evidence_lines, finding_line};

pub fn render(doc: &ResultDocument) -> String {
    let mut out = String::from("Findings:\n\n");
    if doc.findings.is_empty() {
        out.push_str("  * none\n");
    }
    for f in &doc.findings {
        let _ = writeln!(out, "  * {}", finding_line(f));
        for e in evidence_lines(f) {
            let _ = writeln!(out, "{e}");
        }
    }
    out
}
