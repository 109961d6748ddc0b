//! A small SVG writer: shapes, scales, ticks and axes — just what the report's charts need.
//!
//! Shapes carry CSS classes rather than colours, so the page's one stylesheet decides the look
//! (and a dark or print style could change it without touching the charts). Every text and
//! tooltip goes through [`esc`]. Non-finite coordinates are never written: a NaN in a document
//! drops a point, it does not break the drawing.

use std::fmt::Write;

use crate::escape::esc;

/// An `<svg>` element being written.
pub struct Svg {
    out: String,
}

/// Horizontal anchor of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn attr(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// Coordinates with one decimal: enough for a screen, short in the file.
fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

fn finite(vs: &[f64]) -> bool {
    vs.iter().all(|v| v.is_finite())
}

impl Svg {
    /// A chart `width`×`height` user units wide, scaling down with the page; `title` is its
    /// accessible name (and the tooltip of the empty parts).
    pub fn new(width: f64, height: f64, title: &str, class: &str) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart {class}\" viewBox=\"0 0 {w} {h}\" \
             width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
            w = n(width),
            h = n(height),
            t = esc(title)
        );
        Svg { out }
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, tip: Option<&str>) {
        if !finite(&[x, y, w, h]) {
            return;
        }
        let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let _ = write!(
            self.out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            n(x),
            n(y),
            n(w),
            n(h)
        );
        self.close(tip);
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        if !finite(&[x1, y1, x2, y2]) {
            return;
        }
        let _ = write!(
            self.out,
            "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            n(x1),
            n(y1),
            n(x2),
            n(y2)
        );
    }

    /// One polyline through the finite points (fewer than two: nothing).
    pub fn polyline(&mut self, pts: &[(f64, f64)], class: &str, tip: Option<&str>) {
        let pts: Vec<&(f64, f64)> = pts
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        if pts.len() < 2 {
            return;
        }
        let _ = write!(self.out, "<polyline class=\"{class}\" points=\"");
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{},{}", n(*x), n(*y));
        }
        self.out.push('"');
        self.close(tip);
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, class: &str, tip: Option<&str>) {
        if !finite(&[cx, cy, r]) {
            return;
        }
        let _ = write!(
            self.out,
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"",
            n(cx),
            n(cy),
            n(r)
        );
        self.close(tip);
    }

    pub fn text(&mut self, x: f64, y: f64, anchor: Anchor, class: &str, s: &str) {
        if !finite(&[x, y]) {
            return;
        }
        let _ = write!(
            self.out,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>",
            n(x),
            n(y),
            anchor.attr(),
            esc(s)
        );
    }

    /// A text turned 90° counter-clockwise about its anchor (y-axis labels).
    pub fn vtext(&mut self, x: f64, y: f64, class: &str, s: &str) {
        if !finite(&[x, y]) {
            return;
        }
        let _ = write!(
            self.out,
            "<text class=\"{class}\" x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" \
             transform=\"rotate(-90 {x} {y})\">{}</text>",
            esc(s),
            x = n(x),
            y = n(y)
        );
    }

    /// Ends an element, with a native tooltip (`<title>`) when given: hover text without
    /// JavaScript.
    fn close(&mut self, tip: Option<&str>) {
        match tip {
            Some(t) => {
                let _ = write!(self.out, "><title>{}</title></{}>", esc(t), self.open_tag());
            }
            None => self.out.push_str("/>"),
        }
    }

    /// Name of the element opened last (for closing it after a tooltip).
    fn open_tag(&self) -> &'static str {
        let start = self.out.rfind('<').unwrap_or(0);
        let tag = &self.out[start + 1..];
        ["rect", "polyline", "circle", "line", "text"]
            .into_iter()
            .find(|t| tag.starts_with(t))
            .unwrap_or("g")
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// A map from data values to user units, linear or logarithmic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    d0: f64,
    d1: f64,
    r0: f64,
    r1: f64,
    log: bool,
}

impl Scale {
    /// Linear; an empty or reversed domain is widened so every value maps somewhere sensible.
    pub fn linear(domain: (f64, f64), range: (f64, f64)) -> Scale {
        let (mut d0, mut d1) = domain;
        if !(d0.is_finite() && d1.is_finite()) {
            (d0, d1) = (0.0, 1.0);
        }
        if d1 <= d0 {
            let pad = if d0 == 0.0 { 1.0 } else { d0.abs() * 0.05 };
            (d0, d1) = (d0 - pad, d0 + pad);
        }
        Scale {
            d0,
            d1,
            r0: range.0,
            r1: range.1,
            log: false,
        }
    }

    /// Base-10 logarithmic over positive values (non-positive values map to the low end).
    pub fn log(domain: (f64, f64), range: (f64, f64)) -> Scale {
        let lo = if domain.0 > 0.0 && domain.0.is_finite() {
            domain.0
        } else {
            1.0
        };
        let hi = if domain.1 > lo && domain.1.is_finite() {
            domain.1
        } else {
            lo * 10.0
        };
        Scale {
            d0: lo.log10(),
            d1: hi.log10(),
            r0: range.0,
            r1: range.1,
            log: true,
        }
    }

    pub fn map(&self, v: f64) -> f64 {
        let v = if self.log {
            if v > 0.0 { v.log10() } else { self.d0 }
        } else {
            v
        };
        self.r0 + (v - self.d0) / (self.d1 - self.d0) * (self.r1 - self.r0)
    }

    /// The domain's ends in data units.
    pub fn domain(&self) -> (f64, f64) {
        if self.log {
            (10f64.powf(self.d0), 10f64.powf(self.d1))
        } else {
            (self.d0, self.d1)
        }
    }
}

/// A step of 1, 2 or 5 × 10ⁿ giving about `target` intervals over `span`.
fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    // The tolerance keeps 0.6/3 a step of 0.2 despite floating-point rounding.
    let nice = if f <= 1.0 + 1e-9 {
        1.0
    } else if f <= 2.0 + 1e-9 {
        2.0
    } else if f <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// `(lo, hi)` widened to whole steps, so the axis ends on ticks.
pub fn nice_domain(lo: f64, hi: f64, target: usize) -> (f64, f64) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 1.0, lo + 1.0)
    };
    let step = nice_step(hi - lo, target);
    ((lo / step).floor() * step, (hi / step).ceil() * step)
}

/// Round ticks covering `[lo, hi]` (about `target` of them).
pub fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    let step = nice_step(hi - lo, target);
    // Whole multiples of the step, rounded to the step's decimals (0.6, not 0.6000000000000001).
    let scale = 10f64.powi((-step.log10().floor()).max(0.0) as i32);
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last)
        .take(50)
        .map(|k| (k as f64 * step * scale).round() / scale)
        .map(|v| if v == 0.0 { 0.0 } else { v })
        .collect()
}

/// 1, 2, 5 × 10ⁿ ticks within `[lo, hi]` of a log axis (only powers of ten when those are many).
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi >= lo && hi.is_finite()) {
        return Vec::new();
    }
    let decades = (hi / lo).log10();
    let mults: &[f64] = if decades > 4.0 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut out = Vec::new();
    let mut p = 10f64.powf(lo.log10().floor());
    while p <= hi && out.len() < 60 {
        for m in mults {
            let v = p * m;
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                out.push(v);
            }
        }
        p *= 10.0;
    }
    out
}

/// Powers of two within `[lo, hi]`, every `every`-th (size axes: 4 KiB, 16 KiB, 64 KiB …).
pub fn pow2_ticks(lo: f64, hi: f64, every: u32) -> Vec<f64> {
    if !(lo > 0.0 && hi >= lo && hi.is_finite()) {
        return Vec::new();
    }
    let first = lo.log2().ceil() as i32;
    let last = hi.log2().floor() as i32;
    (first..=last)
        .filter(|e| (e - first) % every.max(1) as i32 == 0)
        .map(|e| 2f64.powi(e))
        .collect()
}

/// A number as a short label: no needless decimals.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let a = v.abs();
    let s = if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Bytes as KiB/MiB/GiB ("4 KiB", "64 MiB").
pub fn bytes(v: f64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = v;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{} {}", num(v), UNITS[u])
}

/// The inner area of a chart, where data is drawn (axes go around it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plot {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Plot {
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
}

/// Grid lines and labels of a vertical axis on the plot's left, its name turned along it.
pub fn y_axis(
    svg: &mut Svg,
    plot: Plot,
    scale: &Scale,
    ticks: &[f64],
    fmt: &dyn Fn(f64) -> String,
    label: &str,
) {
    for &t in ticks {
        let y = scale.map(t);
        if y < plot.y - 0.5 || y > plot.bottom() + 0.5 {
            continue;
        }
        svg.line(plot.x, y, plot.right(), y, "grid");
        svg.text(plot.x - 6.0, y + 4.0, Anchor::End, "tick", &fmt(t));
    }
    svg.line(plot.x, plot.y, plot.x, plot.bottom(), "axis");
    svg.vtext(plot.x - 46.0, plot.y + plot.h / 2.0, "axis-label", label);
}

/// Tick marks and labels of a horizontal axis under the plot, its name below them.
pub fn x_axis(
    svg: &mut Svg,
    plot: Plot,
    scale: &Scale,
    ticks: &[f64],
    fmt: &dyn Fn(f64) -> String,
    label: &str,
) {
    for &t in ticks {
        let x = scale.map(t);
        if x < plot.x - 0.5 || x > plot.right() + 0.5 {
            continue;
        }
        svg.line(x, plot.bottom(), x, plot.bottom() + 4.0, "axis");
        svg.text(x, plot.bottom() + 16.0, Anchor::Middle, "tick", &fmt(t));
    }
    svg.line(plot.x, plot.bottom(), plot.right(), plot.bottom(), "axis");
    if !label.is_empty() {
        svg.text(
            plot.x + plot.w / 2.0,
            plot.bottom() + 32.0,
            Anchor::Middle,
            "axis-label",
            label,
        );
    }
}

/// Splits a series where consecutive x values are more than `max_gap` apart, so a line is not
/// drawn across a time nobody measured.
pub fn split_at_gaps(pts: &[(f64, f64)], max_gap: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for &p in pts {
        if let Some(last) = cur.last()
            && p.0 - last.0 > max_gap
        {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(p);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Smallest and largest finite value, if any.
pub fn extent(vs: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    vs.into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(ticks(0.3, 0.9, 3), vec![0.4, 0.6, 0.8]);
        assert_eq!(nice_domain(408.0, 2208.0, 5), (0.0, 2500.0));
        assert!(ticks(f64::NAN, 1.0, 5).is_empty());
    }

    #[test]
    fn log_and_pow2_ticks() {
        assert_eq!(
            log_ticks(1.0, 100.0),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        assert_eq!(
            pow2_ticks(4096.0, 65536.0, 2),
            vec![4096.0, 16384.0, 65536.0]
        );
        assert_eq!(bytes(65536.0), "64 KiB");
        assert_eq!(bytes(64.0 * 1024.0 * 1024.0), "64 MiB");
    }

    #[test]
    fn scales_map_ends_to_ends() {
        let s = Scale::linear((0.0, 10.0), (100.0, 0.0));
        assert_eq!(s.map(0.0), 100.0);
        assert_eq!(s.map(10.0), 0.0);
        let l = Scale::log((1.0, 1000.0), (0.0, 300.0));
        assert!((l.map(10.0) - 100.0).abs() < 1e-9);
        // Degenerate domains still map finitely.
        assert!(Scale::linear((5.0, 5.0), (0.0, 1.0)).map(5.0).is_finite());
        assert!(Scale::log((0.0, -1.0), (0.0, 1.0)).map(3.0).is_finite());
    }

    #[test]
    fn non_finite_points_are_not_written_and_text_is_escaped() {
        let mut s = Svg::new(100.0, 50.0, "t<", "x");
        s.polyline(&[(0.0, 1.0), (f64::NAN, 2.0), (3.0, 4.0)], "l", Some("a&b"));
        s.rect(f64::INFINITY, 0.0, 1.0, 1.0, "r", None);
        s.text(1.0, 1.0, Anchor::Start, "c", "<b>");
        let out = s.finish();
        assert!(out.contains("points=\"0,1 3,4\""), "{out}");
        assert!(out.contains("<title>a&amp;b</title></polyline>"), "{out}");
        assert!(!out.contains("<rect"));
        assert!(out.contains("&lt;b&gt;") && out.contains("t&lt;"));
    }

    #[test]
    fn gaps_split_series() {
        let parts = split_at_gaps(&[(0.0, 1.0), (1.0, 1.0), (10.0, 1.0), (11.0, 1.0)], 3.0);
        assert_eq!(parts.len(), 2);
    }
}
