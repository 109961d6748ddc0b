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
        Some(Cell::Value(v)) => {
            let mut v = v.clone();
            v.value = tidy(v.value);
            v.min = v.min.map(tidy);
            v.max = v.max.map(tidy);
            v.range_pct = v.range_pct.map(tidy);
            serde_json::to_value(&v).unwrap_or_default()
        }
        Some(Cell::Text(s)) => Value::String(s.clone()),
        Some(Cell::Ratio(r)) => json!(tidy(*r)),
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

/// A figure to 12 significant digits: arithmetic on the figures (the median of an even count of
/// runs, a ratio, a time difference of two clock readings) leaves binary noise in the last
/// digits (`15.149999999999999`) that no measurement has; JSON gets the figure as a person
/// would write it (`15.15`). Twelve digits are far beyond any measurement's precision.
pub fn tidy(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
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
    fn figures_lose_their_binary_noise() {
        assert_eq!(super::tidy((15.1 + 15.2) / 2.0).to_string(), "15.15");
        assert_eq!(super::tidy(15.099999904632568).to_string(), "15.0999999046");
        assert_eq!(super::tidy(0.1 + 0.2).to_string(), "0.3");
        assert_eq!(super::tidy(4733.08), 4733.08);
        assert_eq!(super::tidy(1.234e-9), 1.234e-9);
        assert!(super::tidy(f64::NAN).is_nan());
        let v = serde_json::to_string(&super::table(&Table {
            title: "T".into(),
            key_header: "K".into(),
            key_headers: Vec::new(),
            columns: vec![Column {
                run: 0,
                board: "a".into(),
                name: "perf".into(),
                kind: ColumnKind::Measured,
            }],
            rows: vec![Row {
                key: "k".into(),
                keys: Vec::new(),
                cells: vec![Some(Cell::Value(GuideValue {
                    value: (15.1 + 15.2) / 2.0,
                    min: Some(0.1 + 0.2),
                    max: Some(15.2),
                    samples: 2,
                    range_pct: None,
                }))],
            }],
            notes: Vec::new(),
        }))
        .unwrap();
        assert!(
            v.contains(r#""value":15.15"#) && v.contains(r#""min":0.3"#),
            "{v}"
        );
    }

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
