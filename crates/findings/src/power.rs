//! x86 power and thermal limits: thermal_throttle counters that grew (the x86 equivalent of
//! time below the top OPP, which x86 cpufreq drivers do not record), and powercap (RAPL) limits.

use document::run::{PowercapZone, StateSnapshot};
use document::{Finding, Severity};

use crate::{RunCx, capped, finding, kinds};

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    if let (Some(b), Some(a)) = (cx.before, cx.after) {
        out.extend(thermal_throttle(b, a));
    }
    out.extend(powercap(cx));
    out
}

fn thermal_throttle(b: &StateSnapshot, a: &StateSnapshot) -> Option<Finding> {
    let mut ev = Vec::new();
    let mut core_total = 0u64;
    let mut package_max = 0u64;
    for t in &a.thermal_throttle {
        let Some(tb) = b.thermal_throttle.iter().find(|x| x.cpu == t.cpu) else {
            continue;
        };
        let delta = |x: Option<u64>, y: Option<u64>| match (x, y) {
            (Some(x), Some(y)) => y.saturating_sub(x),
            _ => 0,
        };
        let core = delta(tb.core_throttle_count, t.core_throttle_count);
        let package = delta(tb.package_throttle_count, t.package_throttle_count);
        if core.saturating_add(package) > 0 {
            ev.push(format!(
                "cpu{}: core_throttle_count +{core}, package_throttle_count +{package}",
                t.cpu
            ));
        }
        core_total = core_total.saturating_add(core);
        package_max = package_max.max(package);
    }
    if ev.is_empty() {
        return None;
    }
    Some(finding(
        kinds::THERMAL_THROTTLE,
        Severity::Invalid,
        format!(
            "The CPU throttled for heat during the run ({core_total} core and {package_max} package throttling events)."
        ),
        capped(ev, 12),
    ))
}

fn watts(uw: u64) -> String {
    format!("{:.1} W", uw as f64 / 1e6)
}

fn limits(z: &PowercapZone) -> Vec<String> {
    z.constraints
        .iter()
        .filter_map(|c| {
            let l = c.power_limit_uw?;
            let max = c
                .max_power_uw
                .map(|m| format!(" (max {})", watts(m)))
                .unwrap_or_default();
            let window = c
                .time_window_us
                .map(|t| format!(", window {:.3} s", t as f64 / 1e6))
                .unwrap_or_default();
            Some(format!("{} {}{max}{window}", c.name, watts(l)))
        })
        .collect()
}

fn powercap(cx: &RunCx) -> Option<Finding> {
    let zones = cx
        .before
        .map(|b| &b.powercap)
        .filter(|z| !z.is_empty())
        .or(cx.after.map(|a| &a.powercap))?;
    let mut ev = Vec::new();
    let mut low = false;
    let mut changed = false;
    for z in zones.iter().filter(|z| z.enabled != Some(false)) {
        let l = limits(z);
        if l.is_empty() {
            continue;
        }
        ev.push(format!("{} ({}): {}", z.name, z.path, l.join(", ")));
        for c in &z.constraints {
            if let (Some(l), Some(m)) = (c.power_limit_uw, c.max_power_uw) {
                low |= m > 0 && l < m;
            }
        }
        // Limits that differ after the run: a daemon (thermald, power-profiles) moved them.
        if let Some(za) = cx
            .after
            .and_then(|a| a.powercap.iter().find(|x| x.path == z.path))
        {
            let after = limits(za);
            if after != l && !after.is_empty() {
                changed = true;
                ev.push(format!("{} after the run: {}", z.name, after.join(", ")));
            }
        }
        if let Some(w) = average_watts(cx, z) {
            ev.push(format!("{}: {w:.1} W average over the run", z.name));
        }
    }
    if ev.is_empty() {
        return None;
    }
    let (severity, message) = if low || changed {
        (
            Severity::Warning,
            "Powercap limits below the package's maximum or changed during the run: the scores depend on them.",
        )
    } else {
        (
            Severity::Info,
            "Powercap (RAPL) limits present: sustained clocks depend on them.",
        )
    };
    Some(finding(kinds::POWERCAP, severity, message, capped(ev, 12)))
}

/// Average power of a zone over the run from its energy counter (`None` when it wrapped or
/// the snapshots lack it).
fn average_watts(cx: &RunCx, z: &PowercapZone) -> Option<f64> {
    let (b, a) = (cx.before?, cx.after?);
    let eb = z.energy_uj?;
    let ea = a.powercap.iter().find(|x| x.path == z.path)?.energy_uj?;
    if ea <= eb || a.unix_ms <= b.unix_ms {
        return None;
    }
    let secs = (a.unix_ms - b.unix_ms) as f64 / 1000.0;
    Some((ea - eb) as f64 / 1e6 / secs)
}
