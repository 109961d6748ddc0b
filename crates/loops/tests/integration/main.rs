//! The integration tests of loops, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod clock;
mod membw;
mod memlat;
mod sha256;
