//! The integration tests of adapters, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).

mod common;
mod never_panic;
mod openssl_fixtures;
mod real_tools;
mod runner;
mod sevenzip_fixtures;
mod stockfish_cpuminer_fixtures;
