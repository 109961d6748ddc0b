//! `boardbench review` (sbc-bench's `-r`, and `-R` with `--quick`): print every
//! performance-relevant setting and bottleneck with why it matters, switch the machine to
//! maximum performance, show what that changed in the clocks, then monitor until Ctrl-C or
//! `--count` samples — or run a command (`-- CMD …`, or sbc-bench's `ExecuteCommand`
//! environment variable) under monitoring and judge its window (throttling, devices that
//! changed).
//!
//! The review itself is `::review::review` (pure, through the root). Every write
//! goes through [`Restorer`], which puts back each file it changed on exit, error, panic,
//! SIGINT, SIGTERM and SIGHUP — cpufreq governors each to its own original, devfreq governors
//! and the ASPM policy too (sbc-bench restores policy0's governor to every policy and forgets
//! devfreq).
//!
//! Ctrl-C (SIGINT, SIGTERM, SIGHUP) ends the window, not the process: the command (run in its
//! own process group, stdin /dev/null) is ended too — SIGTERM, then SIGKILL after 5 s — the
//! window is still judged and printed, and then everything is restored
//! ([`crate::session::signals`]).
//!
//! Before tuning, the idle gate (run's rules and switches: `--no-idle-gate`, `--idle-load` …).
//! After tuning, a performance baseline with the run engine's phases (`--no-baseline` and
//! `--quick` — sbc-bench -R — skip it): memcpy/memset, memory latency at 16 and 128 MiB, OpenSSL
//! AES, 7-Zip on all cores, and the clock idle and hot — as sbc-bench's review measures.
//!
//! Exit codes: 0 fine; 2 the command failed or the window shows throttling or other trouble;
//! 128 + signal when interrupted (after the window's judgement and the restore); 1 error (also:
//! tuning refused because it needs root).

use std::io::Write;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ::review::{clocks, text, window};
use anyhow::Context;
use document::run::{RunOptions, kind};
use document::{Finding, Severity};
use probe::sampler::{SamplerConfig, sample_every};
use serde_json::json;

use crate::cli::Globals;
use crate::live_view;
use crate::run::progress::Progress;
use crate::session::child::{self, Echo, Running};
use crate::session::lifecycle::{Record, SessionOptions, Signals};
use crate::session::signals::{Held, Stop};
use crate::session::{ExitStatus, Session, phase_recorder};
use ::tune::Restorer;
use engine::benchmarks::Tools;
use engine::plan::{PlanOptions, Profile};
use engine::{BenchContext, Settings};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skip the slow checks (sbc-bench -R): no measured clocks before and after tuning, no
    /// performance baseline.
    #[arg(long)]
    pub quick: bool,
    /// Seconds between monitor samples (sbc-bench's review monitor uses 60; fractions allowed).
    #[arg(short, long, default_value = "60", value_name = "SECONDS", value_parser = crate::cmd::monitor::parse_interval)]
    pub interval: f64,
    /// Review and monitor only: do not switch governors and ASPM to performance.
    #[arg(long)]
    pub no_tune: bool,
    /// Stop monitoring after N samples (default: until Ctrl-C, or until the command ends).
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// JSON Lines: the review, each monitor sample, then the window's judgement.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub idle: crate::session::idle::IdleArgs,
    /// Skip the performance baseline (memcpy/memset, memory latency, 7-Zip, OpenSSL AES, the
    /// clock idle and hot) measured after tuning (`--quick` skips it too, as sbc-bench -R).
    #[arg(long)]
    pub no_baseline: bool,
    /// Tests: the smallest possible built-in kernel work in the baseline (numbers mean nothing).
    #[arg(long, hide = true)]
    pub tiny_kernels: bool,
    /// Command to run under monitoring (else the shell command in $ExecuteCommand, else
    /// monitor until Ctrl-C).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// The command to run: `-- CMD ARGS…`, else `sh -c "$ExecuteCommand"` (sbc-bench's variable).
fn command_of(args: &Args) -> Option<Vec<String>> {
    if !args.command.is_empty() {
        return Some(args.command.clone());
    }
    std::env::var("ExecuteCommand")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .map(|c| vec!["sh".into(), "-c".into(), c])
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    // Signals first (every thread started later inherits the mask): Ctrl-C must end the
    // window, not the process, so that the window is still judged (see session::signals).
    let probed = Session::probe(g.root(), Signals::Held);
    let before = ::review::review(&probed.root, &probed.machine);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json!({ "review": &before }))?;
    } else {
        write!(out, "{}", text::render(&before))?;
    }
    out.flush()?;
    drop(out);

    // sbc-bench refuses to run without root; here the review is useful on its own, so it is
    // printed first and only the tuning is refused. A --sysroot tree is writable by the user.
    if refuse_tuning(args.no_tune, probed.root.is_host(), probed.root_user) {
        eprintln!(
            "boardbench review: switching governors and PCIe ASPM to performance needs root \
             (sbc-bench requires root for the same reason). The review above is complete; run \
             as root to tune and monitor, or add --no-tune to monitor as is."
        );
        return Ok(ExitStatus::Error);
    }

    // Review's own tuning plan (ASPM too) goes through the session's Restorer.
    let session = match probed.start(&SessionOptions {
        idle: args.idle.step(false, "reviewing"),
        ..SessionOptions::default()
    }) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let mut tuned = false;
    if args.no_tune {
        say(
            args,
            "Not tuning (--no-tune): governors and ASPM stay as they are.",
        );
    } else {
        tuned = tune_up(&session.restorer, &session.root, &session.machine, args, g)?;
    }

    if !args.no_baseline && !args.quick {
        baseline(args, &session, tuned)?;
    }

    let held = session.held().expect("review holds its signals");
    let window = monitor_window(args, held, &session.root, &session.machine, &before, tuned)?;

    let changed = session.restorer.changed();
    let closed = session.close();
    let failed = closed.restore_failures;
    if !changed.is_empty() {
        say(
            args,
            &format!(
                "Restored {} setting(s) to their original values{}.",
                changed.len(),
                if failed.is_empty() {
                    String::new()
                } else {
                    format!(" ({} failed: {})", failed.len(), failed.join(", "))
                }
            ),
        );
    }
    if !failed.is_empty() {
        return Ok(ExitStatus::Error);
    }
    Ok(ExitStatus::of(window.signal, !window.trouble))
}

/// The phases of the run engine that make review's performance baseline, as sbc-bench's
/// review measures it: the clock idle, memory bandwidth and latency, OpenSSL AES, 7-Zip on all
/// cores, and the clock again while hot.
const BASELINE: [&str; 6] = [
    kind::CLOCK,
    kind::MEMBW,
    kind::MEMLAT,
    kind::OPENSSL,
    kind::SEVENZIP_MULTI,
    kind::CLOCK_HOT,
];

/// Measures the baseline on the tuned machine (the run engine's phases in the standard
/// profile) and prints the run's short summary of it plus the latency at 16 and 128 MiB.
/// Signals stay held meanwhile: Ctrl-C then ends the monitoring window as soon as it starts.
fn baseline(args: &Args, session: &Session, tuned: bool) -> anyhow::Result<()> {
    let profile = Profile::Standard;
    let planned = engine::plan::plan(
        &session.machine,
        &PlanOptions {
            profile,
            stockfish: false,
            cpuminer: false,
            only: BASELINE.iter().map(|k| k.to_string()).collect(),
        },
    );
    if planned.is_empty() {
        return Ok(());
    }
    let settings = Settings {
        profile,
        max_khz: None,
        min_khz: None,
        opp_walk: false,
        tiny: args.tiny_kernels,
        pause: Duration::ZERO,
    };
    let runner = adapters::tool::SystemRunner;
    let search_path = adapters::tool::SearchPath::from_env();
    let tools = Tools::find(&search_path, &runner, false, false);
    let ctx = BenchContext {
        root: &session.root,
        machine: &session.machine,
        settings: &settings,
        restorer: &session.restorer,
        runner: &runner,
        search_path,
        tools,
        allowed: loops::affinity::allowed_cpus(),
    };
    say(
        args,
        &format!(
            "Performance baseline ({}, {} phases):",
            profile.name(),
            planned.len()
        ),
    );
    let mut progress = Progress::new(&planned, args.json);
    let n = planned.len();
    let stretch = session.stretch();
    let (phases, measurements) =
        crate::run::execute(&ctx, &planned, None, &mut |i, p| progress.starting(i, n, p));
    progress.finish();
    let latency = latency_line(&phases);
    let doc = session.stretch_document(
        stretch,
        Record {
            profile: "review-baseline".into(),
            options: RunOptions {
                tune: tuned,
                ..RunOptions::default()
            },
            phases,
            measurements,
            ..Record::default()
        },
    );
    if args.json {
        println!(
            "{}",
            json!({ "baseline": {
                "profile": profile.name(),
                "measurements": doc.measurements,
                "findings": doc.findings,
            }})
        );
    } else {
        print!("{}", textout::terminal_summary(&doc, false));
        if let Some(l) = latency {
            println!("{l}");
        }
    }
    Ok(())
}

/// "Memory latency (cpu0): 16 MiB 92.1 ns, 128 MiB 131.4 ns" from the chain ladder (the
/// sizes the ladder reached; nothing when it reached neither).
fn latency_line(phases: &[document::run::Phase]) -> Option<String> {
    let r = phases.iter().find_map(|p| p.memlat.as_ref())?;
    let rows = &r.chain.as_ref()?.rows;
    let at: Vec<String> = [16u64, 128]
        .iter()
        .filter_map(|&mib| {
            let row = rows.iter().find(|row| row.size_bytes == mib << 20)?;
            let ns = row.ns_per_step.first()?;
            Some(format!("{mib} MiB {ns:.1} ns"))
        })
        .collect();
    let cpu = r
        .cpus
        .first()
        .map_or(String::new(), |c| format!(" (cpu{c})"));
    (!at.is_empty()).then(|| format!("Memory latency{cpu}: {}", at.join(", ")))
}

/// How the window ended.
struct Window {
    /// The command failed or the findings show trouble.
    trouble: bool,
    /// The signal that ended it early.
    signal: Option<i32>,
}

/// Tuning the live system needs root; a --sysroot tree (fixtures, tests) is the user's own.
fn refuse_tuning(no_tune: bool, is_host: bool, is_root: bool) -> bool {
    !no_tune && is_host && !is_root
}

/// A line for humans (stderr in JSON mode, so stdout stays parseable).
fn say(args: &Args, s: &str) {
    if args.json {
        eprintln!("{s}");
    } else {
        println!("{s}");
    }
}

/// Writes the performance plan through the restorer and shows what changed in the clocks.
/// Returns whether every cpufreq policy now runs the performance governor.
fn tune_up(
    r: &Restorer,
    root: &probe::Root,
    m: &document::machine::MachineInfo,
    args: &Args,
    g: &Globals,
) -> anyhow::Result<bool> {
    let opts = ::tune::tuning::TuneOptions {
        governors: true,
        max_khz: None,
        aspm: true,
    };
    let plan = ::tune::tuning::plan(root, m, &opts).writes;
    let clocks_before = clocks::clocks(root, m);
    let measured_before = measured_clocks(args, g, m);
    let mut lines = Vec::new();
    let mut failed = Vec::new();
    for w in &plan {
        match r.write(&w.path, &w.value) {
            Ok(()) => lines.push(format!(
                "  {}: {} → {}",
                w.what,
                w.from.as_deref().unwrap_or("?"),
                w.value
            )),
            // A devfreq device or the ASPM policy may refuse (busy, locked by firmware): the
            // rest still applies, and nothing was changed that needs restoring.
            Err(e) => failed.push(format!("  could not change {}: {}", w.what, e.reason)),
        }
    }
    if root.is_host() && !plan.is_empty() {
        // Give the governors a moment to move the clocks before reading them again.
        std::thread::sleep(Duration::from_millis(300));
    }
    let clocks_after = clocks::clocks(root, m);
    let measured_after = measured_clocks(args, g, m);
    let mut text = String::new();
    if plan.is_empty() {
        text.push_str("Already at maximum performance: nothing to switch.\n");
    } else {
        text.push_str("Switched to maximum performance:\n");
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    if !failed.is_empty() {
        for l in &failed {
            text.push_str(l);
            text.push('\n');
        }
    }
    text.push_str("Clocks (kernel) before → after:\n");
    for l in clocks::clock_changes(&clocks_before, &clocks_after) {
        text.push_str(&format!("  {l}\n"));
    }
    if let (Some(b), Some(a)) = (&measured_before, &measured_after) {
        text.push_str("Measured clocks before → after:\n");
        for ((cpu, mb), (_, ma)) in b.iter().zip(a) {
            text.push_str(&format!("  cpu{cpu}: {mb:.0} → {ma:.0} MHz\n"));
        }
    }
    if args.json {
        println!(
            "{}",
            json!({ "tuning": {
                "changed": lines.iter().map(|l| l.trim()).collect::<Vec<_>>(),
                "failed": failed.iter().map(|l| l.trim()).collect::<Vec<_>>(),
                "clocks_before": clocks_before,
                "clocks_after": clocks_after,
            }})
        );
    } else {
        print!("{text}");
    }
    let now = probe::snapshot::take(root);
    Ok(!now.policies.is_empty()
        && now
            .policies
            .iter()
            .all(|p| p.governor.as_deref() == Some("performance")))
}

/// The real clock of each cluster's first CPU (the slow check `--quick` skips). Only on the
/// live system: a fixture tree's clocks are not this CPU's.
fn measured_clocks(
    args: &Args,
    g: &Globals,
    m: &document::machine::MachineInfo,
) -> Option<Vec<(u32, f64)>> {
    if args.quick || g.sysroot.is_some() {
        return None;
    }
    let v: Vec<(u32, f64)> = m
        .clusters
        .iter()
        .filter_map(|c| {
            let cpu = *c.online_cpus().first()?;
            let target = measure::clock_reading::Target {
                cpu,
                policy: c.policy,
                opp_khz: None,
            };
            measure::clock_reading::reading(
                target,
                &measure::clock_reading::ReadingOptions::samples(1),
            )
            .ok()
            .map(|r| (cpu, r.mhz))
        })
        .collect();
    (!v.is_empty()).then_some(v)
}

/// Monitors until Ctrl-C, `--count` samples, or the end of the command; then judges the
/// window.
fn monitor_window(
    args: &Args,
    held: Held,
    root: &probe::Root,
    m: &document::machine::MachineInfo,
    before: &::review::Review,
    tuned: bool,
) -> anyhow::Result<Window> {
    // The signals are blocked (see `run`); the session's watcher takes them and ends the
    // window (`cancel`), as does the command's end.
    let watch = Stop::watch(Some(held), None, None);
    let stop = Arc::clone(&watch.cancel);
    let tis_before = window::read_time_in_state(root, m);
    let config = SamplerConfig::from_machine(m);
    let mut sampler = phase_recorder::sampler(&config, root);
    let layout = sampler.layout().clone();

    let cmd = command_of(args);
    // The command's own thread: it ends the window when the command ends, and ends the
    // command when a signal ended the window.
    let waiter = match &cmd {
        Some(c) => {
            let mut command = Command::new(&c[0]);
            command.args(&c[1..]);
            let echo = if args.json {
                Echo::ToStderr
            } else {
                Echo::AsIs
            };
            let mut r = match Running::start("command", command, c.join(" "), echo) {
                Ok(r) => r,
                Err(e) => {
                    watch.finish();
                    return Err(e);
                }
            };
            let stop = Arc::clone(&stop);
            Some(std::thread::spawn(move || {
                // Until it ends, only a signal sets `stop`.
                let end = r.supervise(Duration::from_millis(50), || stop.load(Ordering::Relaxed));
                // Whatever the command left running in its process group goes with it.
                r.finish(end.clone());
                stop.store(true, Ordering::Relaxed);
                end
            }))
        }
        None => {
            say(
                args,
                if tuned {
                    "All known settings adjusted for performance: device ready for \
                     benchmarking. Monitoring until Ctrl-C (settings are restored on exit)."
                } else {
                    "Monitoring until Ctrl-C."
                },
            );
            None
        }
    };

    let start = Instant::now();
    let mut samples = Vec::new();
    let tz = chrono::Local;
    if !args.json {
        println!("{}", live_view::header(&layout));
    }
    let mut line = String::new();
    let res: std::io::Result<u64> = sample_every(
        &mut sampler,
        Duration::from_secs_f64(args.interval),
        args.count,
        &stop,
        |s| {
            let mut o = std::io::stdout().lock();
            if args.json {
                writeln!(o, "{}", live_view::json_line(&layout, &s, &tz))?;
            } else {
                line.clear();
                live_view::push_line(&mut line, &layout, &s, &tz);
                writeln!(o, "{line}")?;
            }
            samples.push(s);
            o.flush()
        },
    );
    match res {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e).context("writing the monitor output"),
    }
    // --count ended the monitor: the command still decides the window's end.
    let end = waiter.map(|w| w.join().unwrap_or_else(|_| "lost".into()));
    stop.store(true, Ordering::Relaxed);
    let signal = watch.finish();
    let elapsed = start.elapsed().as_secs_f64();

    // The window's judgement.
    let m_after = probe::snapshot::take(root);
    let tis_after = window::read_time_in_state(root, &m_after);
    let mut findings: Vec<Finding> = window::throttling(&tis_before, &tis_after, m, tuned);
    if tuned && tis_after.is_empty() {
        findings.extend(window::sample_drops(&layout, &samples));
    } else {
        findings.extend(
            window::sample_drops(&layout, &samples)
                .into_iter()
                .filter(|f| f.kind == window::WINDOW_TEMPERATURE),
        );
    }
    if let (Some(b), Some(a)) = (
        m.rpi.as_ref().and_then(|r| r.throttled),
        m_after.rpi.as_ref().and_then(|r| r.throttled),
    ) && (a.raw & !b.raw) & 0xF_000F != 0
    {
        findings.push(Finding {
            kind: "rpi-throttled-in-window".into(),
            severity: Severity::Warning,
            message: format!(
                "The Raspberry Pi firmware reported new throttling during the window (0x{:x} → 0x{:x})",
                b.raw, a.raw
            ),
            evidence: vec![
                "Why it matters: under-voltage or heat made the firmware lower the clock".into(),
            ],
        });
    }
    let after = ::review::review(root, &m_after);
    findings.extend(window::changes(before, &after));

    // A command ended by our own signal did not fail: the window was interrupted.
    let command_failed = signal.is_none() && end.as_deref().is_some_and(|e| !child::succeeded(e));
    let trouble = findings.iter().any(|f| f.severity >= Severity::Warning);
    if args.json {
        println!(
            "{}",
            json!({ "window": {
                "seconds": elapsed,
                "samples": samples.len(),
                "command": cmd,
                "command_ended": end,
                "interrupted_by_signal": signal,
                "tuned": tuned,
                "findings": findings,
            }})
        );
    } else {
        let mut o = String::new();
        o.push_str(&format!(
            "\nWindow: {elapsed:.1} s, {} sample(s){}{}\n",
            samples.len(),
            match (&cmd, &end) {
                (Some(c), Some(e)) => format!(", command `{}` ended: {e}", c.join(" ")),
                _ => String::new(),
            },
            match signal {
                Some(s) => format!(", {}", document::run::interrupted_reason(s)),
                None => String::new(),
            }
        ));
        if findings.is_empty() {
            o.push_str("  no throttling or device changes seen\n");
        }
        for f in &findings {
            text::push_finding(&mut o, f);
        }
        print!("{o}");
    }
    Ok(Window {
        trouble: command_failed || trouble,
        signal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_needs_root_only_on_the_live_system() {
        assert!(refuse_tuning(false, true, false));
        assert!(!refuse_tuning(false, true, true));
        assert!(
            !refuse_tuning(false, false, false),
            "a sysroot tree is writable"
        );
        assert!(!refuse_tuning(true, true, false), "--no-tune never writes");
    }
}
