//! The integration tests of sbcimport, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod expected;
mod no_cpufreq;
mod robustness;
mod signals;
