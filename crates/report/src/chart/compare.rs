//! Bars against other runs: sbc-bench's headline numbers (7-Zip multi and single, AES, memcpy,
//! memset, cpuminer) of this run and the chosen others, normalised to this run (1.0 = same).
//! The numbers come from the one mapping (`headline::figures`), so the report, `results table`
//! and `results compare` agree.

use document::ResultDocument;
use headline::{Figure, Headline};

use super::{data_table, legend, series_class};
use crate::svg::{self, Anchor, Plot, Scale, Svg};

/// One headline figure across the runs (index 0 = this run).
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: &'static str,
    pub unit: &'static str,
    pub values: Vec<Option<f64>>,
}

impl Metric {
    /// Value of run `i` relative to this run's, when both exist.
    pub fn ratio(&self, i: usize) -> Option<f64> {
        let base = self
            .values
            .first()
            .copied()
            .flatten()
            .filter(|b| *b > 0.0)?;
        Some(self.values.get(i).copied().flatten()? / base)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Run names, this run first.
    pub runs: Vec<String>,
    pub metrics: Vec<Metric>,
}

/// The headline numbers of a document (also used by the summary).
pub fn headline(doc: &ResultDocument) -> Headline<f64> {
    headline::figures(doc)
}

/// The report's label and unit of a figure.
fn label(f: Figure) -> (&'static str, &'static str) {
    match f {
        Figure::ZipMulti => ("7-Zip multi", "MIPS"),
        Figure::ZipSingle => ("7-Zip single", "MIPS"),
        Figure::Aes => ("AES-256 (16 KiB)", "k/s"),
        Figure::Memcpy => ("memcpy", "MB/s"),
        Figure::Memset => ("memset", "MB/s"),
        Figure::Khs => ("cpuminer", "kH/s"),
    }
}

/// The six figures as (name, unit, value).
pub fn figures(h: &Headline<f64>) -> [(&'static str, &'static str, Option<f64>); 6] {
    Figure::ALL.map(|f| {
        let (name, unit) = label(f);
        (name, unit, f.of(h))
    })
}

pub fn from_docs(
    this_name: &str,
    this: &ResultDocument,
    others: &[(String, ResultDocument)],
) -> Comparison {
    let heads: Vec<_> = std::iter::once(headline(this))
        .chain(others.iter().map(|(_, d)| headline(d)))
        .collect();
    let mut runs = vec![this_name.to_string()];
    runs.extend(others.iter().map(|(n, _)| n.clone()));
    let metrics = (0..6)
        .map(|k| {
            let f = figures(&heads[0])[k];
            Metric {
                name: f.0,
                unit: f.1,
                values: heads
                    .iter()
                    .map(|h| figures(h)[k].2.filter(|v| v.is_finite()))
                    .collect(),
            }
        })
        .collect();
    Comparison { runs, metrics }
}

const BAR_H: f64 = 16.0;
const GROUP_GAP: f64 = 16.0;

/// The chart as an HTML figure; metrics this run lacks are only in the table.
pub fn render(c: &Comparison) -> String {
    const W: f64 = 860.0;
    let shown: Vec<&Metric> = c.metrics.iter().filter(|m| m.ratio(0).is_some()).collect();
    let n = c.runs.len().max(1);
    let group_h = n as f64 * BAR_H + GROUP_GAP;
    let plot = Plot {
        x: 150.0,
        y: 10.0,
        w: W - 150.0 - 150.0,
        h: (shown.len().max(1) as f64 * group_h).max(60.0),
    };
    let max_ratio = shown
        .iter()
        .flat_map(|m| (0..n).filter_map(|i| m.ratio(i)))
        .filter(|r| r.is_finite())
        .fold(1.0, f64::max);
    let dom = svg::nice_domain(0.0, max_ratio * 1.05, 5);
    let x = Scale::linear(dom, (plot.x, plot.right()));
    let mut svg = Svg::new(
        W,
        plot.bottom() + 44.0,
        "Headline numbers against other runs, normalised to this run",
        "compare",
    );
    let ticks = svg::ticks(dom.0, dom.1, 5);
    for &t in &ticks {
        svg.line(x.map(t), plot.y, x.map(t), plot.bottom(), "grid");
    }
    svg::x_axis(
        &mut svg,
        plot,
        &x,
        &ticks,
        &|v| format!("{}×", svg::num(v)),
        "relative to this run (higher is better)",
    );
    if shown.is_empty() {
        svg.text(
            plot.x + plot.w / 2.0,
            plot.y + plot.h / 2.0,
            Anchor::Middle,
            "note",
            "this run has none of the headline numbers",
        );
    }
    for (g, m) in shown.iter().enumerate() {
        let gy = plot.y + g as f64 * group_h + GROUP_GAP / 2.0;
        svg.text(
            plot.x - 8.0,
            gy + n as f64 * BAR_H / 2.0 + 4.0,
            Anchor::End,
            "metric",
            m.name,
        );
        for i in 0..n {
            let by = gy + i as f64 * BAR_H;
            let value = m.values.get(i).copied().flatten();
            let label = match (m.ratio(i), value) {
                (Some(r), Some(v)) => format!("{}× · {} {}", svg::num(r), svg::num(v), m.unit),
                _ => "–".to_string(),
            };
            if let Some(r) = m.ratio(i) {
                let tip = format!("{}: {label}", c.runs.get(i).map_or("", String::as_str));
                svg.rect(
                    plot.x,
                    by + 1.0,
                    x.map(r) - plot.x,
                    BAR_H - 3.0,
                    &format!("bar {}", series_class(i)),
                    Some(&tip),
                );
                svg.text(
                    x.map(r) + 4.0,
                    by + BAR_H - 4.0,
                    Anchor::Start,
                    "tick",
                    &label,
                );
            } else {
                svg.text(
                    plot.x + 4.0,
                    by + BAR_H - 4.0,
                    Anchor::Start,
                    "tick",
                    &label,
                );
            }
        }
    }
    svg.line(x.map(1.0), plot.y, x.map(1.0), plot.bottom(), "reference");

    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-compare\">");
    out.push_str(&svg.finish());
    out.push_str("<figcaption>sbc-bench's headline numbers of each run divided by this run's; the vertical line is this run.</figcaption>");
    out.push_str(&legend(&c.runs));
    let mut head = vec!["figure".to_string()];
    head.extend(c.runs.iter().cloned());
    let rows: Vec<Vec<String>> = c
        .metrics
        .iter()
        .map(|m| {
            let mut r = vec![format!("{} ({})", m.name, m.unit)];
            r.extend(
                (0..n).map(|i| match (m.values.get(i).copied().flatten(), m.ratio(i)) {
                    (Some(v), Some(q)) if i > 0 => format!("{} ({}×)", svg::num(v), svg::num(q)),
                    (Some(v), _) => svg::num(v),
                    (None, _) => "–".into(),
                }),
            );
            r
        })
        .collect();
    out.push_str(&data_table("Figures", &head, &rows));
    out.push_str("</figure>");
    out
}
