//! Evidence for the findings (throttling, swapping, background activity) taken from an
//! imported log. Pure: the findings engine decides what it means.

use document::imported::ImportedLog;

/// Time spent below the highest OPP of one cluster during the run.
#[derive(Debug, Clone, PartialEq)]
pub struct ThrottlingEvidence {
    pub cluster: String,
    pub max_mhz: u32,
    /// (MHz, seconds) of every OPP below max with time spent on it.
    pub below_max: Vec<(u32, f64)>,
    pub seconds_below_max: f64,
    pub seconds_total: f64,
}

/// Swap usage before and after the run (KiB, sum of the swapon `Used` column).
#[derive(Debug, Clone, PartialEq)]
pub struct SwapEvidence {
    pub used_kib_before: u64,
    pub used_kib_after: u64,
}

/// Background load of one monitor phase; the first sample (a since-boot average) is left out,
/// as sbc-bench does.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseActivity {
    pub phase: String,
    pub samples: usize,
    /// Sum of the %sys column (for averages over several phases).
    pub sys_sum: u64,
    pub cpu_avg: f64,
    pub cpu_max: u32,
    pub sys_avg: f64,
    pub sys_max: u32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Signals {
    /// Clusters with time below max (empty: no throttling visible, or no statistics).
    pub throttling: Vec<ThrottlingEvidence>,
    /// The log has cpufreq statistics at all.
    pub has_throttling_statistics: bool,
    pub swap: Option<SwapEvidence>,
    pub activity: Vec<PhaseActivity>,
}

impl Signals {
    /// Swap use grew during the run (what sbc-bench reports as "Swapping occured").
    pub fn swapped(&self) -> bool {
        self.swap
            .as_ref()
            .is_some_and(|s| s.used_kib_after > s.used_kib_before)
    }

    /// %sys over every benchmark phase (sbc-bench's "background activity (%system)" check):
    /// (average, peak), `None` without monitor samples.
    pub fn system_activity(&self) -> Option<(f64, u32)> {
        let n: usize = self.activity.iter().map(|a| a.samples).sum();
        if n == 0 {
            return None;
        }
        let sum: u64 = self.activity.iter().map(|a| a.sys_sum).sum();
        let max = self.activity.iter().map(|a| a.sys_max).max().unwrap_or(0);
        Some((sum as f64 / n as f64, max))
    }
}

pub fn signals(log: &ImportedLog) -> Signals {
    let throttling = log
        .throttling
        .iter()
        .filter_map(|t| {
            let max_mhz = t.rows.iter().map(|r| r.mhz).max()?;
            let below_max: Vec<(u32, f64)> = t
                .rows
                .iter()
                .filter(|r| r.mhz < max_mhz && r.seconds > 0.0)
                .map(|r| (r.mhz, r.seconds))
                .collect();
            if below_max.is_empty() {
                return None;
            }
            Some(ThrottlingEvidence {
                cluster: t.cluster.clone(),
                max_mhz,
                seconds_below_max: below_max.iter().map(|r| r.1).sum(),
                seconds_total: t.rows.iter().map(|r| r.seconds).sum(),
                below_max,
            })
        })
        .collect();
    let swap = log.swap.as_ref().and_then(|s| {
        Some(SwapEvidence {
            used_kib_before: s.used_kib_before?,
            used_kib_after: s.used_kib_after?,
        })
    });
    let activity = log
        .monitor
        .iter()
        .filter(|t| t.phase != "now")
        .filter_map(|t| {
            let rows = t.rows.get(1..)?;
            let cpu: Vec<u32> = rows.iter().filter_map(|r| r.cpu_pct).collect();
            let sys: Vec<u32> = rows.iter().filter_map(|r| r.sys_pct).collect();
            if cpu.is_empty() {
                return None;
            }
            let avg = |v: &[u32]| {
                if v.is_empty() {
                    0.0
                } else {
                    v.iter().map(|&x| u64::from(x)).sum::<u64>() as f64 / v.len() as f64
                }
            };
            Some(PhaseActivity {
                phase: t.phase.clone(),
                samples: rows.len(),
                sys_sum: sys.iter().map(|&v| u64::from(v)).sum(),
                cpu_avg: avg(&cpu),
                cpu_max: cpu.iter().copied().max().unwrap_or(0),
                sys_avg: avg(&sys),
                sys_max: sys.iter().copied().max().unwrap_or(0),
            })
        })
        .collect();
    Signals {
        throttling,
        has_throttling_statistics: !log.throttling.is_empty(),
        swap,
        activity,
    }
}
