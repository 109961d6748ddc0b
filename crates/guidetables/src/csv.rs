//! CSV for spreadsheets: one line per (table, row, value column) with the columns `Table`,
//! `Row`, `Column` and one column per board column (its label; a published guide's column and
//! its ratio columns too). Cells hold the bare figure (the median), so a spreadsheet reads
//! numbers; the ranges are in the other formats and the document. Every field goes through
//! `document::text::csv_field`, the one rule of every CSV written (RFC 4180 quoting, no cell a
//! spreadsheet would run as a formula, bidirectional controls neutralised), `\n` line ends.

use document::text::csv_field as field;

use super::{Cell, Guide, Table};

pub fn render(g: &Guide) -> String {
    let mut boards: Vec<(usize, String)> = Vec::new();
    let tables = || std::iter::once(&g.header).chain(g.sections.iter().flat_map(|s| &s.tables));
    for c in tables().flat_map(|t| &t.columns) {
        if !boards.iter().any(|(r, _)| *r == c.run) {
            boards.push((c.run, c.board.clone()));
        }
    }
    let mut out = String::new();
    let mut head = vec![field("Table"), field("Row"), field("Column")];
    head.extend(boards.iter().map(|(_, b)| field(b)));
    out.push_str(&head.join(","));
    out.push('\n');
    for t in tables() {
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
                    Some(Cell::Value(v)) if v.value.is_finite() => field(&super::num(v.value)),
                    Some(Cell::Ratio(x)) if x.is_finite() => field(&super::ratio(*x)),
                    Some(Cell::Text(s)) => field(s),
                    _ => String::new(),
                });
            }
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Column, ColumnKind, Row, Section};

    #[test]
    fn cells_cannot_run_as_formulas_and_negative_numbers_stay_numbers() {
        let col = |run, board: &str| Column {
            run,
            board: board.into(),
            name: "perf".into(),
            kind: ColumnKind::Measured,
        };
        let t = Table {
            title: "=cmd|' /C calc'!A0".into(),
            key_header: "Benchmarks".into(),
            key_headers: Vec::new(),
            columns: vec![col(0, "@board"), col(1, "b\u{202e}x")],
            rows: vec![Row {
                key: "+x (us)".into(),
                keys: Vec::new(),
                cells: vec![
                    Some(Cell::Value(document::guide::GuideValue::one(-12.5))),
                    Some(Cell::Text("-HYPERLINK(1)".into())),
                ],
            }],
            notes: Vec::new(),
        };
        let g = Guide {
            header: Table {
                columns: Vec::new(),
                rows: Vec::new(),
                ..t.clone()
            },
            sections: vec![Section {
                name: "s".into(),
                title: "S".into(),
                tables: vec![t],
                notes: Vec::new(),
            }],
            notes: Vec::new(),
        };
        let csv = render(&g);
        assert_eq!(
            csv,
            "Table,Row,Column,'@board,b\u{fffd}x\n'=cmd|' /C calc'!A0,'+x (us),perf,-12.50,'-HYPERLINK(1)\n"
        );
    }
}
