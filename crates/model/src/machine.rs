//! The machine snapshot taken by the probe. Owned by the probe.
