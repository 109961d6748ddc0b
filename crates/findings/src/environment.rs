//! The environment the run happened in: a VM guest or container, and a run that started on a
//! busy machine.

use document::machine::MachineInfo;
use document::{Finding, Severity};

use crate::tolerances::{TEMP_PLAUSIBLE_MAX_C, TEMP_PLAUSIBLE_MIN_C};
use crate::{RunCx, capped, finding, kinds};

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(gate) = cx.run.idle_gate.as_ref().filter(|g| !g.passed) {
        let mut ev = vec![format!("idle gate: {}", gate.reason)];
        if let Some(l) = gate.load1 {
            ev.push(format!(
                "1-minute load {l:.2} (threshold {:.2})",
                gate.load1_below
            ));
        }
        if let Some(c) = gate.cpu_pct {
            ev.push(format!(
                "CPU use {c:.1} % over {:.0} s (threshold {:.1} %)",
                gate.window_s, gate.cpu_pct_below
            ));
        }
        ev.extend(
            gate.top_processes
                .iter()
                .take(5)
                .map(|p| format!("pid {} {}: {:.1} % of a CPU", p.pid, p.command, p.cpu_pct)),
        );
        out.push(finding(
            kinds::BUSY_AT_START,
            Severity::Invalid,
            "The machine was busy when the run started: the scores are not to be trusted.",
            ev,
        ));
    }
    let cut: Vec<String> = cx
        .run
        .phases
        .iter()
        .filter_map(|p| {
            let r = p.reason.as_deref()?;
            r.contains(document::run::INTERRUPTED_REASON).then(|| {
                let name = if p.title.is_empty() {
                    &p.kind
                } else {
                    &p.title
                };
                format!("{name}: {r}")
            })
        })
        .collect();
    if !cut.is_empty() {
        let ran = cx.run.phases.len() - cut.len();
        out.push(finding(
            kinds::INTERRUPTED,
            Severity::Invalid,
            format!(
                "The run was interrupted: {ran} of {} phases finished; the others were cut short or never ran.",
                cx.run.phases.len()
            ),
            cut,
        ));
    }
    let stopped: Vec<String> = cx
        .run
        .phases
        .iter()
        .filter_map(|p| {
            let r = p.reason.as_deref()?;
            r.contains(document::run::STOPPED_REASON).then(|| {
                let name = if p.title.is_empty() {
                    &p.kind
                } else {
                    &p.title
                };
                format!("{name}: {r}")
            })
        })
        .collect();
    if !stopped.is_empty() {
        out.push(finding(
            kinds::STOPPED,
            Severity::Invalid,
            format!(
                "The run was stopped (Ctrl-Z) while {} phase(s) ran: their figures include the pause.",
                stopped.len()
            ),
            stopped,
        ));
    }
    if let Some(machine) = cx.machine {
        let mut vm = machine_findings(machine);
        // Steal time is the hypervisor's own measure of how much the host took away.
        let steal: Vec<f64> = cx
            .run
            .phases
            .iter()
            .flat_map(|p| p.samples.iter())
            .filter_map(|s| s.cpu.map(|c| c.steal))
            .filter(|v| v.is_finite())
            .collect();
        if let (Some(f), false) = (vm.first_mut(), steal.is_empty()) {
            let avg = steal.iter().sum::<f64>() / steal.len() as f64;
            let max = steal.iter().copied().fold(0.0, f64::max);
            f.evidence.push(format!(
                "steal time during the run: {avg:.1} % avg, {max:.1} % max of all CPU time"
            ));
        }
        out.extend(vm);
    }
    out.extend(implausible_temperature(cx));
    out
}

/// Temperatures no working SoC has: the sensor is wrong, so is everything said about heat.
fn implausible_temperature(cx: &RunCx) -> Option<Finding> {
    let temps: Vec<f64> = cx
        .run
        .phases
        .iter()
        .flat_map(|p| p.samples.iter())
        .filter_map(|s| s.temp_c)
        .filter(|t| t.is_finite())
        .collect();
    let bad = temps
        .iter()
        .filter(|&&t| !(TEMP_PLAUSIBLE_MIN_C..=TEMP_PLAUSIBLE_MAX_C).contains(&t))
        .count();
    if bad == 0 {
        return None;
    }
    let lo = temps.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = temps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sensor = cx
        .run
        .monitor
        .as_ref()
        .and_then(|m| m.thermal_path.clone())
        .unwrap_or_else(|| "the temperature source".into());
    let worst = if lo < TEMP_PLAUSIBLE_MIN_C { lo } else { hi };
    Some(finding(
        kinds::TEMPERATURE_IMPLAUSIBLE,
        Severity::Warning,
        format!(
            "The temperature readout is implausible ({worst:.1} °C): the temperatures of this run do not describe the SoC."
        ),
        vec![
            format!("sensor: {sensor}"),
            format!("readings from {lo:.1} to {hi:.1} °C; {bad} of {} outside {TEMP_PLAUSIBLE_MIN_C:.0}–{TEMP_PLAUSIBLE_MAX_C:.0} °C", temps.len()),
            "Why it matters: throttling by temperature, the thermal curve and its conclusions rest on this sensor".into(),
        ],
    ))
}

/// `vm-guest` from the machine snapshot alone.
pub(crate) fn machine(machine: &MachineInfo) -> Vec<Finding> {
    machine_findings(machine)
}

fn machine_findings(machine: &MachineInfo) -> Vec<Finding> {
    let Some(v) = &machine.identity.virtualization else {
        return Vec::new();
    };
    let ev = capped(v.evidence.clone(), 8);
    if v.kind == "container" {
        let runtime = v.container.as_deref().unwrap_or("unknown runtime");
        return vec![finding(
            kinds::VM_GUEST,
            Severity::Info,
            format!(
                "Running in a container ({runtime}): the hardware is real, but other containers share it."
            ),
            ev,
        )];
    }
    let inside = v
        .container
        .as_deref()
        .map(|c| format!(", inside a {c} container"))
        .unwrap_or_default();
    vec![finding(
        kinds::VM_GUEST,
        Severity::Warning,
        format!(
            "Virtual machine guest ({}{inside}): the numbers are the host's mood, not the hardware's.",
            v.kind
        ),
        ev,
    )]
}
