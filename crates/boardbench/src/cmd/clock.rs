//! `boardbench clock`: the real clock of each cluster (its first online core, or `--cpu`), and
//! with `--opp-walk` of every cpufreq OPP of each cluster.
//!
//! Output lines follow sbc-bench, so people and parsers that know its logs read them unchanged:
//!
//! ```text
//! Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)    (-10.0%)
//! No cpufreq support available. Measured on cpu1: 3580 MHz (3579.412/3581.007/3580.530)
//! ```
//!
//! "Measured" is the mean of the samples (three by default, each one mhz-method measurement of
//! ≤ 0.3 s); the deviation from the OPP is shown beyond ±2.5 % (sbc-bench itself shows it
//! beyond ±1 %, which flags ordinary PLL granularity on many boards). A spread (sample standard
//! deviation) above 0.1 % is appended as `spread N.N%`: background activity.
//! Without `--opp-walk` on a cpufreq system the line compares with the policy's current
//! `scaling_max_freq`.
//!
//! The OPP walk (root only): for each policy, the governor is set to `performance`,
//! `scaling_min_freq` to `cpuinfo_min_freq`, and `scaling_max_freq` to each OPP from the
//! highest down (`MaxKHz`/`MinKHz` skip OPPs above/below, as in sbc-bench). Every file is
//! restored through [`tune::Restorer`] after each policy, on Ctrl-C/SIGTERM/SIGHUP
//! and on panic.

use std::fmt::Write as _;
use std::time::Duration;

use anyhow::{Context, bail};
use kernels::clock::{ClockOptions, measure};
use model::machine::{Cluster, Policy};
use model::measure::clock::{ClockReading, ClockReport};

use crate::cli::Globals;
use tune::Restorer;

/// Deviation from the OPP (percent) beyond which the line shows it.
pub const DEVIATION_SHOWN_PCT: f64 = 2.5;
/// Spread (percent) beyond which the line shows it.
pub const SPREAD_SHOWN_PCT: f64 = 0.1;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Measure these CPUs (a list like 0,4-5) instead of the first core of each cluster.
    #[arg(long, value_name = "LIST")]
    pub cpu: Option<String>,
    /// Cap each cluster to every cpufreq OPP in turn and measure it (needs root; everything is
    /// restored afterwards, also on Ctrl-C). Honours MaxKHz and MinKHz.
    #[arg(long)]
    pub opp_walk: bool,
    /// Measurements per reading (shown as a/b/c).
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub samples: u32,
    /// Print the readings as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Skip OPPs above this clock (kHz), as sbc-bench's MaxKHz.
    #[arg(long, env = "MaxKHz", value_name = "KHZ", hide_env = true)]
    pub max_khz: Option<u64>,
    /// Skip OPPs below this clock (kHz), as sbc-bench's MinKHz.
    #[arg(long, env = "MinKHz", value_name = "KHZ", hide_env = true)]
    pub min_khz: Option<u64>,
    /// Pause after each OPP line (tests use it to interrupt a walk).
    #[arg(long, hide = true, default_value_t = 0)]
    pub pause_ms: u64,
}

/// What the command needs to know about the machine.
struct Machine {
    clusters: Vec<Cluster>,
    policies: Vec<Policy>,
}

fn read_machine(root: &probe::Root) -> Machine {
    let mut notes = probe::Notes::default();
    let cpuinfo = probe::cpuinfo::read(root, &mut notes);
    let mut sets = probe::topology::read_sets(root, &mut notes);
    if sets.possible.is_empty() {
        sets.possible = cpuinfo.processors.iter().map(|p| p.index).collect();
        sets.possible.sort_unstable();
        sets.online = sets.possible.clone();
        sets.present = sets.possible.clone();
    }
    let ids = probe::topology::read_ids(root, &mut notes, &sets);
    let policies = probe::cpufreq::read_policies(root, &mut notes);
    let clusters = probe::cluster::group(&ids, &policies, &cpuinfo);
    Machine { clusters, policies }
}

fn policy_of(policies: &[Policy], cpu: u32) -> Option<&Policy> {
    policies
        .iter()
        .find(|p| p.affected_cpus.contains(&cpu) || p.related_cpus.contains(&cpu))
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    if args.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let root = g.root();
    let m = read_machine(&root);
    let targets = targets(args, &m)?;
    // Refuse CPUs this process cannot run on before measuring anything.
    for &cpu in &targets {
        check_cpu(cpu)?;
    }
    let mut report = ClockReport {
        cpufreq: !m.policies.is_empty(),
        readings: Vec::new(),
    };
    if args.opp_walk && report.cpufreq {
        let restorer = Restorer::new(&root);
        let mut walked: Vec<u32> = Vec::new();
        for &cpu in &targets {
            let Some(p) = policy_of(&m.policies, cpu) else {
                let r = reading(cpu, None, None, args.samples)?;
                emit(args, &no_cpufreq_line(&r));
                report.readings.push(r);
                continue;
            };
            if walked.contains(&p.policy) {
                continue;
            }
            walked.push(p.policy);
            emit(args, &walk_heading(p, &m.clusters));
            walk_policy(args, &restorer, p, cpu, &mut report)?;
            let failed = restorer.restore();
            if !failed.is_empty() {
                bail!("could not restore {}", failed.join(", "));
            }
        }
    } else {
        if args.opp_walk {
            emit(
                args,
                "No cpufreq support: measuring the clock each cluster runs at.",
            );
        }
        for &cpu in &targets {
            let p = policy_of(&m.policies, cpu);
            let r = reading(
                cpu,
                p.map(|p| p.policy),
                p.and_then(|p| p.scaling_max_khz),
                args.samples,
            )?;
            let line = match p {
                None => no_cpufreq_line(&r),
                Some(p) => current_line(&r, p),
            };
            emit(args, &line);
            report.readings.push(r);
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(0)
}

/// Prints a text line at once (a walk takes a while), unless JSON was asked for.
fn emit(args: &Args, line: &str) {
    if !args.json {
        println!("{line}");
    }
}

/// The CPUs to measure: `--cpu`, or the first online core of each cluster.
fn targets(args: &Args, m: &Machine) -> anyhow::Result<Vec<u32>> {
    if let Some(list) = &args.cpu {
        return kernels::affinity::parse_cpu_list(list).map_err(|e| anyhow::anyhow!("--cpu: {e}"));
    }
    let mut v: Vec<u32> = m
        .clusters
        .iter()
        .filter_map(|c| c.online_cpus().first().copied())
        .collect();
    if v.is_empty() {
        v = kernels::affinity::allowed_cpus()
            .into_iter()
            .take(1)
            .collect();
    }
    if v.is_empty() {
        bail!("no CPU to measure on");
    }
    Ok(v)
}

fn check_cpu(cpu: u32) -> anyhow::Result<()> {
    let allowed = kernels::affinity::allowed_cpus();
    if !allowed.contains(&cpu) {
        bail!(
            "CPU {cpu} not online or not allowed for this process (allowed: {})",
            kernels::affinity::format_cpu_list(&allowed)
        );
    }
    Ok(())
}

/// Measures `samples` times on `cpu` (pinned) and summarises. The thread's affinity is put
/// back afterwards, so the caller's pinning is unchanged.
pub fn reading(
    cpu: u32,
    policy: Option<u32>,
    opp_khz: Option<u64>,
    samples: u32,
) -> anyhow::Result<ClockReading> {
    let samples = pinned(cpu, || {
        let opts = ClockOptions::default();
        (0..samples).map(|_| measure(&opts)).collect::<Vec<_>>()
    })?;
    Ok(summarise(cpu, policy, opp_khz, samples))
}

/// Runs `f` pinned to `cpu`, then restores the thread's previous CPU set.
///
/// Restoring goes through `sched_setaffinity` directly: `kernels::affinity::pin_current_thread`
/// checks against the *current* mask, so it cannot widen a pinned thread again.
pub fn pinned<R>(cpu: u32, f: impl FnOnce() -> R) -> anyhow::Result<R> {
    use nix::sched::{sched_getaffinity, sched_setaffinity};
    use nix::unistd::Pid;
    let before = sched_getaffinity(Pid::from_raw(0)).ok();
    kernels::affinity::pin_current_thread(&[cpu]).map_err(|e| anyhow::anyhow!("{e}"))?;
    let r = f();
    if let Some(set) = before {
        let _ = sched_setaffinity(Pid::from_raw(0), &set);
    }
    Ok(r)
}

/// Mean, best, spread and deviation of a set of samples.
pub fn summarise(
    cpu: u32,
    policy: Option<u32>,
    opp_khz: Option<u64>,
    samples: Vec<model::measure::clock::ClockSample>,
) -> ClockReading {
    let mhz: Vec<f64> = samples.iter().map(|s| s.mhz).collect();
    let mean = kernels::stats::mean(&mhz).unwrap_or(0.0);
    let deviation_pct = opp_khz
        .filter(|&k| k > 0 && mean > 0.0)
        .map(|k| (mean * 1000.0 / k as f64 - 1.0) * 100.0);
    ClockReading {
        cpu,
        policy,
        opp_khz,
        best_mhz: kernels::stats::max(&mhz).unwrap_or(0.0),
        spread_pct: kernels::stats::stddev_pct(&mhz),
        mhz: mean,
        deviation_pct,
        samples,
    }
}

fn samples_text(r: &ClockReading) -> String {
    r.samples
        .iter()
        .map(|s| format!("{:.3}", s.mhz))
        .collect::<Vec<_>>()
        .join("/")
}

/// `    (-10.0%)` when the deviation is beyond ±2.5 %, and ` spread 0.4%` beyond 0.1 %.
fn suffix(r: &ClockReading) -> String {
    let mut s = String::new();
    if let Some(d) = r.deviation_pct.filter(|d| d.abs() > DEVIATION_SHOWN_PCT) {
        let _ = write!(s, "{:>12}", format!("({d:+.1}%)"));
    }
    if let Some(sp) = r.spread_pct.filter(|&sp| sp > SPREAD_SHOWN_PCT) {
        let _ = write!(s, "    spread {sp:.1}%");
    }
    s
}

/// sbc-bench's OPP line: `Cpufreq OPP: 1992    Measured: 1793 (a/b/c)    (-10.0%)`.
pub fn opp_line(r: &ClockReading) -> String {
    format!(
        "Cpufreq OPP: {:4}    Measured: {:4.0} ({}){}",
        r.opp_khz.unwrap_or(0) / 1000,
        r.mhz,
        samples_text(r),
        suffix(r)
    )
}

/// sbc-bench's line without cpufreq (its 2023+ form, with the MHz before the samples).
pub fn no_cpufreq_line(r: &ClockReading) -> String {
    format!(
        "No cpufreq support available. Measured on cpu{}: {:.0} MHz ({}){}",
        r.cpu,
        r.mhz,
        samples_text(r),
        suffix(r)
    )
}

/// A cpufreq system without a walk: the clock as it runs, against the policy's current cap.
fn current_line(r: &ClockReading, p: &Policy) -> String {
    let cap = p
        .scaling_max_khz
        .map(|k| format!(", scaling_max_freq {} MHz", k / 1000))
        .unwrap_or_default();
    format!(
        "Measured on cpu{} (policy{}{cap}): {:.0} MHz ({}){}",
        r.cpu,
        p.policy,
        r.mhz,
        samples_text(r),
        suffix(r)
    )
}

fn walk_heading(p: &Policy, clusters: &[Cluster]) -> String {
    let cpus = if p.related_cpus.is_empty() {
        &p.affected_cpus
    } else {
        &p.related_cpus
    };
    let core = clusters
        .iter()
        .find(|c| c.policy == Some(p.policy) || cpus.iter().any(|x| c.cpus.contains(x)))
        .and_then(|c| c.core_name.clone())
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let range = match (cpus.first(), cpus.last()) {
        (Some(a), Some(b)) if a != b => format!(" for cpu{a}-cpu{b}"),
        (Some(a), _) => format!(" for cpu{a}"),
        _ => String::new(),
    };
    format!("Checking cpufreq OPP{range}{core}:")
}

/// The OPPs of a policy to walk, highest first, MaxKHz/MinKHz applied.
pub fn walk_opps(p: &Policy, max_khz: Option<u64>, min_khz: Option<u64>) -> Vec<u64> {
    let mut v: Vec<u64> = p
        .frequencies_khz
        .iter()
        .chain(&p.boost_khz)
        .copied()
        .filter(|&k| k > 0)
        .filter(|&k| max_khz.is_none_or(|m| k <= m))
        .filter(|&k| min_khz.is_none_or(|m| k >= m))
        .collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.dedup();
    v
}

fn walk_policy(
    args: &Args,
    restorer: &Restorer,
    p: &Policy,
    cpu: u32,
    report: &mut ClockReport,
) -> anyhow::Result<()> {
    let base = format!("{}/policy{}", probe::cpufreq::CPUFREQ_DIR, p.policy);
    let opps = walk_opps(p, args.max_khz, args.min_khz);
    if opps.is_empty() {
        emit(args, "  (no OPP left to check)");
        return Ok(());
    }
    let needs_root = || "the OPP walk writes cpufreq limits: run it as root";
    // A governor that keeps the clock low (powersave, ondemand without load yet) would make
    // every OPP read as the minimum: performance runs at the cap.
    if p.governor.as_deref() != Some("performance")
        && p.available_governors.iter().any(|g| g == "performance")
    {
        restorer
            .write(&format!("{base}/scaling_governor"), "performance")
            .context(needs_root())?;
    }
    // Lower the floor first, so every cap below the old minimum is accepted.
    let floor = p
        .cpuinfo_min_khz
        .or(opps.last().copied())
        .unwrap_or_default();
    restorer
        .write(&format!("{base}/scaling_min_freq"), &floor.to_string())
        .context(needs_root())?;
    for (i, &opp) in opps.iter().enumerate() {
        restorer
            .write(&format!("{base}/scaling_max_freq"), &opp.to_string())
            .context(needs_root())?;
        // Let the clock settle at the new cap before measuring (sbc-bench runs mhz once).
        pinned(cpu, || {
            measure(&ClockOptions {
                short_target_ns: 5_000_000,
                runs: 1,
            })
        })?;
        let r = reading(cpu, Some(p.policy), Some(opp), args.samples)?;
        emit(args, &opp_line(&r));
        report.readings.push(r);
        if args.pause_ms > 0 && i + 1 < opps.len() {
            std::thread::sleep(Duration::from_millis(args.pause_ms));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::measure::clock::ClockSample;

    fn sample(mhz: f64) -> ClockSample {
        ClockSample {
            method: "test".into(),
            exact: true,
            count: 1,
            short_ops: 50,
            long_ops: 150,
            short_ns: vec![1],
            long_ns: vec![2],
            mhz,
            elapsed_ns: 1,
        }
    }

    #[test]
    fn opp_lines_have_sbc_bench_columns_and_show_big_deviations_only() {
        let r = summarise(
            0,
            Some(0),
            Some(1_992_000),
            vec![sample(1796.339), sample(1793.356), sample(1789.489)],
        );
        assert_eq!(
            opp_line(&r),
            "Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)    (-10.0%)    spread 0.2%"
        );
        let r = summarise(
            0,
            Some(0),
            Some(600_000),
            vec![sample(590.0), sample(590.0)],
        );
        assert_eq!(
            opp_line(&r),
            "Cpufreq OPP:  600    Measured:  590 (590.000/590.000)"
        );
        let r = summarise(1, None, None, vec![sample(3580.0)]);
        assert_eq!(
            no_cpufreq_line(&r),
            "No cpufreq support available. Measured on cpu1: 3580 MHz (3580.000)"
        );
        let r = summarise(0, Some(0), Some(1_000_000), vec![sample(1100.0)]);
        assert!(opp_line(&r).ends_with("     (+10.0%)") || opp_line(&r).ends_with("    (+10.0%)"));
    }

    #[test]
    fn walk_goes_from_the_top_and_honours_max_and_min_khz() {
        let p = Policy {
            frequencies_khz: vec![408_000, 600_000, 1_008_000, 1_800_000],
            boost_khz: vec![2_016_000],
            ..Default::default()
        };
        assert_eq!(
            walk_opps(&p, None, None),
            [2_016_000, 1_800_000, 1_008_000, 600_000, 408_000]
        );
        assert_eq!(
            walk_opps(&p, Some(1_800_000), Some(600_000)),
            [1_800_000, 1_008_000, 600_000]
        );
    }
}
