//! JSON of merged tables, for programs: `results table --guide TABLE --format json` and the
//! service's `/api/v1/guide?format=json` write this one shape. A cell is the document's own
//! figure object (`value`, `min`, `max`, `samples`), a string (the header table's text) or a
//! number (a ratio); an empty cell is `null`.

use serde_json::{Value, json};

use super::{Cell, ColumnKind, Guide, Table};

/// One table: `title`, `key_header`, `key_headers`, `columns` (`board`, `name`, `kind`), `rows`
/// (`key`, `keys`, `cells`), `notes`.
pub fn table(t: &Table) -> Value {
    let cell = |c: &Option<Cell>| match c {
        Some(Cell::Value(v)) => serde_json::to_value(v).unwrap_or_default(),
        Some(Cell::Text(s)) => Value::String(s.clone()),
        Some(Cell::Ratio(r)) => json!(r),
        None => Value::Null,
    };
    let kind = |k: ColumnKind| match k {
        ColumnKind::Measured => "measured",
        ColumnKind::Reference => "reference",
        ColumnKind::Ratio => "ratio",
    };
    json!({
        "title": t.title,
        "key_header": t.key_header,
        "key_headers": t.key_headers,
        "columns": t.columns.iter().map(|c| json!({
            "board": c.board, "name": c.name, "kind": kind(c.kind),
        })).collect::<Vec<_>>(),
        "rows": t.rows.iter().map(|r| json!({
            "key": r.key,
            "keys": r.keys,
            "cells": r.cells.iter().map(cell).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "notes": t.notes,
    })
}

/// The whole guide: `header` (the "Evaluation Modules" table), `sections` (`name`, `title`,
/// `tables`, `notes`) and `notes`.
pub fn guide(g: &Guide) -> Value {
    json!({
        "header": table(&g.header),
        "sections": g.sections.iter().map(|s| json!({
            "name": s.name,
            "title": s.title,
            "tables": s.tables.iter().map(table).collect::<Vec<_>>(),
            "notes": s.notes,
        })).collect::<Vec<_>>(),
        "notes": g.notes,
    })
}

#[cfg(test)]
mod tests {
    use document::guide::GuideValue;

    use crate::{Cell, Column, ColumnKind, Row, Table};

    #[test]
    fn cells_keep_their_kind_and_empty_cells_are_null() {
        let t = Table {
            title: "Stream Benchmarks".into(),
            key_header: "Benchmarks".into(),
            key_headers: Vec::new(),
            columns: vec![
                Column {
                    run: 0,
                    board: "a".into(),
                    name: "perf".into(),
                    kind: ColumnKind::Measured,
                },
                Column {
                    run: 1,
                    board: "b".into(),
                    name: "perf".into(),
                    kind: ColumnKind::Measured,
                },
            ],
            rows: vec![Row {
                key: "copy (MB/s)".into(),
                keys: Vec::new(),
                cells: vec![Some(Cell::Value(GuideValue::one(2.5))), None],
            }],
            notes: vec!["n".into()],
        };
        let v = super::table(&t);
        assert_eq!(v["columns"][1]["board"], "b");
        assert_eq!(v["columns"][1]["kind"], "measured");
        assert_eq!(v["rows"][0]["cells"][0]["value"], 2.5);
        assert!(v["rows"][0]["cells"][1].is_null());
        assert_eq!(v["notes"][0], "n");
    }
}
