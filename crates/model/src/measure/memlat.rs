//! Samples of the memlat kernel.
