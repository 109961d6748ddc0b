//! The controlled environment: governors during the run and whether everything changed was
//! put back. The before snapshot is taken after tuning, so it shows what the run ran with
//! (sbc-bench only tuned `policy?` — one digit — and left policy10 and up untouched).

use document::{Finding, Severity};

use crate::{RunCx, capped, finding, kinds};

const PERFORMANCE: &str = "performance";

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    let tune = cx.run.options.tune;
    if let Some(b) = cx.before {
        let off: Vec<String> = b
            .policies
            .iter()
            .filter_map(|p| {
                let g = p.governor.as_deref()?;
                (g != PERFORMANCE).then(|| format!("policy{}: {g}", p.policy))
            })
            .collect();
        if !off.is_empty() {
            let (severity, message) = if tune {
                (
                    Severity::Warning,
                    format!(
                        "cpufreq governor not performance during the run on {} policies although tuning was on.",
                        off.len()
                    ),
                )
            } else {
                (
                    Severity::Info,
                    format!(
                        "Governors left as found (no tuning): {} policies not on performance; clocks ramp as the governor decides.",
                        off.len()
                    ),
                )
            };
            out.push(finding(kinds::GOVERNOR, severity, message, capped(off, 12)));
        }
        let dev: Vec<String> = b
            .devfreq
            .iter()
            .filter_map(|d| {
                let g = d.governor.as_deref()?;
                (g != PERFORMANCE).then(|| format!("{}: {g}", d.name))
            })
            .collect();
        if tune && !dev.is_empty() {
            out.push(finding(
                kinds::DEVFREQ_GOVERNOR,
                Severity::Info,
                "devfreq governors (memory controller, GPU) not on performance during the run: memory scores may depend on them.",
                capped(dev, 12),
            ));
        }
    }
    let not_restored: Vec<String> = cx
        .run
        .settings
        .iter()
        .filter_map(|s| {
            let after = s.after.as_deref()?;
            (after.trim() != s.before.trim()).then(|| {
                format!(
                    "{}: was {:?}, set {:?}, now {:?}",
                    s.path, s.before, s.set, after
                )
            })
        })
        .collect();
    if !not_restored.is_empty() {
        out.push(finding(
            kinds::SETTINGS_NOT_RESTORED,
            Severity::Warning,
            format!(
                "{} changed setting(s) did not read back their original value after the run.",
                not_restored.len()
            ),
            capped(not_restored, 12),
        ));
    }
    out
}
