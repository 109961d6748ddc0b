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
//! "Measured" is the mean of the samples (three by default, each a mhz-method measurement of
//! ~60 ms, `measure::clock_reading`: a whole reading takes ~0.2 s of CPU); the deviation from the OPP is shown beyond ±2.5 % (sbc-bench itself shows it
//! beyond ±1 %, which flags ordinary PLL granularity on many boards). A spread (sample standard
//! deviation) above 0.1 % is appended as `spread N.N%`: background activity.
//! Without `--opp-walk` on a cpufreq system the line compares with the policy's current
//! `scaling_max_freq`.
//!
//! The OPP walk (root only) is `measure::opp_walk` (governor, floor, caps, settle time and
//! which OPPs are decided there); every write goes through [`tune::Restorer`] and is
//! undone after each policy, on Ctrl-C/SIGTERM/SIGHUP and on panic. A reading taken while
//! another task used the CPU ends in `disturbed`.

use std::fmt::Write as _;
use std::time::Duration;

use anyhow::bail;
use document::machine::{Cluster, Policy};
use document::measure::clock::{ClockReading, ClockReport};
use measure::clock_reading::{ReadingOptions, Target, reading};
use measure::opp_walk::WalkOptions;

use crate::cli::Globals;
use engine::opp_writer::RestorerWrites;
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
    let opts = ReadingOptions::samples(args.samples);
    let mut report = ClockReport {
        cpufreq: !m.policies.is_empty(),
        readings: Vec::new(),
    };
    if args.opp_walk && report.cpufreq {
        let restorer = Restorer::new(&root);
        let mut walked: Vec<u32> = Vec::new();
        for &cpu in &targets {
            let Some(p) = policy_of(&m.policies, cpu) else {
                let r = reading(
                    Target {
                        cpu,
                        ..Target::default()
                    },
                    &opts,
                )?;
                emit(args, &no_cpufreq_line(&r));
                report.readings.push(r);
                continue;
            };
            if walked.contains(&p.policy) {
                continue;
            }
            walked.push(p.policy);
            emit(args, &walk_heading(p, &m.clusters));
            walk_policy(args, &opts, &root, &restorer, p, cpu, &mut report)?;
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
                Target {
                    cpu,
                    policy: p.map(|p| p.policy),
                    opp_khz: p.and_then(|p| p.scaling_max_khz),
                },
                &opts,
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
        return loops::affinity::parse_cpu_list(list).map_err(|e| anyhow::anyhow!("--cpu: {e}"));
    }
    let mut v: Vec<u32> = m
        .clusters
        .iter()
        .filter_map(|c| c.online_cpus().first().copied())
        .collect();
    if v.is_empty() {
        v = loops::affinity::allowed_cpus()
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
    let allowed = loops::affinity::allowed_cpus();
    if !allowed.contains(&cpu) {
        bail!(
            "CPU {cpu} not online or not allowed for this process (allowed: {})",
            loops::affinity::format_cpu_list(&allowed)
        );
    }
    Ok(())
}

fn samples_text(r: &ClockReading) -> String {
    r.samples
        .iter()
        .map(|s| format!("{:.3}", s.mhz))
        .collect::<Vec<_>>()
        .join("/")
}

/// `    (-10.0%)` when the deviation is beyond ±2.5 %, ` spread 0.4%` beyond 0.1 %, and the
/// disturbance remark when another task used the CPU.
fn suffix(r: &ClockReading) -> String {
    let mut s = String::new();
    if let Some(d) = r.deviation_pct.filter(|d| d.abs() > DEVIATION_SHOWN_PCT) {
        let _ = write!(s, "{:>12}", format!("({d:+.1}%)"));
    }
    if let Some(sp) = r.spread_pct.filter(|&sp| sp > SPREAD_SHOWN_PCT) {
        let _ = write!(s, "    spread {sp:.1}%");
    }
    if r.disturbed {
        let _ = write!(s, "    ({})", measure::disturbance::REMARK);
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

fn walk_policy(
    args: &Args,
    opts: &ReadingOptions,
    root: &probe::Root,
    restorer: &Restorer,
    p: &Policy,
    cpu: u32,
    report: &mut ClockReport,
) -> anyhow::Result<()> {
    let walk = WalkOptions {
        max_khz: args.max_khz,
        min_khz: args.min_khz,
        ..WalkOptions::default()
    };
    if measure::opp_walk::opps(p, &walk).is_empty() {
        emit(args, "  (no OPP left to check)");
        return Ok(());
    }
    let last = measure::opp_walk::opps(p, &walk).last().copied();
    let mut writer = RestorerWrites(restorer);
    measure::opp_walk::walk(root, p, cpu, &walk, &mut writer, |_, opp| {
        let target = Target {
            cpu,
            policy: Some(p.policy),
            opp_khz: Some(opp),
        };
        let r = reading(target, opts)?;
        emit(args, &opp_line(&r));
        report.readings.push(r);
        if args.pause_ms > 0 && Some(opp) != last {
            std::thread::sleep(Duration::from_millis(args.pause_ms));
        }
        Ok::<_, anyhow::Error>(())
    })
    .map_err(|e| e.context("the OPP walk writes cpufreq limits: run it as root"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::measure::clock::ClockSample;
    use measure::clock_reading::summarise;

    fn at(cpu: u32, opp_khz: Option<u64>) -> Target {
        Target {
            cpu,
            policy: opp_khz.map(|_| 0),
            opp_khz,
        }
    }

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
            at(0, Some(1_992_000)),
            vec![sample(1796.339), sample(1793.356), sample(1789.489)],
        );
        assert_eq!(
            opp_line(&r),
            "Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)    (-10.0%)    spread 0.2%"
        );
        let r = summarise(at(0, Some(600_000)), vec![sample(590.0), sample(590.0)]);
        assert_eq!(
            opp_line(&r),
            "Cpufreq OPP:  600    Measured:  590 (590.000/590.000)"
        );
        let r = summarise(at(1, None), vec![sample(3580.0)]);
        assert_eq!(
            no_cpufreq_line(&r),
            "No cpufreq support available. Measured on cpu1: 3580 MHz (3580.000)"
        );
        let mut r = summarise(at(0, Some(1_000_000)), vec![sample(1100.0)]);
        assert!(opp_line(&r).ends_with("     (+10.0%)") || opp_line(&r).ends_with("    (+10.0%)"));
        r.disturbed = true;
        assert!(
            opp_line(&r).ends_with("(+10.0%)    (disturbed: another task used the measured CPU)"),
            "{}",
            opp_line(&r)
        );
    }
}
