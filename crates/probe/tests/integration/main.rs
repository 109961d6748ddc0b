//! The integration tests of probe, one module per file: one test binary for the crate, so
//! the dependencies are linked once (`cargo test -p <crate> --test integration [MODULE::]`).
//! `tests/read_cancel.rs` stays a binary of its own: the cancel flag it sets is process-wide and
//! stays set.

mod cpuinfo_fixtures;
mod devicetree;
mod dram;
mod fuzz_parsers;
mod readers_never_panic;
mod roots;
mod runstate;
mod sampler;
mod sampler_layout;
mod sampler_stat_props;
mod soc_guess;
