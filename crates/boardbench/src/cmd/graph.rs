//! `boardbench graph`: performance (per watt) sweep over clusters and OPPs (sbc-bench -g).
//!
//! For each group of CPUs (`--cpus`: every cluster by default) and each cpufreq OPP within
//! MinKHz..MaxKHz, highest first, the cluster's policy is capped to the OPP by the one OPP
//! walker (`measure::opp_walk`: performance governor, floor at the lowest clock,
//! `scaling_max_freq` = OPP, settle time; every write through the session's
//! [`ModeWrites`](crate::session::lifecycle::ModeWrites), recorded, undone after each cluster
//! and on exit, error, signal and panic — sbc-bench leaves its userspace governors behind,
//! docs/sbc-bench-compat.md). Then the real clock is measured
//! (`measure::clock_reading`) and the fixed workload ([`workload`]) runs for `--seconds-per-point`,
//! one pinned thread per CPU, while the monitor records temperature and a power source (crate
//! `power`: `--power-cmd`, hwmon, Raspberry Pi 5 PMIC, RAPL) is read. With a power source the
//! idle consumption is measured first, so each point also shows what the load added.
//!
//! Without cpufreq (or without root on the live system) each group gets one point at the clock
//! it runs at. Without a power source the sweep says so and still gives performance per MHz.
//!
//! The result is a result document: `run.profile = "graph"`, one phase of kind
//! [`KIND_POINT`] per (group, OPP) with its clock reading and monitor samples, and the
//! figures as measurements of suite `graph` ("score cpu4-5 @ 2400 MHz", …; the names are
//! `document::row_names::graph`), which the HTML report can chart. The table printed while
//! the sweep runs is `textout::graph`'s, a row per point rendered from its phase and figures,
//! so a stored graph run renders the same table again (`textout::graph::table`).

use std::time::Duration;

use anyhow::Context;
use document::Measurement;
use document::row_names::graph as names;
use document::run::{Phase, PhaseStatus, RunOptions};
use power::PowerSource;
use power::window::{Recorder, WindowStats};

use crate::cli::Globals;
use crate::session::lifecycle::{ModeWrites, Record, SessionOptions, Signals};
use crate::session::phase_recorder::PhaseRecorder;
use crate::session::{ExitStatus, Session, phase, stamp};
use engine::sweep::{self as plan, Group};

/// Phase kind of one sweep point.
pub const KIND_POINT: &str = document::run::kind::GRAPH_POINT;
/// Phase kind of the idle consumption measurement before the sweep.
pub const KIND_IDLE: &str = document::run::kind::GRAPH_IDLE;
/// Measurement suite of the sweep's figures.
pub const SUITE: &str = names::SUITE;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which CPUs: `clusters` (all cores of each cluster together, the default), `cores` (the
    /// first core of each cluster), `all` (both), or a list like 0,4-5 (grouped by cluster).
    #[arg(long, default_value = "clusters", value_name = "LIST",
          value_parser = crate::values::cpu_selection)]
    pub cpus: String,
    /// Skip OPPs below this clock (kHz; sbc-bench's MinKHz).
    #[arg(
        long,
        env = "MinKHz",
        default_value_t = 600_000,
        value_name = "KHZ",
        hide_env = true
    )]
    pub min_khz: u64,
    /// Skip OPPs above this clock (kHz; sbc-bench's MaxKHz).
    #[arg(long, env = "MaxKHz", value_name = "KHZ", hide_env = true)]
    pub max_khz: Option<u64>,
    /// A command that prints the power in watts (smart plug, USB meter …); the first number
    /// of its output counts. Preferred over any built-in source.
    #[arg(long, value_name = "CMD")]
    pub power_cmd: Option<String>,
    /// How long the workload runs at each point.
    #[arg(long, default_value_t = 5.0, value_name = "SEC",
          value_parser = crate::values::positive_seconds)]
    pub seconds_per_point: f64,
    /// How long the idle consumption is measured first (default: --seconds-per-point, at
    /// least 2 s).
    #[arg(long, value_name = "SEC", value_parser = crate::values::seconds)]
    pub idle_seconds: Option<f64>,
    /// Clock measurements per point.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub clock_samples: u32,
    #[command(flatten)]
    pub out: crate::session::document_out::DocumentArgs,
    /// Tests: pause after each point (milliseconds), so a sweep can be interrupted.
    #[arg(long, hide = true, default_value_t = 0)]
    pub pause_ms: u64,
}

/// The power source: `--power-cmd`, else the best one the machine has.
fn choose_power(args: &Args, root: &probe::Root) -> Option<Box<dyn PowerSource>> {
    if let Some(cmd) = &args.power_cmd {
        let mut s = power::command::CommandSource::new(cmd);
        return match s.read() {
            Ok(_) => Some(Box::new(s)),
            Err(e) => {
                eprintln!("Warning: --power-cmd gives no reading ({e})");
                None
            }
        };
    }
    power::detect(root).into_iter().next()
}

/// Collects the document's figures and each phase's indexes into them.
#[derive(Default)]
struct Figures {
    all: Vec<Measurement>,
}

impl Figures {
    fn add(
        &mut self,
        test: String,
        cpus: &[u32],
        value: f64,
        unit: &str,
        higher_is_better: bool,
    ) -> usize {
        self.all.push(Measurement {
            suite: SUITE.into(),
            test,
            variant: None,
            threads: cpus.len().max(1) as u32,
            cpus: cpus.to_vec(),
            value,
            unit: unit.into(),
            higher_is_better,
            spread_pct: None,
        });
        self.all.len() - 1
    }
}

/// Everything the sweep shares.
struct Sweep<'a> {
    args: &'a Args,
    root: &'a probe::Root,
    machine: &'a document::machine::MachineInfo,
    /// The OPP caps go through the session: recorded, restored after each cluster.
    writes: &'a mut ModeWrites,
    mon_cfg: probe::sampler::SamplerConfig,
    allowed: Vec<u32>,
    power: Option<Box<dyn PowerSource>>,
    idle_watts: Option<f64>,
    phases: Vec<Phase>,
    figures: Figures,
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    if !(args.seconds_per_point > 0.0 && args.seconds_per_point.is_finite()) {
        return Err(crate::output::Usage("--seconds-per-point must be above 0".into()).into());
    }
    if args.clock_samples == 0 {
        return Err(crate::output::Usage("--clock-samples must be at least 1".into()).into());
    }
    tune::restorer::on_signal(adapters::tool::end_running_tools);
    let probed = Session::probe(g.root(), Signals::Restore);
    let outputs = args.out.prepare()?;
    let may_write = probed.may_write();
    let (root, machine) = (&probed.root, &probed.machine);
    let groups = plan::groups(machine, &plan::parse_selection(&args.cpus)?);
    if groups.is_empty() {
        anyhow::bail!(
            "--cpus {}: no online CPU of this machine selected",
            args.cpus
        );
    }
    let power = choose_power(args, root);
    match &power {
        Some(p) => println!("Power: {} — {}", p.describe(), p.kind().scope()),
        None => println!(
            "No power reading: performance per MHz only; give --power-cmd CMD (a command that \
             prints watts, e.g. from a smart plug) to measure consumption."
        ),
    }
    if machine.policies.is_empty() {
        println!("No cpufreq support: one point per cluster at the clock it runs at.");
    } else {
        // The one root warning (stderr, the real machine only: a --sysroot tree is writable).
        probed
            .warn_unless_root("the OPPs cannot be set; one point per cluster at its current clock");
    }

    let mut session = match probed.start(&SessionOptions {
        record: true,
        ..SessionOptions::default()
    }) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let mut sw = Sweep {
        args,
        root: &session.root,
        machine: &session.machine,
        writes: &mut session.writes,
        mon_cfg: probe::sampler::SamplerConfig::from_machine(&session.machine),
        allowed: loops::affinity::allowed_cpus(),
        power,
        idle_watts: None,
        phases: Vec::new(),
        figures: Figures::default(),
    };
    if sw.power.is_some() {
        sw.idle();
    }
    println!("{}", textout::graph::header());
    let walk = plan::walk_options(args.min_khz, args.max_khz);
    for g in &groups {
        let host = match sw.host_cpus(g) {
            Ok(h) => h,
            Err(e) => {
                println!("{}: skipped ({e})", g.cpu_text());
                continue;
            }
        };
        let opps = match &g.policy {
            Some(p) if may_write => measure::opp_walk::opps(p, &walk),
            _ => Vec::new(),
        };
        if g.policy.is_some() && may_write && opps.is_empty() {
            println!("{}: no OPP between MinKHz and MaxKHz", g.cpu_text());
            continue;
        }
        match (&g.policy, opps.is_empty()) {
            (Some(p), false) => {
                let root = sw.root;
                measure::opp_walk::walk(root, p, host[0], &walk, &mut sw, |sw, opp| {
                    sw.point(g, &host, Some(opp))
                })?;
                sw.restore_now()?;
            }
            _ => sw.point(g, &host, None)?,
        }
    }
    sw.restore_now()?;
    let (phases, figures, layout) = (
        std::mem::take(&mut sw.phases),
        std::mem::take(&mut sw.figures.all),
        sw.mon_cfg.layout.clone(),
    );
    drop(sw);
    let closed = session.close();

    let doc = closed.document(Record {
        comparability: Vec::new(),
        profile: "graph".into(),
        options: RunOptions {
            // Not the run's tuning: governors change per cluster during its own points only
            // (each write is in `settings`), and the snapshots around the sweep see them
            // restored — `tune: true` would make the findings report a missing tuning.
            tune: false,
            max_khz: args.max_khz,
            min_khz: Some(args.min_khz),
            invoked_as: "boardbench".into(),
            args: crate::session::recorded_args(),
            ..Default::default()
        },
        monitor: Some(layout),
        phases,
        measurements: figures,
        device: args.out.device.clone(),
    });
    for f in &doc.findings {
        println!("  {}", document::text::finding_line(f));
    }
    outputs.save(&doc)?;
    Ok(ExitStatus::judged(&doc))
}

/// The OPP walk writes through the sweep, so each change is restored and recorded.
impl measure::opp_walk::PolicyWriter for Sweep<'_> {
    fn write_value(&mut self, abs: &str, value: &str) -> Result<(), String> {
        self.write(abs, value).map_err(|e| format!("{e:#}"))
    }
}

impl Sweep<'_> {
    /// The CPUs of this host that run the group's threads: the same CPUs on the live system
    /// (refused when not allowed), a replayed fixture machine's CPUs mapped onto this host's.
    fn host_cpus(&self, g: &Group) -> anyhow::Result<Vec<u32>> {
        if self.allowed.is_empty() {
            anyhow::bail!("no CPU allowed for this process");
        }
        if self.root.is_host() {
            if let Some(c) = g.cpus.iter().find(|c| !self.allowed.contains(c)) {
                anyhow::bail!("cpu{c} is not allowed for this process");
            }
            return Ok(g.cpus.clone());
        }
        Ok(g.cpus
            .iter()
            .map(|&c| {
                if self.allowed.contains(&c) {
                    c
                } else {
                    self.allowed[c as usize % self.allowed.len()]
                }
            })
            .collect())
    }

    /// Writes through the session (restored and recorded there).
    fn write(&mut self, abs: &str, value: &str) -> anyhow::Result<()> {
        self.writes
            .write(abs, value)
            .with_context(|| format!("setting {abs} (the sweep needs root)"))
    }

    /// Puts every changed file back now (after each cluster: the next one runs on a machine as
    /// found); the session reads the values back into its record.
    fn restore_now(&mut self) -> anyhow::Result<()> {
        let failed = self.writes.restore();
        if !failed.is_empty() {
            anyhow::bail!("could not restore {}", failed.join(", "));
        }
        Ok(())
    }

    fn power_interval(&self, secs: f64) -> Duration {
        Duration::from_secs_f64((secs / 10.0).clamp(0.05, 1.0))
    }

    /// Reads the power source over `secs` while `work` runs (or idles), keeping the source.
    fn measure_power<R>(
        &mut self,
        secs: f64,
        work: impl FnOnce() -> R,
    ) -> (R, Option<WindowStats>) {
        let interval = self.power_interval(secs);
        let rec = self.power.take().map(|p| Recorder::start(p, interval));
        let r = work();
        let summary = rec.and_then(Recorder::finish).map(|(p, s)| {
            self.power = Some(p);
            s
        });
        (r, summary)
    }

    /// The idle consumption before the sweep (governors as found).
    fn idle(&mut self) {
        let secs = self
            .args
            .idle_seconds
            .unwrap_or(self.args.seconds_per_point.max(2.0))
            .max(0.1);
        println!("Measuring idle consumption for {secs:.1} s …");
        let start = stamp::now();
        let monitor = PhaseRecorder::start(
            &self.mon_cfg,
            self.root,
            self.power_interval(secs).max(Duration::from_millis(200)),
        );
        let ((), summary) =
            self.measure_power(secs, || std::thread::sleep(Duration::from_secs_f64(secs)));
        let samples = monitor.finish();
        let end = stamp::now();
        let temp = mean_temp(&samples);
        let mut idx = Vec::new();
        self.idle_watts = summary.as_ref().and_then(|s| s.watts);
        if let Some(w) = self.idle_watts {
            idx.push(
                self.figures
                    .add(names::IDLE_WATTS.into(), &[], w, "W", false),
            );
            self.figures.all[*idx.last().unwrap()].variant =
                self.power.as_ref().map(|s| s.describe());
        }
        if let Some(t) = temp {
            idx.push(
                self.figures
                    .add(names::IDLE_TEMPERATURE.into(), &[], t, "°C", false),
            );
        }
        let idle = Phase {
            threads: 0,
            status: if self.idle_watts.is_some() {
                PhaseStatus::Done
            } else {
                PhaseStatus::Failed
            },
            reason: self
                .idle_watts
                .is_none()
                .then(|| power_problem(summary.as_ref())),
            samples,
            measurements: idx,
            ..phase::between(
                KIND_IDLE,
                "idle consumption".into(),
                &start,
                end,
                self.power_interval(secs).as_secs_f64(),
            )
        };
        // The line as the stored document renders it (`textout::graph::idle_line`).
        println!("{}", textout::graph::idle_line(&idle, &self.figures.all));
        self.phases.push(idle);
    }

    /// One point: clock, then the workload under the power reader and the monitor.
    fn point(&mut self, g: &Group, host: &[u32], opp: Option<u64>) -> anyhow::Result<()> {
        let secs = self.args.seconds_per_point;
        let at = names::at(opp);
        let cpu_text = g.cpu_text();
        let title = match &g.core_name {
            Some(n) => format!("{cpu_text} ({n}) @ {at}"),
            None => format!("{cpu_text} @ {at}"),
        };
        let start = stamp::now();
        let interval = Duration::from_secs_f64((secs / 5.0).clamp(0.05, 1.0));
        let monitor = PhaseRecorder::start(&self.mon_cfg, self.root, interval);
        // The cap as the kernel holds it: on real hardware it may round or refuse a value.
        let cap_now = g.policy.as_ref().and_then(|p| {
            let d = probe::cpufreq::policy_dir(self.root, p.policy);
            self.root.read_u64(&format!("{d}/scaling_max_freq")).ok()
        });
        let policy = g.policy.as_ref().map(|p| p.policy);
        // The walk has let the clock settle at the cap (measure::opp_walk).
        let clock = measure::clock_reading::reading(
            measure::clock_reading::Target {
                cpu: host[0],
                policy,
                opp_khz: opp,
            },
            &measure::clock_reading::ReadingOptions::samples(self.args.clock_samples),
        )?;
        let (score, summary) = self.measure_power(secs, || {
            engine::load::point::run(host, Duration::from_secs_f64(secs))
        });
        let score = score?;
        let samples = monitor.finish();
        let end = stamp::now();

        let temp_c = mean_temp(&samples);
        let watts = summary.as_ref().and_then(|s| s.watts);
        let watts_above_idle = watts.zip(self.idle_watts).map(|(w, i)| w - i);
        let name = |what: &str| names::point_test(what, &cpu_text, opp);
        let f = &mut self.figures;
        let mut idx = vec![f.add(name(names::SCORE), &g.cpus, score.khs, "kH/s", true)];
        f.all[idx[0]].variant = Some(format!("sha256 {}", engine::load::point::BACKEND.label()));
        f.all[idx[0]].spread_pct = score.spread_pct;
        idx.push(f.add(name(names::CLOCK), &g.cpus, clock.mhz, "MHz", true));
        // kH/s per measured MHz; per W = thousands of hashes per joule.
        if clock.mhz > 0.0 {
            let v = score.khs / clock.mhz;
            idx.push(f.add(name(names::SCORE_PER_MHZ), &g.cpus, v, "kH/s/MHz", true));
        }
        if let Some(t) = temp_c {
            idx.push(f.add(name(names::TEMPERATURE), &g.cpus, t, "°C", false));
        }
        let source = self.power.as_ref().map(|s| s.describe());
        if let Some(w) = watts {
            idx.push(f.add(name(names::WATTS), &g.cpus, w, "W", false));
            f.all[*idx.last().unwrap()].variant = source.clone();
        }
        if let Some(w) = watts_above_idle {
            idx.push(f.add(name(names::WATTS_ABOVE_IDLE), &g.cpus, w, "W", false));
            f.all[*idx.last().unwrap()].variant = source;
        }
        if let Some(w) = watts.filter(|&w| w > 0.0) {
            let v = score.khs / w;
            idx.push(f.add(name(names::SCORE_PER_WATT), &g.cpus, v, "kH/J", true));
        }
        let mut reasons = Vec::new();
        if let (Some(o), Some(c)) = (opp, cap_now)
            && o != c
        {
            reasons.push(format!("scaling_max_freq read back as {c} kHz, not {o}"));
        }
        if self.power.is_some() && watts.is_none() {
            reasons.push(format!(
                "no power reading: {}",
                power_problem(summary.as_ref())
            ));
        }
        let point = Phase {
            cluster: Some(g.cluster),
            cpus: g.cpus.clone(),
            threads: g.cpus.len() as u32,
            reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
            samples,
            measurements: idx,
            clock: vec![clock],
            ..phase::between(KIND_POINT, title, &start, end, interval.as_secs_f64())
        };
        // The row as the stored document renders it (`textout::graph::table`).
        println!(
            "{}",
            textout::graph::point_row(&point, Some(self.machine), &self.figures.all)
        );
        self.phases.push(point);
        if self.args.pause_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.args.pause_ms));
        }
        Ok(())
    }
}

fn mean_temp(samples: &[document::samples::MonitorSample]) -> Option<f64> {
    let t: Vec<f64> = samples.iter().filter_map(|s| s.temp_c).collect();
    loops::stats::mean(&t)
}

fn power_problem(s: Option<&WindowStats>) -> String {
    match s {
        None => "the power reader stopped".into(),
        Some(s) if s.errors.is_empty() => {
            format!("{} reading(s), too few for an average", s.readings)
        }
        Some(s) => s.errors.join("; "),
    }
}
