//! The integration tests of textout, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod common;
mod log_file;
mod results_row;
mod sbc_bench_agreement;
mod terminal;
