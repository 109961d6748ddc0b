//! `boardbench clock`: the real clock of each cluster (its first online core, or `--cpu`), and
//! with `--opp-walk` of every cpufreq OPP of each cluster.
//!
//! Output lines are the log's (`textout::clock`, sbc-bench's), so people and parsers that know
//! its logs read them unchanged:
//!
//! ```text
//! Cpufreq OPP: 1992    Measured: 1793 (1796.339/1793.356/1789.489)     (-10.0%)
//! No cpufreq support available. Measured on cpu1: 3580 MHz (3581.007/3580.530/3579.412)
//! ```
//!
//! "Measured" is the truncated mean of the samples (three by default, each a mhz-method
//! measurement of ~60 ms, `measure::clock_reading`: a whole reading takes ~0.2 s of CPU); the
//! deviation from the OPP is shown beyond ±1 %, as sbc-bench and the log. A spread (sample
//! standard deviation) above 0.1 % is appended as `spread N.N%`: background activity.
//! Without `--opp-walk` on a cpufreq system the line compares with the policy's current
//! `scaling_max_freq`.
//!
//! The command runs as a session (`crate::session`: the machine read once, signals, restoring),
//! without idle gate, tuning or record. The OPP walk (root only) is `measure::opp_walk`
//! (governor, floor, caps, settle time and which OPPs are decided there); every write goes
//! through the session's [`ModeWrites`] and is undone after each policy, on
//! Ctrl-C/SIGTERM/SIGHUP and on panic. A reading taken while another task used the CPU ends in
//! `disturbed`.

use std::time::Duration;

use anyhow::bail;
use document::machine::{MachineInfo, Policy};
use document::measure::clock::ClockReport;
use measure::clock_reading::{ReadingOptions, Target, reading};
use measure::opp_walk::WalkOptions;
use textout::clock::{current_line, line, walk_heading};

use crate::cli::Globals;
use crate::session::lifecycle::{ModeWrites, SessionOptions, Signals};
use crate::session::{ExitStatus, Session};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Measure these CPUs (a list like 0,4-5) instead of the first core of each cluster.
    #[arg(long, value_name = "LIST", value_parser = crate::values::cpu_list)]
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

fn policy_of(policies: &[Policy], cpu: u32) -> Option<&Policy> {
    policies
        .iter()
        .find(|p| p.affected_cpus.contains(&cpu) || p.related_cpus.contains(&cpu))
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    if args.samples == 0 {
        return Err(crate::output::Usage("--samples must be at least 1".into()).into());
    }
    // A signal restores what the walk changed and exits (128 + signal).
    let probed = Session::probe(g.root(), Signals::Restore);
    let targets = targets(args, &probed.machine)?;
    // Refuse CPUs this process cannot run on before measuring anything.
    for &cpu in &targets {
        check_cpu(cpu)?;
    }
    let mut session = match probed.start(&SessionOptions::default()) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let (root, m) = (&session.root, &session.machine);
    let opts = ReadingOptions::samples(args.samples);
    let mut report = ClockReport {
        cpufreq: !m.policies.is_empty(),
        readings: Vec::new(),
    };
    if args.opp_walk && report.cpufreq {
        let writes = &mut session.writes;
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
                emit(args, &line(&r));
                report.readings.push(r);
                continue;
            };
            if walked.contains(&p.policy) {
                continue;
            }
            walked.push(p.policy);
            emit(args, &walk_heading(p, &m.clusters));
            walk_policy(args, &opts, root, writes, p, cpu, &mut report)?;
            let failed = writes.restore();
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
            let text = match p {
                None => line(&r),
                Some(_) => current_line(&r),
            };
            emit(args, &text);
            report.readings.push(r);
        }
    }
    session.close();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(ExitStatus::Valid)
}

/// Prints a text line at once (a walk takes a while), unless JSON was asked for.
fn emit(args: &Args, line: &str) {
    if !args.json {
        println!("{line}");
    }
}

/// The CPUs to measure: `--cpu`, or the first online core of each cluster.
fn targets(args: &Args, m: &MachineInfo) -> anyhow::Result<Vec<u32>> {
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
    Ok(crate::values::allowed_cpus(&[cpu], "--cpu")?)
}

fn walk_policy(
    args: &Args,
    opts: &ReadingOptions,
    root: &probe::Root,
    writes: &mut ModeWrites,
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
    measure::opp_walk::walk(root, p, cpu, &walk, writes, |_, opp| {
        let target = Target {
            cpu,
            policy: Some(p.policy),
            opp_khz: Some(opp),
        };
        let r = reading(target, opts)?;
        emit(args, &line(&r));
        report.readings.push(r);
        if args.pause_ms > 0 && Some(opp) != last {
            std::thread::sleep(Duration::from_millis(args.pause_ms));
        }
        Ok::<_, anyhow::Error>(())
    })
    .map_err(|e| e.context("the OPP walk writes cpufreq limits: run it as root"))?;
    Ok(())
}
