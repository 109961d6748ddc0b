//! A bar chart per guide table: for each row, one bar per run. With several runs the bars are
//! each run's figure divided by the first run's (1.0 = the same; the tables mix µs and MB/s, so
//! only ratios share an axis); with one run, a table whose rows share one unit (STREAM's MB/s)
//! is drawn in that unit, any other gets no chart (its table says it all).

use guidetables::{Cell, ColumnKind, Table};

use super::{legend, series_class};
use crate::svg::{self, Anchor, Plot, Scale, Svg};

/// The bars of one value column name ("perf") of a table across the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub title: String,
    /// The run labels (one per bar in a group).
    pub runs: Vec<String>,
    /// (row key, one value per run).
    pub rows: Vec<(String, Vec<Option<f64>>)>,
    /// `Some(unit)`: absolute figures of one run; `None`: ratios to the first run.
    pub unit: Option<String>,
}

/// The unit in a row name's last parentheses ("lat_pipe (us)" → "us").
fn unit(key: &str) -> Option<&str> {
    let open = key.rfind('(')?;
    key[open + 1..].strip_suffix(')').filter(|u| !u.is_empty())
}

/// The charts of a table: one per column name compared across runs.
pub fn from_table(t: &Table) -> Vec<Bars> {
    // A ratio column (measured / published) is a figure about two columns, not a board's.
    let mut names: Vec<&str> = Vec::new();
    for c in t.columns.iter().filter(|c| c.kind != ColumnKind::Ratio) {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let idx: Vec<usize> = (0..t.columns.len())
            .filter(|&i| t.columns[i].name == name && t.columns[i].kind != ColumnKind::Ratio)
            .collect();
        let value = |row: &guidetables::Row, i: usize| match row.cells.get(i) {
            Some(Some(Cell::Value(v))) if v.value.is_finite() => Some(v.value),
            _ => None,
        };
        let title = if t.columns.len() > idx.len() {
            format!("{}: {name}", t.title)
        } else {
            t.title.clone()
        };
        let runs = idx.iter().map(|&i| t.columns[i].board.clone()).collect();
        if idx.len() >= 2 {
            let rows = t
                .rows
                .iter()
                .map(|r| {
                    let base = value(r, idx[0]).filter(|b| *b != 0.0);
                    let vals = idx.iter().map(|&i| Some(value(r, i)? / base?)).collect();
                    (r.label(), vals)
                })
                .filter(|(_, v): &(String, Vec<Option<f64>>)| v.iter().any(Option::is_some))
                .collect::<Vec<_>>();
            if !rows.is_empty() {
                out.push(Bars {
                    title,
                    runs,
                    rows,
                    unit: None,
                });
            }
        } else {
            let units: Vec<Option<&str>> = t.rows.iter().map(|r| unit(&r.key)).collect();
            let Some(Some(u)) = units.first().copied() else {
                continue;
            };
            if units.iter().any(|x| *x != Some(u)) {
                continue;
            }
            let rows: Vec<(String, Vec<Option<f64>>)> = t
                .rows
                .iter()
                .map(|r| (r.label(), vec![value(r, idx[0])]))
                .filter(|(_, v)| v[0].is_some())
                .collect();
            if !rows.is_empty() {
                out.push(Bars {
                    title,
                    runs,
                    rows,
                    unit: Some(u.to_string()),
                });
            }
        }
    }
    out
}

const BAR_H: f64 = 12.0;
const GROUP_GAP: f64 = 8.0;

/// The chart as an HTML figure.
pub fn render(b: &Bars) -> String {
    const W: f64 = 860.0;
    let n = b.runs.len().max(1);
    let group_h = n as f64 * BAR_H + GROUP_GAP;
    let plot = Plot {
        x: 260.0,
        y: 10.0,
        w: W - 260.0 - 110.0,
        h: (b.rows.len().max(1) as f64 * group_h).max(40.0),
    };
    let max = b
        .rows
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .copied()
        .filter(|v| v.is_finite())
        .fold(if b.unit.is_none() { 1.0 } else { 0.0 }, f64::max);
    let dom = svg::nice_domain(0.0, (max * 1.05).max(f64::MIN_POSITIVE), 5);
    let x = Scale::linear(dom, (plot.x, plot.right()));
    let mut chart = Svg::new(W, plot.bottom() + 44.0, &b.title, "guide");
    let ticks = svg::ticks(dom.0, dom.1, 5);
    for &t in &ticks {
        chart.line(x.map(t), plot.y, x.map(t), plot.bottom(), "grid");
    }
    let axis_label = match &b.unit {
        Some(u) => u.clone(),
        None => format!(
            "relative to {} (for times, lower is faster)",
            b.runs.first().map_or("the first run", String::as_str)
        ),
    };
    let ratio = b.unit.is_none();
    svg::x_axis(
        &mut chart,
        plot,
        &x,
        &ticks,
        &|v| {
            if ratio {
                format!("{}×", svg::num(v))
            } else {
                svg::num(v)
            }
        },
        &axis_label,
    );
    for (g, (key, vals)) in b.rows.iter().enumerate() {
        let gy = plot.y + g as f64 * group_h + GROUP_GAP / 2.0;
        chart.text(
            plot.x - 6.0,
            gy + n as f64 * BAR_H / 2.0 + 4.0,
            Anchor::End,
            "tick",
            key,
        );
        for (i, v) in vals.iter().enumerate() {
            let by = gy + i as f64 * BAR_H;
            let Some(v) = v else { continue };
            let label = if ratio {
                format!("{}×", svg::num(*v))
            } else {
                svg::num(*v)
            };
            let tip = format!(
                "{}: {key}: {label}",
                b.runs.get(i).map_or("", String::as_str)
            );
            chart.rect(
                plot.x,
                by + 1.0,
                (x.map(*v) - plot.x).max(0.0),
                BAR_H - 2.0,
                &format!("bar {}", series_class(i)),
                Some(&tip),
            );
            chart.text(
                x.map(*v) + 4.0,
                by + BAR_H - 2.0,
                Anchor::Start,
                "tick",
                &label,
            );
        }
    }
    if ratio {
        chart.line(x.map(1.0), plot.y, x.map(1.0), plot.bottom(), "reference");
    }
    let mut out = String::from("<figure class=\"chart-figure\">");
    out.push_str(&chart.finish());
    if ratio {
        out.push_str(&format!(
            "<figcaption>Each run's figure divided by {}'s; the vertical line is that run.</figcaption>",
            crate::escape::esc(b.runs.first().map_or("", String::as_str))
        ));
    }
    out.push_str(&legend(&b.runs));
    out.push_str("</figure>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::guide::GuideValue;
    use guidetables::{Column, Row};

    fn col(run: usize, board: &str) -> Column {
        Column {
            run,
            board: board.into(),
            name: "perf".into(),
            kind: ColumnKind::Measured,
        }
    }

    fn v(x: f64) -> Option<Cell> {
        Some(Cell::Value(GuideValue::one(x)))
    }

    #[test]
    fn ratios_to_the_first_run_and_absolute_bars_of_one_unit() {
        let t = Table {
            key_headers: Vec::new(),
            title: "Stream Benchmarks".into(),
            key_header: "Benchmarks".into(),
            columns: vec![col(0, "a"), col(1, "b")],
            rows: vec![
                Row {
                    keys: Vec::new(),
                    key: "copy (MB/s)".into(),
                    cells: vec![v(100.0), v(150.0)],
                },
                Row {
                    keys: Vec::new(),
                    key: "add (MB/s)".into(),
                    cells: vec![None, v(1.0)],
                },
            ],
            notes: Vec::new(),
        };
        let b = from_table(&t);
        assert_eq!(b.len(), 1);
        assert_eq!(
            b[0].rows,
            vec![("copy (MB/s)".to_string(), vec![Some(1.0), Some(1.5)])]
        );
        assert!(render(&b[0]).contains("1.5×"));
        let one = Table {
            columns: vec![col(0, "a")],
            rows: vec![t.rows[0].clone()],
            ..t.clone()
        };
        assert_eq!(from_table(&one)[0].unit.as_deref(), Some("MB/s"));
        let mixed = Table {
            rows: vec![
                t.rows[0].clone(),
                Row {
                    keys: Vec::new(),
                    key: "lat (us)".into(),
                    cells: vec![v(1.0)],
                },
            ],
            ..one
        };
        assert!(from_table(&mixed).is_empty());
    }
}
