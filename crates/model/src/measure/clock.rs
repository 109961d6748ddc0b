//! Samples of the clock kernel.
