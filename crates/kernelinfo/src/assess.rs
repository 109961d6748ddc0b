//! The upstream status of the kernel's series and the plain-words verdict.

use chrono::{Months, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::origin::{Kind, Origin};
use crate::table::{Eol, Table};
use crate::version::Release;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// kernel.org still publishes fixes for the series.
    Supported,
    EndOfLife,
    /// A release candidate: never supported.
    Prerelease,
    /// The table does not know the series (newer than the table).
    Unknown,
}

/// How the end of life is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EolBasis {
    /// The last release was announced.
    Announced,
    /// kernel.org's projected month for a longterm series.
    Projected,
    /// A non-longterm series without an announcement: release date plus four months.
    Estimated,
}

/// The series' upstream status and how far behind its latest point release the kernel is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upstream {
    pub series: String,
    pub in_table: bool,
    /// `None` when the table cannot tell (a series newer than the table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longterm: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub released: Option<String>,
    /// "2027-12" (projected month) or "2025-12-03".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eol_basis: Option<EolBasis>,
    pub status: Status,
    /// The latest point release the table knows and its date; `latest_is_final` when the series
    /// ended with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_known: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_known_date: Option<String>,
    pub latest_is_final: bool,
    /// Point releases between the kernel's and the latest known one. `behind_at_least`: the
    /// series is still maintained, so the real distance is larger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behind: Option<u32>,
    pub behind_at_least: bool,
}

/// How bad the verdict is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Ok,
    Warning,
    Critical,
    Unknown,
}

/// Non-longterm series get fixes for about three months; four is endoflife.date's rule, used
/// where no end was announced.
const STABLE_MONTHS: u32 = 4;

pub fn upstream(rel: &Release, point: Option<u32>, table: &Table, today: NaiveDate) -> Upstream {
    let series = rel.series();
    let mut u = Upstream {
        series: series.clone(),
        in_table: false,
        longterm: None,
        released: None,
        eol: None,
        eol_basis: None,
        status: Status::Unknown,
        latest_known: None,
        latest_known_date: None,
        latest_is_final: false,
        behind: None,
        behind_at_least: false,
    };
    match table.find(rel.major, rel.minor) {
        Some(s) => {
            u.in_table = true;
            u.longterm = Some(s.longterm);
            u.released = Some(s.released.to_string());
            let (last_day, basis) = match s.eol {
                Eol::Day(d) => (Some(d), Some(EolBasis::Announced)),
                Eol::Month { .. } => (s.eol.last_day(), Some(EolBasis::Projected)),
                Eol::Unknown if !s.longterm => (
                    s.released.checked_add_months(Months::new(STABLE_MONTHS)),
                    Some(EolBasis::Estimated),
                ),
                Eol::Unknown => (None, None),
            };
            u.eol_basis = basis;
            u.eol = match s.eol {
                Eol::Unknown => last_day.map(|d| d.format("%Y-%m").to_string()),
                e => e.text(),
            };
            u.status = match last_day {
                Some(d) if today > d => Status::EndOfLife,
                Some(_) => Status::Supported,
                None => Status::Unknown,
            };
            if let Some((latest, date)) = s.latest {
                u.latest_known = Some(format!("{series}.{latest}"));
                u.latest_known_date = Some(date.to_string());
                u.latest_is_final = s.eol == Eol::Day(date);
                if let Some(p) = point {
                    if latest > p {
                        u.behind = Some(latest - p);
                        u.behind_at_least = !u.latest_is_final;
                    } else if u.latest_is_final {
                        u.behind = Some(0);
                    }
                }
            }
        }
        None => {
            if table
                .newest()
                .is_some_and(|n| (rel.major, rel.minor) < (n.major, n.minor))
            {
                // The table lists every longterm series up to its newest one.
                u.longterm = Some(false);
                u.status = Status::EndOfLife;
            }
        }
    }
    if rel.rc.is_some() {
        u.status = Status::Prerelease;
        u.behind = None;
    }
    u
}

/// The verdict sentence and its level.
pub fn verdict(
    rel: &Release,
    release: &str,
    origin: &Origin,
    up: &Upstream,
    table: &Table,
    today: NaiveDate,
) -> (Level, String) {
    let series = &up.series;
    // Only for kernels built from kernel.org sources is another series the remedy.
    let alternatives = matches!(origin.kind, Kind::Mainline | Kind::Downstream);
    let status = status_words(rel, release, up, table, today, alternatives);
    let behind = behind_words(origin, up);
    let who = origin.maintainer.as_deref();
    match origin.kind {
        _ if up.status == Status::Prerelease => (Level::Warning, status),
        Kind::Mainline => {
            let level = match up.status {
                Status::Supported if up.behind.unwrap_or(0) > 0 => Level::Warning,
                Status::Supported => Level::Ok,
                Status::EndOfLife => Level::Critical,
                _ => Level::Unknown,
            };
            let by = who
                .map(|w| format!("{w} build of kernel.org {series}: "))
                .unwrap_or_default();
            (level, format!("{by}{status}{behind}"))
        }
        Kind::Downstream => {
            let level = match up.status {
                Status::Supported if up.behind.unwrap_or(0) > 0 => Level::Warning,
                Status::Supported => Level::Ok,
                Status::EndOfLife => Level::Critical,
                _ => Level::Unknown,
            };
            let w = who.unwrap_or("vendor");
            (
                level,
                format!(
                    "{w} kernel tree based on {series}, which merges kernel.org's point releases: {status}{behind}"
                ),
            )
        }
        Kind::Distro => {
            let w = who.unwrap_or("the distribution");
            let base = match origin.upstream_point {
                Some(p) => format!("{series}.{p}"),
                None => series.clone(),
            };
            // The distribution's support, not kernel.org's, decides; the verdict says so.
            let level = Level::Ok;
            let tail = match up.status {
                Status::EndOfLife => format!(
                    "; upstream {} — fixes depend entirely on {w}",
                    lower_first(&status)
                ),
                _ => format!("; upstream: {status}"),
            };
            (
                level,
                format!(
                    "{w} kernel based on {base}: security fixes come from {w} for as long as that release is supported{tail}"
                ),
            )
        }
        Kind::Vendor => {
            let vendor = match who {
                Some(w) if w != "vendor" => format!("the vendor ({w})"),
                _ => "the vendor".to_string(),
            };
            let level = match up.status {
                Status::EndOfLife => Level::Critical,
                _ => Level::Warning,
            };
            let merged = match (origin.upstream_point, up.behind) {
                (Some(p), Some(b)) if b > 0 => format!(
                    "; its version says it contains kernel.org fixes up to {series}.{p}, {}{b} point release{} behind {} ({})",
                    if up.behind_at_least { "at least " } else { "" },
                    if b == 1 { "" } else { "s" },
                    up.latest_known.as_deref().unwrap_or("?"),
                    up.latest_known_date.as_deref().unwrap_or("?"),
                ),
                _ => String::new(),
            };
            (
                level,
                format!(
                    "vendor kernel based on {series} — security fixes depend on {vendor}; upstream {}{merged}",
                    lower_first(&status)
                ),
            )
        }
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The series' upstream status in words.
fn status_words(
    rel: &Release,
    release: &str,
    up: &Upstream,
    table: &Table,
    today: NaiveDate,
    alternatives: bool,
) -> String {
    let series = &up.series;
    let supported_lts = || {
        if !alternatives {
            return String::new();
        }
        let v: Vec<String> = table
            .supported_longterm(today)
            .iter()
            .map(|s| s.name())
            .collect();
        if v.is_empty() {
            String::new()
        } else {
            format!("; supported longterm series: {}", v.join(", "))
        }
    };
    match up.status {
        Status::Prerelease => format!(
            "{release} is release candidate {} of {series}: pre-releases are for testing and never get fixes{}",
            rel.rc.unwrap_or(0),
            if up.released.is_some() {
                format!(
                    " (the final {series} was released on {})",
                    up.released.as_deref().unwrap_or("?")
                )
            } else {
                String::new()
            }
        ),
        Status::Supported if up.longterm == Some(true) => {
            let eol = up.eol.as_deref().unwrap_or("?");
            match up.eol_basis {
                Some(EolBasis::Projected) => format!(
                    "{series} is a longterm series, still supported until {eol} (kernel.org's projection, often extended)"
                ),
                _ => format!("{series} is a longterm series, still supported until {eol}"),
            }
        }
        Status::Supported => format!(
            "{series} is not a longterm series: it gets fixes only until shortly after the next release (about {}); plan a move to a longterm series",
            up.eol
                .as_deref()
                .unwrap_or("three months after its release")
        ),
        Status::EndOfLife => {
            let what = if up.longterm == Some(true) {
                "longterm series"
            } else {
                "series"
            };
            let since = match (up.eol.as_deref(), up.eol_basis) {
                (Some(e), Some(EolBasis::Estimated)) => format!(" since about {e}"),
                (Some(e), Some(EolBasis::Projected)) => format!(" since the end of {e}"),
                (Some(e), _) => format!(" since {e}"),
                (None, _) => {
                    " (a non-longterm series; their fixes end about three months after release)"
                        .into()
                }
            };
            let last = if up.latest_is_final {
                format!(
                    ", last release {}",
                    up.latest_known.as_deref().unwrap_or("?")
                )
            } else {
                String::new()
            };
            format!(
                "{what} {series} is end of life{since}{last}: no more fixes{}",
                supported_lts()
            )
        }
        Status::Unknown => format!(
            "series {series} is newer than this tool's series table (as of {}): its support cannot be judged here; non-longterm series get fixes for about three months",
            table.as_of
        ),
    }
}

/// "; 6.12.1 is at least 40 point releases behind 6.12.41 (2025-08-01)".
fn behind_words(origin: &Origin, up: &Upstream) -> String {
    let (Some(b), Some(p)) = (up.behind, origin.upstream_point) else {
        return String::new();
    };
    if b == 0 {
        return if up.latest_is_final {
            format!("; {}.{} is that last release", up.series, p)
        } else {
            String::new()
        };
    }
    format!(
        "; {}.{p} is {}{b} point release{} behind {} ({}) — update",
        up.series,
        if up.behind_at_least { "at least " } else { "" },
        if b == 1 { "" } else { "s" },
        up.latest_known.as_deref().unwrap_or("?"),
        up.latest_known_date.as_deref().unwrap_or("?"),
    )
}
