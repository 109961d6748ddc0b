//! The average power over a time window, from either kind of reading: the mean of the
//! instantaneous readings, or the energy counter's difference divided by the time between its
//! first and last reading. [`Recorder`] takes the readings on a background thread while the
//! workload runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::{PowerSource, Reading};

/// Readings of one window. Times are seconds from any fixed start.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    watts: Vec<f64>,
    /// First and last energy reading: (seconds, joules).
    energy: Option<((f64, f64), (f64, f64))>,
    /// Readings that failed (the first few messages).
    pub errors: Vec<String>,
    pub failed: usize,
}

/// What a window gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WindowStats {
    /// Average watts; `None` when there were too few good readings.
    pub watts: Option<f64>,
    /// Good readings taken.
    pub readings: usize,
    pub failed: usize,
    pub errors: Vec<String>,
}

impl Window {
    pub fn add(&mut self, at_s: f64, r: Result<Reading, String>) {
        match r {
            Ok(Reading::Watts(w)) => self.watts.push(w),
            Ok(Reading::Joules(j)) => {
                self.energy = Some(match self.energy {
                    None => ((at_s, j), (at_s, j)),
                    Some((first, _)) => (first, (at_s, j)),
                })
            }
            Err(e) => {
                self.failed += 1;
                if self.errors.len() < 3 && !self.errors.contains(&e) {
                    self.errors.push(e);
                }
            }
        }
    }

    /// Good readings so far (an energy window counts its first and last).
    pub fn readings(&self) -> usize {
        self.watts.len() + self.energy.map_or(0, |(a, b)| if a == b { 1 } else { 2 })
    }

    /// The mean of instantaneous readings, or energy over time (needs two readings at least
    /// 1 ms apart).
    pub fn average_watts(&self) -> Option<f64> {
        if !self.watts.is_empty() {
            return Some(self.watts.iter().sum::<f64>() / self.watts.len() as f64);
        }
        let ((t0, j0), (t1, j1)) = self.energy?;
        let dt = t1 - t0;
        (dt >= 1e-3 && j1 >= j0).then(|| (j1 - j0) / dt)
    }

    pub fn stats(&self) -> WindowStats {
        WindowStats {
            watts: self.average_watts(),
            readings: self.readings(),
            failed: self.failed,
            errors: self.errors.clone(),
        }
    }
}

/// Reads a source at the start, every `interval` and at the end of a window, on a thread.
pub struct Recorder {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<(Box<dyn PowerSource>, Window)>>,
}

impl Recorder {
    pub fn start(mut source: Box<dyn PowerSource>, interval: Duration) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("power".into())
            .spawn(move || {
                let t0 = Instant::now();
                let mut w = Window::default();
                let mut next = t0;
                loop {
                    w.add(t0.elapsed().as_secs_f64(), source.read());
                    next += interval;
                    // Sleep in small steps so the end of the window is read promptly.
                    while Instant::now() < next && !flag.load(Ordering::Relaxed) {
                        std::thread::sleep((next - Instant::now()).min(Duration::from_millis(10)));
                    }
                    if flag.load(Ordering::Relaxed) {
                        break;
                    }
                }
                w.add(t0.elapsed().as_secs_f64(), source.read());
                (source, w)
            })
            .expect("spawning the power reader thread");
        Recorder {
            stop,
            handle: Some(handle),
        }
    }

    /// Ends the window: the source back and what it read.
    pub fn finish(mut self) -> Option<(Box<dyn PowerSource>, WindowStats)> {
        self.stop.store(true, Ordering::Relaxed);
        let (s, w) = self.handle.take()?.join().ok()?;
        Some((s, w.stats()))
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instantaneous_readings_are_averaged() {
        let mut w = Window::default();
        w.add(0.0, Ok(Reading::Watts(2.0)));
        w.add(1.0, Err("x".into()));
        w.add(2.0, Ok(Reading::Watts(4.0)));
        assert_eq!(w.average_watts(), Some(3.0));
        assert_eq!(w.stats().failed, 1);
    }

    #[test]
    fn energy_over_time() {
        let mut w = Window::default();
        w.add(1.0, Ok(Reading::Joules(100.0)));
        assert_eq!(w.average_watts(), None);
        w.add(2.0, Ok(Reading::Joules(105.0)));
        w.add(3.0, Ok(Reading::Joules(110.0)));
        assert_eq!(w.average_watts(), Some(5.0));
        assert_eq!(w.readings(), 2);
    }
}
