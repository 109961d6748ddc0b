//! Temperature sensors: every thermal zone and every hwmon temperature channel (no limit on
//! their number; `thermal_zone10` and `hwmon12` count), ranked by one documented rule, and the
//! choice of the CPU/SoC temperature source the monitor reads.
//!
//! # The ranking rule
//!
//! Every sensor gets a *tier* from its zone `type` or hwmon `name` (and hwmon `tempN_label`),
//! compared case-insensitively after dropping a `-thermal`/`_thermal`/`-therm` suffix:
//!
//! | tier | what | examples |
//! |---|---|---|
//! | 1 | the CPU package sensor of an x86 CPU | zone `x86_pkg_temp`; hwmon `coretemp` "Package id 0"; hwmon `k10temp`/`zenpower` "Tctl" (or its unlabelled temp1); `k8temp` |
//! | 2 | a zone for the whole CPU or SoC | `cpu-thermal`, `cpu_thermal`, `CPU-therm`, `soc-thermal`, `soc_thermal`, `aml_thermal`, `cpu`, `soc`, `cpuss` |
//! | 3 | a zone for CPU cores or a CPU cluster | `bigcore0-thermal`, `littlecore-thermal`, `cpu0-thermal`, `cluster0`, `mtktscpu`, `cpu-1-0` (any name containing cpu, core or cluster) |
//! | 4 | an hwmon channel that names the CPU, or a known SoC sensor | label containing "CPU" (`CPUTIN`), `cpu-hwmon`, `pvt` (label pvt0), `sfctemp`, `120e0000…`; zone `thermal-fan-est` |
//! | 5 | the ACPI thermal zone | `acpitz` |
//! | 6 | a zone with a generic name (sbc-bench #130) | `thermal_0`, `thermal-zone4`, `thermal_zone3`, `tz1`, `sensor0` |
//! | 7 | an unrecognised name | anything not listed and not excluded below |
//! | — | never chosen: a sensor of another part | names containing gpu, ddr, dram, dmc, npu, vpu, isp, camera, battery, charger, pmic, usb, wifi, wlan, iwlwifi, ath, nvme, drivetemp, disk, ssd, mmc, modem, skin, ambient, board, pch, amdgpu, radeon, nouveau, center, jc42, spd5118, xo-therm, pa-therm, quiet-therm, ve |
//!
//! Among sensors of the same tier, zones come before hwmon channels (an ARM zone is usually
//! also exported as hwmon; the zone is the original), in tier 2 a `cpu` name before a `soc`
//! name (the benchmarks load the CPU), in tier 3 a `big` name first, then natural path order
//! (thermal_zone2 before thermal_zone10).
//!
//! A sensor is *eligible* only when its value reads as a plausible temperature
//! (-40 °C < t ≤ 150 °C, and not exactly 0, which broken drivers report). The source is the
//! first eligible sensor in rank order; the reason names the tier and the name. Finding none
//! is a normal outcome (VMs, containers): the monitor then shows no temperature.
//!
//! A user override (a sensor path such as /sys/class/hwmon/hwmon3/temp2_input, or a zone type /
//! hwmon name) beats the rule; see [`choose`].

use document::machine::{SensorKind, ThermalSensor, ThermalSource};

use crate::root::natural_cmp;
use crate::{Notes, Root};

pub const THERMAL_DIR: &str = "/sys/class/thermal";
pub const HWMON_DIR: &str = "/sys/class/hwmon";

/// Words in a name that mean the sensor belongs to another part than the CPU.
const OTHER_PARTS: &[&str] = &[
    "gpu",
    "ddr",
    "dram",
    "dmc",
    "npu",
    "vpu",
    "isp",
    "camera",
    "battery",
    "charger",
    "pmic",
    "usb",
    "wifi",
    "wlan",
    "iwlwifi",
    "ath1",
    "nvme",
    "drivetemp",
    "disk",
    "ssd",
    "mmc",
    "modem",
    "skin",
    "ambient",
    "board",
    "pch",
    "amdgpu",
    "radeon",
    "nouveau",
    "center",
    "jc42",
    "spd5118",
    "xo-therm",
    "pa-therm",
    "quiet-therm",
];

/// Reads every zone and hwmon temperature channel, ranked best first.
pub fn read_sensors(root: &Root, notes: &mut Notes) -> Vec<ThermalSensor> {
    let mut v = Vec::new();
    for zone in root
        .list_dir(THERMAL_DIR)
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.starts_with("thermal_zone"))
    {
        let d = format!("{THERMAL_DIR}/{zone}");
        let name = notes
            .keep(root.read_value(&format!("{d}/type")))
            .unwrap_or_else(|| zone.clone());
        let path = format!("{d}/temp");
        let temp_c = notes.keep(root.read_i64(&path)).map(millideg_to_c);
        v.push(sensor(path, SensorKind::Zone, name, None, temp_c));
    }
    for hw in root
        .list_dir(HWMON_DIR)
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.starts_with("hwmon"))
    {
        let d = format!("{HWMON_DIR}/{hw}");
        // Old kernels keep the attributes in the `device` subdirectory.
        let d = if !root.exists(&format!("{d}/name")) && root.exists(&format!("{d}/device/name")) {
            format!("{d}/device")
        } else {
            d
        };
        let name = notes
            .keep(root.read_value(&format!("{d}/name")))
            .unwrap_or_else(|| hw.clone());
        let inputs = root.list_dir(&d).unwrap_or_default();
        for input in inputs
            .iter()
            .filter(|n| n.starts_with("temp") && n.ends_with("_input"))
        {
            let chan = input.trim_end_matches("_input");
            let label = notes.keep_optional(root.read_value(&format!("{d}/{chan}_label")));
            let path = format!("{d}/{input}");
            let temp_c = notes.keep(root.read_i64(&path)).map(millideg_to_c);
            v.push(sensor(path, SensorKind::Hwmon, name.clone(), label, temp_c));
        }
    }
    rank(&mut v);
    v
}

/// sysfs temperatures are millidegrees; a few vendor drivers report degrees (small values).
pub fn millideg_to_c(v: i64) -> f64 {
    if v.abs() >= 1000 {
        v as f64 / 1000.0
    } else {
        v as f64
    }
}

fn sensor(
    path: String,
    kind: SensorKind,
    name: String,
    label: Option<String>,
    temp_c: Option<f64>,
) -> ThermalSensor {
    let (tier, why) = classify(kind, &name, label.as_deref());
    ThermalSensor {
        path,
        kind,
        name,
        label,
        temp_c,
        tier,
        why,
    }
}

/// Lower-cased name without a `-thermal`/`_thermal`/`-therm`/`_therm` suffix.
fn base(name: &str) -> String {
    let n = name.trim().to_ascii_lowercase();
    for suf in ["-thermal", "_thermal", "-therm", "_therm"] {
        if let Some(b) = n.strip_suffix(suf) {
            return b.to_string();
        }
    }
    n
}

fn is_generic(b: &str) -> bool {
    let stem = b.trim_end_matches(|c: char| c.is_ascii_digit());
    let stem = stem.trim_end_matches(['-', '_']);
    b != stem
        && matches!(
            stem,
            "thermal" | "thermal-zone" | "thermal_zone" | "tz" | "zone" | "sensor"
        )
        || matches!(b, "thermal" | "thermal-zone" | "thermal_zone")
}

/// The tier (1 = best, `None` = never chosen) and the reason, for one sensor.
pub fn classify(kind: SensorKind, name: &str, label: Option<&str>) -> (Option<u8>, String) {
    let b = base(name);
    let l = label.map(|l| l.to_ascii_lowercase());
    let lbl = l.as_deref().unwrap_or("");
    let shown = match label {
        Some(l) => format!("{name} {l}"),
        None => name.to_string(),
    };
    let t = |tier: u8, what: &str| (Some(tier), format!("tier {tier}: {what} ({shown})"));
    // Tier 1: x86 package sensors.
    if kind == SensorKind::Zone && b == "x86_pkg_temp" {
        return t(1, "x86 CPU package zone");
    }
    if kind == SensorKind::Hwmon {
        match b.as_str() {
            "coretemp" if lbl.starts_with("package id") => return t(1, "Intel CPU package"),
            "k10temp" | "zenpower" if lbl == "tctl" || label.is_none() => {
                return t(1, "AMD CPU control temperature Tctl");
            }
            "k8temp" => return t(1, "AMD K8 CPU sensor"),
            "coretemp" | "k10temp" | "zenpower" => return t(4, "x86 CPU sensor, not the package"),
            _ => {}
        }
    }
    if let Some(part) = OTHER_PARTS
        .iter()
        .find(|p| b.contains(*p) || lbl.contains(*p))
        .or_else(|| (b == "ve" || b.starts_with("ve_") || b.starts_with("ve-")).then_some(&"ve"))
    {
        return (
            None,
            format!("not eligible: belongs to another part ({part}) ({shown})"),
        );
    }
    if matches!(
        b.as_str(),
        "cpu" | "soc" | "aml" | "cpuss" | "soc_max" | "cpu_max"
    ) {
        return t(2, "zone for the whole CPU/SoC");
    }
    if kind == SensorKind::Zone && ["cpu", "core", "cluster"].iter().any(|w| b.contains(w)) {
        return t(3, "zone for CPU cores or a cluster");
    }
    if lbl.contains("cpu")
        || b.contains("cpu")
        || (b == "pvt" && lbl == "pvt0")
        || b == "sfctemp"
        || b.starts_with("120e0000")
        || b == "thermal-fan-est"
    {
        return t(4, "sensor naming the CPU or a known SoC sensor");
    }
    if b == "acpitz" {
        return t(5, "ACPI thermal zone");
    }
    if kind == SensorKind::Zone && is_generic(&b) {
        return t(6, "zone with a generic name");
    }
    t(7, "unrecognised name")
}

/// Sub-order inside a tier (see the module doc).
fn sub_order(s: &ThermalSensor) -> u8 {
    let b = base(&s.name);
    match s.tier {
        Some(2) if b.contains("cpu") => 0,
        Some(3) if b.contains("big") => 0,
        _ => 1,
    }
}

/// Sorts sensors into rank order.
pub fn rank(v: &mut [ThermalSensor]) {
    v.sort_by(|a, b| {
        let ta = a.tier.unwrap_or(u8::MAX);
        let tb = b.tier.unwrap_or(u8::MAX);
        ta.cmp(&tb)
            .then((a.kind == SensorKind::Hwmon).cmp(&(b.kind == SensorKind::Hwmon)))
            .then(sub_order(a).cmp(&sub_order(b)))
            .then_with(|| natural_cmp(&a.path, &b.path))
    });
}

/// Whether a reading is a believable temperature.
pub fn plausible(t: Option<f64>) -> bool {
    t.is_some_and(|t| t > -40.0 && t <= 150.0 && t != 0.0)
}

/// Chooses the CPU/SoC temperature source from ranked sensors.
///
/// `override_` (a user setting) is a machine path or a zone type / hwmon name (optionally
/// with the label: "k10temp Tccd1"). A path is used as given even if it is not among the
/// sensors (the user knows their board); a name must match a sensor. An override that matches
/// nothing falls back to the rule, and the reason says so.
pub fn choose(sensors: &[ThermalSensor], override_: Option<&str>) -> Option<ThermalSource> {
    let mut prefix = String::new();
    if let Some(o) = override_.map(str::trim).filter(|o| !o.is_empty()) {
        let hit = sensors.iter().find(|s| {
            s.path == o
                || s.name == o
                || s.label
                    .as_ref()
                    .is_some_and(|l| format!("{} {l}", s.name) == o)
        });
        if let Some(s) = hit {
            return Some(ThermalSource {
                path: s.path.clone(),
                name: display_name(s),
                why: format!("user override {o:?}"),
            });
        }
        if o.starts_with('/') {
            return Some(ThermalSource {
                path: o.to_string(),
                name: o.to_string(),
                why: format!("user override {o:?} (not among the sensors found)"),
            });
        }
        prefix = format!("override {o:?} matched no sensor; ");
    }
    let s = sensors
        .iter()
        .find(|s| s.tier.is_some() && plausible(s.temp_c))?;
    let skipped = sensors
        .iter()
        .take_while(|x| !std::ptr::eq(*x, s))
        .filter(|x| x.tier.is_some() && x.tier <= s.tier)
        .count();
    let mut why = format!("{prefix}{}", s.why);
    if skipped > 0 {
        why.push_str(&format!(
            "; {skipped} better-ranked sensor(s) had no plausible reading"
        ));
    }
    Some(ThermalSource {
        path: s.path.clone(),
        name: display_name(s),
        why,
    })
}

/// "k10temp Tctl", "soc-thermal".
pub fn display_name(s: &ThermalSensor) -> String {
    match &s.label {
        Some(l) => format!("{} {l}", s.name),
        None => s.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(kind: SensorKind, name: &str, label: Option<&str>) -> Option<u8> {
        classify(kind, name, label).0
    }

    #[test]
    fn tiers_follow_the_table() {
        use SensorKind::*;
        assert_eq!(tier(Zone, "x86_pkg_temp", None), Some(1));
        assert_eq!(tier(Hwmon, "k10temp", Some("Tctl")), Some(1));
        assert_eq!(tier(Hwmon, "k10temp", Some("Tccd1")), Some(4));
        assert_eq!(tier(Hwmon, "coretemp", Some("Package id 0")), Some(1));
        assert_eq!(tier(Hwmon, "coretemp", Some("Core 4")), Some(4));
        assert_eq!(tier(Zone, "cpu-thermal", None), Some(2));
        assert_eq!(tier(Zone, "CPU-therm", None), Some(2));
        assert_eq!(tier(Zone, "soc_thermal", None), Some(2));
        assert_eq!(tier(Zone, "bigcore0-thermal", None), Some(3));
        assert_eq!(tier(Zone, "gpu-thermal", None), None);
        assert_eq!(tier(Zone, "center-thermal", None), None);
        assert_eq!(tier(Zone, "acpitz", None), Some(5));
        assert_eq!(tier(Zone, "thermal_0", None), Some(6));
        assert_eq!(tier(Zone, "thermal-zone4", None), Some(6));
        assert_eq!(tier(Hwmon, "nvme", Some("Composite")), None);
        assert_eq!(tier(Hwmon, "iwlwifi_1", None), None);
        assert_eq!(tier(Zone, "ve", None), None);
        assert_eq!(tier(Zone, "vendor-sensor", None), Some(7));
        assert_eq!(tier(Hwmon, "nct6798", Some("CPUTIN")), Some(4));
    }

    fn s(path: &str, kind: SensorKind, name: &str, t: Option<f64>) -> ThermalSensor {
        sensor(path.into(), kind, name.into(), None, t)
    }

    #[test]
    fn generic_zone_names_are_still_chosen_when_alone() {
        // sbc-bench #130: a SpacemiT board whose only zone is called thermal_0.
        let mut v = vec![
            s(
                "/z/thermal_zone1/temp",
                SensorKind::Zone,
                "gpu-thermal",
                Some(40.0),
            ),
            s(
                "/z/thermal_zone0/temp",
                SensorKind::Zone,
                "thermal_0",
                Some(41.0),
            ),
        ];
        rank(&mut v);
        let c = choose(&v, None).unwrap();
        assert_eq!(c.path, "/z/thermal_zone0/temp");
        assert!(c.why.contains("tier 6"), "{}", c.why);
    }

    #[test]
    fn implausible_readings_are_skipped_with_a_reason() {
        let mut v = vec![
            s(
                "/z/thermal_zone0/temp",
                SensorKind::Zone,
                "cpu-thermal",
                Some(0.0),
            ),
            s(
                "/z/thermal_zone1/temp",
                SensorKind::Zone,
                "soc-thermal",
                Some(45.0),
            ),
        ];
        rank(&mut v);
        let c = choose(&v, None).unwrap();
        assert_eq!(c.name, "soc-thermal");
        assert!(c.why.contains("1 better-ranked"), "{}", c.why);
    }

    #[test]
    fn zone_ten_sorts_after_zone_two_and_zones_beat_hwmon() {
        let mut v = vec![
            s(
                "/h/hwmon0/temp1_input",
                SensorKind::Hwmon,
                "cpu_thermal",
                Some(50.0),
            ),
            s(
                "/z/thermal_zone10/temp",
                SensorKind::Zone,
                "cpu1-thermal",
                Some(50.0),
            ),
            s(
                "/z/thermal_zone2/temp",
                SensorKind::Zone,
                "cpu0-thermal",
                Some(50.0),
            ),
        ];
        rank(&mut v);
        // The hwmon copy of cpu_thermal is tier 2, the per-core zones tier 3.
        assert_eq!(v[0].path, "/h/hwmon0/temp1_input");
        assert_eq!(v[1].path, "/z/thermal_zone2/temp");
        assert_eq!(v[2].path, "/z/thermal_zone10/temp");
    }

    #[test]
    fn overrides() {
        let v = vec![s(
            "/z/thermal_zone0/temp",
            SensorKind::Zone,
            "cpu-thermal",
            Some(50.0),
        )];
        assert_eq!(
            choose(&v, Some("cpu-thermal")).unwrap().why,
            "user override \"cpu-thermal\""
        );
        assert_eq!(choose(&v, Some("/x/temp")).unwrap().path, "/x/temp");
        let c = choose(&v, Some("nope")).unwrap();
        assert!(c.why.starts_with("override \"nope\" matched no sensor"));
        assert_eq!(choose(&[], None), None);
    }
}
