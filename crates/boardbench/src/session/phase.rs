//! The phases of the session modes (`thermal`, `env`, `graph`): a builder with the
//! timestamps (their kinds are the document's, `document::run::kind`), so their documents have the same shape as a full run's and the findings,
//! `report`, the log renderers and the store work on them unchanged. The document itself is
//! assembled by [`crate::session::assemble::document`].

use document::run::Phase;

use crate::session::stamp::{self, Stamp};

/// A phase from `start` until now; the rest is filled by the caller.
pub fn timed(kind: &str, title: String, start: &Stamp, interval_s: f64) -> Phase {
    between(kind, title, start, stamp::now(), interval_s)
}

/// A phase from `start` to `end` (one thread, done); the rest is filled by the caller.
pub fn between(kind: &str, title: String, start: &Stamp, end: Stamp, interval_s: f64) -> Phase {
    Phase {
        kind: kind.into(),
        title,
        threads: 1,
        started: start.iso.clone(),
        finished: end.iso,
        started_unix_ms: start.unix_ms,
        finished_unix_ms: end.unix_ms,
        monitor_interval_s: interval_s,
        ..Phase::default()
    }
}
