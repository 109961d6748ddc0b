//! Timestamps of phases: ISO 8601 with the local time zone (what a person compares with the
//! clock of a power meter) and the same instant in milliseconds since the Unix epoch, read from
//! the one clock ([`probe::clock`]).

use chrono::SecondsFormat;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// "2026-11-23T13:02:11.482+01:00".
    pub iso: String,
    pub unix_ms: u64,
}

pub fn now() -> Stamp {
    let t = probe::clock::now();
    Stamp {
        iso: t.to_rfc3339_opts(SecondsFormat::Millis, false),
        unix_ms: u64::try_from(t.timestamp_millis()).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso_has_a_zone_and_matches_the_epoch_value() {
        let s = super::now();
        let parsed = chrono::DateTime::parse_from_rfc3339(&s.iso).unwrap();
        assert_eq!(parsed.timestamp_millis() as u64, s.unix_ms);
        assert!(s.iso.ends_with('Z') || s.iso[s.iso.len() - 6..].starts_with(['+', '-']));
    }
}
