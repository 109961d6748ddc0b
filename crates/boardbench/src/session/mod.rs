//! What every mode that benchmarks or watches the machine shares: one lifecycle
//! ([`lifecycle::Session`]: signals, idle gate, tuning through the
//! [`tune::Restorer`], snapshots, kernel messages, the result document and the exit
//! status), the background monitor of a phase, and timestamps people can match with an
//! external power meter.
//!
//! Also: Ctrl-C that still lets a mode write its result ([`signals`]) and an external command
//! run under the session ([`child`]).
//!
//! `run`, `thermal`, `graph`, `env` and `review` are built from these pieces.

pub mod assemble;
pub mod child;
pub mod idle;
pub mod lifecycle;
pub mod output;
pub mod phase;
pub mod phase_recorder;
pub mod signals;
pub mod stamp;

pub use lifecycle::{ExitStatus, Session};
