//! The glue between a run and the crates that judge and render it: snapshots and the kernel
//! message window (probe), findings, the log and the terminal summary.

use model::document::{Finding, ResultDocument, Severity};
use model::machine::MachineInfo;
use model::run::{KmsgWindow, StateSnapshot};

use crate::session::stamp;

pub struct KmsgCursor(#[allow(dead_code)] Option<u64>);

pub fn kmsg_cursor(_root: &probe::Root, _root_user: bool) -> KmsgCursor {
    KmsgCursor(None)
}

pub fn kmsg_since(_root: &probe::Root, _c: KmsgCursor) -> KmsgWindow {
    KmsgWindow { source: "none".into(), lines: Vec::new(), note: Some("not read yet".into()) }
}

pub fn snapshot(root: &probe::Root, _m: &MachineInfo) -> StateSnapshot {
    let s = stamp::now();
    StateSnapshot {
        taken: s.iso,
        unix_ms: s.unix_ms,
        online_cpus: root.read_cpu_list("/sys/devices/system/cpu/online").unwrap_or_default(),
        ..StateSnapshot::default()
    }
}

/// Device tree model, DMI product, or the host name.
pub fn device_name(m: &MachineInfo) -> Option<String> {
    let id = &m.identity;
    id.device_tree
        .as_ref()
        .and_then(|d| d.model.clone())
        .or_else(|| id.dmi.product_name.clone())
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
        })
}

pub fn findings(_doc: &ResultDocument) -> Vec<Finding> {
    Vec::new()
}

pub fn trustworthy(f: &[Finding]) -> bool {
    f.iter().all(|f| f.severity != Severity::Invalid)
}

pub fn log_text(doc: &ResultDocument) -> String {
    format!("{}\n", serde_json::to_string_pretty(doc).unwrap_or_default())
}

pub fn terminal_summary(_doc: &ResultDocument, _color: bool) -> String {
    String::new()
}
