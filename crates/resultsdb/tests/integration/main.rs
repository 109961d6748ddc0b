//! The integration tests of resultsdb, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod date_filters;
mod fuzz_documents;
mod listing;
mod table_page;
