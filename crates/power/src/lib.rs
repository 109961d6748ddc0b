//! Power readings for efficiency sweeps (`boardbench graph`): how many watts the machine (or a
//! part of it) draws while a fixed workload runs.
//!
//! Sources, best first (see [`detect`]):
//! - `--power-cmd CMD` ([`command`]): anything that prints watts — a smart plug, a USB meter, a
//!   lab supply. The user chose it, so it always wins.
//! - hwmon power monitors ([`hwmon`]): `power*_input` (µW) or `in*_input` (mV) × `curr*_input`
//!   (mA) pairs of one device (INA219/INA226/INA3221 shunt monitors on a board's input).
//! - the Raspberry Pi 5 PMIC ([`rpi5`]): Σ A×V over its rails, from `vcgencmd pmic_read_adc`.
//! - RAPL ([`rapl`]): the CPU packages' energy counters (x86; the package only, not the board).
//!
//! Every reader is pure apart from reading through a [`probe::Root`] (or running its one
//! command), so fixture trees replay a machine. [`window`] turns readings into the average
//! watts of a time window, whichever form (instantaneous watts or an energy counter) a source
//! gives.

pub mod command;
pub mod hwmon;
pub mod rapl;
pub mod rpi5;
pub mod window;

use probe::Root;

/// One reading of a source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reading {
    /// Instantaneous (or sensor-averaged) power in watts.
    Watts(f64),
    /// A cumulative energy counter in joules (already unwrapped: it never goes backwards). Only
    /// differences mean something.
    Joules(f64),
}

/// What kind of source it is (stable names for the result document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Command,
    Hwmon,
    RpiPmic,
    Rapl,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Hwmon => "hwmon",
            Kind::RpiPmic => "rpi5-pmic",
            Kind::Rapl => "rapl",
        }
    }

    /// What the figure covers, in plain words (efficiency numbers mean different things).
    pub fn scope(self) -> &'static str {
        match self {
            Kind::Command => "whatever the command measures (usually the whole board at the wall)",
            Kind::Hwmon => "what the sensor's shunt sits in (often the board's input)",
            Kind::RpiPmic => {
                "the PMIC's output rails (SoC, RAM, I/O); not USB devices or conversion losses"
            }
            Kind::Rapl => "the CPU package(s) only, not the board",
        }
    }
}

/// A power source. `read` is called at the start and end of every window, and in between
/// for instantaneous sources (their average over the window is the figure).
pub trait PowerSource: Send {
    fn kind(&self) -> Kind;
    /// One line for people and the document ("hwmon2 ina226: power1_input").
    fn describe(&self) -> String;
    fn read(&mut self) -> Result<Reading, String>;
}

/// Every power source this machine offers, best first (see the module documentation). Only
/// sources that give a reading right now are returned.
pub fn detect(root: &Root) -> Vec<Box<dyn PowerSource>> {
    let mut v: Vec<Box<dyn PowerSource>> = Vec::new();
    for s in hwmon::discover(root) {
        v.push(Box::new(s));
    }
    if let Some(s) = rpi5::discover(root) {
        v.push(Box::new(s));
    }
    for s in rapl::discover(root) {
        v.push(Box::new(s));
    }
    v.retain_mut(|s| s.read().is_ok());
    v
}

/// Whether a wattage is worth keeping: finite, not negative, below 100 kW (a misread unit or a
/// garbage line otherwise).
pub fn plausible_watts(w: f64) -> bool {
    w.is_finite() && (0.0..100_000.0).contains(&w)
}
