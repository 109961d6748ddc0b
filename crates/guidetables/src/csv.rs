//! CSV for spreadsheets: one line per (table, row, value column) with the columns `Table`,
//! `Row`, `Column` and one column per run (its board label). Cells hold the bare figure (the
//! median), so a spreadsheet reads numbers; the ranges are in the other formats and the
//! document. RFC 4180 quoting (`document::text::csv_field`, the one rule of every CSV written),
//! `\n` line ends.

use document::text::csv_field as field;

use super::{Cell, Guide, Table};

pub fn render(g: &Guide) -> String {
    let mut boards: Vec<(usize, String)> = Vec::new();
    for c in &g.header.columns {
        if !boards.iter().any(|(r, _)| *r == c.run) {
            boards.push((c.run, c.board.clone()));
        }
    }
    let mut out = String::new();
    let mut head = vec![field("Table"), field("Row"), field("Column")];
    head.extend(boards.iter().map(|(_, b)| field(b)));
    out.push_str(&head.join(","));
    out.push('\n');
    let tables = std::iter::once(&g.header).chain(g.sections.iter().flat_map(|s| &s.tables));
    for t in tables {
        lines(&mut out, t, &boards);
    }
    out
}

fn lines(out: &mut String, t: &Table, boards: &[(usize, String)]) {
    let mut names: Vec<&str> = Vec::new();
    for c in &t.columns {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    for r in &t.rows {
        for name in &names {
            let mut line = vec![field(&t.title), field(&r.label()), field(name)];
            for (run, _) in boards {
                let cell = t
                    .columns
                    .iter()
                    .position(|c| c.run == *run && c.name == *name)
                    .and_then(|i| r.cells.get(i))
                    .and_then(Option::as_ref);
                line.push(match cell {
                    Some(Cell::Value(v)) => field(&super::num(v.value)),
                    Some(Cell::Text(s)) => field(s),
                    None => String::new(),
                });
            }
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
}
