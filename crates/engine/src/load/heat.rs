//! The built-in heat source: one thread per usable CPU, each pinned to its CPU, running the
//! recursive SHA-256 chain in chunks and counting hashes until told to stop. The hardware
//! backend is used when the CPU has one (it heats the SHA units as hard as sbc-bench's
//! cpuminer heats the NEON units), otherwise the portable one. The count is the score.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use loops::sha256::{self, Sha256Backend};

/// Hashes per chunk: short enough that a stop is seen within milliseconds even on slow cores
/// (portable backend, qemu), long enough that counting costs nothing.
const CHUNK: u64 = 4096;

pub struct Heat {
    stop: Arc<AtomicBool>,
    hashes: Arc<AtomicU64>,
    threads: Vec<JoinHandle<()>>,
    pub backend: Sha256Backend,
}

impl Heat {
    /// Starts one thread per CPU in `cpus` (empty: two unpinned threads).
    pub fn start(cpus: &[u32]) -> Self {
        let backend = sha256::fast_backend().unwrap_or(Sha256Backend::Portable);
        let stop = Arc::new(AtomicBool::new(false));
        let hashes = Arc::new(AtomicU64::new(0));
        let pins: Vec<Option<u32>> = if cpus.is_empty() {
            vec![None, None]
        } else {
            cpus.iter().copied().map(Some).collect()
        };
        let threads = pins
            .into_iter()
            .enumerate()
            .filter_map(|(i, cpu)| {
                let stop = Arc::clone(&stop);
                let hashes = Arc::clone(&hashes);
                std::thread::Builder::new()
                    .name(format!("heat-{i}"))
                    .spawn(move || {
                        if let Some(c) = cpu {
                            // Unpinned is still heat; the CPU list is recorded either way.
                            let _ = loops::affinity::pin_current_thread(&[c]);
                        }
                        let mut seed = [i as u8; 32];
                        while !stop.load(Ordering::Relaxed) {
                            if let Some(d) = sha256::chain(backend, &seed, CHUNK) {
                                seed = d;
                            }
                            hashes.fetch_add(CHUNK, Ordering::Relaxed);
                        }
                    })
                    .ok()
            })
            .collect();
        Heat {
            stop,
            hashes,
            threads,
            backend,
        }
    }

    /// Hashes counted so far.
    pub fn hashes(&self) -> u64 {
        self.hashes.load(Ordering::Relaxed)
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Heat {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
