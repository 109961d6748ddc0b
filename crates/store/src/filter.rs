//! `results list` filters as SQL conditions.
//!
//! Substring filters use LIKE with `%`, `_` and `\` escaped, so `--device %` matches a device
//! named "%" and not every run. Dates must parse (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]`, with or
//! without a time zone): a typo is an error, never a silently empty or complete list.

use crate::backend::Val;
use crate::{Error, Filter};

/// ` AND …` conditions and their parameters, in order.
pub fn sql(f: &Filter) -> Result<(String, Vec<Val>), Error> {
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
    if let Some(s) = &f.since {
        check_date("--since", s)?;
        sql.push_str(" AND started >= ?");
        params.push(Val::Text(s.trim().to_string()));
    }
    if let Some(u) = &f.until {
        check_date("--until", u)?;
        // ISO strings compare as text; '~' sorts after every character of a timestamp,
        // so "2026-05-05" includes the whole day.
        sql.push_str(" AND started <= ?");
        params.push(Val::Text(format!("{}~", u.trim())));
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

/// An ISO 8601 date or date-time, as the stored start times are written.
fn check_date(option: &str, s: &str) -> Result<(), Error> {
    let s = s.trim();
    let ok = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()
        || chrono::DateTime::parse_from_rfc3339(s).is_ok()
        || [
            "%Y-%m-%dT%H:%M:%S",
            "%Y-%m-%dT%H:%M",
            "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%d %H:%M",
        ]
        .iter()
        .any(|f| chrono::NaiveDateTime::parse_from_str(s, f).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::Other(format!(
            "{option} {s:?}: not a date (use YYYY-MM-DD or an ISO 8601 time such as 2026-05-05T10:00:00+02:00)"
        )))
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
