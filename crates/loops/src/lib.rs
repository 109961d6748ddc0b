//! The timed loops (benchmark "kernels"). Pure: no CLI, no files, no output. Each returns raw samples and a summary
//! (see `document::measure`), so the callers decide what to print or store.
//!
//! - [`clock`]: the real CPU clock (mhz method: two dependent-op chains of different length).
//! - [`membw`]: memory bandwidth (tinymembench method) with libc and per-architecture variants.
//! - [`memlat`]: memory latency (ramlat's chain method and tinymembench's random reads).
//! - [`sha256`]: recursive SHA-256 (fast hardware paths and a portable reference).
//! - [`affinity`], [`stats`], [`timing`]: what all of them share.

pub mod affinity;
pub mod clock;
pub mod membw;
pub mod memlat;
pub mod sha256;
pub mod stats;
pub mod timing;
