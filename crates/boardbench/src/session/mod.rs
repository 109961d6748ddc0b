//! What every mode that benchmarks or watches the machine shares: the idle gate, tuning the
//! governors (through [`tune::Restorer`], so everything is put back), the background
//! monitor of a phase, and timestamps people can match with an external power meter.
//!
//! Also: Ctrl-C that still lets a mode write its result ([`signals`]) and an external command
//! run under the session ([`child`]).
//!
//! `run`, `thermal`, `graph`, `env` and `review` are built from these pieces.

pub mod child;
pub mod idle;
pub mod output;
pub mod phase;
pub mod record;
pub mod recorder;
pub mod signals;
pub mod stamp;

/// Whether this process runs as root (needed to tune the real machine and read /dev/kmsg).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}
