//! Reads the machine: /proc, /sys, the device tree and (on a Raspberry Pi) vcgencmd.
//!
//! Everything reads through a [`Root`], so every board can be replayed from a fixture tree in
//! tests (the node_exporter approach). The probe never writes and never panics on bad input: a
//! value that cannot be read is absent, and the reason is kept in [`Notes`].

pub mod arm_parts;
pub mod bounded_read;
pub mod clock;
pub mod cpuinfo;
pub mod root;
pub mod sampler;
pub mod soc;
pub mod stat;
pub mod terminal;

pub use root::{Absent, Notes, Root};
pub mod cache;
pub mod choice;
pub mod cluster;
pub mod cpufreq;
pub mod devicetree;
pub mod identity;
pub mod memory;
pub mod pcie;
pub mod rpi;
pub mod runstate;
pub mod snapshot;
pub mod thermal;
pub mod topology;
