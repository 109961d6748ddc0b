//! Clock, temperature and CPU use over time, with the phases as bands behind them (sbc-bench's
//! `-g` idea): one look shows when a clock dropped and what was running while the SoC got hot.
//!
//! Native runs give the monitor samples of every phase (millisecond timestamps). Imported
//! sbc-bench logs give their "System health while running …" tables, whose times are
//! wall-clock `HH:MM:SS` without a date: they are placed relative to the first phase table's
//! first row, modulo a day (a run that crosses midnight stays in order).

use std::fmt::Write;

use document::ResultDocument;
use document::imported::ImportedLog;
use document::run::{PhaseStatus, RunRecord};

use super::{cpu_label, data_table, legend_with, series_class};
use crate::escape::esc;
use crate::svg::{self, Anchor, Plot, Scale, Svg};

/// A named series of `(seconds since start, value)` points, sorted by time.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub pts: Vec<(f64, f64)>,
}

/// One phase as a band on the time axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub label: String,
    pub start_s: f64,
    pub end_s: f64,
}

/// Everything the chart draws.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub bands: Vec<Band>,
    /// One series per monitored cluster, in the monitor's display order.
    pub clocks: Vec<Series>,
    pub temp: Vec<(f64, f64)>,
    /// Total CPU use in percent of all CPUs.
    pub cpu: Vec<(f64, f64)>,
    /// Lines break where two samples are further apart than this (seconds).
    pub max_gap_s: f64,
}

impl Timeline {
    fn is_empty(&self) -> bool {
        self.clocks.iter().all(|s| s.pts.is_empty()) && self.temp.is_empty() && self.cpu.is_empty()
    }

    fn end_s(&self) -> f64 {
        let pts = self
            .clocks
            .iter()
            .flat_map(|s| s.pts.iter())
            .chain(&self.temp)
            .chain(&self.cpu)
            .map(|p| p.0);
        let bands = self.bands.iter().map(|b| b.end_s);
        pts.chain(bands)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    }
}

/// The timeline of a run or an imported log; `None` when the document has no samples.
pub fn from_doc(doc: &ResultDocument) -> Option<Timeline> {
    let t = if let Some(run) = &doc.run {
        from_run(doc, run)
    } else {
        from_imported(doc.imported.as_ref()?)
    };
    (!t.is_empty()).then_some(t)
}

fn sort(pts: &mut [(f64, f64)]) {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
}

/// The median of the positive values (intervals and steps; `document::stats::median`).
fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| *x > 0.0);
    document::stats::median(&v)
}

fn from_run(doc: &ResultDocument, run: &RunRecord) -> Timeline {
    let ran = || {
        run.phases
            .iter()
            .filter(|p| p.status != PhaseStatus::Skipped)
    };
    let starts = ran()
        .map(|p| p.started_unix_ms)
        .chain(ran().flat_map(|p| p.samples.iter().map(|s| s.unix_ms)))
        .filter(|&ms| ms > 0);
    let Some(t0) = starts.min() else {
        return Timeline::default();
    };
    let secs = |ms: u64| (ms as i128 - t0 as i128) as f64 / 1000.0;

    let mut t = Timeline::default();
    for p in ran() {
        if p.started_unix_ms == 0 || p.finished_unix_ms < p.started_unix_ms {
            continue;
        }
        let label = if p.title.trim().is_empty() {
            p.kind.clone()
        } else {
            p.title.clone()
        };
        t.bands.push(Band {
            label,
            start_s: secs(p.started_unix_ms),
            end_s: secs(p.finished_unix_ms),
        });
    }

    // Cluster names and the order the monitor shows them in (big first).
    let layout = run.monitor.as_ref();
    let width = ran()
        .flat_map(|p| p.samples.iter())
        .map(|s| s.clocks_mhz.len())
        .max()
        .unwrap_or(0);
    let mut order: Vec<usize> = layout.map(|l| l.display_order.clone()).unwrap_or_default();
    order.retain(|&i| i < width);
    for i in 0..width {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    let name = |i: usize| match layout.and_then(|l| l.clusters.get(i)) {
        Some(c) => cpu_label(doc, c.first_cpu),
        None => format!("clock {}", i + 1),
    };
    let mut clocks: Vec<Series> = order
        .iter()
        .map(|&i| Series {
            name: name(i),
            pts: Vec::new(),
        })
        .collect();
    let mut intervals = Vec::new();
    for s in ran().flat_map(|p| p.samples.iter()) {
        let x = secs(s.unix_ms);
        intervals.push(s.interval_s);
        for (slot, &i) in order.iter().enumerate() {
            if let Some(Some(mhz)) = s.clocks_mhz.get(i) {
                clocks[slot].pts.push((x, f64::from(*mhz)));
            }
        }
        if let Some(c) = s.temp_c {
            t.temp.push((x, c));
        }
        if let Some(c) = s.cpu {
            t.cpu.push((x, c.cpu));
        }
    }
    for s in &mut clocks {
        sort(&mut s.pts);
    }
    sort(&mut t.temp);
    sort(&mut t.cpu);
    t.clocks = clocks;
    t.max_gap_s = (median(intervals).unwrap_or(1.0) * 3.0).max(2.0);
    t
}

/// Seconds of the day from "22:56:10" (sbc-bench sometimes writes a trailing colon).
fn time_of_day(s: &str) -> Option<f64> {
    let mut it = s.trim().trim_end_matches(':').split(':');
    let h: u32 = it.next()?.trim().parse().ok()?;
    let m: u32 = it.next()?.trim().parse().ok()?;
    let sec: u32 = it.next()?.trim().parse().ok()?;
    if it.next().is_some() || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    Some(f64::from(h * 3600 + m * 60 + sec))
}

/// Clocks of a monitor cell: "2208/2016MHz" → [2208, 2016]; "-" → [None].
fn clock_cell(s: &str) -> Vec<Option<f64>> {
    let s = s.trim();
    let s = s
        .strip_suffix("MHz")
        .or_else(|| s.strip_suffix("Mhz"))
        .unwrap_or(s);
    s.split('/')
        .map(|p| p.trim().parse::<f64>().ok().filter(|v| *v > 0.0))
        .collect()
}

/// Names of the clock columns from the header cell ("big.LITTLE", "cpu0/cpu4/cpu6", "CPU").
fn clock_names(header: Option<&str>, n: usize) -> Vec<String> {
    let h = header.unwrap_or("");
    let parts: Vec<&str> = if h == "big.LITTLE" {
        vec!["big", "LITTLE"]
    } else {
        h.split('/').filter(|p| !p.is_empty()).collect()
    };
    (0..n)
        .map(|i| match parts.get(i) {
            Some(p) if parts.len() == n => p.to_string(),
            _ if n == 1 => "CPU".to_string(),
            _ => format!("clock {}", i + 1),
        })
        .collect()
}

const DAY: f64 = 86_400.0;

fn from_imported(log: &ImportedLog) -> Timeline {
    // The "now" snapshot is printed before the phase tables but taken during the last phase,
    // so the reference is the first row of the first real phase table.
    let reference = log
        .monitor
        .iter()
        .filter(|t| t.phase != "now")
        .chain(&log.monitor)
        .flat_map(|t| t.rows.iter())
        .find_map(|r| time_of_day(&r.time));
    let Some(r0) = reference else {
        return Timeline::default();
    };
    let rel = |tod: f64| {
        let d = (tod - r0).rem_euclid(DAY);
        // A row a little before the reference (clock jitter, a snapshot) is not a day later.
        if d > DAY - 3600.0 { d - DAY } else { d }
    };
    let mut t = Timeline::default();
    let mut clocks: Vec<Series> = Vec::new();
    let mut steps = Vec::new();
    for table in &log.monitor {
        let times: Vec<Option<f64>> = table
            .rows
            .iter()
            .map(|r| time_of_day(&r.time).map(rel))
            .collect();
        let known: Vec<f64> = times.iter().flatten().copied().collect();
        // Tables differ in interval (cpuminer's rows are further apart), so the gap that breaks
        // a line is judged by the sparsest table.
        steps.extend(median(known.windows(2).map(|w| w[1] - w[0]).collect()));
        if let (Some(lo), Some(hi)) = (
            known.iter().copied().reduce(f64::min),
            known.iter().copied().reduce(f64::max),
        ) {
            let label = if table.phase == "now" {
                "clock check under load (snapshot)".to_string()
            } else {
                table.phase.clone()
            };
            t.bands.push(Band {
                label,
                start_s: lo,
                end_s: hi,
            });
        }
        for (row, x) in table.rows.iter().zip(times) {
            let Some(x) = x else { continue };
            let cells = clock_cell(&row.clock);
            if clocks.len() < cells.len() {
                let names = clock_names(table.columns.get(1).map(String::as_str), cells.len());
                for name in names.into_iter().skip(clocks.len()) {
                    clocks.push(Series {
                        name,
                        pts: Vec::new(),
                    });
                }
            }
            for (i, c) in cells.into_iter().enumerate() {
                if let Some(mhz) = c {
                    clocks[i].pts.push((x, mhz));
                }
            }
            if let Some(c) = row.temp_c {
                t.temp.push((x, c));
            }
            if let Some(c) = row.cpu_pct {
                t.cpu.push((x, f64::from(c)));
            }
        }
    }
    for s in &mut clocks {
        sort(&mut s.pts);
    }
    sort(&mut t.temp);
    sort(&mut t.cpu);
    clocks.retain(|s| !s.pts.is_empty());
    t.clocks = clocks;
    // The "now" snapshot is printed first but taken late: number the bands in time order.
    t.bands.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
    t.max_gap_s = (steps.into_iter().fold(10.0, f64::max) * 3.0).max(2.0);
    t
}

/// Temperature and CPU use keep their colours whatever the number of clusters.
const TEMP_CLASS: &str = "s3";
const CPU_CLASS: &str = "s4";

/// Colour of the `i`-th clock series, skipping the temperature and CPU colours.
fn clock_class(i: usize) -> String {
    const FREE: [usize; 6] = [0, 1, 2, 5, 6, 7];
    series_class(FREE[i % FREE.len()])
}

const WIDTH: f64 = 960.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 26.0;
const GAP: f64 = 22.0;
const CLOCK_H: f64 = 210.0;
const SMALL_H: f64 = 120.0;
const BOTTOM: f64 = 44.0;

/// Draws one panel: grid, axis, the series (broken at gaps), or a note when it has none.
#[allow(clippy::too_many_arguments)]
fn panel(
    svg: &mut Svg,
    plot: Plot,
    x: &Scale,
    series: &[(String, &[(f64, f64)])],
    domain: (f64, f64),
    label: &str,
    unit: &str,
    max_gap: f64,
    classes: &[String],
) {
    let y = Scale::linear(domain, (plot.bottom(), plot.y));
    let empty = series.iter().all(|(_, p)| p.is_empty());
    // A panel without readings has no scale to show (never a made-up 0–1.5 MHz axis).
    let ticks = if empty {
        Vec::new()
    } else {
        svg::ticks(domain.0, domain.1, 4)
    };
    svg::y_axis(svg, plot, &y, &ticks, &svg::num, label);
    if empty {
        svg.text(
            plot.x + plot.w / 2.0,
            plot.y + plot.h / 2.0,
            Anchor::Middle,
            "note",
            &format!(
                "no {} readings",
                label.split(" (").next().unwrap_or(label).to_lowercase()
            ),
        );
        return;
    }
    for (i, (name, pts)) in series.iter().enumerate() {
        let class = format!("series {}", classes.get(i).map_or("s0", String::as_str));
        for part in svg::split_at_gaps(pts, max_gap) {
            let mapped: Vec<(f64, f64)> = part.iter().map(|&(t, v)| (x.map(t), y.map(v))).collect();
            let lo = part.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let hi = part.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            let tip = format!(
                "{name}: {}–{} {unit}, {}–{} s",
                svg::num(lo),
                svg::num(hi),
                svg::num(part[0].0),
                svg::num(part[part.len() - 1].0)
            );
            if mapped.len() == 1 {
                svg.circle(mapped[0].0, mapped[0].1, 2.5, &class, Some(&tip));
            } else {
                svg.polyline(&mapped, &class, Some(&tip));
            }
        }
    }
}

/// The chart as an HTML figure (SVG, legend, phase list, figures table).
pub fn render(t: &Timeline) -> String {
    let height = TOP + CLOCK_H + GAP + SMALL_H + GAP + SMALL_H + BOTTOM;
    let mut svg = Svg::new(
        WIDTH,
        height,
        "Clock, temperature and CPU use over time, phases as bands",
        "timeline",
    );
    let end = t.end_s().max(1.0);
    let (x0, x1) = (0.0, end);
    let inner_w = WIDTH - LEFT - RIGHT;
    let x = Scale::linear((x0, x1), (LEFT, LEFT + inner_w));
    let clock_p = Plot {
        x: LEFT,
        y: TOP,
        w: inner_w,
        h: CLOCK_H,
    };
    let temp_p = Plot {
        y: clock_p.bottom() + GAP,
        h: SMALL_H,
        ..clock_p
    };
    let cpu_p = Plot {
        y: temp_p.bottom() + GAP,
        ..temp_p
    };

    // Bands first, behind everything, across all three panels, numbered at the top.
    for (i, b) in t.bands.iter().enumerate() {
        let (bx0, bx1) = (x.map(b.start_s), x.map(b.end_s.max(b.start_s)));
        let w = (bx1 - bx0).max(1.5);
        let tip = format!(
            "{}. {} ({}–{} s)",
            i + 1,
            b.label,
            svg::num(b.start_s),
            svg::num(b.end_s)
        );
        let class = format!("band band{}", i % 2);
        svg.rect(
            bx0,
            clock_p.y,
            w,
            cpu_p.bottom() - clock_p.y,
            &class,
            Some(&tip),
        );
        svg.text(
            bx0 + w / 2.0,
            TOP - 8.0,
            Anchor::Middle,
            "band-label",
            &(i + 1).to_string(),
        );
    }

    let max_clock = t
        .clocks
        .iter()
        .flat_map(|s| s.pts.iter().map(|p| p.1))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let clock_classes: Vec<String> = (0..t.clocks.len()).map(clock_class).collect();
    let clock_dom = svg::nice_domain(0.0, max_clock.max(1.0) * 1.05, 5);
    let clock_series: Vec<(String, &[(f64, f64)])> = t
        .clocks
        .iter()
        .map(|s| (s.name.clone(), s.pts.as_slice()))
        .collect();
    panel(
        &mut svg,
        clock_p,
        &x,
        &clock_series,
        clock_dom,
        "Clock (MHz)",
        "MHz",
        t.max_gap_s,
        &clock_classes,
    );
    let temp_dom = match svg::extent(t.temp.iter().map(|p| p.1)) {
        Some((lo, hi)) => svg::nice_domain(lo - 2.0, hi + 2.0, 4),
        None => (0.0, 100.0),
    };
    panel(
        &mut svg,
        temp_p,
        &x,
        &[("temperature".into(), t.temp.as_slice())],
        temp_dom,
        "Temp (°C)",
        "°C",
        t.max_gap_s,
        &[TEMP_CLASS.to_string()],
    );
    let cpu_max = t.cpu.iter().map(|p| p.1).fold(100.0, f64::max);
    panel(
        &mut svg,
        cpu_p,
        &x,
        &[("CPU use".into(), t.cpu.as_slice())],
        (0.0, cpu_max),
        "CPU (%)",
        "%",
        t.max_gap_s,
        &[CPU_CLASS.to_string()],
    );
    // Long runs read better in minutes: ticks on whole minutes, labelled as such.
    let (unit, label) = if x1 > 1200.0 {
        (60.0, "minutes since the first phase started")
    } else {
        (1.0, "seconds since the first phase started")
    };
    let xt: Vec<f64> = svg::ticks(x0 / unit, x1 / unit, 10)
        .into_iter()
        .map(|t| t * unit)
        .collect();
    svg::x_axis(&mut svg, cpu_p, &x, &xt, &|v| svg::num(v / unit), label);

    let mut names: Vec<(String, String)> = t
        .clocks
        .iter()
        .zip(&clock_classes)
        .map(|(s, c)| (format!("clock {}", s.name), c.clone()))
        .collect();
    names.push(("temperature".into(), TEMP_CLASS.into()));
    names.push(("CPU use (% of all CPUs)".into(), CPU_CLASS.into()));

    let mut out = String::from("<figure class=\"chart-figure\" id=\"chart-timeline\">");
    out.push_str(&svg.finish());
    out.push_str("<figcaption>Clock per cluster, temperature and CPU use over the run; numbered bands are the phases.</figcaption>");
    out.push_str(&legend_with(&names));
    if !t.bands.is_empty() {
        out.push_str("<ol class=\"phases\">");
        for b in &t.bands {
            let _ = write!(
                out,
                "<li>{} <span class=\"dim\">({}–{} s)</span></li>",
                esc(&b.label),
                svg::num(b.start_s),
                svg::num(b.end_s)
            );
        }
        out.push_str("</ol>");
    }
    out.push_str(&table(t));
    out.push_str("</figure>");
    out
}

/// Per phase: clock range per cluster, peak temperature and mean CPU use (as text).
fn table(t: &Timeline) -> String {
    let mut head = vec!["phase".to_string(), "seconds".to_string()];
    head.extend(t.clocks.iter().map(|s| format!("{} MHz", s.name)));
    head.push("max °C".into());
    head.push("mean CPU %".into());
    let within = |pts: &[(f64, f64)], b: &Band| -> Vec<f64> {
        pts.iter()
            .filter(|p| p.0 >= b.start_s && p.0 <= b.end_s)
            .map(|p| p.1)
            .collect()
    };
    let range = |v: &[f64]| match svg::extent(v.iter().copied()) {
        Some((lo, hi)) if lo == hi => svg::num(lo),
        Some((lo, hi)) => format!("{}–{}", svg::num(lo), svg::num(hi)),
        None => "–".into(),
    };
    let rows: Vec<Vec<String>> = t
        .bands
        .iter()
        .map(|b| {
            let mut r = vec![
                b.label.clone(),
                format!("{}–{}", svg::num(b.start_s), svg::num(b.end_s)),
            ];
            r.extend(t.clocks.iter().map(|s| range(&within(&s.pts, b))));
            let temp = within(&t.temp, b);
            r.push(
                svg::extent(temp.iter().copied())
                    .map(|e| svg::num(e.1))
                    .unwrap_or_else(|| "–".into()),
            );
            let cpu = within(&t.cpu, b);
            r.push(if cpu.is_empty() {
                "–".into()
            } else {
                svg::num(cpu.iter().sum::<f64>() / cpu.len() as f64)
            });
            r
        })
        .collect();
    data_table("Figures per phase", &head, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_cells_parse() {
        assert_eq!(clock_cell("2208/2016MHz"), vec![Some(2208.0), Some(2016.0)]);
        assert_eq!(clock_cell("1800 MHz"), vec![Some(1800.0)]);
        assert_eq!(clock_cell("-"), vec![None]);
        assert_eq!(time_of_day("22:56:10:"), Some(82570.0));
        assert_eq!(time_of_day("25:00:00"), None);
        assert_eq!(time_of_day("garbage"), None);
        assert_eq!(clock_names(Some("big.LITTLE"), 2), vec!["big", "LITTLE"]);
        assert_eq!(clock_names(Some("cpu0/cpu4/cpu6"), 3)[2], "cpu6");
        assert_eq!(clock_names(Some("CPU"), 1), vec!["CPU"]);
    }

    #[test]
    fn imported_tables_cross_midnight_in_order() {
        use document::imported::{MonitorRow, MonitorTable};
        let row = |time: &str, clock: &str| MonitorRow {
            time: time.into(),
            clock: clock.into(),
            temp_c: Some(50.0),
            cpu_pct: Some(100),
            ..Default::default()
        };
        let log = ImportedLog {
            monitor: vec![
                MonitorTable {
                    phase: "now".into(),
                    columns: vec!["Time".into(), "big.LITTLE".into()],
                    rows: vec![row("00:00:20", "1800/1400MHz")],
                },
                MonitorTable {
                    phase: "7-zip".into(),
                    columns: vec!["Time".into(), "big.LITTLE".into()],
                    rows: vec![
                        row("23:59:50", "2000/1400MHz"),
                        row("00:00:00", "1900/1400MHz"),
                        row("00:00:10", "1800/1400MHz"),
                    ],
                },
            ],
            ..Default::default()
        };
        let t = from_imported(&log);
        assert_eq!(t.clocks.len(), 2);
        assert_eq!(t.clocks[0].name, "big");
        let xs: Vec<f64> = t.clocks[0].pts.iter().map(|p| p.0).collect();
        assert_eq!(xs, vec![0.0, 10.0, 20.0, 30.0]);
        // Bands in time order: the snapshot printed first comes last.
        assert_eq!((t.bands[0].start_s, t.bands[0].end_s), (0.0, 20.0));
        assert_eq!(t.bands[1].start_s, 30.0);
        assert!(t.bands[1].label.contains("snapshot"));
    }
}
