//! The integration tests of corpus, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod corpus;
mod place;
mod run;
mod sorted;
