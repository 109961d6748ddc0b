//! The memory-latency ladder: latency against window size, both on log axes, so every cache
//! level shows as a step (L1 at ~1 ns and DRAM at ~100 ns stay readable on one chart). The
//! cache levels the kernel found from the ladder are marked, with what sysfs advertises.
//!
//! Native runs only (the `memlat` phases); sbc-bench logs keep their tinymembench latency
//! tables as text the importer does not parse.

use document::ResultDocument;
use document::run::{PhaseStatus, kind};

use super::{cpu_label, data_table, legend, series_class};
use crate::svg::{self, Anchor, Plot, Scale, Svg};

/// One curve: `(window bytes, ns)`.
#[derive(Debug, Clone, PartialEq)]
pub struct LatSeries {
    pub name: String,
    pub pts: Vec<(f64, f64)>,
}

/// A cache level found on the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    pub name: String,
    pub effective_bytes: f64,
    pub advertised_bytes: Option<f64>,
    pub latency_ns: f64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ladder {
    pub series: Vec<LatSeries>,
    pub levels: Vec<Level>,
}

fn points(rows: impl Iterator<Item = (u64, Option<f64>)>) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = rows
        .filter_map(|(size, ns)| Some((size as f64, ns?)))
        .filter(|(s, ns)| *s > 0.0 && ns.is_finite() && *ns > 0.0)
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// The ladder of a run's memlat phases; `None` without one.
pub fn from_doc(doc: &ResultDocument) -> Option<Ladder> {
    let run = doc.run.as_ref()?;
    let phases: Vec<_> = run
        .phases_of(kind::MEMLAT)
        .filter(|p| p.status != PhaseStatus::Skipped)
        .filter_map(|p| p.memlat.as_ref())
        .collect();
    let several = phases.len() > 1;
    let mut ladder = Ladder::default();
    for m in phases {
        let prefix = match (several, m.cpus.first()) {
            (true, Some(&c)) => format!("{}: ", cpu_label(doc, c)),
            _ => String::new(),
        };
        if let Some(chain) = &m.chain {
            for (col, n) in chain.chains.iter().enumerate() {
                let pts = points(
                    chain
                        .rows
                        .iter()
                        .map(|r| (r.size_bytes, r.ns_per_step.get(col).copied())),
                );
                let what = if *n == 1 {
                    "1 chain".to_string()
                } else {
                    format!("{n} chains")
                };
                ladder.series.push(LatSeries {
                    name: format!("{prefix}{what}"),
                    pts,
                });
            }
        }
        for t in &m.random {
            let pages = match t.huge_pages {
                Some(true) => "huge pages",
                Some(false) => "no huge pages",
                None => "default pages",
            };
            let pts = points(t.rows.iter().map(|r| (r.size_bytes, Some(r.single_raw_ns))));
            ladder.series.push(LatSeries {
                name: format!("{prefix}random reads, {pages}"),
                pts,
            });
        }
        if let Some(c) = &m.caches
            && (!several || ladder.levels.is_empty())
        {
            for l in &c.levels {
                ladder.levels.push(Level {
                    name: format!("L{}", l.level),
                    effective_bytes: l.effective_bytes as f64,
                    advertised_bytes: l.advertised_bytes.map(|b| b as f64),
                    latency_ns: l.latency_ns,
                });
            }
        }
    }
    ladder.series.retain(|s| !s.pts.is_empty());
    (!ladder.series.is_empty()).then_some(ladder)
}

/// The chart as an HTML figure.
pub fn render(l: &Ladder) -> String {
    const W: f64 = 800.0;
    const H: f64 = 440.0;
    let plot = Plot {
        x: 74.0,
        y: 26.0,
        w: W - 74.0 - 20.0,
        h: H - 26.0 - 50.0,
    };
    let all = || l.series.iter().flat_map(|s| s.pts.iter());
    let (s_lo, s_hi) = svg::extent(all().map(|p| p.0)).unwrap_or((4096.0, 65536.0));
    let (n_lo, n_hi) = svg::extent(all().map(|p| p.1)).unwrap_or((1.0, 100.0));
    let x = Scale::log((s_lo, s_hi.max(s_lo * 2.0)), (plot.x, plot.right()));
    let y_dom = (n_lo * 0.8, n_hi * 1.25);
    let y = Scale::log(y_dom, (plot.bottom(), plot.y));
    let mut svg = Svg::new(W, H, "Memory latency by window size", "memlat");
    let every = if (s_hi / s_lo).log2() > 10.0 { 2 } else { 1 };
    let xt = svg::pow2_ticks(s_lo, s_hi, every);
    let (ylo, yhi) = y.domain();
    let yt = svg::log_ticks(ylo, yhi);
    svg::y_axis(&mut svg, plot, &y, &yt, &svg::num, "latency (ns, log)");
    svg::x_axis(&mut svg, plot, &x, &xt, &svg::bytes, "window size (log)");
    for lv in &l.levels {
        let px = x.map(lv.effective_bytes);
        if px < plot.x || px > plot.right() {
            continue;
        }
        svg.line(px, plot.y, px, plot.bottom(), "level");
        svg.text(
            px,
            plot.y - 6.0,
            Anchor::Middle,
            "band-label",
            &format!("{} ≤ {}", lv.name, svg::bytes(lv.effective_bytes)),
        );
        if let Some(adv) = lv.advertised_bytes {
            let ax = x.map(adv);
            if ax >= plot.x && ax <= plot.right() {
                svg.line(ax, plot.y, ax, plot.bottom(), "advertised");
            }
        }
    }
    for (i, s) in l.series.iter().enumerate() {
        let mapped: Vec<(f64, f64)> = s.pts.iter().map(|&(a, b)| (x.map(a), y.map(b))).collect();
        svg.polyline(
            &mapped,
            &format!("series {}", series_class(i)),
            Some(&s.name),
        );
        for (&(a, b), &(px, py)) in s.pts.iter().zip(&mapped) {
            let tip = format!("{}: {} → {} ns", s.name, svg::bytes(a), svg::num(b));
            svg.circle(px, py, 2.2, &format!("dot {}", series_class(i)), Some(&tip));
        }
    }
    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-memlat\">");
    out.push_str(&svg.finish());
    out.push_str("<figcaption>Latency per step against window size; solid verticals: cache sizes found on the ladder, dotted: sizes sysfs advertises.</figcaption>");
    out.push_str(&legend(
        &l.series.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
    ));
    // One row per window size, one column per series.
    let mut sizes: Vec<f64> = l
        .series
        .iter()
        .flat_map(|s| s.pts.iter().map(|p| p.0))
        .collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let mut head = vec!["window".to_string()];
    head.extend(l.series.iter().map(|s| format!("{} (ns)", s.name)));
    let rows: Vec<Vec<String>> = sizes
        .iter()
        .map(|&size| {
            let mut r = vec![svg::bytes(size)];
            r.extend(l.series.iter().map(|s| {
                s.pts
                    .iter()
                    .find(|p| p.0 == size)
                    .map(|p| svg::num(p.1))
                    .unwrap_or_else(|| "–".into())
            }));
            r
        })
        .collect();
    out.push_str(&data_table("Figures", &head, &rows));
    if !l.levels.is_empty() {
        let rows: Vec<Vec<String>> = l
            .levels
            .iter()
            .map(|lv| {
                vec![
                    lv.name.clone(),
                    svg::bytes(lv.effective_bytes),
                    lv.advertised_bytes
                        .map(svg::bytes)
                        .unwrap_or_else(|| "–".into()),
                    svg::num(lv.latency_ns),
                ]
            })
            .collect();
        out.push_str(&data_table(
            "Cache levels",
            &[
                "level".into(),
                "found ≤".into(),
                "advertised".into(),
                "latency ns".into(),
            ],
            &rows,
        ));
    }
    out.push_str("</figure>");
    out
}
