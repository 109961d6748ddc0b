//! CSV for spreadsheets: one row per (table, row) with the columns `Table`, `Row` and one
//! column per `"<board>: <column>"` of any table. Cells hold the bare figure (the median), so a
//! spreadsheet reads numbers; the ranges are in the other formats and the document. RFC 4180
//! quoting, CRLF-free (`\n`) lines.

use super::{Cell, Guide};

pub fn render(g: &Guide) -> String {
    let mut headers: Vec<String> = Vec::new();
    let tables = std::iter::once(&g.header).chain(g.sections.iter().flat_map(|s| &s.tables));
    for t in tables.clone() {
        for c in &t.columns {
            let h = c.header();
            if !headers.contains(&h) {
                headers.push(h);
            }
        }
    }
    let mut out = String::new();
    let mut head = vec![field("Table"), field("Row")];
    head.extend(headers.iter().map(|h| field(h)));
    out.push_str(&head.join(","));
    out.push('\n');
    for t in tables {
        let at: Vec<usize> = t
            .columns
            .iter()
            .map(|c| headers.iter().position(|h| *h == c.header()).expect("collected"))
            .collect();
        for r in &t.rows {
            let mut cells = vec![String::new(); headers.len()];
            for (ci, c) in r.cells.iter().enumerate() {
                cells[at[ci]] = match c {
                    Some(Cell::Value(v)) => field(&bare(v.value)),
                    Some(Cell::Text(s)) => field(s),
                    None => String::new(),
                };
            }
            let mut line = vec![field(&t.title), field(&r.key)];
            line.extend(cells);
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
    out
}

/// The figure with the guides' precision, without ranges.
fn bare(x: f64) -> String {
    super::num(x)
}

/// A field, quoted when it holds a comma, quote or line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
