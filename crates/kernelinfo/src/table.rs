//! The built-in table of kernel.org series (data/series.tsv): release dates, end of life
//! (announced, projected or unknown) and the latest point release the table knows.

use std::sync::OnceLock;

use chrono::{Datelike, Months, NaiveDate};

/// End of life of a series as the table states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    /// Announced: the day of the last release.
    Day(NaiveDate),
    /// Projected by kernel.org for a month ("Dec, 2028"): support ends with that month.
    Month { year: i32, month: u32 },
    /// Not announced.
    Unknown,
}

impl Eol {
    /// The last day covered.
    pub fn last_day(&self) -> Option<NaiveDate> {
        match *self {
            Eol::Day(d) => Some(d),
            Eol::Month { year, month } => NaiveDate::from_ymd_opt(year, month, 1)?
                .checked_add_months(Months::new(1))?
                .pred_opt(),
            Eol::Unknown => None,
        }
    }

    /// "2025-12-03" or "2028-12".
    pub fn text(&self) -> Option<String> {
        match *self {
            Eol::Day(d) => Some(d.to_string()),
            Eol::Month { year, month } => Some(format!("{year}-{month:02}")),
            Eol::Unknown => None,
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    pub major: u32,
    pub minor: u32,
    pub longterm: bool,
    pub released: NaiveDate,
    pub eol: Eol,
    /// The latest point release the table knows (patch number) and its date.
    pub latest: Option<(u32, NaiveDate)>,
}

impl Series {
    pub fn name(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The month the table was checked against kernel.org ("2026-11").
    pub as_of: String,
    /// Ordered by series.
    pub series: Vec<Series>,
}

const BUILTIN: &str = include_str!("../data/series.tsv");

impl Table {
    /// The table compiled into boardbench.
    pub fn builtin() -> &'static Table {
        static T: OnceLock<Table> = OnceLock::new();
        // The built-in file is checked by a unit test, so this cannot fail in a release.
        T.get_or_init(|| Table::parse(BUILTIN).unwrap_or_else(|e| panic!("data/series.tsv: {e}")))
    }

    pub fn find(&self, major: u32, minor: u32) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.major == major && s.minor == minor)
    }

    pub fn newest(&self) -> Option<&Series> {
        self.series.last()
    }

    /// The longterm series still supported on `today`, oldest first.
    pub fn supported_longterm(&self, today: NaiveDate) -> Vec<&Series> {
        self.series
            .iter()
            .filter(|s| s.longterm && s.eol.last_day().is_some_and(|d| d >= today))
            .collect()
    }

    /// Parses the TSV format described in the file's header.
    pub fn parse(text: &str) -> Result<Table, String> {
        let mut as_of = None;
        let mut series: Vec<Series> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let err = |what: &str| format!("line {}: {what}: {line:?}", n + 1);
            if f[0] == "as_of" {
                let v = f.get(1).ok_or_else(|| err("as_of without a month"))?;
                parse_month(v).ok_or_else(|| err("as_of is not YYYY-MM"))?;
                as_of = Some(v.to_string());
                continue;
            }
            if f.len() != 6 {
                return Err(err("expected 6 tab-separated columns"));
            }
            let (major, minor) = f[0]
                .split_once('.')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .ok_or_else(|| err("series is not MAJOR.MINOR"))?;
            let longterm = match f[1] {
                "longterm" => true,
                "stable" => false,
                _ => return Err(err("kind is not longterm or stable")),
            };
            let released = day(f[2]).ok_or_else(|| err("released is not YYYY-MM-DD"))?;
            let eol = match f[3] {
                "-" => Eol::Unknown,
                s if s.len() == 7 => {
                    let (year, month) = parse_month(s).ok_or_else(|| err("bad eol month"))?;
                    Eol::Month { year, month }
                }
                s => Eol::Day(day(s).ok_or_else(|| err("bad eol day"))?),
            };
            let latest = match (f[4], f[5]) {
                ("-", "-") => None,
                (v, d) => {
                    let r = crate::version::parse_release(v)
                        .filter(|r| r.major == major && r.minor == minor && r.local.is_empty())
                        .and_then(|r| r.patch)
                        .ok_or_else(|| err("latest is not a point release of the series"))?;
                    Some((r, day(d).ok_or_else(|| err("bad latest_date"))?))
                }
            };
            if let Some(prev) = series.last()
                && (prev.major, prev.minor) >= (major, minor)
            {
                return Err(err("series out of order"));
            }
            series.push(Series {
                major,
                minor,
                longterm,
                released,
                eol,
                latest,
            });
        }
        Ok(Table {
            as_of: as_of.ok_or("no as_of line")?,
            series,
        })
    }
}

fn day(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

fn parse_month(s: &str) -> Option<(i32, u32)> {
    let d = NaiveDate::parse_from_str(&format!("{s}-01"), "%Y-%m-%d").ok()?;
    Some((d.year(), d.month()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses_and_is_consistent() {
        let t = Table::parse(BUILTIN).unwrap();
        assert_eq!(t.as_of, "2026-11");
        for s in &t.series {
            if let Some(d) = s.eol.last_day() {
                assert!(d > s.released, "{}", s.name());
            }
            if let Some((_, d)) = s.latest {
                assert!(d >= s.released, "{}", s.name());
                // A final release is dated the EOL day.
                if let Eol::Day(e) = s.eol {
                    assert_eq!(d, e, "{}: latest of an ended series is its last", s.name());
                }
            }
        }
        // Every longterm series of the last decade is there.
        for (a, b) in [(4, 4), (4, 9), (4, 14), (4, 19), (5, 4), (5, 10), (5, 15)] {
            assert!(t.find(a, b).unwrap().longterm);
        }
        for (a, b) in [(6, 1), (6, 6), (6, 12), (6, 18)] {
            assert!(t.find(a, b).unwrap().longterm);
        }
        assert!(!t.find(6, 3).unwrap().longterm);
    }

    #[test]
    fn projected_month_covers_the_whole_month() {
        let e = Eol::Month {
            year: 2026,
            month: 12,
        };
        assert_eq!(e.last_day(), NaiveDate::from_ymd_opt(2026, 12, 31));
        assert_eq!(e.text().unwrap(), "2026-12");
    }

    #[test]
    fn malformed_tables_are_errors() {
        assert!(Table::parse("6.1\tlongterm\t2022-12-11\t2027-12\t-\t-\n").is_err()); // no as_of
        assert!(Table::parse("as_of\t2026-11\n6.1\tlts\t2022-12-11\t2027-12\t-\t-\n").is_err());
        assert!(
            Table::parse("as_of\t2026-11\n6.1\tlongterm\t2022-12-11\t2027-12\t6.2.1\t2023-01-01\n")
                .is_err()
        );
        assert!(
            Table::parse("as_of\t2026-11\n6.2\tstable\t2023-02-19\t-\t-\t-\n6.1\tstable\t2022-12-11\t-\t-\t-\n")
                .is_err()
        );
        assert!(Table::parse("as_of\t2026-13\n").is_err());
    }
}
