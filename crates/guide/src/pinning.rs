//! Pinning the calling thread to one CPU, and the choice of the CPU a single-thread CPU method
//! runs on. The guides' CPU figures are single-core figures taken on one fixed core; an
//! unpinned thread migrates and mixes core types on big.LITTLE.

use loops::affinity::AffinityError;

use crate::Context;

/// Pins the calling thread (not the whole process) to `cpu` — the one pinning rule,
/// `loops::affinity::pin_current_thread`: a CPU the thread cannot run on (offline, outside the
/// cpuset, beyond the CPU set) is refused by name, never dropped silently.
pub fn pin_current_thread(cpu: u32) -> Result<(), AffinityError> {
    loops::affinity::pin_current_thread(&[cpu])
}

/// The CPU the single-thread methods run on and its measured clock: the lead CPU of the
/// cluster with the highest measured clock (the "big" cores), else the first allowed CPU.
pub fn single_thread_cpu(ctx: &Context) -> (u32, Option<f64>) {
    let best = ctx
        .cluster_leads
        .iter()
        .enumerate()
        .filter(|(_, c)| ctx.cpus.is_empty() || ctx.cpus.contains(c))
        .map(|(i, c)| (*c, ctx.clock_mhz.get(i).copied().flatten()))
        .max_by(|a, b| {
            a.1.unwrap_or(0.0)
                .partial_cmp(&b.1.unwrap_or(0.0))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    match best {
        Some(b) => b,
        None => (ctx.cpus.first().copied().unwrap_or(0), None),
    }
}

/// Runs `f` on a new thread pinned to `cpu` (so the caller's own affinity is left alone) and
/// returns its result. A pinning failure (CPU offline, restricted cpuset) is returned as a note.
pub fn on_cpu<T: Send>(cpu: u32, f: impl FnOnce() -> T + Send) -> (T, Option<String>) {
    std::thread::scope(|s| {
        s.spawn(|| {
            let note = pin_current_thread(cpu)
                .err()
                .map(|e| format!("could not pin to CPU {cpu}: {e}; ran unpinned"));
            (f(), note)
        })
        .join()
        .expect("benchmark thread panicked")
    })
}
