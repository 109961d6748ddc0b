//! Raw samples and summaries returned by the measurement kernels, one submodule per kernel.

pub mod clock;
pub mod membw;
pub mod memlat;
pub mod sha256;
