//! The Raspberry Pi 5 PMIC (DA9091 "Gilmour") as the firmware reports it:
//! `vcgencmd pmic_read_adc` prints one line per ADC channel, currents as `<RAIL>_A` and
//! voltages as `<RAIL>_V`:
//!
//! ```text
//!      VDD_CORE_A current(7)=2.10560000A
//!      VDD_CORE_V volt(15)=0.86002400V
//!         EXT5V_V volt(24)=5.12736000V
//! ```
//!
//! (older firmware prints `VDD_CORE_A=2.1056A`; both forms are read). Power is Σ A×V over every
//! rail that has both readings, as sbc-bench computes it (docs/sbc-bench-compat.md). `EXT5V_V` (the
//! 5 V input) has no current channel, so the figure is what the PMIC delivers to the SoC, RAM
//! and I/O — not USB devices, the fan, or the PMIC's own losses.
//!
//! The command runs through [`probe::rpi::CommandRunner`], so a fixture tree replays a recorded
//! output (`.fixture/vcgencmd/pmic_read_adc.txt`), and only where the device tree says
//! `raspberrypi,…` (a `vcgencmd` elsewhere is not a Pi's).

use probe::Root;
use probe::rpi::{CommandRunner, FixtureRunner, SystemRunner};

use crate::{Kind, PowerSource, Reading, plausible_watts};

/// One rail with both current and voltage.
#[derive(Debug, Clone, PartialEq)]
pub struct Rail {
    /// "VDD_CORE".
    pub name: String,
    pub amps: f64,
    pub volts: f64,
}

impl Rail {
    pub fn watts(&self) -> f64 {
        self.amps * self.volts
    }
}

/// The number at the start of `s` ("0.75000000A" → 0.75); `None` without one.
fn leading_number(s: &str) -> Option<f64> {
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
        .map_or(s.len(), |(i, _)| i);
    // An exponent marker without digits ("1.5e" from "1.5eV") is not part of the number.
    let mut n = &s[..end];
    while !n.is_empty() && n.parse::<f64>().is_err() {
        n = &n[..n.len() - 1];
    }
    n.parse().ok().filter(|v: &f64| v.is_finite())
}

/// Parses `pmic_read_adc` output into the rails that have both a current and a voltage, in
/// the order their current lines appear. Lines it does not understand are ignored.
pub fn parse_pmic_adc(text: &str) -> Vec<Rail> {
    let mut amps: Vec<(String, f64)> = Vec::new();
    let mut volts: Vec<(String, f64)> = Vec::new();
    for line in text.lines() {
        let Some((left, right)) = line.rsplit_once('=') else {
            continue;
        };
        let Some(name) = left.split_whitespace().next() else {
            continue;
        };
        let Some(value) = leading_number(right.trim()) else {
            continue;
        };
        if let Some(rail) = name.strip_suffix("_A") {
            amps.push((rail.to_string(), value));
        } else if let Some(rail) = name.strip_suffix("_V") {
            volts.push((rail.to_string(), value));
        }
    }
    amps.into_iter()
        .filter_map(|(name, a)| {
            let v = volts.iter().find(|(n, _)| *n == name)?.1;
            Some(Rail {
                name,
                amps: a,
                volts: v,
            })
        })
        .collect()
}

/// Σ A×V of the rails.
pub fn total_watts(rails: &[Rail]) -> f64 {
    rails.iter().map(Rail::watts).sum()
}

/// The PMIC as a power source.
pub struct PmicSource {
    runner: Box<dyn CommandRunner>,
}

impl std::fmt::Debug for PmicSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PmicSource")
    }
}

impl PmicSource {
    pub fn new(runner: Box<dyn CommandRunner>) -> Self {
        PmicSource { runner }
    }
}

/// Whether the device tree says Raspberry Pi.
fn is_raspberry_pi(root: &Root) -> bool {
    [
        "/proc/device-tree/compatible",
        "/sys/firmware/devicetree/base/compatible",
    ]
    .iter()
    .filter_map(|p| root.read_dt_strings(p).ok())
    .any(|c| c.iter().any(|s| s.starts_with("raspberrypi,")))
}

/// The PMIC of a Raspberry Pi whose firmware answers `pmic_read_adc` with rails (Pi 5, CM5,
/// Pi 500); the real command on the live system, the recorded output in a fixture tree.
pub fn discover(root: &Root) -> Option<PmicSource> {
    if !is_raspberry_pi(root) {
        return None;
    }
    let runner: Box<dyn CommandRunner> = if root.is_host() {
        Box::new(SystemRunner)
    } else {
        Box::new(FixtureRunner::for_root(root))
    };
    let mut s = PmicSource::new(runner);
    s.read().ok()?;
    Some(s)
}

impl PowerSource for PmicSource {
    fn kind(&self) -> Kind {
        Kind::RpiPmic
    }

    fn describe(&self) -> String {
        "Raspberry Pi PMIC (vcgencmd pmic_read_adc, Σ A×V of its rails)".into()
    }

    fn read(&mut self) -> Result<Reading, String> {
        let out = self.runner.run(&["pmic_read_adc"])?;
        let rails = parse_pmic_adc(&out);
        if rails.is_empty() {
            return Err("vcgencmd pmic_read_adc: no rail with current and voltage".into());
        }
        let w = total_watts(&rails);
        if plausible_watts(w) {
            Ok(Reading::Watts(w))
        } else {
            Err(format!("vcgencmd pmic_read_adc: implausible {w} W"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_output_forms() {
        let r = parse_pmic_adc("  VDD_CORE_A current(7)=2.0A\n  VDD_CORE_V volt(15)=0.5V\n");
        assert_eq!(r.len(), 1);
        assert!((total_watts(&r) - 1.0).abs() < 1e-9);
        let r = parse_pmic_adc("X_A=1.5A\nX_V=2V\nY_V=5V\n");
        assert_eq!(
            r,
            vec![Rail {
                name: "X".into(),
                amps: 1.5,
                volts: 2.0
            }]
        );
    }

    #[test]
    fn leading_numbers() {
        assert_eq!(leading_number("0.75000000A"), Some(0.75));
        assert_eq!(leading_number("1.5eV"), Some(1.5));
        assert_eq!(leading_number("A"), None);
    }
}
