//! Running a measurement on one CPU. The caller's affinity is put back afterwards, so a
//! procedure never leaves the thread pinned somewhere it did not ask for.

use crate::Error;

/// Runs `f` pinned to `cpu`, then restores the thread's previous CPU set.
///
/// Restoring goes through `sched_setaffinity` directly: `loops::affinity::pin_current_thread`
/// checks against the *current* mask, so it cannot widen a pinned thread again.
pub fn pinned<R>(cpu: u32, f: impl FnOnce() -> R) -> Result<R, Error> {
    use nix::sched::{sched_getaffinity, sched_setaffinity};
    use nix::unistd::Pid;
    let before = sched_getaffinity(Pid::from_raw(0)).ok();
    loops::affinity::pin_current_thread(&[cpu]).map_err(|e| Error::Pin {
        cpu,
        reason: e.to_string(),
    })?;
    let r = f();
    if let Some(set) = before {
        let _ = sched_setaffinity(Pid::from_raw(0), &set);
    }
    Ok(r)
}
