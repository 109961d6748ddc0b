//! The order of the boards (columns) across a merged guide: by name, or by one row's figure
//! ("which board copies fastest"). The service's guide page sorts this way; every table of the
//! guide then has its columns in the same order, and the first board is the one the ratio
//! charts divide by.

use super::{Cell, ColumnKind, Guide, Table};

/// The boards in the order their columns appear (the header table has one column per board).
pub fn boards(g: &Guide) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let tables = std::iter::once(&g.header).chain(g.sections.iter().flat_map(|s| &s.tables));
    for c in tables.flat_map(|t| &t.columns) {
        if c.kind == ColumnKind::Measured && !out.contains(&c.board) {
            out.push(c.board.clone());
        }
    }
    out
}

/// The boards by name (case-insensitive; the other way with `desc`).
pub fn by_name(g: &Guide, desc: bool) -> Vec<String> {
    let mut b = boards(g);
    b.sort_by_key(|s| s.to_lowercase());
    if desc {
        b.reverse();
    }
    b
}

/// A board's figure in a table's row (its first measured column with one), matched by the
/// table's title and the row's label ([`super::Row::label`]).
pub fn figure(t: &Table, row: &str, board: &str) -> Option<f64> {
    let r = t.rows.iter().find(|r| r.label() == row)?;
    t.columns
        .iter()
        .zip(&r.cells)
        .filter(|(c, _)| c.kind == ColumnKind::Measured && c.board == board)
        .find_map(|(_, cell)| match cell {
            Some(Cell::Value(v)) if v.value.is_finite() => Some(v.value),
            _ => None,
        })
}

/// The table titled `title` (case-insensitive), the first one of that name.
pub fn find_table<'a>(g: &'a Guide, title: &str) -> Option<&'a Table> {
    let want = title.trim().to_lowercase();
    g.sections
        .iter()
        .flat_map(|s| &s.tables)
        .find(|t| t.title.to_lowercase() == want)
}

/// The boards by their figure in one row of one table: ascending (the lowest first), or
/// descending with `desc`; boards without that figure after the others, by name. `None` when
/// there is no such table or row.
pub fn by_row(g: &Guide, table: &str, row: &str, desc: bool) -> Option<Vec<String>> {
    let t = find_table(g, table)?;
    t.rows.iter().find(|r| r.label() == row)?;
    let mut with: Vec<(String, f64)> = Vec::new();
    let mut without: Vec<String> = Vec::new();
    for b in by_name(g, false) {
        match figure(t, row, &b) {
            Some(v) => with.push((b, v)),
            None => without.push(b),
        }
    }
    with.sort_by(|a, b| a.1.total_cmp(&b.1));
    if desc {
        with.reverse();
    }
    Some(with.into_iter().map(|(b, _)| b).chain(without).collect())
}

/// Puts every table's columns (and cells) in the boards' `order`; a board not named keeps its
/// place after the named ones, and the columns of one board keep their own order (a measured
/// column before its reference and ratio columns).
pub fn apply(g: &mut Guide, order: &[String]) {
    let tables =
        std::iter::once(&mut g.header).chain(g.sections.iter_mut().flat_map(|s| &mut s.tables));
    for t in tables {
        let rank = |i: usize| {
            order
                .iter()
                .position(|b| *b == t.columns[i].board)
                .unwrap_or(order.len())
        };
        let mut idx: Vec<usize> = (0..t.columns.len()).collect();
        idx.sort_by_key(|&i| rank(i));
        t.columns = idx.iter().map(|&i| t.columns[i].clone()).collect();
        for r in &mut t.rows {
            r.cells = idx
                .iter()
                .map(|&i| r.cells.get(i).cloned().flatten())
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use document::ResultDocument;
    use document::guide::{GuideRecord, GuideSection, GuideTable, GuideValue};

    use crate::{MergeBy, cell_text, merge_documents_by};

    fn doc(device: &str, rows: &[(&str, f64)]) -> ResultDocument {
        let mut t = GuideTable::perf("Stream Benchmarks", "Benchmarks");
        for (k, v) in rows {
            t.push(*k, Some(GuideValue::one(*v)));
        }
        let mut d: ResultDocument =
            serde_json::from_str(r#"{"schema_version":1,"producer":"test"}"#).unwrap();
        d.device = Some(device.into());
        d.guide = Some(GuideRecord {
            sections: vec![GuideSection {
                name: "stream".into(),
                title: "Stream Benchmarks".into(),
                tables: vec![t],
                ..Default::default()
            }],
            ..Default::default()
        });
        d
    }

    #[test]
    fn boards_sort_by_a_row_and_every_table_follows() {
        let docs = [
            doc("b", &[("copy (MB/s)", 300.0)]),
            doc("a", &[("copy (MB/s)", 100.0), ("add (MB/s)", 5.0)]),
            doc("c", &[("add (MB/s)", 7.0)]),
            doc("a", &[("copy (MB/s)", 200.0)]),
        ];
        let mut g = merge_documents_by(&docs, MergeBy::Board);
        assert_eq!(super::boards(&g), ["b", "a", "c"]);
        assert_eq!(super::by_name(&g, false), ["a", "b", "c"]);
        // a's copy is the median of 100 and 200; c has none and comes last.
        let order = super::by_row(&g, "stream benchmarks", "copy (MB/s)", true).unwrap();
        assert_eq!(order, ["b", "a", "c"]);
        let order = super::by_row(&g, "Stream Benchmarks", "copy (MB/s)", false).unwrap();
        assert_eq!(order, ["a", "b", "c"]);
        assert!(super::by_row(&g, "Stream Benchmarks", "nope", false).is_none());
        super::apply(&mut g, &order);
        let t = &g.sections[0].tables[0];
        let heads: Vec<&str> = t.columns.iter().map(|c| c.board.as_str()).collect();
        assert_eq!(heads, ["a", "b", "c"]);
        assert_eq!(
            cell_text(&t.rows[0].cells[0]),
            "150.00 (min 100.00, max 200.00)"
        );
        assert_eq!(cell_text(&t.rows[0].cells[1]), "300.00");
        assert_eq!(cell_text(&t.rows[1].cells[2]), "7.00");
        let header: Vec<&str> = g.header.columns.iter().map(|c| c.board.as_str()).collect();
        assert_eq!(header, ["a", "b", "c"]);
    }
}
