//! The result document of a session: before/after snapshots (probe::runstate), the device
//! name and kernel status, and the document itself, finished by the one finisher (crate `finish`).

use document::machine::MachineInfo;
use document::run::{RunRecord, StateSnapshot};
use document::{Measurement, ResultDocument, SCHEMA_VERSION};

use crate::session::stamp::{self, Stamp};

pub fn snapshot(root: &probe::Root, m: &MachineInfo) -> StateSnapshot {
    let s = stamp::now();
    probe::runstate::snapshot(root, m, s.iso, s.unix_ms)
}

/// Assembles a mode's result document (run, thermal, graph, env) and finishes it (`finish`:
/// findings, headline, comparability marks, placement).
pub fn document(
    root: &probe::Root,
    machine: &MachineInfo,
    device: Option<String>,
    started: &Stamp,
    measurements: Vec<Measurement>,
    run: RunRecord,
) -> ResultDocument {
    let mut doc = ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: format!("boardbench {}", env!("CARGO_PKG_VERSION")),
        device: device.or_else(|| headline::device::device_name(machine)),
        started: Some(started.iso.clone()),
        finished: Some(stamp::now().iso),
        machine: Some(machine.clone()),
        measurements,
        findings: Vec::new(),
        imported: None,
        run: Some(run),
        guide: None,
        redaction: None,
        analysis: None,
    };
    if let Some(r) = doc.run.as_mut()
        && r.kernel.is_none()
    {
        r.kernel = Some(kernel_status(root, machine));
    }
    // The one finisher: findings, headline, comparability marks, placement.
    crate::finishing::finish(&mut doc);
    doc
}

/// The kernel verdict of `boardbench kernel`, in short, for the day of the run.
pub fn kernel_status(root: &probe::Root, machine: &MachineInfo) -> document::run::KernelStatus {
    let input = kernelinfo::read::gather(root, machine);
    let today = probe::clock::today();
    let r = kernelinfo::assess(&input, today);
    document::run::KernelStatus {
        release: r.release.clone(),
        origin: r.origin.as_ref().map(|o| o.kind.words().to_string()),
        maintainer: r.origin.as_ref().and_then(|o| o.maintainer.clone()),
        hz: r.config.hz,
        preempt: r.config.preempt.clone(),
        level: serde_json::to_value(r.level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| "unknown".into()),
        verdict: r.verdict,
        judged_on: r.today,
        table_as_of: r.table_as_of,
    }
}
