//! Where a figure stands among the corpus's rows. Pure: no I/O.
//!
//! Scope: a value is ranked only among rows of the same [`ArchClass`] (x86, ARM, RISC-V and
//! LoongArch are never ranked as one class), that have the figure, and — unless
//! [`PlaceOptions::include_not_comparable`] — that the page does not mark not comparable.
//! Higher is better for all six figures.

use crate::{ArchClass, Corpus, Entry, Figure, corpus, normalise_soc};
use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PlaceOptions {
    /// Also rank among rows the page marks not comparable (undervolted, overclocked, WSL2 …).
    pub include_not_comparable: bool,
    /// The run's core count: same-SoC rows of another core count are left out of the group
    /// (a 96-core Altra is no comparison for a 2-vCPU slice). `None`: every same-SoC row.
    pub cores: Option<u32>,
}

/// A rank among `of` published rows: 1 + the number of rows with a higher value, so it is
/// within 1..=of+1; rows with an equal value share the rank.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rank {
    pub rank: usize,
    pub of: usize,
    /// Rows with an equal value.
    pub ties: usize,
    /// Share of the rows with a lower value, in percent (0 … 100): monotone in the value.
    pub percentile: f64,
}

/// The same SoC's rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SocStats {
    /// The normalised SoC name.
    pub soc: String,
    /// The group in words: "Rockchip RK3588, 8 cores 4+4" (the SoC and, where known, the
    /// core count and layout the rows share with the run).
    pub group: String,
    /// Same-SoC rows left out because their core count differs from the run's.
    pub other_cores: usize,
    pub count: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub rank: Rank,
    /// The value as a share of the median, in percent.
    pub percent_of_median: f64,
}

/// A published row next to the value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Neighbour {
    pub device: String,
    pub soc: Option<String>,
    pub value: f64,
    pub line: usize,
    pub log: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placement {
    pub figure: Figure,
    pub value: f64,
    pub class: ArchClass,
    /// What the ranking is among, in words ("ARM rows of sbc-bench v0.9.72 Results.md …, 2026-06-19
    /// with a 7-Zip multi figure, rows marked not comparable excluded").
    pub scope: String,
    pub source: String,
    pub date: String,
    /// Among all rows in scope; `None` when there is none.
    pub all: Option<Rank>,
    /// Among the rows in scope of the same SoC; `None` when the SoC is unknown or has no row.
    pub same_soc: Option<SocStats>,
    /// The nearest published row with a higher value (the lowest of those).
    pub above: Option<Neighbour>,
    /// The nearest published row with a lower value (the highest of those).
    pub below: Option<Neighbour>,
    /// Rows of this class with the figure left out because the page marks them not comparable.
    pub excluded_not_comparable: usize,
}

/// Place a value in the built-in corpus, not-comparable rows excluded.
pub fn place(figure: Figure, value: f64, soc: Option<&str>, class: ArchClass) -> Placement {
    place_with(corpus(), figure, value, soc, class, PlaceOptions::default())
}

/// Place a value in any corpus.
pub fn place_with(
    c: &Corpus,
    figure: Figure,
    value: f64,
    soc: Option<&str>,
    class: ArchClass,
    opts: PlaceOptions,
) -> Placement {
    let with_fig: Vec<(&Entry, f64)> = c
        .entries
        .iter()
        .filter(|e| e.class == class)
        .filter_map(|e| Some((e, e.figure(figure)?)))
        .collect();
    let excluded = with_fig.iter().filter(|(e, _)| !e.comparable()).count();
    let rows: Vec<(&Entry, f64)> = with_fig
        .into_iter()
        .filter(|(e, _)| opts.include_not_comparable || e.comparable())
        .collect();
    let all = rank(rows.iter().map(|(_, v)| *v), value);
    let soc_name = soc.map(normalise_soc);
    let same_soc = soc_name.as_ref().and_then(|s| {
        let same: Vec<&(&Entry, f64)> = rows
            .iter()
            .filter(|(e, _)| e.soc.as_deref() == Some(s.as_str()))
            .collect();
        let fits = |e: &Entry| match (opts.cores, e.cores) {
            (Some(run), Some(row)) => run == row,
            _ => true,
        };
        let other_cores = same.iter().filter(|(e, _)| !fits(e)).count();
        let vals: Vec<f64> = same
            .iter()
            .filter(|(e, _)| fits(e))
            .map(|(_, v)| *v)
            .collect();
        let group = group_name(s, opts.cores);
        let r = rank(vals.iter().copied(), value)?;
        let mut sorted = vals.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(SocStats {
            soc: s.clone(),
            group,
            other_cores,
            count: n,
            median,
            min: sorted[0],
            max: sorted[n - 1],
            rank: r,
            percent_of_median: if median > 0.0 {
                100.0 * value / median
            } else {
                f64::NAN
            },
        })
    });
    let neighbour = |(e, v): &(&Entry, f64)| Neighbour {
        device: e.device.clone(),
        soc: e.soc.clone(),
        value: *v,
        line: e.line,
        log: e.log.clone(),
    };
    let above = rows
        .iter()
        .filter(|(_, v)| *v > value)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.line.cmp(&b.0.line)))
        .map(neighbour);
    let below = rows
        .iter()
        .filter(|(_, v)| *v < value)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.line.cmp(&a.0.line)))
        .map(neighbour);
    let scope = format!(
        "{} rows of {}, {} with a {} figure, {}",
        class.name(),
        c.source,
        c.date,
        figure.label(),
        if opts.include_not_comparable {
            format!("rows marked not comparable included ({excluded})")
        } else {
            format!("rows marked not comparable excluded ({excluded})")
        }
    );
    Placement {
        figure,
        value,
        class,
        scope,
        source: c.source.clone(),
        date: c.date.clone(),
        all,
        same_soc,
        above,
        below,
        excluded_not_comparable: if opts.include_not_comparable {
            0
        } else {
            excluded
        },
    }
}

/// "Rockchip RK3588, 8 cores 4+4", "Ampere Altra, 2 cores", "Rockchip RK3399".
pub fn group_name(soc: &str, cores: Option<u32>) -> String {
    let fixed = document::socs::lookup(soc);
    let n = cores.or_else(|| fixed.and_then(|s| s.core_count()));
    let layout = fixed
        .filter(|s| s.cores.len() > 1 && s.core_count() == n)
        .and_then(|s| s.layout());
    match (n, layout) {
        (Some(n), Some(l)) => format!("{soc}, {n} cores {l}"),
        (Some(1), None) => format!("{soc}, 1 core"),
        (Some(n), None) => format!("{soc}, {n} cores"),
        (None, _) => soc.to_string(),
    }
}

fn rank(values: impl Iterator<Item = f64>, value: f64) -> Option<Rank> {
    let (mut n, mut higher, mut lower, mut ties) = (0, 0, 0, 0);
    for v in values {
        n += 1;
        if v > value {
            higher += 1;
        } else if v < value {
            lower += 1;
        } else {
            ties += 1;
        }
    }
    (n > 0).then(|| Rank {
        rank: higher + 1,
        of: n,
        ties,
        percentile: 100.0 * lower as f64 / n as f64,
    })
}

impl Placement {
    /// One line to paste, e.g. "7-Zip multi 7,520 MIPS: 41st of 180 ARM rows (top 23 %);
    /// Rockchip RK3588, 8 cores 4+4: 4 rows, median 16,400, range 15,000–17,000, yours 46 % of the median
    /// [sbc-bench v0.9.72 Results.md (…), 2026-06-19]". The source and date are always in it.
    pub fn summary(&self) -> String {
        self.line() + &format!(" [{}, {}]", self.source, self.date)
    }

    /// [`Placement::summary`] without the source and date (for lists that show them once).
    pub fn line(&self) -> String {
        let unit = self.figure.unit();
        let mut s = format!("{} {} {unit}: ", self.figure.label(), number(self.value));
        match self.all {
            Some(r) if r.rank > r.of => {
                s += &format!("below all {} {} rows (last)", r.of, self.class.name());
            }
            Some(r) => {
                let top = (100.0 * r.rank as f64 / r.of as f64)
                    .clamp(0.0, 100.0)
                    .round();
                s += &format!(
                    "{} of {} {} rows (top {top} %)",
                    ordinal(r.rank),
                    r.of,
                    self.class.name()
                );
            }
            None => s += &format!("no published {} row has this figure", self.class.name()),
        }
        if let Some(soc) = &self.same_soc {
            s += &format!(
                "; {}: {} row{}, median {}, range {}–{}, yours {:.0} % of the median",
                soc.group,
                soc.count,
                if soc.count == 1 { "" } else { "s" },
                number(soc.median),
                number(soc.min),
                number(soc.max),
                soc.percent_of_median
            );
            if soc.other_cores > 0 {
                s += &format!(
                    " ({} row{} of other core counts left out)",
                    soc.other_cores,
                    if soc.other_cores == 1 { "" } else { "s" }
                );
            }
        }
        if self.excluded_not_comparable > 0 {
            s += &format!(
                "; {} row{} marked not comparable left out",
                self.excluded_not_comparable,
                if self.excluded_not_comparable == 1 {
                    ""
                } else {
                    "s"
                }
            );
        }
        s
    }
}

/// 16400 → "16,400"; figures below 100 (cpuminer kH/s) keep two decimals.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() < 100.0 {
        return format!("{v:.2}");
    }
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 { format!("-{out}") } else { out }
}

pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::{number, ordinal};

    #[test]
    fn ordinals_and_numbers() {
        let o: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 258]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            o,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "258th"
            ]
        );
        assert_eq!(number(16400.0), "16,400");
        assert_eq!(number(1823250.0), "1,823,250");
        assert_eq!(number(741530.0), "741,530");
        assert_eq!(number(100.0), "100");
        assert_eq!(number(48.28), "48.28");
    }
}
