//! The integration tests of report, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod never_panics;
mod render;
