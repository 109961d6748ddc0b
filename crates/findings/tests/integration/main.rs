//! The integration tests of findings, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod common;
mod docs;
mod imported_logs;
mod never_panics;
mod run_documents;
