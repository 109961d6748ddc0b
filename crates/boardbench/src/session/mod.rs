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
pub mod document_out;
pub mod idle;
pub mod lifecycle;
pub mod phase;
pub mod phase_recorder;
pub mod signals;
pub mod stamp;

pub use lifecycle::{ExitStatus, Session};

/// The command line as the document records it (without the program name). A word that is
/// not UTF-8 (a file name in another encoding) is kept with U+FFFD in place of its bad bytes:
/// `std::env::args` would panic on it after the whole run.
pub fn recorded_args() -> Vec<String> {
    std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}
