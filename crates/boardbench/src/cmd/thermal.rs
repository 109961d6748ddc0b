//! `boardbench thermal`: heat the SoC with a sustained all-core load and record what happens
//! (sbc-bench -t / -T, done right).
//!
//! Order: probe → tune (performance governors, devfreq; through the Restorer) → snapshot
//! "before" → optionally wait until the SoC cooled to `--target-temp` (phase `thermal-cool`) →
//! the load (phase `thermal-heat`): one pinned recursive SHA-256 thread per usable CPU (or
//! `--load CMD`), sampled every `--interval` (clocks, temperature, CPU use; the score of each
//! interval) → snapshot "after" → restore → analysis → document, store, text report (a pure
//! function of the document: `textout::thermal`, so a stored run renders it again).
//!
//! The document: the heat phase's monitor samples are the temperature and clock curve; the
//! per-interval score series is the built-in load's output (its tool run: "t_s hashes_per_s"
//! lines — compact, and one measurement per interval would flood the measurement table); the
//! measurements (suite "thermal") are the conclusions: initial and sustained score, score drop,
//! sustained clock per cluster, time to throttling, the temperature then, peak temperature; the
//! verdict beyond them (stability, the first throttled sample, time below the top clock) is
//! `run.thermal`. The rules are in [`engine::thermal`].
//!
//! Unlike sbc-bench, no temperature source is not a reason to abort: the score still shows
//! whether the machine keeps its speed, and the report says there were no readings.
//!
//! Exit code: 0 when the test completed — throttling is a result, not an invalid run; 128 +
//! signal when interrupted (the document of what was recorded so far is still written and
//! everything is restored, see [`crate::session::signals`]); 1 on error.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use document::Measurement;
use document::run::{Phase, PhaseStatus, RunOptions, ToolRun};
use document::samples::MonitorSample;
use document::thermal::{ThermalVerdict, TimeBelowMax};
use probe::sampler::SamplerConfig;

use crate::cli::Globals;
use crate::session::child::{Echo, Running};
use crate::session::lifecycle::{Closed, Record, SessionOptions, Signals};
use crate::session::{ExitStatus, Session, phase, phase_recorder, stamp};
use engine::thermal::ScoreInterval;
use tune::tuning;

/// Standard (-t) and long (-T) durations in seconds.
const STANDARD_S: f64 = 300.0;
const LONG_S: f64 = 900.0;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The long test (sbc-bench -T): 900 s instead of 300 s.
    #[arg(long)]
    pub long: bool,
    /// Seconds of load (default 300, 900 with --long).
    #[arg(long, value_name = "SEC", value_parser = crate::values::positive_seconds)]
    pub duration: Option<f64>,
    /// Seconds between samples (clocks, temperature, score).
    #[arg(long, default_value_t = 2.0, value_name = "SEC", value_parser = crate::values::interval)]
    pub interval: f64,
    /// First wait until the SoC has cooled to this temperature (°C; sbc-bench -t C).
    #[arg(long, value_name = "CELSIUS", value_parser = crate::values::celsius)]
    pub target_temp: Option<f64>,
    /// Give up waiting for --target-temp after this many seconds (the test then starts anyway).
    #[arg(long, default_value_t = 900.0, value_name = "SEC", value_parser = crate::values::seconds)]
    pub cool_timeout: f64,
    /// Heat with this shell command instead of the built-in load (no score then); it is ended
    /// after --duration.
    #[arg(long, value_name = "CMD")]
    pub load: Option<String>,
    /// Leave governors as they are.
    #[arg(long)]
    pub no_tune: bool,
    #[command(flatten)]
    pub out: crate::session::document_out::DocumentArgs,
    /// Also append the text report to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// No live line per sample.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Ceiling of each monitored cluster in MHz: the lower of its top clock and its
/// `scaling_max_freq` as it is during the test.
fn ceilings(root: &probe::Root, cfg: &SamplerConfig) -> Vec<Option<u32>> {
    cfg.layout
        .clusters
        .iter()
        .map(|c| {
            let cap = c.policy.and_then(|p| {
                root.read_value(&format!(
                    "{}/scaling_max_freq",
                    probe::cpufreq::policy_dir(root, p)
                ))
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
            });
            let top = match (c.max_khz, cap) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            top.map(|k| (k / 1000) as u32)
        })
        .collect()
}

/// Everything the steps share.
struct Test<'a> {
    args: &'a Args,
    cfg: SamplerConfig,
    interval: Duration,
    duration: f64,
}

/// What the heat step leaves for the conclusions.
#[derive(Default)]
struct Heat {
    series: Vec<ScoreInterval>,
    samples: Vec<MonitorSample>,
    threads: u32,
    /// The signal that ended the load early.
    signal: Option<i32>,
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    let duration = args
        .duration
        .unwrap_or(if args.long { LONG_S } else { STANDARD_S });
    anyhow::ensure!(
        duration > 0.0 && duration.is_finite(),
        "--duration must be positive"
    );
    anyhow::ensure!(
        args.interval > 0.0 && args.interval.is_finite(),
        "--interval must be positive"
    );
    // The report's log is checked as run's is, before the test (it was found bad only after
    // the whole test had run).
    if let Some(log) = &args.log {
        crate::cmd::run::check_log(log, true)?;
    }
    // Signals first (see session::signals): Ctrl-C must still produce the document.
    let probed = Session::probe(g.root(), Signals::Held);
    // After the signals are held: a thread the database client starts inherits the mask.
    let outputs = args.out.prepare()?;
    let tune = !args.no_tune && probed.may_write();
    let cfg = SamplerConfig::from_machine(&probed.machine);
    if !args.no_tune {
        probed.warn_unless_root("governors stay as they are");
    }
    if cfg.layout.thermal_path.is_none() {
        eprintln!(
            "Note: no temperature source on this machine: the test records clocks and score only."
        );
    }
    let session = match probed.start(&SessionOptions {
        tune: Some(tuning::TuneOptions {
            governors: tune,
            max_khz: None,
            aspm: false,
        }),
        record: true,
        kmsg: true,
        ..SessionOptions::default()
    }) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let t = Test {
        args,
        cfg,
        interval: Duration::from_secs_f64(args.interval.max(0.05)),
        duration,
    };

    let mut phases = Vec::new();
    let mut signal = None;
    if let Some(target) = args.target_temp {
        let (p, s) = cool(&t, &session, target);
        phases.push(p);
        signal = s;
    }
    let ceil = ceilings(&session.root, &t.cfg);
    let mut heated = Heat::default();
    if signal.is_none() {
        let (p, h) = heat(&t, &session)?;
        phases.push(p);
        signal = h.signal;
        heated = h;
    }
    let closed = session.close();
    let c = conclude(&t, &heated, &ceil, &closed);
    if let Some(p) = phases
        .iter_mut()
        .find(|p| p.kind == document::run::kind::THERMAL_HEAT)
    {
        p.measurements = (0..c.measurements.len()).collect();
    }
    let mut document = closed.document(Record {
        comparability: Vec::new(),
        profile: if args.long {
            "thermal-long".into()
        } else {
            "thermal".into()
        },
        options: RunOptions {
            tune,
            invoked_as: "boardbench".into(),
            args: crate::session::recorded_args(),
            ..RunOptions::default()
        },
        monitor: Some(t.cfg.layout.clone()),
        phases,
        measurements: c.measurements.clone(),
        device: args.out.device.clone(),
    });
    if let Some(run) = document.run.as_mut() {
        run.thermal = Some(c.verdict);
    }
    outputs.save(&document)?;

    let r = textout::thermal::report(&document);
    print!("{r}");
    if let Some(log) = &args.log {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)?;
        f.write_all(r.as_bytes())?;
    }
    Ok(ExitStatus::of(signal, true))
}

/// Waits until the SoC cooled to `target` (sbc-bench -t C): phase `thermal-cool`, and the
/// signal that ended the wait early.
fn cool(t: &Test, session: &Session, target: f64) -> (Phase, Option<i32>) {
    let (args, cfg, interval) = (t.args, &t.cfg, t.interval);
    let mut signal = None;
    let start = stamp::now();
    let mut sampler = phase_recorder::sampler(cfg, &session.root);
    let mut samples = Vec::new();
    let t0 = Instant::now();
    let (status, reason) = loop {
        let s = sampler.sample();
        let temp = s.temp_c;
        samples.push(s);
        match temp {
            None => {
                break (
                    PhaseStatus::Skipped,
                    Some("no temperature reading".to_string()),
                );
            }
            Some(t) if t <= target => {
                break (
                    PhaseStatus::Done,
                    Some(format!("{t:.1} °C ≤ {target:.1} °C")),
                );
            }
            Some(t) if t0.elapsed().as_secs_f64() >= args.cool_timeout => {
                break (
                    PhaseStatus::Failed,
                    Some(format!(
                        "still {t:.1} °C after {:.0} s: heating anyway",
                        args.cool_timeout
                    )),
                );
            }
            Some(t) => {
                if !args.quiet {
                    eprintln!("Cooling down: {t:.1} °C, waiting for {target:.1} °C");
                }
            }
        }
        if let Some(sig) = session.wait(interval) {
            signal = Some(sig);
            break (
                PhaseStatus::Failed,
                Some(document::run::interrupted_reason(sig)),
            );
        }
    };
    if let Some(r) = &reason {
        eprintln!("Cooling: {r}");
    }
    let mut p = phase::timed(
        document::run::kind::THERMAL_COOL,
        format!("Cooling to {target:.1} °C"),
        &start,
        args.interval,
    );
    p.status = status;
    p.reason = reason;
    p.samples = samples;
    (p, signal)
}

/// The sustained all-core load (the built-in SHA-256 threads or `--load CMD`), sampled every
/// interval: phase `thermal-heat` and what the conclusions need.
fn heat(t: &Test, session: &Session) -> anyhow::Result<(Phase, Heat)> {
    let (args, cfg, interval, duration) = (t.args, &t.cfg, t.interval, t.duration);
    let mut series: Vec<ScoreInterval> = Vec::new();
    let mut samples: Vec<MonitorSample> = Vec::new();
    let mut tool_runs: Vec<ToolRun> = Vec::new();
    let mut threads = 0u32;
    let mut cpus: Vec<u32> = Vec::new();
    let mut heat_reason = None;
    let mut heat_status = PhaseStatus::Done;
    let mut signal = None;
    let start = stamp::now();
    let mut sampler = phase_recorder::sampler(cfg, &session.root);
    let (mut builtin, mut external) = (None, None);
    match &args.load {
        None => {
            cpus = loops::affinity::allowed_cpus();
            let l = engine::load::heat::Heat::start(&cpus);
            threads = l.threads() as u32;
            builtin = Some(l);
        }
        Some(cmd) => {
            let mut c = std::process::Command::new("sh");
            c.arg("-c").arg(cmd);
            external = Some(Running::start(
                "external load",
                c,
                cmd.clone(),
                Echo::Quiet,
            )?);
        }
    }
    if !args.quiet {
        eprintln!(
            "Heating for {duration:.0} s with {}; a line every {:.1} s:",
            args.load
                .as_deref()
                .map_or(format!("{threads} recursive SHA-256 threads"), |c| format!(
                    "`{c}`"
                )),
            args.interval
        );
    }
    let t0 = Instant::now();
    let mut last = (t0, 0u64);
    let mut next = t0 + interval;
    loop {
        let end_at = t0 + Duration::from_secs_f64(duration);
        let deadline = next.min(end_at);
        let now = Instant::now();
        if let Some(sig) = session.wait(deadline.saturating_duration_since(now)) {
            signal = Some(sig);
            heat_status = PhaseStatus::Failed;
            heat_reason = Some(format!(
                "{} after {:.0} s",
                document::run::interrupted_reason(sig),
                t0.elapsed().as_secs_f64()
            ));
        }
        let s = sampler.sample();
        let now = Instant::now();
        let score = builtin.as_ref().and_then(|l| {
            let h = l.hashes();
            let dt = now.duration_since(last.0).as_secs_f64();
            let per_s = (h.saturating_sub(last.1)) as f64 / dt;
            last = (now, h);
            (dt >= 0.05).then_some(per_s)
        });
        let t = now.duration_since(t0).as_secs_f64();
        if let Some(per_s) = score {
            series.push(ScoreInterval { t_s: t, per_s });
        }
        if !args.quiet {
            eprintln!("{}", textout::thermal::live_line(t, &s, score));
        }
        samples.push(s);
        if signal.is_some() || now >= end_at {
            break;
        }
        if let Some(r) = external.as_mut().and_then(|r| r.ended()) {
            heat_status = PhaseStatus::Failed;
            heat_reason = Some(format!("the load ended early ({r}) after {t:.0} s"));
            break;
        }
        next += interval;
    }
    if let Some(l) = builtin {
        let backend = l.backend;
        l.stop();
        tool_runs.push(ToolRun {
            tool: "built-in load".into(),
            program: "boardbench".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            comparable_with_sbc_bench: Some(false),
            command: format!(
                "recursive SHA-256 ({}) on cpus {}",
                backend.label(),
                loops::affinity::format_cpu_list(&cpus)
            ),
            end: if signal.is_some() {
                "interrupted".into()
            } else {
                "time limit".into()
            },
            output: engine::thermal::series_text(&series),
            wall_s: t0.elapsed().as_secs_f64(),
        });
    }
    if let Some(mut r) = external {
        let end = r.terminate();
        tool_runs.push(r.finish(end));
    }
    let mut p = phase::timed(
        document::run::kind::THERMAL_HEAT,
        format!("Sustained all-core load for {duration:.0} s"),
        &start,
        args.interval,
    );
    p.threads = threads.max(1);
    p.cpus = cpus.clone();
    p.status = heat_status;
    p.reason = heat_reason;
    p.samples = samples.clone();
    p.tool_runs = tool_runs;
    Ok((
        p,
        Heat {
            series,
            samples,
            threads,
            signal,
        },
    ))
}

/// What the test found: the figures (suite "thermal") and the verdict beyond them, both
/// recorded in the document, from which `textout::thermal` writes the report.
struct Conclusions {
    verdict: ThermalVerdict,
    measurements: Vec<Measurement>,
}

fn conclude(t: &Test, h: &Heat, ceil: &[Option<u32>], closed: &Closed) -> Conclusions {
    let policies = |s: &Option<document::run::StateSnapshot>| {
        s.as_ref().map(|s| s.policies.clone()).unwrap_or_default()
    };
    let (before, after) = (policies(&closed.before), policies(&closed.after));
    let verdict = engine::thermal::score_verdict(&h.series);
    let throttle = engine::thermal::first_throttle(&h.samples, ceil);
    let sustained_clocks = engine::thermal::sustained_clocks(&h.samples);
    let below_max = engine::thermal::time_below_max(&before, &after);
    let peak = h
        .samples
        .iter()
        .filter_map(|s| s.temp_c)
        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))));
    let mut measurements: Vec<Measurement> = Vec::new();
    if let Some(v) = verdict.initial {
        measurements.push(measurement(
            "initial score",
            None,
            h.threads,
            v / 1e6,
            "MH/s",
            true,
        ));
    }
    if let Some(v) = verdict.sustained {
        let mut m = measurement("sustained score", None, h.threads, v / 1e6, "MH/s", true);
        m.spread_pct = verdict.sustained_spread_pct;
        measurements.push(m);
    }
    if let Some(v) = verdict.drop_pct {
        measurements.push(measurement("score drop", None, h.threads, v, "%", false));
    }
    for (i, c) in sustained_clocks.iter().enumerate() {
        if let Some(mhz) = c {
            let name = t
                .cfg
                .layout
                .clusters
                .get(i)
                .map(|c| format!("cpu{}", c.first_cpu));
            measurements.push(measurement(
                "sustained clock",
                name,
                h.threads,
                *mhz,
                "MHz",
                true,
            ));
        }
    }
    if let Some(t) = &throttle {
        measurements.push(measurement(
            "time to throttling",
            None,
            h.threads,
            t.after_s,
            "s",
            true,
        ));
        if let Some(c) = t.temp_c {
            measurements.push(measurement(
                "throttling temperature",
                None,
                h.threads,
                c,
                "°C",
                true,
            ));
        }
    }
    if let Some(p) = peak {
        measurements.push(measurement(
            "peak temperature",
            None,
            h.threads,
            p,
            "°C",
            false,
        ));
    }
    Conclusions {
        verdict: ThermalVerdict {
            load_s: t.duration,
            interval_s: t.args.interval,
            external_load: t.args.load.is_some(),
            score_intervals: h.series.len(),
            stability: verdict.stability,
            first_slope_pct_per_min: verdict.first_slope_pct_per_min,
            last_slope_pct_per_min: verdict.last_slope_pct_per_min,
            throttle,
            below_max: below_max
                .into_iter()
                .map(|(policy, seconds)| TimeBelowMax { policy, seconds })
                .collect(),
        },
        measurements,
    }
}

/// A figure of the thermal test (suite "thermal").
fn measurement(
    test: &str,
    variant: Option<String>,
    threads: u32,
    value: f64,
    unit: &str,
    hib: bool,
) -> Measurement {
    Measurement {
        suite: "thermal".into(),
        test: test.into(),
        variant,
        threads,
        cpus: Vec::new(),
        value,
        unit: unit.into(),
        higher_is_better: hib,
        spread_pct: None,
    }
}
