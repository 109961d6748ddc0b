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
            "(CASE WHEN {expr} ~ '^([1-9][0-9]{{3}}|0[1-9][0-9]{{2}}|00[1-9][0-9]|000[1-9])-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+){{0,1}}){{0,1}}(Z|[+-](0[0-9]|1[0-5]):{{0,1}}[0-5][0-9]){{0,1}}){{0,1}}$' \
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

/// Largest UTC offset of a stored time, in minutes: real zones are within −12:00 and +14:00;
/// PostgreSQL's `timestamptz` reads no offset beyond ±15:59.
pub const MAX_OFFSET_MINUTES: i32 = 14 * 60;

/// A document's `started` or `finished`: RFC 3339, in years 1 to 9999, with an offset within
/// ±14:00 — what both databases read as a time (PostgreSQL refuses year 0 and larger offsets,
/// which would make every date filter fail), so both store the same documents.
pub fn check_time(t: &str) -> Result<(), String> {
    use chrono::{Datelike, Offset};
    let d = chrono::DateTime::parse_from_rfc3339(t).map_err(|_| {
        format!("{t:?} is not an RFC 3339 date-time (e.g. 2026-11-24T10:00:00+01:00)")
    })?;
    if !(1..=9999).contains(&d.year()) {
        return Err(format!("{t:?}: the year must be between 1 and 9999"));
    }
    let off = d.offset().fix().local_minus_utc() / 60;
    if off.abs() > MAX_OFFSET_MINUTES {
        return Err(format!(
            "{t:?}: the UTC offset must be within ±14:00 (no time zone is further)"
        ));
    }
    Ok(())
}

/// What the store accepts as a document's `started` or `finished`: text that does not look like
/// a date at all is kept (it matches no date filter, on both databases), a calendar day must be
/// one, and a date-time must pass [`check_time`] — text shaped like a date that PostgreSQL
/// cannot read (`0000-01-01T…`, `+23:59`, `2026-02-30`) would otherwise make every date filter
/// fail there.
pub fn check_stored_time(t: &str) -> Result<(), String> {
    let b = t.as_bytes();
    let shaped = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit);
    if !shaped {
        return Ok(());
    }
    if t.len() == 10 {
        use chrono::Datelike;
        return match chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
            Ok(d) if (1..=9999).contains(&d.year()) => Ok(()),
            _ => Err(format!("{t:?} is not a calendar day")),
        };
    }
    check_time(t)
}

/// An ISO 8601 date or date-time, as the stored start times are written; seconds and the zone
/// may be left out (`2026-11-24T19:00Z`, `2026-11-24T19:00`: a zone-less time is UTC).
fn check_date(option: &str, s: &str) -> Result<When, Error> {
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
    let s = s.trim();
    let bad = || {
        Error::Other(format!(
            "{option} {s:?}: not a date (use YYYY-MM-DD or an ISO 8601 time such as 2026-05-05T10:00:00+02:00)"
        ))
    };
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        if !(1..=9999).contains(&d.year()) {
            return Err(bad());
        }
        return Ok(When::Day);
    }
    // `Z` read as +00:00, so the formats with an offset read it too.
    let zoned = match s.strip_suffix(['Z', 'z']) {
        Some(rest) => format!("{rest}+00:00"),
        None => s.to_string(),
    };
    let utc = DateTime::parse_from_rfc3339(&zoned)
        .ok()
        .or_else(|| {
            [
                "%Y-%m-%dT%H:%M%:z",
                "%Y-%m-%d %H:%M%:z",
                "%Y-%m-%dT%H:%M:%S%.f%:z",
                "%Y-%m-%d %H:%M:%S%.f%:z",
                "%Y-%m-%dT%H:%M%z",
                "%Y-%m-%dT%H:%M:%S%.f%z",
            ]
            .iter()
            .find_map(|f| DateTime::parse_from_str(&zoned, f).ok())
        })
        .map(|t| t.with_timezone(&Utc))
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
        // Within what PostgreSQL reads (year 0 it refuses).
        Some(t) if (1..=9999).contains(&t.year()) => {
            Ok(When::Instant(t.to_rfc3339_opts(SecondsFormat::Secs, true)))
        }
        _ => Err(bad()),
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
    fn stored_times_are_within_what_both_databases_read() {
        assert!(check_time("2026-11-24T10:00:00+01:00").is_ok());
        assert!(check_time("1970-01-01T00:00:00Z").is_ok());
        assert!(check_time("2026-11-24T10:00:00+14:00").is_ok());
        for bad in [
            "0000-01-01T00:00:00Z",
            "2026-11-24T10:00:00+23:59",
            "2026-11-24T10:00:00-15:00",
            "2026-02-30T10:00:00Z",
            "yesterday",
        ] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
        for bad in [
            "0000-01-01T00:00:00Z",
            "2026-11-24T10:00:00+23:59",
            "2026-02-30",
            "2026-02-30T10:00:00",
        ] {
            assert!(check_stored_time(bad).is_err(), "{bad}");
        }
        for kept in ["unknown", "2026-05-05", "2026-11-24T10:00:00Z"] {
            assert!(check_stored_time(kept).is_ok(), "{kept}");
        }
    }

    #[test]
    fn dates_must_parse() {
        for good in [
            "2026-11-24T19:00Z",
            "2026-11-24T19:00+01:00",
            "2026-11-24T19:00:00.5Z",
            "2026-05-05",
            "2026-05-05T10:08:45+00:00",
            "2026-05-05T10:08",
            "2026-05-05 10:08:45",
        ] {
            assert!(check_date("--since", good).is_ok(), "{good}");
        }
        for bad in [
            "notadate",
            "2026-13-01",
            "05/05/2026",
            "",
            "0000-01-01",
            "0000-01-01T00:00:00Z",
        ] {
            assert!(check_date("--since", bad).is_err(), "{bad}");
        }
    }
}
