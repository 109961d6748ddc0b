//! CSV for spreadsheets: one line per (table, row, value column) with the columns `Table`,
//! `Row`, `Column` and one column per board column (its label; a published guide's column and
//! its ratio columns too). Cells hold the bare figure (the median), so a spreadsheet reads
//! numbers; the ranges are in the other formats and the document. The records are written by
//! `document::csv::write`, the one writer of every CSV (RFC 4180 quoting by the `csv` crate, no
//! cell a spreadsheet would run as a formula, bidirectional controls neutralised), `\n` line
//! ends.

use super::{Cell, Guide, Table};

pub fn render(g: &Guide) -> String {
    let mut boards: Vec<(usize, String)> = Vec::new();
    let tables = || std::iter::once(&g.header).chain(g.sections.iter().flat_map(|s| &s.tables));
    for c in tables().flat_map(|t| &t.columns) {
        if !boards.iter().any(|(r, _)| *r == c.run) {
            boards.push((c.run, c.board.clone()));
        }
    }
    let mut head = vec!["Table".to_string(), "Row".into(), "Column".into()];
    head.extend(boards.iter().map(|(_, b)| b.clone()));
    let mut records = vec![head];
    for t in tables() {
        lines(&mut records, t, &boards);
    }
    document::csv::write(records)
}

fn lines(records: &mut Vec<Vec<String>>, t: &Table, boards: &[(usize, String)]) {
    let mut names: Vec<&str> = Vec::new();
    for c in &t.columns {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    for r in &t.rows {
        for name in &names {
            let mut line = vec![t.title.clone(), r.label(), name.to_string()];
            for (run, _) in boards {
                let cell = t
                    .columns
                    .iter()
                    .position(|c| c.run == *run && c.name == *name)
                    .and_then(|i| r.cells.get(i))
                    .and_then(Option::as_ref);
                line.push(match cell {
                    Some(Cell::Value(v)) if v.value.is_finite() => super::num(v.value),
                    Some(Cell::Ratio(x)) if x.is_finite() => super::ratio(*x),
                    Some(Cell::Text(s)) => s.clone(),
                    _ => String::new(),
                });
            }
            records.push(line);
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
