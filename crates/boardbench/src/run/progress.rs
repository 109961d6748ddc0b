//! The progress line on a terminal: phase i of n, elapsed, estimated remaining. Silent when
//! standard error is not a terminal (cron, CI, `| tee`), so logs and pipes stay clean.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use engine::plan::Planned;

pub struct Progress {
    enabled: bool,
    start: Instant,
    total_estimate: f64,
    done_estimate: f64,
}

fn mmss(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

impl Progress {
    pub fn new(planned: &[Planned], quiet: bool) -> Self {
        Progress {
            enabled: !quiet && std::io::stderr().is_terminal(),
            start: Instant::now(),
            total_estimate: planned.iter().map(|p| p.estimate_s).sum(),
            done_estimate: 0.0,
        }
    }

    /// The line for phase `i` of `n` (pure, for tests).
    pub fn line(i: usize, n: usize, title: &str, elapsed: f64, remaining: f64) -> String {
        format!(
            "[{}/{}] {title} — {} elapsed, ~{} left",
            i + 1,
            n,
            mmss(elapsed),
            mmss(remaining)
        )
    }

    pub fn starting(&mut self, i: usize, n: usize, p: &Planned) {
        if !self.enabled {
            return;
        }
        let elapsed = self.start.elapsed().as_secs_f64();
        // Scale the remaining estimate by how the estimates fared so far on this machine.
        let factor = if self.done_estimate > 0.0 {
            (elapsed / self.done_estimate).clamp(0.3, 5.0)
        } else {
            1.0
        };
        let remaining = (self.total_estimate - self.done_estimate) * factor;
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\r\x1b[2K{}",
            Self::line(i, n, &p.title, elapsed, remaining)
        );
        let _ = e.flush();
        self.done_estimate += p.estimate_s;
    }

    pub fn finish(&mut self) {
        if self.enabled {
            let mut e = std::io::stderr().lock();
            let _ = writeln!(
                e,
                "\r\x1b[2KDone ({} elapsed)",
                mmss(self.start.elapsed().as_secs_f64())
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_format() {
        assert_eq!(
            super::Progress::line(
                2,
                14,
                "7-Zip single-threaded on cpu4 (Cortex-A76)",
                83.0,
                130.4
            ),
            "[3/14] 7-Zip single-threaded on cpu4 (Cortex-A76) — 1:23 elapsed, ~2:10 left"
        );
    }
}
