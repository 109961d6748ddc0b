//! The glue between a run and the crates that judge and render it: snapshots and the kernel
//! message window (probe::runstate), findings (crate `findings`), the log, the summary row and
//! the terminal summary (crate `textlog`).

use model::document::{Finding, ResultDocument};
use model::machine::MachineInfo;
use model::run::{KmsgWindow, StateSnapshot};
use probe::runstate::{Cursor, Kmsg};

use crate::session::stamp;

/// Where the run's kernel messages start; writes the start marker on a real machine as root.
pub fn kmsg_cursor(root: &probe::Root, root_user: bool) -> Cursor {
    let c = Kmsg::cursor(root);
    if root_user && root.is_host() {
        let _ = Kmsg::write_marker(root, "boardbench: run started");
    }
    c
}

pub fn kmsg_since(root: &probe::Root, c: &Cursor) -> KmsgWindow {
    Kmsg::since(root, c)
}

pub fn snapshot(root: &probe::Root, m: &MachineInfo) -> StateSnapshot {
    let s = stamp::now();
    probe::runstate::snapshot(root, m, s.iso, s.unix_ms)
}

/// Device tree model, DMI product, or the host name (read through the root like everything else,
/// so a replayed fixture machine never takes this host's name).
pub fn device_name(root: &probe::Root, m: &MachineInfo) -> Option<String> {
    let id = &m.identity;
    id.device_tree
        .as_ref()
        .and_then(|d| d.model.clone())
        .or_else(|| id.dmi.product_name.clone())
        .or_else(|| {
            root.read_value("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
        })
}

pub fn findings(doc: &ResultDocument) -> Vec<Finding> {
    findings::analyse(doc)
}

pub fn trustworthy(f: &[Finding]) -> bool {
    findings::trustworthy(f)
}

pub fn log_text(doc: &ResultDocument) -> String {
    textlog::log(doc)
}

pub fn terminal_summary(doc: &ResultDocument, color: bool) -> String {
    textlog::terminal_summary(doc, color)
}
