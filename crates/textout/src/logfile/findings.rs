//! The findings, as the analysis recorded them in the document: kind, severity, message and
//! the evidence each is based on.

use std::fmt::Write;

use document::ResultDocument;

use crate::text::{one_line, severity_word};

pub fn render(doc: &ResultDocument) -> String {
    let mut out = String::from("Findings:\n\n");
    if doc.findings.is_empty() {
        out.push_str("  * none\n");
    }
    for f in &doc.findings {
        let _ = writeln!(
            out,
            "  * [{}] {}: {}",
            severity_word(f.severity),
            one_line(&f.kind),
            one_line(&f.message)
        );
        for e in &f.evidence {
            let _ = writeln!(out, "      {}", one_line(e));
        }
    }
    out
}
