//! Helpers of the I/O sections' tests: a Context over a root, the emulation switch, the
//! privilege check.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub fn ctx(root: probe::Root, workdir: &Path) -> guide::Context {
    guide::Context {
        root,
        machine: Default::default(),
        quick: true,
        cpus: vec![0],
        cluster_leads: vec![0],
        clock_mhz: vec![None],
        workdir: workdir.to_path_buf(),
        storage_dir: None,
        peer: None,
        network: Default::default(),
        cancel: Arc::new(AtomicBool::new(false)),
    }
}

/// Under qemu-user (CI's cross runs) tests that start fio/iperf3/namespaces skip.
#[allow(unused_imports)]
pub use testsupport::host_only;

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

pub fn have(tool: &str) -> bool {
    guide::exec::which(tool).is_some()
}

pub fn data(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect();
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}
