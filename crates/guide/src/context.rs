//! What every section is given. Budgets come from here so `--quick` shortens every method in
//! one place; cancellation comes from here so Ctrl-C ends a section between two measurements
//! and keeps what was measured.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use document::machine::MachineInfo;

pub struct Context {
    pub root: probe::Root,
    /// The machine as the session probed it (topology, caches, memory).
    pub machine: MachineInfo,
    /// `--quick`: shorter budgets, fewer sizes.
    pub quick: bool,
    /// The CPUs the guide may use (`--cpus`, default: all online).
    pub cpus: Vec<u32>,
    /// The first CPU of each cluster (core type), for pinned single-thread figures.
    pub cluster_leads: Vec<u32>,
    /// The measured clock (MHz) of each of `cluster_leads`, where the session measured it.
    pub clock_mhz: Vec<Option<f64>>,
    /// A directory of the guide's own for scratch files (removed by the command afterwards).
    pub workdir: PathBuf,
    /// `--storage DIR`: where the storage section may write its file.
    pub storage_dir: Option<PathBuf>,
    /// `--peer HOST`: the other end of the network section.
    pub peer: Option<String>,
    /// `--interface IFACE`, `--net-time SECS`: the rest of the network section's options.
    pub network: crate::network::NetSettings,
    /// Set on Ctrl-C / SIGTERM.
    pub cancel: Arc<AtomicBool>,
}

impl Context {
    /// Whether the user asked to stop: a section returns what it has measured so far.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The time one measurement may take: `full` normally, a fifth of it with `--quick`.
    pub fn budget(&self, full: Duration) -> Duration {
        if self.quick { full / 5 } else { full }
    }

    /// The size of the largest last-level cache of any cluster in bytes (None where the kernel
    /// does not say).
    pub fn llc_bytes(&self) -> Option<u64> {
        self.machine
            .clusters
            .iter()
            .flat_map(|cl| cl.caches.iter())
            .filter(|c| c.kind != "Instruction" && c.size_kib.is_some())
            .max_by_key(|c| (c.level, c.size_kib))
            .and_then(|c| c.size_kib)
            .map(|k| k * 1024)
    }

    /// Sleeps up to `d` in small steps; false when cancelled meanwhile.
    pub fn pause(&self, d: Duration) -> bool {
        let step = Duration::from_millis(50);
        let mut left = d;
        while !left.is_zero() {
            if self.cancelled() {
                return false;
            }
            let s = left.min(step);
            std::thread::sleep(s);
            left -= s;
        }
        !self.cancelled()
    }
}
