//! Whether a figure was disturbed: did another task use the measured CPU while it was measured?
//!
//! The check compares the measuring thread's own CPU time with the wall time of the
//! measurement. Any task that runs on the measured CPU (another benchmark, a compiler, a busy
//! daemon, and in a VM the host taking the vCPU away) can only do so by taking the CPU from
//! this thread, so the thread's CPU time falls behind the wall clock. This is chosen over the
//! per-CPU counters of /proc/stat because it has nanosecond resolution (/proc/stat counts in
//! 10 ms ticks, too coarse for a 0.1 s clock reading), needs no second reader that could itself
//! be late, and cannot confuse this process's own helper threads with foreign ones. What it
//! cannot see is a task on another CPU sharing a cache or memory bus; that is what the run's
//! background-activity finding (whole-system CPU use) is for.

use loops::timing::{Interval, time};

/// Share of the wall time the thread may lose before the figure counts as disturbed (2 %: one
/// scheduler tick of a 1000 Hz kernel in a 50 ms window; the kernels use the same tolerance to
/// discard single disturbed samples).
pub const TOLERANCE: f64 = 0.02;

/// True when the thread was off the CPU for more than [`TOLERANCE`] of `iv`.
pub fn is_disturbed(iv: &Interval) -> bool {
    iv.was_descheduled(TOLERANCE)
}

/// Runs `f` and says whether the CPU was shared meanwhile.
pub fn watched<R>(f: impl FnOnce() -> R) -> (R, bool) {
    let (r, iv) = time(f);
    (r, is_disturbed(&iv))
}

// How a disturbed figure reads (the remark beside it, the count under a table) is the text
// renderers' (`textout::text::DISTURBED_REMARK`, `disturbed_note`).

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_kept_its_cpu_is_undisturbed_and_one_that_lost_time_is_not() {
        let quiet = Interval {
            wall_ns: 100_000_000,
            cpu_ns: 99_500_000,
        };
        let shared = Interval {
            wall_ns: 100_000_000,
            cpu_ns: 60_000_000,
        };
        assert!(!is_disturbed(&quiet));
        assert!(is_disturbed(&shared));
        // CPU time above wall time (clock granularity) is not a disturbance.
        assert!(!is_disturbed(&Interval {
            wall_ns: 10,
            cpu_ns: 12
        }));
    }

    #[test]
    fn a_sleeping_measurement_counts_as_disturbed() {
        // Sleeping is what a preempted thread looks like from inside: off the CPU.
        let ((), d) = watched(|| std::thread::sleep(std::time::Duration::from_millis(20)));
        assert!(d);
    }
}
