//! The wall clock: the one place a run's "now" comes from — its timestamps, the monitor's
//! samples and every "as of today" judgement (the kernel's support status).
//!
//! [`ENV`] (`BOARDBENCH_NOW`) moves the clock: given an RFC 3339 instant
//! (`2026-11-24T10:00:00+01:00`), the first reading is that instant and the clock then runs on
//! in real time, so durations between readings stay real. Tests use it to be independent of the
//! day they run on; a replay can use it to stamp a run with another date. An unreadable value is
//! said once on stderr and ignored.

use std::sync::OnceLock;

use chrono::{DateTime, Local, NaiveDate, TimeDelta};

/// The environment variable that sets the clock's first reading.
pub const ENV: &str = "BOARDBENCH_NOW";

/// How far the clock is from the system's: zero unless [`ENV`] is set.
fn offset() -> TimeDelta {
    static OFFSET: OnceLock<TimeDelta> = OnceLock::new();
    *OFFSET.get_or_init(|| {
        let Some(v) = std::env::var_os(ENV) else {
            return TimeDelta::zero();
        };
        let v = v.to_string_lossy();
        match parse_instant(&v) {
            Some(t) => t.signed_duration_since(Local::now()),
            None => {
                eprintln!(
                    "Warning: {ENV}={v:?} is not an RFC 3339 instant (e.g. 2026-11-24T10:00:00+01:00): using the system clock"
                );
                TimeDelta::zero()
            }
        }
    })
}

fn parse_instant(s: &str) -> Option<DateTime<Local>> {
    DateTime::parse_from_rfc3339(s.trim())
        .ok()
        .map(|t| t.with_timezone(&Local))
}

/// Now, in the local time zone.
pub fn now() -> DateTime<Local> {
    Local::now() + offset()
}

/// Today's date in the local time zone.
pub fn today() -> NaiveDate {
    now().date_naive()
}

/// Now in milliseconds since the Unix epoch (0 before 1970).
pub fn unix_ms() -> u64 {
    u64::try_from(now().timestamp_millis()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instant_is_read_with_its_zone() {
        let t = parse_instant("2026-11-24T10:00:00+01:00").unwrap();
        assert_eq!(t.timestamp(), 1_795_510_800);
        assert!(parse_instant(" 2027-02-07T03:30:00-03:00\n").is_some());
        for bad in ["", "2026-11-24", "tomorrow", "2026-13-01T00:00:00Z"] {
            assert!(parse_instant(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn readings_agree_and_advance() {
        let a = now();
        let ms = unix_ms();
        let b = now();
        assert!(a <= b);
        assert!(a.timestamp_millis() as u64 <= ms && ms <= b.timestamp_millis() as u64);
        assert_eq!(today(), b.date_naive());
    }
}
