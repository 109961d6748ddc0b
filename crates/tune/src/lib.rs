//! Changes settings for a session and puts every one back. This is the one crate that writes to
//! /sys: a run, a review, a thermal test or an OPP walk change governors, clock limits and the
//! ASPM policy only through a [`Restorer`], so every change is undone on exit, error, signal
//! and panic, in the form the kernel accepts.

pub mod restorer;
pub mod sysfs;
pub mod tuning;

pub use restorer::{Refused, Restorer};
pub use sysfs::{RootFs, Sysfs, restore_form};
