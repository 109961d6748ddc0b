//! Measurement procedures: what turns the pure compute loops of `loops` into figures a user
//! can trust — pinning, warm-up, settling at a cpufreq cap, verification, clock normalisation,
//! and noticing that another task shared the measured CPU.
//!
//! Everything here takes typed options and returns values; nothing prints (long procedures
//! report progress through a callback) and nothing knows the command line. Writes to sysfs (the
//! OPP walk) go through a [`opp_walk::PolicyWriter`] the caller provides, so restoring stays the
//! caller's business.
//!
//! - [`pinning`]: run a closure on one CPU and put the thread's affinity back.
//! - [`clock_reading`]: the real clock of one CPU (several mhz-method samples, summarised).
//! - [`opp_walk`]: the one OPP walker (governor, floor, caps, settle time, which OPPs).
//! - [`sha256`]: the recursive SHA-256 benchmark procedure (Fast, Reference, Portable).
//! - [`caches`]: the caches sysfs advertises, in the form the latency analysis wants.
//! - [`disturbance`]: whether the measured CPU was shared while a figure was measured.

pub mod caches;
pub mod clock_reading;
pub mod disturbance;
pub mod opp_walk;
pub mod pinning;
pub mod sha256;

/// Why a procedure could not run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The thread could not be pinned to the CPU to measure.
    #[error("cannot pin to cpu{cpu}: {reason}")]
    Pin { cpu: u32, reason: String },
    /// Options that cannot give a measurement.
    #[error("{0}")]
    Invalid(String),
}
