//! The background monitor of one phase: a thread samples clocks, load, CPU states and
//! temperature at the phase's interval (docs/sbc-bench-compat.md) and hands the samples back when the
//! phase ends, with one last sample covering the tail of the phase. The samples go into the
//! result document, not only onto a screen.
//!
//! Each phase gets a fresh sampler, so its first sample covers its own first interval (never
//! the since-boot average that sbc-bench's first monitor line shows).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use document::samples::MonitorSample;
use probe::sampler::{Sampler, SamplerConfig, sample_every};

/// A tail shorter than this is not worth its own sample (its CPU states would be noise).
const MIN_TAIL: Duration = Duration::from_millis(300);

pub struct PhaseRecorder {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<Vec<MonitorSample>>>,
}

impl PhaseRecorder {
    /// Starts sampling every `interval` on a background thread with the lowest priority.
    pub fn start(config: &SamplerConfig, root: &probe::Root, interval: Duration) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let config = config.clone();
        let root = root.clone();
        let handle = std::thread::Builder::new()
            .name("monitor".into())
            .spawn(move || {
                if root.is_host() {
                    lower_priority();
                }
                let mut sampler = sampler(&config, &root);
                let mut samples = Vec::new();
                let mut last = Instant::now();
                let _ = sample_every(&mut sampler, interval, None, &flag, |s| {
                    samples.push(s);
                    last = Instant::now();
                    Ok::<(), ()>(())
                });
                if last.elapsed() >= MIN_TAIL || samples.is_empty() {
                    samples.push(sampler.sample());
                }
                samples
            })
            .ok();
        PhaseRecorder { stop, handle }
    }

    /// Ends the phase's monitor and returns its samples.
    pub fn finish(mut self) -> Vec<MonitorSample> {
        self.stop.store(true, Ordering::Relaxed);
        self.handle
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for PhaseRecorder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The sampler of `config`, with the Raspberry Pi firmware readings (real clock, VCore) when
/// vcgencmd answers; when it does not answer at all (not installed) the Pi gets the ordinary
/// clock columns instead, as in sbc-bench.
pub fn sampler(config: &SamplerConfig, root: &probe::Root) -> Sampler {
    if !config.layout.raspberry_pi {
        return Sampler::start(config, root);
    }
    let mut vc = probe::rpi::VcGenCmd::for_root(root);
    let first = vc.readings();
    if first.arm_mhz.is_none() && first.core_volts.is_none() {
        return Sampler::start(&config.without_raspberry_pi(), root);
    }
    Sampler::start(config, root).with_rpi(Box::new(move || vc.readings()))
}

/// Nice 19 for this thread only (Linux applies setpriority to a thread id): the monitor must
/// never compete with the benchmark it watches.
fn lower_priority() {
    // SAFETY: gettid has no preconditions; setpriority only changes this thread's nice value.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_has_samples_covering_it() {
        let root = probe::Root::host();
        let m = probe::snapshot::take(&root);
        let cfg = SamplerConfig::from_machine(&m);
        let mon = PhaseRecorder::start(&cfg, &root, Duration::from_millis(200));
        std::thread::sleep(Duration::from_millis(700));
        let s = mon.finish();
        assert!(!s.is_empty());
        assert!(s.windows(2).all(|w| w[0].unix_ms <= w[1].unix_ms));
    }
}
