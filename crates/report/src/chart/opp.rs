//! Nominal cpufreq OPP against the measured clock, per cluster: points on the diagonal are
//! honest OPPs; points below it are clocks the kernel claims but the silicon does not run
//! (firmware caps, thermal or voltage limits — sbc-bench's "Measured: 1793 (-10.0%)").
//!
//! Native runs: the readings of the `clock` (and `clock-hot`) phases that carry an OPP. Imported
//! logs: the "Checking cpufreq OPP" blocks with an OPP column.

use document::ResultDocument;
use document::run::{PhaseStatus, kind};

use super::{cpu_label, data_table, legend, series_class};
use crate::svg::{self, Anchor, Plot, Scale, Svg};

/// One cluster's walk: `(nominal MHz, measured MHz)` sorted by nominal.
#[derive(Debug, Clone, PartialEq)]
pub struct OppSeries {
    pub name: String,
    pub pts: Vec<(f64, f64)>,
}

/// The walks of a document; empty when it has no OPP readings.
pub fn from_doc(doc: &ResultDocument) -> Vec<OppSeries> {
    let mut out: Vec<OppSeries> = Vec::new();
    let mut push = |name: String, nominal: f64, measured: f64| {
        if !(nominal.is_finite() && measured.is_finite() && nominal > 0.0 && measured > 0.0) {
            return;
        }
        match out.iter_mut().find(|s| s.name == name) {
            Some(s) => s.pts.push((nominal, measured)),
            None => out.push(OppSeries {
                name,
                pts: vec![(nominal, measured)],
            }),
        }
    };
    if let Some(run) = &doc.run {
        for p in &run.phases {
            if p.status == PhaseStatus::Skipped
                || (p.kind != kind::CLOCK && p.kind != kind::CLOCK_HOT)
            {
                continue;
            }
            let hot = if p.kind == kind::CLOCK_HOT {
                " (hot)"
            } else {
                ""
            };
            for r in &p.clock {
                if let Some(khz) = r.opp_khz {
                    push(
                        format!("{}{hot}", cpu_label(doc, r.cpu)),
                        khz as f64 / 1000.0,
                        r.mhz,
                    );
                }
            }
        }
    } else if let Some(log) = &doc.imported {
        for c in &log.clock_checks {
            let mut name = c
                .cluster
                .trim()
                .trim_start_matches("for ")
                .trim()
                .to_string();
            if name.is_empty() {
                name = "CPU".into();
            }
            if c.under_load {
                name.push_str(" (under load)");
            }
            for r in &c.rows {
                if let Some(opp) = r.opp_mhz {
                    push(name.clone(), f64::from(opp), r.measured_mhz);
                }
            }
        }
    }
    for s in &mut out {
        s.pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}

fn deviation(nominal: f64, measured: f64) -> f64 {
    (measured - nominal) / nominal * 100.0
}

/// The chart as an HTML figure.
pub fn render(series: &[OppSeries]) -> String {
    const W: f64 = 640.0;
    const H: f64 = 480.0;
    let plot = Plot {
        x: 74.0,
        y: 16.0,
        w: W - 74.0 - 20.0,
        h: H - 16.0 - 50.0,
    };
    let all = series.iter().flat_map(|s| s.pts.iter());
    let (lo, hi) = svg::extent(all.flat_map(|p| [p.0, p.1])).unwrap_or((0.0, 1000.0));
    let dom = svg::nice_domain((lo * 0.9).max(0.0), hi * 1.04, 6);
    let x = Scale::linear(dom, (plot.x, plot.right()));
    let y = Scale::linear(dom, (plot.bottom(), plot.y));
    let mut svg = Svg::new(
        W,
        H,
        "Nominal cpufreq OPP against the measured clock",
        "opp",
    );
    let t = svg::ticks(dom.0, dom.1, 6);
    svg::y_axis(&mut svg, plot, &y, &t, &svg::num, "measured clock (MHz)");
    svg::x_axis(&mut svg, plot, &x, &t, &svg::num, "cpufreq OPP (MHz)");
    svg.line(
        x.map(dom.0),
        y.map(dom.0),
        x.map(dom.1),
        y.map(dom.1),
        "diagonal",
    );
    svg.text(
        x.map(dom.1) - 4.0,
        y.map(dom.1) + 14.0,
        Anchor::End,
        "note",
        "measured = OPP",
    );
    for (i, s) in series.iter().enumerate() {
        let class = format!("series {}", series_class(i));
        let mapped: Vec<(f64, f64)> = s.pts.iter().map(|&(a, b)| (x.map(a), y.map(b))).collect();
        svg.polyline(&mapped, &class, Some(&s.name));
        for (&(a, b), &(px, py)) in s.pts.iter().zip(&mapped) {
            let tip = format!(
                "{}: OPP {} MHz, measured {} MHz ({:+.1} %)",
                s.name,
                svg::num(a),
                svg::num(b),
                deviation(a, b)
            );
            svg.circle(px, py, 3.5, &format!("dot {}", series_class(i)), Some(&tip));
        }
    }
    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-opp\">");
    out.push_str(&svg.finish());
    out.push_str("<figcaption>Each cpufreq OPP against the clock measured while capped to it; the dashed diagonal is an honest OPP.</figcaption>");
    out.push_str(&legend(
        &series.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
    ));
    let rows: Vec<Vec<String>> = series
        .iter()
        .flat_map(|s| {
            s.pts.iter().map(|&(a, b)| {
                vec![
                    s.name.clone(),
                    svg::num(a),
                    svg::num(b),
                    format!("{:+.1} %", deviation(a, b)),
                ]
            })
        })
        .collect();
    out.push_str(&data_table(
        "Figures",
        &[
            "cluster".into(),
            "OPP MHz".into(),
            "measured MHz".into(),
            "deviation".into(),
        ],
        &rows,
    ));
    out.push_str("</figure>");
    out
}
