//! What `uname -v` and /proc/version say about the build: build number, SMP/PREEMPT flags,
//! build date, compiler and builder.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Build facts from the version strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// "#1459".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The flags between the number and the date ("SMP", "PREEMPT_DYNAMIC", "PREEMPT_RT").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The build (or, for Debian, package) date, YYYY-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Where the date came from: "uname -v" or "Debian package date in uname -v".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_source: Option<String>,
    /// Why there is no date ("reproducible build: timestamp @0").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_note: Option<String>,
    /// "gcc (Debian 12.2.0-14) 12.2.0" from /proc/version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiler: Option<String>,
    /// "debian-kernel@lists.debian.org" from /proc/version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builder: Option<String>,
}

impl Build {
    pub fn date(&self) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(self.date.as_deref()?, "%Y-%m-%d").ok()
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// Parses `uname -v` (and /proc/version for compiler and builder).
pub fn parse(uname_v: Option<&str>, proc_version: Option<&str>) -> Build {
    let mut b = Build::default();
    if let Some(v) = uname_v {
        let toks: Vec<&str> = v.split_whitespace().collect();
        if let Some(first) = toks.first()
            && first.starts_with('#')
        {
            b.number = Some(first.to_string());
        }
        b.flags = toks
            .iter()
            .skip_while(|t| t.starts_with('#'))
            .take_while(|t| {
                !t.is_empty()
                    && t.bytes()
                        .all(|c| c.is_ascii_uppercase() || c == b'_' || c.is_ascii_digit())
                    && !DAYS.contains(t)
            })
            .map(|t| t.to_string())
            .collect();
        if let Some(d) = date_of(&toks) {
            b.date = Some(d.to_string());
            b.date_source = Some("uname -v".into());
        } else if let Some(d) = debian_date(v) {
            b.date = Some(d.to_string());
            b.date_source = Some("Debian package date in uname -v".into());
        } else if toks.iter().any(|t| t.starts_with('@')) {
            b.date_note = Some("reproducible build without a timestamp (@epoch)".into());
        }
    }
    if let Some(pv) = proc_version {
        let groups = paren_groups(pv);
        // "Linux version R (builder@host) (compiler, linker) #…": the first group with '@' is
        // the builder, the next one the toolchain (older kernels print only the compiler).
        let mut it = groups.iter();
        if let Some(g) = it.by_ref().find(|g| g.contains('@') && !g.contains(' ')) {
            b.builder = Some(g.to_string());
        }
        if let Some(g) = it.next() {
            let comp = g.split(", GNU ld").next().unwrap_or(g);
            let comp = comp.split(", LLD").next().unwrap_or(comp);
            b.compiler = Some(comp.trim().to_string());
        }
    }
    b
}

/// Balanced top-level parenthesised groups of `s` (the compiler group nests parentheses).
fn paren_groups(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => {
                if depth > 0 {
                    cur.push(c);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(std::mem::take(&mut cur));
                } else {
                    cur.push(c);
                }
            }
            _ if depth > 0 => cur.push(c),
            _ => {}
        }
        if out.len() > 8 {
            break;
        }
    }
    out
}

/// "Wed Oct 6 16:42:49 BST 2021" (zone optional) anywhere in the tokens.
fn date_of(toks: &[&str]) -> Option<NaiveDate> {
    for i in 0..toks.len() {
        let Some(m) = MONTHS.iter().position(|m| *m == toks[i]) else {
            continue;
        };
        let Some(day) = toks.get(i + 1).and_then(|d| d.parse::<u32>().ok()) else {
            continue;
        };
        // The year is the first 4-digit token within the next three (time, zone, year).
        let year = toks[i + 2..]
            .iter()
            .take(3)
            .find(|t| t.len() == 4 && t.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|t| t.parse::<i32>().ok());
        if let Some(y) = year
            && let Some(d) = NaiveDate::from_ymd_opt(y, m as u32 + 1, day)
        {
            return Some(d);
        }
    }
    None
}

/// Debian's "Debian 6.1.115-1 (2024-11-01)".
fn debian_date(v: &str) -> Option<NaiveDate> {
    let at = v.find("Debian ")?;
    let open = v[at..].find('(')? + at + 1;
    let close = v[open..].find(')')? + open;
    NaiveDate::parse_from_str(&v[open..close], "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raspberry_pi_os_2021() {
        let b = parse(Some("#1459 SMP PREEMPT Wed Oct 6 16:42:49 BST 2021"), None);
        assert_eq!(b.number.as_deref(), Some("#1459"));
        assert_eq!(b.flags, ["SMP", "PREEMPT"]);
        assert_eq!(b.date.as_deref(), Some("2021-10-06"));
    }

    #[test]
    fn debian_uses_the_package_date() {
        let pv = "Linux version 6.1.0-27-arm64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)";
        let b = parse(
            Some("#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)"),
            Some(pv),
        );
        assert_eq!(b.flags, ["SMP", "PREEMPT_DYNAMIC"]);
        assert_eq!(b.date.as_deref(), Some("2024-11-01"));
        assert_eq!(
            b.date_source.as_deref(),
            Some("Debian package date in uname -v")
        );
        assert_eq!(b.builder.as_deref(), Some("debian-kernel@lists.debian.org"));
        assert_eq!(
            b.compiler.as_deref(),
            Some("gcc-12 (Debian 12.2.0-14) 12.2.0")
        );
    }

    #[test]
    fn reproducible_build_has_no_date() {
        let pv = "Linux version 6.18.44-fc-v782 (builder@sandboxing) (gcc (GCC) 15.3.0, GNU ld (GNU Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0";
        let b = parse(Some("#1 SMP PREEMPT_DYNAMIC @0"), Some(pv));
        assert_eq!(b.date, None);
        assert!(b.date_note.is_some());
        assert_eq!(b.compiler.as_deref(), Some("gcc (GCC) 15.3.0"));
        assert_eq!(b.builder.as_deref(), Some("builder@sandboxing"));
    }

    #[test]
    fn ubuntu_and_odd_inputs() {
        let b = parse(
            Some("#16-Ubuntu SMP PREEMPT_DYNAMIC Tue Aug 12 19:24:11 UTC 2025"),
            None,
        );
        assert_eq!(b.date.as_deref(), Some("2025-08-12"));
        assert_eq!(b.number.as_deref(), Some("#16-Ubuntu"));
        for v in [
            "",
            "Feb",
            "Feb 30 2021",
            "#",
            "((((",
            "Mon Feb 31 00:00:00 UTC 2021",
        ] {
            let b = parse(Some(v), Some(v));
            assert_eq!(b.date, None, "{v:?}");
        }
    }
}
