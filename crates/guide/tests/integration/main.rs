//! The integration tests of guide, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).
//! `tests/lmbench_cancel.rs` stays a binary of its own: it checks that the process has no child
//! left, with waitpid(-1), which would reap the other tests' children.

mod audio_parse;
mod boot_parse;
mod common;
mod console_log;
mod console_real;
mod cpu_methods;
mod cpu_sections_cancel;
mod cpu_sections_smoke;
mod ipsec_netns;
mod kcrypto_parse;
mod lmbench_methods;
mod lmbench_timing;
mod network_netns;
mod network_parse;
mod openssl_table;
mod storage_fio;
mod tool_parsers;
