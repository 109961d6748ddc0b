//! The report's charts, one module per chart type. Each module reads its data from the document
//! into a small plain struct (`from_doc`, testable without drawing) and draws that struct as an
//! inline SVG figure (`render`), with the figures also as a table inside `<details>` so the
//! numbers stay readable as text (and without any JavaScript).

pub mod compare;
pub mod efficiency;
pub mod guide;
pub mod memlat;
pub mod opp;
pub mod placement;
pub mod timeline;

use std::fmt::Write;

use crate::escape::esc;

/// Number of series colours in the stylesheet (`s0` … `s7`); series beyond cycle.
pub const PALETTE: usize = 8;

/// CSS class of the `i`-th series.
pub fn series_class(i: usize) -> String {
    format!("s{}", i % PALETTE)
}

/// A legend as HTML (swatches coloured by the same classes as the lines).
pub fn legend(names: &[String]) -> String {
    let entries: Vec<(String, String)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), series_class(i)))
        .collect();
    legend_with(&entries)
}

/// A legend of (name, series class) pairs.
pub fn legend_with(entries: &[(String, String)]) -> String {
    let mut out = String::from("<ul class=\"legend\">");
    for (name, class) in entries {
        let _ = write!(
            out,
            "<li><span class=\"swatch {}\"></span>{}</li>",
            esc(class),
            esc(name)
        );
    }
    out.push_str("</ul>");
    out
}

/// A table of figures inside a closed `<details>` (cells are escaped here).
pub fn data_table(summary: &str, head: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!(
        "<details><summary>{}</summary><table class=\"data\"><thead><tr>",
        esc(summary)
    );
    for h in head {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{}</td>", esc(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></details>");
    out
}

/// "cpu4 (Cortex-A76)": the CPU with the core name of its cluster, when the machine says.
pub fn cpu_label(doc: &document::ResultDocument, cpu: u32) -> String {
    let core = doc.machine.as_ref().and_then(|m| {
        m.clusters
            .iter()
            .find(|c| c.cpus.contains(&cpu))
            .and_then(|c| c.core_name.clone())
    });
    match core {
        Some(c) => format!("cpu{cpu} ({c})"),
        None => format!("cpu{cpu}"),
    }
}
