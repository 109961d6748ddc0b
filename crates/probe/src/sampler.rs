//! The monitor sampler: clocks, load, CPU states and temperature at regular intervals.
//!
//! One [`Sampler`] serves both the live view (`boardbench monitor`, sbc-bench's `-m`) and the
//! background monitor of a benchmark run, which records the samples into the result document.
//! The column layout is decided once from the machine snapshot ([`SamplerConfig::from_machine`]);
//! each [`Sampler::sample`] then only reads a handful of small files into a reused buffer (no
//! process is spawned, except by the optional Raspberry Pi firmware source), because the
//! monitor's own cost must stay far below what it is meant to observe.
//!
//! The sampler takes a baseline reading of /proc/stat when it starts, so the first sample's CPU
//! states cover a real interval (sbc-bench's first line is an average since boot).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use document::machine::MachineInfo;
use document::samples::{
    ClockColumns, MonitorLayout, MonitorSample, MonitoredCluster, RpiReadings,
};

use crate::Root;
use crate::stat::{CpuTimes, parse_cpu_times, parse_load1};

/// sbc-bench shows at most five clock columns (its "cd8180" style).
pub const MAX_CLOCK_COLUMNS: usize = 5;

/// What to sample on this machine. Built from the probe's snapshot so the live view and the
/// benchmark run agree.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerConfig {
    pub layout: MonitorLayout,
}

impl SamplerConfig {
    /// Chooses the clock columns as sbc-bench does (docs/sbc-bench-compat.md), from the snapshot's clusters, its
    /// thermal source and whether it is a Raspberry Pi:
    /// - Raspberry Pi: fake/real (the kernel's clock of cpu0 vs. the firmware's);
    /// - no cluster with a cpufreq policy: "CPU n/a";
    /// - one cluster: "CPU";
    /// - two clusters: "big.LITTLE", the cluster with the higher maximum clock first (on a tie
    ///   the last cluster first, like sbc-bench);
    /// - three or more: one column per cluster, the first five.
    /// - a cluster whose CPUs are all offline gets no column. Deviation: sbc-bench shows four
    ///   clusters as big.LITTLE (last/first) and hides the middle two; here all four are shown.
    pub fn from_machine(m: &MachineInfo) -> Self {
        // sbc-bench #138: a policy whose CPUs are all offline still exists in sysfs, but its
        // clock cannot be read and nothing runs there: no column for it (unless nothing else is
        // left). A cluster's column shows its first online CPU.
        let monitored = |c: &document::machine::Cluster, cpus: Vec<u32>| MonitoredCluster {
            first_cpu: cpus.iter().copied().min().unwrap_or(0),
            policy: c.policy,
            max_khz: c.max_khz,
        };
        let mut clusters: Vec<MonitoredCluster> = m
            .clusters
            .iter()
            .filter_map(|c| {
                let online = c.online_cpus();
                (!online.is_empty()).then(|| monitored(c, online))
            })
            .collect();
        if clusters.is_empty() {
            clusters = m
                .clusters
                .iter()
                .map(|c| monitored(c, c.cpus.clone()))
                .collect();
        }
        let thermal_path = m.thermal_source.as_ref().map(|t| t.path.clone());
        SamplerConfig {
            layout: layout(clusters, thermal_path, is_raspberry_pi(m)),
        }
    }

    /// The same machine without the Raspberry Pi firmware columns: for a Pi whose `vcgencmd`
    /// does not answer (sbc-bench only shows fake/real when the command exists).
    pub fn without_raspberry_pi(&self) -> Self {
        let l = &self.layout;
        SamplerConfig {
            layout: layout(l.clusters.clone(), l.thermal_path.clone(), false),
        }
    }
}

fn layout(
    clusters: Vec<MonitoredCluster>,
    thermal_path: Option<String>,
    raspberry_pi: bool,
) -> MonitorLayout {
    let with_cpufreq = clusters.iter().filter(|c| c.policy.is_some()).count();
    let (columns, display_order) = if raspberry_pi {
        // The "fake" clock is cpu0's: the cluster holding it (the first one).
        let cpu0 = clusters.iter().position(|c| c.first_cpu == 0).unwrap_or(0);
        (ClockColumns::FakeReal, vec![cpu0])
    } else if with_cpufreq == 0 {
        (ClockColumns::None, Vec::new())
    } else if clusters.len() == 1 {
        (ClockColumns::Single, vec![0])
    } else if clusters.len() == 2 {
        let (first, last) = (&clusters[0], &clusters[1]);
        let last_is_smaller = matches!((last.max_khz, first.max_khz), (Some(l), Some(f)) if l < f);
        (
            ClockColumns::BigLittle,
            if last_is_smaller {
                vec![0, 1]
            } else {
                vec![1, 0]
            },
        )
    } else {
        (
            ClockColumns::PerCluster,
            (0..clusters.len().min(MAX_CLOCK_COLUMNS)).collect(),
        )
    };
    MonitorLayout {
        columns,
        clusters,
        display_order,
        thermal_path,
        raspberry_pi,
    }
}

/// Decided by the board, not by a `vcgencmd` binary on PATH, which keeps fake vcgencmd wrappers
/// on other boards (sbc-bench PR #13) out: the device tree's `raspberrypi,…` compatible (the
/// snapshot's rule), or a Raspberry Pi kernel's `Model` line in /proc/cpuinfo.
fn is_raspberry_pi(m: &MachineInfo) -> bool {
    crate::identity::is_raspberry_pi(m.identity.device_tree.as_ref())
        || m.cpuinfo
            .model
            .as_deref()
            .is_some_and(|s| s.contains("Raspberry Pi"))
}

/// The Raspberry Pi firmware readings (vcgencmd), fed into the sampler so tests can supply
/// their own. Implemented for closures.
pub trait RpiSource: Send {
    fn read(&mut self) -> RpiReadings;
}

impl<F: FnMut() -> RpiReadings + Send> RpiSource for F {
    fn read(&mut self) -> RpiReadings {
        self()
    }
}

/// Where one cluster's clock is read. sbc-bench prefers `cpuinfo_cur_freq` (what the hardware
/// reports; usually readable by root only) and falls back to `scaling_cur_freq`.
#[derive(Debug)]
struct ClockFiles {
    cpuinfo: PathBuf,
    scaling: PathBuf,
    /// Cleared after `cpuinfo_cur_freq` failed once, so a non-root monitor does not retry a
    /// permission error every sample.
    try_cpuinfo: bool,
}

/// Produces [`MonitorSample`]s. Create it with [`Sampler::start`], then call
/// [`Sampler::sample`] at the end of every interval.
pub struct Sampler {
    layout: MonitorLayout,
    clocks: Vec<Option<ClockFiles>>,
    stat: PathBuf,
    loadavg: PathBuf,
    thermal: Option<PathBuf>,
    rpi: Option<Box<dyn RpiSource>>,
    last_times: Option<CpuTimes>,
    last_at: Instant,
    /// Reused for every file read: /proc/stat's first line fits, the rest is never copied out.
    buf: Vec<u8>,
}

impl std::fmt::Debug for Sampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sampler")
            .field("layout", &self.layout)
            .field("rpi", &self.rpi.is_some())
            .finish_non_exhaustive()
    }
}

impl Sampler {
    /// Resolves the files to read under `root` and takes the baseline reading of /proc/stat.
    pub fn start(config: &SamplerConfig, root: &Root) -> Self {
        let layout = config.layout.clone();
        let clocks = layout
            .clusters
            .iter()
            .map(|c| {
                c.policy.map(|p| {
                    let dir = crate::cpufreq::policy_dir(root, p);
                    ClockFiles {
                        cpuinfo: root.path(&format!("{dir}/cpuinfo_cur_freq")),
                        scaling: root.path(&format!("{dir}/scaling_cur_freq")),
                        try_cpuinfo: true,
                    }
                })
            })
            .collect();
        let mut s = Sampler {
            thermal: layout.thermal_path.as_deref().map(|p| root.path(p)),
            layout,
            clocks,
            stat: root.path("/proc/stat"),
            loadavg: root.path("/proc/loadavg"),
            rpi: None,
            last_times: None,
            last_at: Instant::now(),
            buf: vec![0; 4096],
        };
        s.last_times = s.read_cpu_times();
        s.last_at = Instant::now();
        s
    }

    /// Adds the Raspberry Pi firmware readings (fake/real clock, VCore) to every sample.
    pub fn with_rpi(mut self, source: Box<dyn RpiSource>) -> Self {
        self.rpi = Some(source);
        self
    }

    pub fn layout(&self) -> &MonitorLayout {
        &self.layout
    }

    /// Reads everything once. The CPU states cover the time since the previous sample (or since
    /// [`Sampler::start`]).
    pub fn sample(&mut self) -> MonitorSample {
        let now = Instant::now();
        let unix_ms = crate::clock::unix_ms();
        let times = self.read_cpu_times();
        let cpu = match (times, self.last_times) {
            (Some(now), Some(before)) => now.states_since(&before),
            _ => None,
        };
        // Keep the last good reading: after one failed read the next sample spans two intervals
        // rather than none.
        if times.is_some() {
            self.last_times = times;
        }
        let interval_s = now.duration_since(self.last_at).as_secs_f64();
        self.last_at = now;

        let load1 = read_into(&self.loadavg, &mut self.buf).and_then(parse_load1);
        let mut clocks_mhz = Vec::with_capacity(self.clocks.len());
        for i in 0..self.clocks.len() {
            let mhz = self.read_clock_mhz(i);
            clocks_mhz.push(mhz);
        }
        let temp_c = match &self.thermal {
            Some(p) => read_into(p, &mut self.buf).and_then(parse_temp_c),
            None => None,
        };
        let rpi = self.rpi.as_mut().map(|r| r.read());
        MonitorSample {
            unix_ms,
            interval_s,
            clocks_mhz,
            load1,
            cpu,
            temp_c,
            rpi,
        }
    }

    fn read_cpu_times(&mut self) -> Option<CpuTimes> {
        read_into(&self.stat, &mut self.buf).and_then(parse_cpu_times)
    }

    fn read_clock_mhz(&mut self, i: usize) -> Option<u32> {
        let files = self.clocks[i].as_mut()?;
        if files.try_cpuinfo {
            if let Some(khz) = read_into(&files.cpuinfo, &mut self.buf).and_then(parse_khz) {
                return Some(khz_to_mhz(khz));
            }
            files.try_cpuinfo = false;
        }
        read_into(&files.scaling, &mut self.buf)
            .and_then(parse_khz)
            .map(khz_to_mhz)
    }
}

/// Reads the beginning of a file (up to the buffer's size) into `buf`; `None` on any error.
/// Through the probe's bounded reader: a FIFO or a hung sysfs read cannot stall the monitor
/// (and Ctrl-C is not held up by one). /proc/stat's aggregate line is in the first page.
fn read_into<'a>(path: &std::path::Path, buf: &'a mut [u8]) -> Option<&'a [u8]> {
    let bytes = crate::bounded_read::read_head(path, buf.len()).ok()?;
    let n = bytes.len();
    buf[..n].copy_from_slice(&bytes);
    Some(&buf[..n])
}

fn trimmed_str(text: &[u8]) -> Option<&str> {
    let s = std::str::from_utf8(text).ok()?;
    let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    (!s.is_empty()).then_some(s)
}

fn parse_khz(text: &[u8]) -> Option<u64> {
    trimmed_str(text)?
        .parse()
        .ok()
        .filter(|&k| k > 0 && k <= crate::cpufreq::MAX_PLAUSIBLE_KHZ)
}

fn khz_to_mhz(khz: u64) -> u32 {
    // sbc-bench divides by 1000 and truncates.
    u32::try_from(khz / 1000).unwrap_or(u32::MAX)
}

/// A thermal value: millidegrees when its magnitude is at least 1000 (sysfs), else degrees
/// (a few vendor drivers). sbc-bench only divides values ≥ 1000, which turns −75000 into
/// "−75000°C"; the magnitude rule gives −75 °C.
pub fn parse_temp_c(text: &[u8]) -> Option<f64> {
    let v: i64 = trimmed_str(text)?.parse().ok()?;
    Some(if v.abs() >= 1000 {
        v as f64 / 1000.0
    } else {
        v as f64
    })
}

/// Deadlines at `start + k × interval`: the samples do not drift by the time sampling takes.
/// After a stall (suspend, heavy load) missed deadlines are skipped, not caught up in a burst.
#[derive(Debug, Clone)]
pub struct Ticker {
    start: Instant,
    interval: Duration,
    k: u32,
}

impl Ticker {
    pub fn new(start: Instant, interval: Duration) -> Self {
        Ticker {
            start,
            interval,
            k: 0,
        }
    }

    /// The next deadline after now.
    pub fn next_deadline(&mut self) -> Instant {
        let now = Instant::now();
        loop {
            self.k = self.k.saturating_add(1);
            let d = self.start + self.interval * self.k;
            if d > now || self.k == u32::MAX {
                return d;
            }
        }
    }
}

/// How long one sleep slice lasts: the most a stop request waits to be noticed.
pub const SLEEP_SLICE: Duration = Duration::from_millis(100);

/// Sleeps until `deadline` in short slices, returning early (`false`) once `stop` is set.
/// Returns `true` when the deadline was reached.
pub fn sleep_until(deadline: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= deadline {
            return true;
        }
        std::thread::sleep((deadline - now).min(SLEEP_SLICE));
    }
}

/// The sampling loop of the live view and of a run's background monitor: one sample at the
/// end of every `interval` (deadlines do not drift), handed to `each`, until `count` samples
/// were taken, `stop` is set (Ctrl-C, the end of a benchmark) or `each` fails. Returns how many
/// samples were taken.
pub fn sample_every<E>(
    sampler: &mut Sampler,
    interval: Duration,
    count: Option<u64>,
    stop: &AtomicBool,
    mut each: impl FnMut(MonitorSample) -> Result<(), E>,
) -> Result<u64, E> {
    let mut ticker = Ticker::new(Instant::now(), interval);
    let mut n = 0u64;
    while count.is_none_or(|c| n < c) {
        if !sleep_until(ticker.next_deadline(), stop) {
            break;
        }
        let s = sampler.sample();
        n += 1;
        each(s)?;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperature_units() {
        assert_eq!(parse_temp_c(b"45250\n"), Some(45.25));
        assert_eq!(parse_temp_c(b"47\n"), Some(47.0));
        assert_eq!(parse_temp_c(b"-75000\n"), Some(-75.0));
        assert_eq!(parse_temp_c(b"n/a\n"), None);
    }

    #[test]
    fn clock_values() {
        assert_eq!(parse_khz(b"1800000\n"), Some(1_800_000));
        assert_eq!(parse_khz(b"<unknown>\n"), None);
        assert_eq!(parse_khz(b"0\n"), None);
        assert_eq!(khz_to_mhz(1_799_999), 1799);
    }

    #[test]
    fn ticker_skips_missed_deadlines() {
        let start = Instant::now() - Duration::from_millis(2500);
        let mut t = Ticker::new(start, Duration::from_secs(1));
        let d = t.next_deadline();
        assert_eq!(d, start + Duration::from_secs(3));
    }

    #[test]
    fn the_loop_takes_count_samples_and_ends_on_stop_or_error() {
        let d = std::env::temp_dir();
        let cfg = SamplerConfig::from_machine(&MachineInfo::default());
        let mut s = Sampler::start(&cfg, &Root::new(&d));
        let every = Duration::from_millis(1);
        let go = AtomicBool::new(false);
        let mut seen = 0;
        let n = sample_every(&mut s, every, Some(3), &go, |_| {
            seen += 1;
            Ok::<_, ()>(())
        });
        assert_eq!((n, seen), (Ok(3), 3));
        let stopped = AtomicBool::new(true);
        assert_eq!(
            sample_every(&mut s, every, None, &stopped, |_| Ok::<_, ()>(())),
            Ok(0)
        );
        assert_eq!(
            sample_every(&mut s, every, None, &go, |_| Err("closed")),
            Err("closed")
        );
    }

    #[test]
    fn stop_flag_ends_the_sleep() {
        let stop = AtomicBool::new(true);
        assert!(!sleep_until(
            Instant::now() + Duration::from_secs(60),
            &stop
        ));
    }
}
