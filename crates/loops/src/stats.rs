//! Summary statistics over repeated samples live in `document::stats`, shared with every other
//! crate; re-exported here for the kernels' callers.

pub use document::stats::*;
