//! Small helpers shared by the readers: optional sysfs values, bracketed selections, hex
//! numbers, and the one way a finding is built.

use document::{Finding, Severity};
use probe::Root;

/// A one-value file, or `None` when it is missing, empty or unreadable. The review reports what
/// it can see; an absent attribute is simply not shown (the probe's notes cover the basics).
pub fn opt(root: &Root, abs: &str) -> Option<String> {
    root.read_value(abs).ok()
}

/// A decimal number from a one-value file.
pub fn opt_u64(root: &Root, abs: &str) -> Option<u64> {
    root.read_u64(abs).ok()
}

/// A hexadecimal number ("0x1b21", "1b21", "0x010802").
pub fn parse_hex(s: &str) -> Option<u64> {
    let t = s.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    if t.is_empty() || t.len() > 16 {
        return None;
    }
    u64::from_str_radix(t, 16).ok()
}

/// The selected entry of a sysfs choice list (the probe's one rule).
pub use probe::choice::selected;

/// The final component of a link resolved inside the root (the bound driver's name).
pub fn link_name(root: &Root, abs: &str) -> Option<String> {
    if std::fs::symlink_metadata(root.path(abs)).is_err() {
        return None;
    }
    let real = root.resolve(abs).ok()?;
    real.rsplit('/').find(|c| !c.is_empty()).map(str::to_string)
}

/// Builds a finding; `why` (why it matters) becomes the first evidence line.
pub fn finding(
    kind: &str,
    severity: Severity,
    message: impl Into<String>,
    why: &str,
    evidence: Vec<String>,
) -> Finding {
    let mut ev = Vec::with_capacity(evidence.len() + 1);
    ev.push(format!("Why it matters: {why}"));
    ev.extend(evidence);
    Finding {
        kind: kind.to_string(),
        severity,
        message: message.into(),
        evidence: ev,
    }
}

/// Bytes in human units (decimal, as drive makers label them): "512 GB", "31.9 GB", "8.0 TB".
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1000.0 && i + 1 < units.len() {
        v /= 1000.0;
        i += 1;
    }
    if i == 0 || v >= 100.0 {
        format!("{v:.0} {}", units[i])
    } else {
        format!("{v:.1} {}", units[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_and_hex() {
        assert_eq!(parse_hex("0x1b21"), Some(0x1b21));
        assert_eq!(parse_hex("152d"), Some(0x152d));
        assert_eq!(parse_hex("0x"), None);
        assert_eq!(parse_hex("zz"), None);
        assert_eq!(human_bytes(512_110_190_592), "512 GB");
        assert_eq!(human_bytes(31_914_983_424), "31.9 GB");
    }
}
