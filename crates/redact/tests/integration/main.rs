//! The integration tests of redact, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod fixture_logs;
mod run_documents;
