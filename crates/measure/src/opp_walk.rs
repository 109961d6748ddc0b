//! The one OPP walker: caps a cpufreq policy to each of its operating points in turn and lets
//! the caller measure at each (`clock --opp-walk`, the run's clock check, `graph`'s sweep).
//!
//! The behaviour, decided once for all three:
//! - **Governor**: `performance` when the policy offers it and is not on it already. Under
//!   `performance` the clock sits at `scaling_max_freq`, so the cap *is* the requested clock;
//!   under schedutil/ondemand/powersave a short measurement can start before the governor has
//!   raised the clock and would read low at every OPP. Without `performance` the governor is
//!   left alone (the readings then show what that governor does under load).
//! - **Floor**: `scaling_min_freq` is lowered to `cpuinfo_min_freq` (or the lowest OPP) first,
//!   so every cap below the old minimum is accepted (the kernel refuses max < min).
//! - **Which OPPs**: `scaling_available_frequencies` ∪ `scaling_boost_frequencies`, highest
//!   first, duplicates removed, within `MinKHz`…`MaxKHz` (both inclusive, as sbc-bench). A
//!   0 kHz entry is dropped: vendor tables use it for a disabled or terminating point, the
//!   kernel would clamp the cap to the minimum, and a reading "at 0 MHz" has no deviation.
//!   [`WalkOptions::limit`] keeps only the highest ones (the quick run checks the top only).
//! - **Settle time**: after each cap the CPU runs the clock chain busily for
//!   [`WalkOptions::settle`] (20 ms by default) before the measurement. Lowering a cap takes
//!   effect within the policy's transition latency (well below 10 ms on the boards we know,
//!   plus up to one schedutil rate-limit period); busy rather than sleeping, so the core does
//!   not drop into an idle state and start cold. sbc-bench runs one warm-up mhz instead.
//! - **After the walk** the last (lowest) cap stays: restoring is the caller's job, and every
//!   write goes through its [`PolicyWriter`] (the commands restore after each policy; the run,
//!   which measures more afterwards, puts the cap back to the top with [`uncap`]).

use std::time::{Duration, Instant};

use document::machine::Policy;

use crate::Error;
use crate::pinning::pinned;

/// Where the walk writes: the caller's restorer (which remembers the original values), a
/// recording writer in tests.
pub trait PolicyWriter {
    /// Writes `value` to the machine path `abs` (a file under /sys).
    fn write_value(&mut self, abs: &str, value: &str) -> Result<(), String>;
}

/// A failed write: the walk stops there.
#[derive(Debug, thiserror::Error)]
#[error("setting {path} to {value}: {reason}")]
pub struct WriteError {
    pub path: String,
    pub value: String,
    pub reason: String,
}

/// How to walk.
#[derive(Debug, Clone, PartialEq)]
pub struct WalkOptions {
    /// Skip OPPs above this clock (kHz), sbc-bench's `MaxKHz`.
    pub max_khz: Option<u64>,
    /// Skip OPPs below this clock (kHz), sbc-bench's `MinKHz`.
    pub min_khz: Option<u64>,
    /// Walk only the highest `n` OPPs.
    pub limit: Option<usize>,
    /// Busy time at each new cap before measuring (zero: none).
    pub settle: Duration,
}

/// The settle time at each cap (see the module documentation).
pub const SETTLE: Duration = Duration::from_millis(20);

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_khz: None,
            min_khz: None,
            limit: None,
            settle: SETTLE,
        }
    }
}

/// The OPPs of a policy to walk, highest first (see the module documentation).
pub fn opps(p: &Policy, opts: &WalkOptions) -> Vec<u64> {
    let mut v: Vec<u64> = p
        .frequencies_khz
        .iter()
        .chain(&p.boost_khz)
        .copied()
        .filter(|&k| k > 0)
        .filter(|&k| opts.max_khz.is_none_or(|m| k <= m))
        .filter(|&k| opts.min_khz.is_none_or(|m| k >= m))
        .collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.dedup();
    if let Some(n) = opts.limit {
        v.truncate(n);
    }
    v
}

fn write(w: &mut impl PolicyWriter, path: String, value: String) -> Result<(), WriteError> {
    w.write_value(&path, &value).map_err(|reason| WriteError {
        path,
        value,
        reason,
    })
}

/// Keeps `cpu` busy for `d` (see the module documentation).
pub fn settle(cpu: u32, d: Duration) -> Result<(), Error> {
    if d.is_zero() {
        return Ok(());
    }
    pinned(cpu, || {
        let t0 = Instant::now();
        let short = loops::clock::ClockOptions {
            short_target_ns: 1_000_000,
            runs: 1,
        };
        while t0.elapsed() < d {
            loops::clock::measure(&short);
        }
    })
}

/// Walks `p`'s OPPs: governor and floor, then for each OPP the cap, the settle time on `cpu`,
/// and `at(ctx, opp)`. `root` answers where the policy's files are
/// ([`probe::cpufreq::policy_dir`]: old kernels have `cpuN/cpufreq` only). Returns what `at`
/// returned, highest OPP first. The first error (a refused write, a failed pin, an error of
/// `at`) ends the walk; a caller that wants the points measured until then keeps them in `ctx`.
pub fn walk<C, T, E>(
    root: &probe::Root,
    p: &Policy,
    cpu: u32,
    opts: &WalkOptions,
    ctx: &mut C,
    mut at: impl FnMut(&mut C, u64) -> Result<T, E>,
) -> Result<Vec<T>, E>
where
    C: PolicyWriter,
    E: From<WriteError> + From<Error>,
{
    let list = opps(p, opts);
    let mut out = Vec::with_capacity(list.len());
    let Some(&top) = list.first() else {
        return Ok(out);
    };
    let dir = probe::cpufreq::policy_dir(root, p.policy);
    if p.governor.as_deref() != Some("performance")
        && p.available_governors.iter().any(|g| g == "performance")
    {
        write(ctx, format!("{dir}/scaling_governor"), "performance".into())?;
    }
    let floor = p
        .cpuinfo_min_khz
        .filter(|&k| k > 0)
        .or(list.last().copied())
        .unwrap_or(top);
    write(ctx, format!("{dir}/scaling_min_freq"), floor.to_string())?;
    for &opp in &list {
        write(ctx, format!("{dir}/scaling_max_freq"), opp.to_string())?;
        settle(cpu, opts.settle)?;
        out.push(at(ctx, opp)?);
    }
    Ok(out)
}

/// Puts `p`'s cap back at the highest OPP within the options (after a walk, for work that
/// follows at full speed). Nothing is written when no OPP is left.
pub fn uncap(
    root: &probe::Root,
    p: &Policy,
    opts: &WalkOptions,
    ctx: &mut impl PolicyWriter,
) -> Result<(), WriteError> {
    match opps(p, opts).first() {
        Some(top) => write(
            ctx,
            format!(
                "{}/scaling_max_freq",
                probe::cpufreq::policy_dir(root, p.policy)
            ),
            top.to_string(),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_out_of_range_opps_are_not_walked() {
        let p = Policy {
            frequencies_khz: vec![0, 408_000, 600_000, 1_008_000, 1_800_000, 1_800_000],
            boost_khz: vec![2_016_000],
            ..Default::default()
        };
        let all = WalkOptions::default();
        assert_eq!(
            opps(&p, &all),
            [2_016_000, 1_800_000, 1_008_000, 600_000, 408_000]
        );
        let bounded = WalkOptions {
            max_khz: Some(1_800_000),
            min_khz: Some(600_000),
            ..WalkOptions::default()
        };
        assert_eq!(opps(&p, &bounded), [1_800_000, 1_008_000, 600_000]);
        let top = WalkOptions {
            limit: Some(1),
            ..bounded
        };
        assert_eq!(opps(&p, &top), [1_800_000]);
    }
}
