//! The run placed on the distribution of sbc-bench's published results: one strip per headline
//! figure, every published row of the run's architecture class a grey dot (logarithmic axis:
//! the rows span three orders of magnitude), the rows of the run's SoC highlighted, the run a
//! vertical mark. The placement is the one the finisher stored in the document (`corpus::shown`:
//! the same as the terminal summary and `results show`), the dots are the corpus's rows; the
//! caption carries the corpus's source, date and licence.

use corpus::{ArchClass, Corpus};
use document::ResultDocument;
use document::analysis::PlacementRecord;

use super::{data_table, legend_with};
use crate::escape::esc;
use crate::svg::{self, Anchor, Scale, Svg};

/// One strip: the figure, the run's value, every row's value (and whether it is the SoC's).
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    pub label: &'static str,
    pub unit: &'static str,
    pub value: f64,
    pub rows: Vec<(f64, bool)>,
    pub line: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub placement: PlacementRecord,
    pub strips: Vec<Strip>,
}

/// The placement of `doc` (as stored, or placed in `c` when the document has none) with the rows
/// of `c`; `None` when no figure is placed.
pub fn from_doc(c: &Corpus, doc: &ResultDocument) -> Option<Placed> {
    let placement = corpus::shown(c, doc);
    let class = [
        ArchClass::Arm,
        ArchClass::X86,
        ArchClass::RiscV,
        ArchClass::LoongArch,
    ]
    .into_iter()
    .find(|k| placement.class.as_deref() == Some(k.name()))?;
    // An imported log's own table row is not drawn (it is left out of the placement too).
    let own = corpus::run::own_log(doc).map(|n| format!("/{n}"));
    let is_own = |e: &corpus::Entry| {
        own.as_deref()
            .is_some_and(|n| e.log.as_deref().is_some_and(|l| l.ends_with(n)))
    };
    // The highlighted rows are the same-SoC group's: the SoC's rows of the run's core count.
    let in_group = |e: &corpus::Entry| {
        placement.soc.is_some()
            && e.soc == placement.soc
            && match (placement.cores, e.cores) {
                (Some(run), Some(row)) => run == row,
                _ => true,
            }
    };
    let strips: Vec<Strip> = placement
        .figures
        .iter()
        .flatten()
        .filter_map(|f| {
            let fig = corpus::run::figure_of(f)?;
            let rows = c
                .entries
                .iter()
                .filter(|e| e.class == class && e.comparable() && !is_own(e))
                .filter_map(|e| Some((e.figure(fig)?, in_group(e))))
                .collect();
            Some(Strip {
                label: fig.label(),
                unit: fig.unit(),
                value: f.value,
                rows,
                line: f.line.clone(),
            })
        })
        .collect();
    (!strips.is_empty()).then_some(Placed { placement, strips })
}

const ROW_H: f64 = 34.0;

/// The chart as an HTML figure.
pub fn render(p: &Placed) -> String {
    const W: f64 = 860.0;
    let (left, right) = (130.0, W - 90.0);
    let h = p.strips.len() as f64 * ROW_H + 30.0;
    let mut s = Svg::new(
        W,
        h,
        "This run among sbc-bench's published results",
        "placement",
    );
    for (i, st) in p.strips.iter().enumerate() {
        let y = 10.0 + i as f64 * ROW_H + ROW_H / 2.0;
        let vals = st.rows.iter().map(|r| r.0).chain([st.value]);
        let Some((lo, hi)) = svg::extent(vals.filter(|v| *v > 0.0)) else {
            continue;
        };
        let (lo, hi) = if hi > lo {
            (lo, hi)
        } else {
            (lo * 0.9, hi * 1.1)
        };
        let x = Scale::log((lo * 0.95, hi * 1.05), (left, right));
        s.text(left - 8.0, y + 4.0, Anchor::End, "metric", st.label);
        s.line(left, y, right, y, "grid");
        s.text(left, y + 15.0, Anchor::Start, "tick", &svg::num(lo));
        s.text(
            right,
            y + 15.0,
            Anchor::End,
            "tick",
            &format!("{} {}", svg::num(hi), st.unit),
        );
        // Other rows first, the SoC's on top of them, the run last.
        for same in [false, true] {
            for (v, _) in st.rows.iter().filter(|r| r.1 == same) {
                let class = if same { "dot s1" } else { "dot others" };
                s.circle(
                    x.map(*v),
                    y,
                    if same { 4.0 } else { 2.5 },
                    class,
                    Some(&svg::num(*v)),
                );
            }
        }
        let rx = x.map(st.value);
        s.line(rx, y - 11.0, rx, y + 11.0, "reference");
        s.text(
            rx,
            y - 13.0,
            Anchor::Middle,
            "tick",
            &format!("this run {}", svg::num(st.value)),
        );
    }
    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-placement\">");
    out.push_str(&s.finish());
    let pl = &p.placement;
    out.push_str(&format!(
        "<figcaption>Each dot a published row of sbc-bench's table (comparable rows of the run's class only; logarithmic axis); {} the vertical line is this run. Compared with: {}.</figcaption>",
        match &pl.soc {
            Some(soc) => format!("the larger dots are the rows of {},", esc(soc)),
            None => "the run's SoC is unknown, so no row is highlighted;".into(),
        },
        esc(&pl.comparison)
    ));
    let mut entries = vec![("other published rows".to_string(), "others".to_string())];
    let group = pl
        .figures
        .iter()
        .flatten()
        .find_map(|f| f.same_soc.as_ref().map(|g| g.group.clone()));
    if let Some(soc) = group.or_else(|| pl.soc.clone()) {
        entries.push((format!("{soc} rows"), "s1".to_string()));
    }
    out.push_str(&legend_with(&entries));
    out.push_str("<ul class=\"placement\">");
    for st in &p.strips {
        out.push_str(&format!("<li>{}</li>", esc(&st.line)));
    }
    for n in &pl.notes {
        out.push_str(&format!("<li class=\"dim\">{}</li>", esc(n)));
    }
    out.push_str("</ul>");
    let head: Vec<String> = ["figure", "this run", "rank", "SoC median", "SoC range"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = pl
        .figures
        .iter()
        .flatten()
        .filter_map(|f| {
            let fig = corpus::run::figure_of(f)?;
            Some(vec![
                format!("{} ({})", fig.label(), fig.unit()),
                svg::num(f.value),
                match (f.rank, f.of) {
                    (Some(r), Some(of)) => format!("{r} of {of}"),
                    _ => "–".into(),
                },
                f.same_soc.as_ref().map_or("–".into(), |s| {
                    format!("{} ({} rows)", svg::num(s.median), s.count)
                }),
                f.same_soc.as_ref().map_or("–".into(), |s| {
                    format!("{}–{}", svg::num(s.min), svg::num(s.max))
                }),
            ])
        })
        .collect();
    out.push_str(&data_table("Figures", &head, &rows));
    out.push_str(&format!(
        "<div class=\"dim\">Corpus: {}. Data: {}. <details><summary>Licence of the data</summary><pre>{}</pre></details></div>",
        esc(&pl.corpus),
        esc(corpus::LICENSE_LINE),
        esc(corpus::LICENSE)
    ));
    out.push_str("</figure>");
    out
}
