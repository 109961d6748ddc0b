//! sbc-bench version numbers and the eras they belong to.

use std::fmt;

/// `vMAJOR.MINOR[.PATCH]` of sbc-bench; compares numerically (v0.9.10 > v0.9.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// Parses "v0.9.72", "0.8.4" or "v0.4"; anything else is `None`.
    pub fn parse(s: &str) -> Option<Version> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut it = s.split('.');
        let major = it.next()?.parse().ok()?;
        let minor = it.next()?.parse().ok()?;
        let patch = match it.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if it.next().is_some() {
            return None;
        }
        Some(Version(major, minor, patch))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}

/// How the headline numbers of a log were made (see the fixtures README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// No version line or older than v0.8.4: Results.md rows were written by hand.
    Manual,
    /// v0.8.4 … v0.9.3: sbc-bench computes the numbers, old AES/memory rules.
    Auto084,
    /// v0.9.4 and later.
    Auto094,
}

impl Era {
    pub fn of(v: Option<Version>) -> Era {
        match v {
            Some(v) if v >= Version(0, 9, 4) => Era::Auto094,
            Some(v) if v >= Version(0, 8, 4) => Era::Auto084,
            _ => Era::Manual,
        }
    }

    /// The name used in expected.json and in the imported document.
    pub fn name(self) -> &'static str {
        match self {
            Era::Manual => "manual-pre-v0.8.4",
            Era::Auto084 => "auto-v0.8.4-v0.9.3",
            Era::Auto094 => "auto-v0.9.4+",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_versions() {
        assert_eq!(Version::parse("v0.9.72"), Some(Version(0, 9, 72)));
        assert_eq!(Version::parse("v0.4"), Some(Version(0, 4, 0)));
        assert!(Version::parse("v0.9.10").unwrap() > Version::parse("v0.9.9").unwrap());
        assert_eq!(Version::parse("v0.x"), None);
        assert_eq!(Era::of(Version::parse("v0.8.4")), Era::Auto084);
        assert_eq!(Era::of(Version::parse("v0.9.3")), Era::Auto084);
        assert_eq!(Era::of(Version::parse("v0.9.4")), Era::Auto094);
        assert_eq!(Era::of(None), Era::Manual);
        assert_eq!(Era::of(Version::parse("v0.8.1")), Era::Manual);
    }
}
