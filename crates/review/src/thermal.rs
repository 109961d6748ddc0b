//! Thermal trip points and cooling devices (`/sys/class/thermal`): at which temperature the
//! kernel starts to throttle (passive trips), switches fans (active) or shuts down (critical),
//! and whether a cooling device is already engaged.

use document::machine::MachineInfo;
use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, opt};

pub const THERMAL: &str = "/sys/class/thermal";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trip {
    pub index: u32,
    /// "passive", "active", "hot", "critical".
    pub kind: String,
    pub temp_c: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    /// "thermal_zone0".
    pub zone: String,
    pub name: String,
    /// "enabled" / "disabled".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trips: Vec<Trip>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoolingDevice {
    /// "cooling_device0".
    pub device: String,
    /// "cpufreq-cpu0", "thermal-cpufreq-0", "pwm-fan", "Processor", "devfreq-…".
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cur_state: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_state: Option<u64>,
}

impl CoolingDevice {
    /// Cooling devices that slow a clock down (as opposed to fans).
    pub fn throttles(&self) -> bool {
        let k = self.kind.to_ascii_lowercase();
        k.contains("cpufreq") || k.contains("devfreq") || k == "processor" || k.contains("gpu")
    }
    pub fn is_fan(&self) -> bool {
        self.kind.to_ascii_lowercase().contains("fan")
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThermalConfig {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cooling: Vec<CoolingDevice>,
}

fn milli_c(s: &str) -> Option<f64> {
    let v: i64 = s.trim().parse().ok()?;
    // Some drivers report °C instead of m°C.
    let c = if v.abs() > 1000 {
        v as f64 / 1000.0
    } else {
        v as f64
    };
    (-60.0..=400.0).contains(&c).then_some(c)
}

pub fn read(root: &Root) -> ThermalConfig {
    let names = root.list_dir(THERMAL).unwrap_or_default();
    let mut zones = Vec::new();
    let mut cooling = Vec::new();
    for n in &names {
        let d = format!("{THERMAL}/{n}");
        let f = |x: &str| opt(root, &format!("{d}/{x}"));
        if n.starts_with("thermal_zone") {
            let mut trips: Vec<Trip> = root
                .list_dir(&d)
                .unwrap_or_default()
                .iter()
                .filter_map(|e| {
                    let i: u32 = e
                        .strip_prefix("trip_point_")?
                        .strip_suffix("_temp")?
                        .parse()
                        .ok()?;
                    Some(Trip {
                        index: i,
                        kind: f(&format!("trip_point_{i}_type")).unwrap_or_else(|| "?".into()),
                        temp_c: milli_c(&f(e)?)?,
                    })
                })
                .collect();
            trips.sort_by_key(|t| t.index);
            zones.push(Zone {
                zone: n.clone(),
                name: f("type").unwrap_or_else(|| "?".into()),
                mode: f("mode"),
                policy: f("policy"),
                temp_c: f("temp").as_deref().and_then(milli_c),
                trips,
            });
        } else if n.starts_with("cooling_device") {
            cooling.push(CoolingDevice {
                device: n.clone(),
                kind: f("type").unwrap_or_else(|| "?".into()),
                cur_state: f("cur_state").and_then(|v| v.parse().ok()),
                max_state: f("max_state").and_then(|v| v.parse().ok()),
            });
        }
    }
    ThermalConfig { zones, cooling }
}

pub fn findings(t: &ThermalConfig, m: &MachineInfo) -> Vec<Finding> {
    let mut out = Vec::new();
    // The zone the monitor reads (when it is a zone), else every zone with a passive trip.
    let chosen = m
        .thermal_source
        .as_ref()
        .and_then(|s| s.path.strip_prefix(&format!("{THERMAL}/")))
        .and_then(|p| p.split('/').next())
        .map(str::to_string);
    for z in &t.zones {
        let ev = vec![format!(
            "{THERMAL}/{} ({}): {}",
            z.zone,
            z.name,
            z.trips
                .iter()
                .map(|tr| format!("trip {} {} {:.1}°C", tr.index, tr.kind, tr.temp_c))
                .collect::<Vec<_>>()
                .join(", ")
        )];
        if z.mode.as_deref() == Some("disabled") {
            out.push(finding(
                "thermal-zone-disabled",
                Severity::Warning,
                format!("Thermal zone {} ({}) is disabled", z.zone, z.name),
                "the kernel does not act on this sensor: no throttling protects the chip",
                ev.clone(),
            ));
        }
        let is_cpu = chosen.as_deref() == Some(z.zone.as_str());
        if !is_cpu {
            continue;
        }
        let passive = z
            .trips
            .iter()
            .filter(|tr| tr.kind == "passive")
            .map(|tr| tr.temp_c)
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.min(b))));
        let critical = z.trips.iter().find(|tr| tr.kind == "critical");
        match passive {
            Some(p) => out.push(finding(
                "thermal-trip",
                if p < 70.0 {
                    Severity::Warning
                } else {
                    Severity::Info
                },
                format!(
                    "CPU zone {} ({}) starts throttling at {p:.1}°C{}",
                    z.zone,
                    z.name,
                    critical.map_or(String::new(), |c| format!(
                        ", critical shutdown at {:.1}°C",
                        c.temp_c
                    ))
                ),
                "under sustained load the clocks fall once this temperature is reached: \
                 cooling decides the sustained score; a low trip point throttles early",
                ev.clone(),
            )),
            None if !z.trips.is_empty() => out.push(finding(
                "thermal-no-passive-trip",
                Severity::Info,
                format!("CPU zone {} ({}) has no passive trip point", z.zone, z.name),
                "the kernel does not throttle on this zone; firmware may still do (or the \
                 chip runs until its critical shutdown)",
                ev.clone(),
            )),
            None => {}
        }
    }
    for c in &t.cooling {
        let ev = vec![format!(
            "{THERMAL}/{} ({}): cur_state {} of max_state {}",
            c.device,
            c.kind,
            c.cur_state.map_or("?".into(), |v| v.to_string()),
            c.max_state.map_or("?".into(), |v| v.to_string())
        )];
        if c.throttles() && c.cur_state.is_some_and(|s| s > 0) {
            out.push(finding(
                "cooling-active",
                Severity::Warning,
                format!("{} ({}) is throttling right now", c.device, c.kind),
                "the clock is already capped for heat before any benchmark starts",
                ev,
            ));
        } else if c.is_fan() {
            out.push(finding(
                "fan",
                Severity::Info,
                format!(
                    "Fan {} ({}) at state {} of {}",
                    c.device,
                    c.kind,
                    c.cur_state.map_or("?".into(), |v| v.to_string()),
                    c.max_state.map_or("?".into(), |v| v.to_string())
                ),
                "active cooling: sustained performance depends on the fan curve (active trip \
                 points)",
                ev,
            ));
        }
    }
    out
}
