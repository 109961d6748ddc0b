//! CLOCK_MONOTONIC timing and descheduling detection.
//!
//! Kernels time in wall time of a pinned thread. To notice that the thread was not running for
//! part of the interval (which would inflate a latency or deflate a bandwidth), they can compare
//! wall time with the thread's CPU time over the same interval.

use nix::time::{ClockId, clock_gettime};

/// Nanoseconds of CLOCK_MONOTONIC.
#[inline]
pub fn now_ns() -> u64 {
    let t = clock_gettime(ClockId::CLOCK_MONOTONIC).expect("CLOCK_MONOTONIC");
    t.tv_sec() as u64 * 1_000_000_000 + t.tv_nsec() as u64
}

/// Nanoseconds of CPU time consumed by the calling thread.
#[inline]
pub fn thread_cpu_ns() -> u64 {
    let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).expect("CLOCK_THREAD_CPUTIME_ID");
    t.tv_sec() as u64 * 1_000_000_000 + t.tv_nsec() as u64
}

/// One timed interval: wall time and the thread's CPU time over it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub wall_ns: u64,
    pub cpu_ns: u64,
}

impl Interval {
    /// Fraction of the wall interval the thread was actually running (1.0 = never descheduled).
    pub fn on_cpu_fraction(&self) -> f64 {
        if self.wall_ns == 0 {
            return 1.0;
        }
        (self.cpu_ns as f64 / self.wall_ns as f64).min(1.0)
    }

    /// True when the thread lost more than `tolerance` (e.g. 0.02 = 2 %) of the interval.
    pub fn was_descheduled(&self, tolerance: f64) -> bool {
        self.on_cpu_fraction() < 1.0 - tolerance
    }
}

/// Times `f`, returning its result with wall and CPU time.
#[inline]
pub fn time<R>(f: impl FnOnce() -> R) -> (R, Interval) {
    let c0 = thread_cpu_ns();
    let w0 = now_ns();
    let r = f();
    let w1 = now_ns();
    let c1 = thread_cpu_ns();
    (
        r,
        Interval {
            wall_ns: w1 - w0,
            cpu_ns: c1.saturating_sub(c0),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_work_is_on_cpu_and_sleep_is_not() {
        let (_, busy) = time(|| {
            let t0 = now_ns();
            while now_ns() - t0 < 20_000_000 {
                std::hint::spin_loop();
            }
        });
        assert!(busy.wall_ns >= 20_000_000);
        let (_, idle) = time(|| std::thread::sleep(std::time::Duration::from_millis(30)));
        assert!(idle.was_descheduled(0.5), "{idle:?}");
        assert!(idle.on_cpu_fraction() < busy.on_cpu_fraction());
    }
}
