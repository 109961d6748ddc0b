//! hwmon power monitors (Documentation/hwmon/sysfs-interface.rst): `power<N>_input` in
//! microwatts (or `power<N>_average` where a driver only averages), and otherwise
//! `in<N>_input` (millivolts) × `curr<N>_input` (milliamperes) of the same device.
//!
//! Pairing voltage with current: by label when both channels are labelled (INA3221 labels its
//! bus voltage and current channels alike), else by index — INA219/INA226 and INA3221 number
//! the bus voltage like the current of the same rail (`in1` with `curr1`); their shunt
//! voltages (`in0`, `in4`…) then have no current partner and are left out.
//!
//! One source per hwmon device, summing its channels (an INA3221 measures three rails) — unless
//! one channel is labelled as the input ("VDD_IN", "POM_5V_IN", "VIN"): Jetson boards monitor
//! the input *and* rails behind it, and the sum would count those rails twice. Devices
//! are never summed together: a board with a monitor on its input and another on a rail would
//! count the rail twice. GPU drivers (amdgpu, nouveau, radeon, i915, xe) are skipped: their
//! power is the graphics card's, not the CPU's or the board's.

use probe::Root;

use crate::{Kind, PowerSource, Reading, plausible_watts};

pub const HWMON_DIR: &str = "/sys/class/hwmon";

/// hwmon drivers whose power figures belong to a graphics card.
const GPU_DRIVERS: [&str; 5] = ["amdgpu", "nouveau", "radeon", "i915", "xe"];

/// What a source multiplies and adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channels {
    /// `power<N>_input` / `power<N>_average` files (µW).
    Power(Vec<String>),
    /// (`in<N>_input`, `curr<M>_input`) pairs (mV, mA).
    VoltsAmps(Vec<(String, String)>),
}

/// One hwmon device with power (or voltage and current) channels.
#[derive(Debug, Clone)]
pub struct HwmonSource {
    root: Root,
    /// Machine path of the device directory ("/sys/class/hwmon/hwmon2").
    pub dir: String,
    /// The driver's `name` ("ina226").
    pub name: String,
    pub channels: Channels,
}

/// Every hwmon device with power channels, in hwmon order.
pub fn discover(root: &Root) -> Vec<HwmonSource> {
    let Ok(devs) = root.list_dir(HWMON_DIR) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in devs {
        let dir = format!("{HWMON_DIR}/{d}");
        let name = root
            .read_value(&format!("{dir}/name"))
            .unwrap_or_else(|_| d.clone());
        if GPU_DRIVERS.contains(&name.as_str()) {
            continue;
        }
        let Ok(files) = root.list_dir(&dir) else {
            continue;
        };
        if let Some(channels) = channels(root, &dir, &files) {
            out.push(HwmonSource {
                root: root.clone(),
                dir,
                name,
                channels,
            });
        }
    }
    out
}

/// The number in `<prefix><N><suffix>` file names.
fn index_of(file: &str, prefix: &str, suffix: &str) -> Option<u32> {
    file.strip_prefix(prefix)?
        .strip_suffix(suffix)?
        .parse()
        .ok()
}

fn indexes(files: &[String], prefix: &str, suffix: &str) -> Vec<u32> {
    let mut v: Vec<u32> = files
        .iter()
        .filter_map(|f| index_of(f, prefix, suffix))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Decides the channels of one device from its file names (labels read through `root`).
pub fn channels(root: &Root, dir: &str, files: &[String]) -> Option<Channels> {
    let label = |kind: &str, i: u32| -> Option<String> {
        let f = format!("{kind}{i}_label");
        files
            .contains(&f)
            .then(|| root.read_value(&format!("{dir}/{f}")).ok())
            .flatten()
    };
    for suffix in ["_input", "_average"] {
        let mut p = indexes(files, "power", suffix);
        if let Some(&i) = p
            .iter()
            .find(|&&i| label("power", i).is_some_and(|l| is_input_label(&l)))
        {
            p = vec![i];
        }
        if !p.is_empty() {
            return Some(Channels::Power(
                p.iter().map(|i| format!("power{i}{suffix}")).collect(),
            ));
        }
    }
    let volts = indexes(files, "in", "_input");
    let mut amps = indexes(files, "curr", "_input");
    if let Some(&i) = amps
        .iter()
        .find(|&&i| label("curr", i).is_some_and(|l| is_input_label(&l)))
    {
        amps = vec![i];
    }
    let mut pairs = Vec::new();
    for &c in &amps {
        let by_label = label("curr", c).and_then(|cl| {
            volts
                .iter()
                .copied()
                .find(|&v| label("in", v).as_deref() == Some(cl.as_str()))
        });
        let by_index = volts.contains(&c).then_some(c).filter(|&v| {
            // Both labelled and different: not the same rail.
            match (label("in", v), label("curr", c)) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
        });
        if let Some(v) = by_label.or(by_index) {
            pairs.push((format!("in{v}_input"), format!("curr{c}_input")));
        }
    }
    (!pairs.is_empty()).then_some(Channels::VoltsAmps(pairs))
}

/// Whether a channel label names the board's input (the total of the other channels).
pub fn is_input_label(label: &str) -> bool {
    let l = label.trim().to_ascii_uppercase();
    l == "VIN" || l == "INPUT" || l.ends_with("_IN") || l.ends_with(" IN")
}

impl HwmonSource {
    fn value(&self, file: &str) -> Result<i64, String> {
        self.root
            .read_i64(&format!("{}/{file}", self.dir))
            .map_err(|a| a.to_string())
    }
}

impl PowerSource for HwmonSource {
    fn kind(&self) -> Kind {
        Kind::Hwmon
    }

    fn describe(&self) -> String {
        let what = match &self.channels {
            Channels::Power(p) => p.join(" + "),
            Channels::VoltsAmps(p) => p
                .iter()
                .map(|(v, c)| format!("{v} × {c}"))
                .collect::<Vec<_>>()
                .join(" + "),
        };
        let dev = self.dir.rsplit('/').next().unwrap_or(&self.dir);
        format!("{dev} {}: {what}", self.name)
    }

    fn read(&mut self) -> Result<Reading, String> {
        // A shunt wired the other way round reads negative current: the magnitude is still
        // what the rail draws.
        let w = match &self.channels {
            Channels::Power(files) => {
                let mut uw = 0.0;
                for f in files {
                    uw += self.value(f)?.unsigned_abs() as f64;
                }
                uw / 1e6
            }
            Channels::VoltsAmps(pairs) => {
                let mut mw = 0.0;
                for (v, c) in pairs {
                    mw += (self.value(v)? as f64 * self.value(c)? as f64).abs() / 1e3;
                }
                mw / 1e3
            }
        };
        if plausible_watts(w) {
            Ok(Reading::Watts(w))
        } else {
            Err(format!("{}: implausible {w} W", self.dir))
        }
    }
}
