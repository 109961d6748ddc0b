//! Samples of the background monitor. Owned by the probe's monitor sampler.
