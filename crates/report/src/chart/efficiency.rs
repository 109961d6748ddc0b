//! `boardbench graph` sweeps: score against the clock (the cpufreq OPP) per cluster, and efficiency —
//! score per watt where a power reading existed, otherwise score per MHz (sbc-bench's `-g`
//! idea as inline SVG instead of gnuplot and a PDF).
//!
//! Data: the phases of kind `graph-point` and the measurements they index (suite `graph`:
//! "score …", "clock …", "score per watt …", "score per MHz …").

use document::ResultDocument;

use super::{data_table, legend, series_class};
use crate::svg::{self, Plot, Scale, Svg};

/// The phase kind of one sweep point (written by `boardbench graph`): the document's
/// [`document::run::kind::GRAPH_POINT`], the one spelling.
pub const KIND_POINT: &str = document::run::kind::GRAPH_POINT;

/// One point of a cluster's sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub mhz: f64,
    pub score: f64,
    /// Score per watt (kH/J) when a power reading existed.
    pub per_watt: Option<f64>,
    pub per_mhz: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub name: String,
    pub unit: String,
    pub pts: Vec<Point>,
}

/// The sweeps of a document, one per cluster; empty for documents that are not `graph` runs.
pub fn from_doc(doc: &ResultDocument) -> Vec<Sweep> {
    let Some(run) = &doc.run else {
        return Vec::new();
    };
    let mut out: Vec<Sweep> = Vec::new();
    for p in run.phases.iter().filter(|p| p.kind == KIND_POINT) {
        let ms: Vec<&document::Measurement> = p
            .measurements
            .iter()
            .filter_map(|&i| doc.measurements.get(i))
            .collect();
        let find = |prefix: &str| {
            ms.iter()
                .find(|m| m.suite == "graph" && m.test.starts_with(prefix))
                .map(|m| (m.value, m.unit.clone()))
                .filter(|(v, _)| v.is_finite())
        };
        let Some((score, unit)) = find("score cpu") else {
            continue;
        };
        // The OPP the point was capped to (what sbc-bench's -g plots against); the measured clock
        // where there is no cpufreq.
        let mhz = p
            .clock
            .first()
            .and_then(|c| c.opp_khz)
            .map(|k| k as f64 / 1000.0)
            .or_else(|| find("clock ").map(|(v, _)| v))
            .or_else(|| p.clock.first().map(|c| c.mhz))
            .filter(|v| v.is_finite() && *v > 0.0);
        let Some(mhz) = mhz else {
            continue;
        };
        let name = p
            .title
            .split(" @ ")
            .next()
            .map(str::to_string)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("cpu{}", p.cpus.first().copied().unwrap_or(0)));
        let point = Point {
            mhz,
            score,
            per_watt: find("score per watt").map(|v| v.0),
            per_mhz: find("score per MHz").map(|v| v.0),
        };
        match out.iter_mut().find(|s| s.name == name) {
            Some(s) => s.pts.push(point),
            None => out.push(Sweep {
                name,
                unit,
                pts: vec![point],
            }),
        }
    }
    for s in &mut out {
        s.pts.sort_by(|a, b| a.mhz.total_cmp(&b.mhz));
    }
    out
}

fn xy_chart(
    sweeps: &[Sweep],
    title: &str,
    y_label: &str,
    value: &dyn Fn(&Point) -> Option<f64>,
) -> String {
    const W: f64 = 640.0;
    const H: f64 = 360.0;
    let plot = Plot {
        x: 74.0,
        y: 16.0,
        w: W - 74.0 - 20.0,
        h: H - 16.0 - 50.0,
    };
    let xs = svg::extent(sweeps.iter().flat_map(|s| s.pts.iter().map(|p| p.mhz)))
        .unwrap_or((0.0, 1000.0));
    let ys = svg::extent(sweeps.iter().flat_map(|s| s.pts.iter().filter_map(value)))
        .unwrap_or((0.0, 1.0));
    let xd = svg::nice_domain((xs.0 * 0.9).max(0.0), xs.1 * 1.05, 6);
    let yd = svg::nice_domain(0.0, ys.1 * 1.08, 6);
    let x = Scale::linear(xd, (plot.x, plot.right()));
    let y = Scale::linear(yd, (plot.bottom(), plot.y));
    let mut svg = Svg::new(W, H, title, "efficiency");
    svg::y_axis(
        &mut svg,
        plot,
        &y,
        &svg::ticks(yd.0, yd.1, 6),
        &svg::num,
        y_label,
    );
    svg::x_axis(
        &mut svg,
        plot,
        &x,
        &svg::ticks(xd.0, xd.1, 6),
        &svg::num,
        "cpufreq OPP (MHz), or the measured clock without cpufreq",
    );
    for (i, s) in sweeps.iter().enumerate() {
        let pts: Vec<(f64, f64, f64)> = s
            .pts
            .iter()
            .filter_map(|p| value(p).map(|v| (p.mhz, v, 0.0)))
            .collect();
        let mapped: Vec<(f64, f64)> = pts.iter().map(|&(a, b, _)| (x.map(a), y.map(b))).collect();
        svg.polyline(
            &mapped,
            &format!("series {}", series_class(i)),
            Some(&s.name),
        );
        for (&(a, b, _), &(px, py)) in pts.iter().zip(&mapped) {
            let tip = format!("{}: {} MHz, {}", s.name, svg::num(a), svg::num(b));
            svg.circle(px, py, 3.5, &format!("dot {}", series_class(i)), Some(&tip));
        }
    }
    svg.finish()
}

/// The figure: score against the clock, and efficiency against clock.
pub fn render(sweeps: &[Sweep]) -> String {
    let unit = sweeps.first().map(|s| s.unit.clone()).unwrap_or_default();
    let watts = sweeps
        .iter()
        .any(|s| s.pts.iter().any(|p| p.per_watt.is_some()));
    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-efficiency\">");
    out.push_str(&xy_chart(
        sweeps,
        "Score against the clock",
        &format!("score ({unit})"),
        &|p| Some(p.score),
    ));
    if watts {
        out.push_str(&xy_chart(
            sweeps,
            "Score per watt against the clock",
            "score per watt (kH/J)",
            &|p| p.per_watt,
        ));
        out.push_str("<figcaption>Score, and score per joule of the whole consumption while loaded, at each cpufreq OPP of each cluster.</figcaption>");
    } else {
        out.push_str(&xy_chart(
            sweeps,
            "Score per MHz against the clock",
            &format!("score per MHz ({unit}/MHz)"),
            &|p| p.per_mhz,
        ));
        out.push_str("<figcaption>No power reading was available: performance per MHz instead of per watt.</figcaption>");
    }
    out.push_str(&legend(
        &sweeps.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
    ));
    let opt = |v: Option<f64>| v.map(svg::num).unwrap_or_else(|| "–".into());
    let rows: Vec<Vec<String>> = sweeps
        .iter()
        .flat_map(|s| {
            s.pts.iter().map(|p| {
                vec![
                    s.name.clone(),
                    svg::num(p.mhz),
                    svg::num(p.score),
                    opt(p.per_mhz),
                    opt(p.per_watt),
                ]
            })
        })
        .collect();
    out.push_str(&data_table(
        "Figures",
        &[
            "cluster".into(),
            "MHz".into(),
            format!("score ({unit})"),
            "per MHz".into(),
            "per watt (kH/J)".into(),
        ],
        &rows,
    ));
    out.push_str("</figure>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::run::{Phase, RunRecord};
    use document::{Measurement, SCHEMA_VERSION};

    fn m(test: &str, value: f64, unit: &str) -> Measurement {
        Measurement {
            suite: "graph".into(),
            test: test.into(),
            variant: None,
            threads: 1,
            cpus: vec![4],
            value,
            unit: unit.into(),
            higher_is_better: true,
            spread_pct: None,
        }
    }

    fn doc(with_watts: bool) -> ResultDocument {
        let mut measurements = Vec::new();
        let mut phases = Vec::new();
        for (opp, mhz, score) in [
            (2400, 2390.0, 2500.0),
            (1800, 1795.0, 1880.0),
            (600, 600.0, 620.0),
        ]
        .into_iter()
        .take(2)
        {
            let at = format!("cpu4-5 (Cortex-A76) @ {opp} MHz");
            let first = measurements.len();
            measurements.push(m(&format!("score {at}"), score, "kH/s"));
            measurements.push(m(&format!("clock {at}"), mhz, "MHz"));
            measurements.push(m(&format!("score per MHz {at}"), score / mhz, "kH/s/MHz"));
            if with_watts {
                measurements.push(m(&format!("score per watt {at}"), score / 3.2, "kH/J"));
            }
            phases.push(Phase {
                kind: KIND_POINT.into(),
                title: at,
                measurements: (first..measurements.len()).collect(),
                ..Phase::default()
            });
        }
        ResultDocument {
            schema_version: SCHEMA_VERSION,
            producer: "test".into(),
            device: Some("<b>board</b>".into()),
            started: None,
            finished: None,
            machine: None,
            measurements,
            findings: Vec::new(),
            imported: None,
            run: Some(RunRecord {
                comparability: Vec::new(),
                profile: "graph".into(),
                phases,
                ..RunRecord::default()
            }),
            guide: None,
            redaction: None,
            analysis: None,
        }
    }

    #[test]
    fn sweeps_per_cluster_sorted_by_clock() {
        let s = from_doc(&doc(true));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].name, "cpu4-5 (Cortex-A76)");
        assert_eq!(s[0].pts.len(), 2);
        assert!(s[0].pts[0].mhz < s[0].pts[1].mhz);
        assert!(s[0].pts.iter().all(|p| p.per_watt.is_some()));
    }

    #[test]
    fn per_watt_chart_with_power_and_per_mhz_without() {
        let with = render(&from_doc(&doc(true)));
        assert!(with.contains("Score per watt") && with.matches("<svg").count() == 2);
        let without = render(&from_doc(&doc(false)));
        assert!(without.contains("Score per MHz") && without.contains("No power reading"));
    }

    #[test]
    fn other_documents_have_no_sweep() {
        assert!(from_doc(&testsupport::demo::run_document()).is_empty());
    }
}
