//! `results list` filters as SQL conditions.
//!
//! Substring filters use LIKE with `%`, `_` and `\` escaped, so `--device %` matches a device
//! named "%" and not every run. Dates must parse (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]`, with or
//! without a time zone): a typo is an error, never a silently empty or complete list.
//!
//! A date filter (`2026-05-05`) is the run's own calendar day, as its start time says it; a
//! date-time filter is an instant: both sides are compared in UTC, so a run started at
//! 15:21-04:00 is after `since=…T19:00Z`. A stored start that is not a date matches no date
//! filter.

use crate::backend::{Dialect, Val};
use crate::{Error, Filter};

/// ` AND …` conditions and their parameters, in order.
pub fn sql(f: &Filter, d: Dialect) -> Result<(String, Vec<Val>), Error> {
    let mut sql = String::new();
    let mut params = Vec::new();
    for (col, v) in [("device", &f.device), ("soc", &f.soc)] {
        if let Some(v) = v {
            sql.push_str(&format!(" AND lower({col}) LIKE ? ESCAPE '\\'"));
            params.push(Val::Text(format!("%{}%", escape_like(&v.to_lowercase()))));
        }
    }
    if let Some(a) = &f.arch {
        sql.push_str(" AND lower(arch) = ?");
        params.push(Val::Text(a.to_lowercase()));
    }
    if let Some(k) = &f.kernel {
        sql.push_str(" AND kernel LIKE ? ESCAPE '\\'");
        params.push(Val::Text(format!("{}%", escape_like(k))));
    }
    for (bound, op, option) in [(&f.since, ">=", "--since"), (&f.until, "<=", "--until")] {
        let Some(v) = bound else { continue };
        let v = v.trim();
        let (started, value, value_sql) = match check_date(option, v)? {
            // The run's own calendar day: the first ten characters of a valid start time.
            When::Day => (
                "substr(started, 1, 10)".to_string(),
                v.to_string(),
                "?".to_string(),
            ),
            // Checked and written as RFC 3339 in UTC: no guard needed.
            When::Instant(utc) => (
                instant(d, "started"),
                utc,
                match d {
                    Dialect::Sqlite => "datetime(?)".to_string(),
                    Dialect::Postgres => {
                        "(CAST(? AS TEXT)::timestamptz AT TIME ZONE 'UTC')".to_string()
                    }
                },
            ),
        };
        sql.push_str(&format!(
            " AND {} IS NOT NULL AND {started} {op} {value_sql}",
            instant(d, "started")
        ));
        params.push(Val::Text(value));
    }
    if let Some(t) = &f.tag {
        sql.push_str(" AND id IN (SELECT run_id FROM tags WHERE tag = ?)");
        params.push(Val::Text(t.clone()));
    }
    Ok((sql, params))
}

/// `%`, `_` and the escape character itself, escaped for `LIKE … ESCAPE '\'`.
pub fn escape_like(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `expr` (an ISO 8601 text) as a UTC instant both databases compare correctly, NULL when it
/// is not a date-time. SQLite's `datetime()` applies the offset and answers NULL for other
/// text; PostgreSQL casts what looks like a date-time (a zone-less one in the session's zone).
/// No `?` in the SQL: the backend numbers every `?` as a parameter (`{0,1}` instead).
fn instant(d: Dialect, expr: &str) -> String {
    match d {
        Dialect::Sqlite => format!("datetime({expr})"),
        Dialect::Postgres => format!(
            "(CASE WHEN {expr} ~ '^[0-9]{{4}}-[0-1][0-9]-[0-3][0-9]([T ][0-2][0-9]:[0-5][0-9](:[0-5][0-9](\\.[0-9]+){{0,1}}){{0,1}}(Z|[+-][0-2][0-9]:{{0,1}}[0-5][0-9]){{0,1}}){{0,1}}$' \
             THEN ({expr})::timestamptz AT TIME ZONE 'UTC' END)"
        ),
    }
}

/// What a date filter names.
enum When {
    /// A calendar day, `YYYY-MM-DD`.
    Day,
    /// An instant, as RFC 3339 in UTC (a zone-less time is taken as UTC).
    Instant(String),
}

/// An ISO 8601 date or date-time, as the stored start times are written.
fn check_date(option: &str, s: &str) -> Result<When, Error> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
    let s = s.trim();
    if NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok() {
        return Ok(When::Day);
    }
    let utc = DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            [
                "%Y-%m-%dT%H:%M:%S%.f",
                "%Y-%m-%dT%H:%M",
                "%Y-%m-%d %H:%M:%S%.f",
                "%Y-%m-%d %H:%M",
            ]
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
            .map(|n| n.and_utc())
        });
    match utc {
        Some(t) => Ok(When::Instant(t.to_rfc3339_opts(SecondsFormat::Secs, true))),
        None => Err(Error::Other(format!(
            "{option} {s:?}: not a date (use YYYY-MM-DD or an ISO 8601 time such as 2026-05-05T10:00:00+02:00)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_are_escaped() {
        assert_eq!(escape_like("%"), "\\%");
        assert_eq!(escape_like("a_b\\c"), "a\\_b\\\\c");
    }

    #[test]
    fn dates_must_parse() {
        for good in [
            "2026-05-05",
            "2026-05-05T10:08:45+00:00",
            "2026-05-05T10:08",
            "2026-05-05 10:08:45",
        ] {
            assert!(check_date("--since", good).is_ok(), "{good}");
        }
        for bad in ["notadate", "2026-13-01", "05/05/2026", ""] {
            assert!(check_date("--since", bad).is_err(), "{bad}");
        }
    }
}
