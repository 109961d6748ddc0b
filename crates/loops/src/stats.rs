//! Summary statistics over repeated samples live in `model::stats`, shared with every other
//! crate; re-exported here for the kernels' callers.

pub use model::stats::*;
