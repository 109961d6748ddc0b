//! Samples of the sha256 kernel.
