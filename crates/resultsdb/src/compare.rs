//! Side-by-side comparison of runs: a pure function of the stored runs.
//!
//! The six headline figures of sbc-bench's Results.md come first (suite `headline`), by the
//! summary row's rules, so a native run and an imported log meet on them; every measurement
//! follows.
//!
//! Measurements are matched by (suite, test, variant, threads), falling back to (suite, test)
//! when that row is unique in both runs (see [`match_rows`]); each later run is given as a
//! ratio to the first (A). "Beyond spread" means the difference is larger than the runs' own
//! noise: |B − A| / A · 100 > spread_A + spread_B (the spreads in percent of the mean; a
//! missing one counts as the other, both missing → unknown). Per-GHz figures divide a value by
//! the run's highest measured clock in GHz (suite "clock", or an imported log's clock check),
//! only for higher-is-better figures where a clock is known.

use serde::Serialize;

use crate::RunDetail;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub runs: Vec<RunHead>,
    pub rows: Vec<CompareRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunHead {
    pub id: i64,
    pub device: Option<String>,
    pub clock_mhz: Option<f64>,
    /// When it started and on which kernel: runs of one board are told apart by these.
    pub started: Option<String>,
    pub kernel: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRow {
    pub suite: String,
    pub test: String,
    pub variant: Option<String>,
    pub threads: u32,
    pub unit: String,
    pub higher_is_better: bool,
    /// One cell per run (in the order given); `None` where the run lacks the measurement.
    pub cells: Vec<Option<Cell>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub value: f64,
    pub spread_pct: Option<f64>,
    /// value / A's value (None for A itself, or without A).
    pub ratio: Option<f64>,
    /// value per GHz of the run's measured clock.
    pub per_ghz: Option<f64>,
    /// per-GHz ratio to A.
    pub per_ghz_ratio: Option<f64>,
    /// Whether the difference to A exceeds the spreads; `None` = spreads unknown.
    pub beyond_spread: Option<bool>,
    /// This run's own variant and thread count when they differ from the row's (a row matched
    /// by suite and test alone: an imported log names its variant after sbc-bench's version),
    /// e.g. `[0.9.72] 1T`; `None` when they are the row's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_label: Option<String>,
}

/// Finds, for every measurement, its partner in each run: the row with the same (suite, test,
/// variant, threads), or else — when both runs have exactly one row of that (suite, test) — that
/// row (imported logs name their variant after the sbc-bench version and count threads
/// differently, yet their "7zip / multi" rows are the same figure).
///
/// Linear in the number of measurements (issue 48: a quadratic search let two compares of
/// large runs hold the service for minutes): each run's rows are indexed once by their full key
/// (in document order, a cursor past the used ones) and by (suite, test) with their count.
fn match_rows(runs: &[RunDetail]) -> Vec<Vec<Option<usize>>> {
    use std::collections::HashMap;
    type Full<'a> = (&'a str, &'a str, Option<&'a str>, u32);
    struct Index<'a> {
        /// Every row of a full key, in document order, and how many of them are used up front.
        full: HashMap<Full<'a>, (Vec<usize>, usize)>,
        /// The row of a (suite, test) when it is the only one, else `None`.
        only: HashMap<(&'a str, &'a str), Option<usize>>,
    }
    let mut indexes: Vec<Index> = runs
        .iter()
        .map(|r| {
            let mut full: HashMap<Full, (Vec<usize>, usize)> = HashMap::new();
            let mut only: HashMap<(&str, &str), Option<usize>> = HashMap::new();
            for (i, m) in r.measurements.iter().enumerate() {
                full.entry((&m.suite, &m.test, m.variant.as_deref(), m.threads))
                    .or_default()
                    .0
                    .push(i);
                only.entry((&m.suite, &m.test))
                    .and_modify(|o| *o = None)
                    .or_insert(Some(i));
            }
            Index { full, only }
        })
        .collect();
    let mut used: Vec<Vec<bool>> = runs
        .iter()
        .map(|r| vec![false; r.measurements.len()])
        .collect();
    let mut out = Vec::new();
    for (ri, run) in runs.iter().enumerate() {
        for (mi, m) in run.measurements.iter().enumerate() {
            if used[ri][mi] {
                continue;
            }
            used[ri][mi] = true;
            let pair = (m.suite.as_str(), m.test.as_str());
            let key = (pair.0, pair.1, m.variant.as_deref(), m.threads);
            let unique_here = indexes[ri].only.get(&pair).copied().flatten() == Some(mi);
            let mut row = vec![None; runs.len()];
            row[ri] = Some(mi);
            for rj in ri + 1..runs.len() {
                let exact = indexes[rj].full.get_mut(&key).and_then(|(rows, next)| {
                    while *next < rows.len() && used[rj][rows[*next]] {
                        *next += 1;
                    }
                    rows.get(*next).copied()
                });
                let found = exact.or_else(|| {
                    unique_here
                        .then(|| indexes[rj].only.get(&pair).copied().flatten())
                        .flatten()
                        .filter(|k| !used[rj][*k])
                });
                if let Some(k) = found {
                    used[rj][k] = true;
                    row[rj] = Some(k);
                }
            }
            out.push(row);
        }
    }
    out
}

/// A run's value and spread in one row (`None`: the run lacks it).
type Found = Option<(f64, Option<f64>)>;

/// The suite name of the six headline rows that open every comparison.
pub const HEADLINE_SUITE: &str = "headline";

/// The six figures of sbc-bench's Results.md for every run, by the same rules as its summary
/// row: a native run's `membw / libc memcpy copy` and an imported log's `tinymembench /
/// memcpy` are both its "memcpy", so they meet here whatever their rows are called.
fn headline_rows(runs: &[RunDetail]) -> Vec<Vec<Found>> {
    let figures: Vec<Option<headline::Headline<f64>>> = runs
        .iter()
        .map(|r| {
            serde_json::from_value::<document::ResultDocument>(r.document.clone())
                .ok()
                .map(|d| headline::figures(&d))
        })
        .collect();
    headline::Figure::ALL
        .iter()
        .map(|f| {
            figures
                .iter()
                .map(|h| h.as_ref().and_then(|h| f.of(h)).map(|v| (v, None)))
                .collect()
        })
        .collect()
}

pub fn compare(runs: &[RunDetail]) -> Comparison {
    let clocks: Vec<Option<f64>> = runs
        .iter()
        .map(|r| r.summary.columns.clock_mhz.filter(|c| *c > 0.0))
        .collect();
    let headline_rows = headline_rows(runs)
        .into_iter()
        .zip(headline::Figure::ALL)
        .filter(|(found, _)| found.iter().any(Option::is_some))
        .map(|(found, f)| {
            row_of(
                HEADLINE_SUITE,
                f.column(),
                None,
                0,
                f.unit(),
                true,
                &found,
                &clocks,
            )
        });
    let rows = match_rows(runs).into_iter().map(|matched| {
        let first = matched
            .iter()
            .enumerate()
            .find_map(|(ri, mi)| mi.map(|mi| &runs[ri].measurements[mi]))
            .expect("every matched row has at least one measurement");
        let found: Vec<Option<(f64, Option<f64>)>> = matched
            .iter()
            .enumerate()
            .map(|(ri, mi)| {
                mi.map(|mi| {
                    let m = &runs[ri].measurements[mi];
                    (m.value, m.spread_pct)
                })
            })
            .collect();
        let mut row = row_of(
            &first.suite,
            &first.test,
            first.variant.clone(),
            first.threads,
            &first.unit,
            first.higher_is_better,
            &found,
            &clocks,
        );
        // The row is named after its first run's measurement; a cell matched by suite and test
        // alone names its own.
        for (cell, (ri, mi)) in row.cells.iter_mut().zip(matched.iter().enumerate()) {
            if let (Some(cell), Some(mi)) = (cell.as_mut(), mi) {
                let m = &runs[ri].measurements[*mi];
                if m.variant != first.variant || m.threads != first.threads {
                    cell.own_label = Some(format!(
                        "{}{}T",
                        m.variant
                            .as_deref()
                            .map_or(String::new(), |v| format!("[{v}] ")),
                        m.threads
                    ));
                }
            }
        }
        row
    });
    let rows = headline_rows.chain(rows).collect();
    Comparison {
        runs: runs
            .iter()
            .map(|r| RunHead {
                id: r.summary.id,
                device: r.summary.columns.device.clone(),
                clock_mhz: r.summary.columns.clock_mhz,
                started: r.summary.columns.started.clone(),
                kernel: r.summary.columns.kernel.clone(),
            })
            .collect(),
        rows,
    }
}

/// One row: each run's value and spread (`found`), as ratios to the first run's (A).
#[allow(clippy::too_many_arguments)]
fn row_of(
    suite: &str,
    test: &str,
    variant: Option<String>,
    threads: u32,
    unit: &str,
    hib: bool,
    found: &[Found],
    clocks: &[Option<f64>],
) -> CompareRow {
    let per_ghz = |i: usize, v: f64| {
        let is_clock = suite == "clock";
        (hib && !is_clock)
            .then_some(())
            .and(clocks[i])
            .map(|c| v / (c / 1000.0))
    };
    let a = found.first().copied().flatten();
    let a_per_ghz = a.and_then(|(v, _)| per_ghz(0, v));
    let cells = found
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (value, spread) = (*f)?;
            let pg = per_ghz(i, value);
            let (ratio, beyond, pg_ratio) = match (i, a) {
                (0, _) | (_, None) => (None, None, None),
                (_, Some((av, aspread))) => (
                    ratio(value, av),
                    beyond_spread(av, aspread, value, spread),
                    pg.zip(a_per_ghz).and_then(|(p, ap)| ratio(p, ap)),
                ),
            };
            Some(Cell {
                value,
                spread_pct: spread,
                ratio,
                per_ghz: pg,
                per_ghz_ratio: pg_ratio,
                beyond_spread: beyond,
                own_label: None,
            })
        })
        .collect();
    CompareRow {
        suite: suite.to_string(),
        test: test.to_string(),
        variant,
        threads,
        unit: unit.to_string(),
        higher_is_better: hib,
        cells,
    }
}

fn ratio(v: f64, a: f64) -> Option<f64> {
    (a != 0.0 && a.is_finite() && v.is_finite()).then(|| v / a)
}

/// The rule in the module comment.
pub fn beyond_spread(a: f64, sa: Option<f64>, b: f64, sb: Option<f64>) -> Option<bool> {
    let (sa, sb) = match (sa, sb) {
        (Some(x), Some(y)) => (x, y),
        (Some(x), None) | (None, Some(x)) => (x, x),
        (None, None) => return None,
    };
    if a == 0.0 {
        return None;
    }
    Some(((b - a) / a).abs() * 100.0 > sa.abs() + sb.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_rule() {
        assert_eq!(
            beyond_spread(100.0, Some(1.0), 101.5, Some(1.0)),
            Some(false)
        );
        assert_eq!(
            beyond_spread(100.0, Some(1.0), 103.0, Some(1.0)),
            Some(true)
        );
        assert_eq!(beyond_spread(100.0, None, 97.0, Some(1.0)), Some(true));
        assert_eq!(beyond_spread(100.0, None, 97.0, None), None);
    }

    fn run(id: i64, variant: &str, threads: u32, value: f64) -> RunDetail {
        RunDetail {
            summary: crate::RunListing {
                id,
                columns: headline::columns::RunColumns {
                    started: Some(format!("2026-01-0{id}T00:00:00Z")),
                    device: Some("Rock 5B".into()),
                    kernel: Some(format!("6.{id}")),
                    ..Default::default()
                },
                tags: vec![],
                interrupted: false,
            },
            measurements: vec![document::Measurement {
                suite: "7zip".into(),
                test: "multi".into(),
                variant: Some(variant.into()),
                threads,
                cpus: vec![],
                value,
                unit: "MIPS".into(),
                higher_is_better: true,
                spread_pct: None,
            }],
            findings: vec![],
            document: serde_json::Value::Null,
        }
    }

    fn measurement(
        suite: &str,
        test: &str,
        variant: Option<&str>,
        threads: u32,
    ) -> document::Measurement {
        document::Measurement {
            suite: suite.into(),
            test: test.into(),
            variant: variant.map(Into::into),
            threads,
            cpus: vec![],
            value: 1.0,
            unit: "MB/s".into(),
            higher_is_better: true,
            spread_pct: None,
        }
    }

    /// The matching as it was written first (quadratic): the rule the linear one keeps.
    fn match_rows_by_search(runs: &[RunDetail]) -> Vec<Vec<Option<usize>>> {
        let mut used: Vec<Vec<bool>> = runs
            .iter()
            .map(|r| vec![false; r.measurements.len()])
            .collect();
        let only_one = |r: &RunDetail, suite: &str, test: &str| {
            let mut it = r
                .measurements
                .iter()
                .enumerate()
                .filter(|(_, m)| m.suite == suite && m.test == test);
            match (it.next(), it.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        };
        let mut out = Vec::new();
        for (ri, run) in runs.iter().enumerate() {
            for (mi, m) in run.measurements.iter().enumerate() {
                if used[ri][mi] {
                    continue;
                }
                used[ri][mi] = true;
                let unique_here = only_one(run, &m.suite, &m.test) == Some(mi);
                let mut row = vec![None; runs.len()];
                row[ri] = Some(mi);
                for (rj, other) in runs.iter().enumerate().skip(ri + 1) {
                    let exact = other.measurements.iter().enumerate().position(|(k, o)| {
                        !used[rj][k]
                            && o.suite == m.suite
                            && o.test == m.test
                            && o.variant == m.variant
                            && o.threads == m.threads
                    });
                    let found = exact.or_else(|| {
                        unique_here
                            .then(|| only_one(other, &m.suite, &m.test))
                            .flatten()
                            .filter(|k| !used[rj][*k])
                    });
                    if let Some(k) = found {
                        used[rj][k] = true;
                        row[rj] = Some(k);
                    }
                }
                out.push(row);
            }
        }
        out
    }

    #[test]
    fn matching_keeps_the_rule_of_the_search_it_replaces() {
        // Repeated keys, keys unique in one run only, variants and thread counts that differ:
        // a small deterministic mix over four runs.
        let mut seed = 7u64;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..200 {
            let runs: Vec<RunDetail> = (0..4)
                .map(|id| {
                    let mut r = run(id + 1, "v", 1, 1.0);
                    r.measurements = (0..next(12))
                        .map(|_| {
                            let suite = ["a", "b", "c"][next(3) as usize];
                            let test = ["x", "y"][next(2) as usize];
                            let variant = [None, Some("1"), Some("2")][next(3) as usize];
                            measurement(suite, test, variant, next(3) as u32)
                        })
                        .collect();
                    r
                })
                .collect();
            assert_eq!(match_rows(&runs), match_rows_by_search(&runs));
        }
    }

    #[test]
    fn a_compare_of_large_runs_is_linear() {
        // Issue 48: three runs of 20,000 measurements (1.9 MB each, within every limit) took
        // the quadratic matching tens of seconds.
        let runs: Vec<RunDetail> = (0..3)
            .map(|id| {
                let mut r = run(id + 1, "v", 1, 1.0);
                r.measurements = (0..20_000)
                    .map(|i| measurement("s", &format!("t{}", (i + id * 7919) % 20_000), None, 1))
                    .collect();
                r
            })
            .collect();
        let start = std::time::Instant::now();
        let c = compare(&runs);
        let took = start.elapsed();
        assert_eq!(c.rows.len(), 20_000);
        assert!(c.rows.iter().all(|r| r.cells.iter().all(Option::is_some)));
        assert!(took < std::time::Duration::from_secs(3), "took {took:?}");
    }

    #[test]
    fn a_cell_matched_by_suite_and_test_alone_names_its_own_variant() {
        let c = compare(&[
            run(1, "7z 23.01", 4, 100.0),
            run(2, "sbc-bench 0.9.72", 8, 90.0),
        ]);
        let row = c.rows.iter().find(|r| r.suite == "7zip").unwrap();
        assert_eq!(row.variant.as_deref(), Some("7z 23.01"));
        assert_eq!(row.cells[0].as_ref().unwrap().own_label, None);
        assert_eq!(
            row.cells[1].as_ref().unwrap().own_label.as_deref(),
            Some("[sbc-bench 0.9.72] 8T")
        );
        assert_eq!(c.runs[1].kernel.as_deref(), Some("6.2"));
        assert_eq!(c.runs[1].started.as_deref(), Some("2026-01-02T00:00:00Z"));
    }
}
