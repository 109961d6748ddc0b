//! The kernel release string (`uname -r`) taken apart: series, point release, release
//! candidate and the local part that distributions and vendors append.

use serde::{Deserialize, Serialize};

/// A parsed `uname -r`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Release {
    pub major: u32,
    pub minor: u32,
    /// The third number as written ("6.1.0-27-arm64" has 0, which Debian does not mean as a
    /// point release; see `origin` for which point release is real).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<u32>,
    /// `-rcN`: a mainline pre-release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rc: Option<u32>,
    /// Everything after the numbers and the -rc ("-27-arm64", "+rpt-rpi-v8", "-rockchip64").
    pub local: String,
}

impl Release {
    /// "6.1".
    pub fn series(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

/// Leading decimal digits of `s` and the rest; `None` without digits or on overflow.
fn number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 || end > 9 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Parses "X.Y[.Z][-rcN][local]". Kernels have had two or three numbers since 3.0 and four
/// before (2.6.32.71): a fourth number is kept in `local`.
pub fn parse_release(s: &str) -> Option<Release> {
    let s = s.trim();
    let (major, rest) = number(s)?;
    let (minor, mut rest) = number(rest.strip_prefix('.')?)?;
    let mut patch = None;
    if let Some(r) = rest.strip_prefix('.')
        && let Some((p, r)) = number(r)
    {
        patch = Some(p);
        rest = r;
    }
    let mut rc = None;
    if let Some(r) = rest.strip_prefix("-rc")
        && let Some((n, r)) = number(r)
    {
        rc = Some(n);
        rest = r;
    }
    Some(Release {
        major,
        minor,
        patch,
        rc,
        local: rest.to_string(),
    })
}

/// A "X.Y.Z" version anywhere in `s` after `marker` (e.g. "Debian 6.1.115-1").
pub fn version_after(s: &str, marker: &str) -> Option<(u32, u32, u32)> {
    let at = s.find(marker)? + marker.len();
    let r = parse_release(s[at..].trim_start())?;
    Some((r.major, r.minor, r.patch?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> (u32, u32, Option<u32>, Option<u32>, String) {
        let r = parse_release(s).unwrap();
        (r.major, r.minor, r.patch, r.rc, r.local)
    }

    #[test]
    fn release_strings() {
        assert_eq!(
            p("6.1.0-27-arm64"),
            (6, 1, Some(0), None, "-27-arm64".into())
        );
        assert_eq!(p("6.17.0-rc3"), (6, 17, Some(0), Some(3), "".into()));
        assert_eq!(p("6.17-rc3+"), (6, 17, None, Some(3), "+".into()));
        assert_eq!(p("6.12.1"), (6, 12, Some(1), None, "".into()));
        assert_eq!(p("3.4.39"), (3, 4, Some(39), None, "".into()));
        assert_eq!(
            p("6.6.51+rpt-rpi-v8"),
            (6, 6, Some(51), None, "+rpt-rpi-v8".into())
        );
        assert_eq!(p("2.6.32.71-x"), (2, 6, Some(32), None, ".71-x".into()));
        assert_eq!(p("6.8"), (6, 8, None, None, "".into()));
        assert_eq!(p(" 5.10.63-v8+\n"), (5, 10, Some(63), None, "-v8+".into()));
    }

    #[test]
    fn garbage_is_none() {
        for s in [
            "",
            "linux",
            "6",
            "6.",
            ".1.2",
            "6.x",
            "99999999999.1",
            "\0\0",
        ] {
            assert_eq!(parse_release(s), None, "{s:?}");
        }
    }

    #[test]
    fn version_after_marker() {
        let v = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)";
        assert_eq!(version_after(v, "Debian "), Some((6, 1, 115)));
        assert_eq!(version_after(v, "Ubuntu "), None);
    }
}
