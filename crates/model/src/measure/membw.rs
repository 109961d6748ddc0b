//! Samples of the membw kernel.
