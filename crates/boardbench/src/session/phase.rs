//! The phases of the session modes (`thermal`, `env`): their kinds and a builder with the
//! timestamps, so their documents have the same shape as a full run's and the findings,
//! `report`, the log renderers and the store work on them unchanged. The document itself is
//! assembled by [`crate::session::assemble::document`].

use document::run::Phase;

use crate::session::stamp::{self, Stamp};

/// Phase kinds of these sessions (the model's `run::kind` list is the full run's).
pub mod kind {
    /// Waiting until the SoC cooled (`--target-temp`, sbc-bench -t C) and the sustained
    /// all-core load: the document's kinds, which the thermal report reads.
    pub use document::run::kind::{THERMAL_COOL, THERMAL_HEAT};
    /// The controlled environment while a third-party suite runs (or until Ctrl-C).
    pub const ENV_WAIT: &str = "env-wait";
}

/// A phase with its timestamps; the rest is filled by the caller.
pub fn timed(kind: &str, title: String, start: &Stamp, interval_s: f64) -> Phase {
    let end = stamp::now();
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
