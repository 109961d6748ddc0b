//! The full assessment run (`boardbench run`, sbc-bench's default run).
//!
//! [`plan`] decides the phases; [`execute`] runs them in order, each with its own background
//! monitor and ISO timestamps, and collects one [`Phase`] record per phase plus the flat list of
//! measurements. Tuning, the idle gate, snapshots, findings and output are done by the caller
//! (`cmd::run`), so this module only measures.

pub mod invocations;
pub mod phases;
pub mod plan;
pub mod progress;

use std::time::{Duration, Instant};

use adapters::tool::{Runner, SearchPath};
use model::document::Measurement;
use model::machine::MachineInfo;
use model::run::{Phase, PhaseStatus, kind};
use probe::monitor::MonitorConfig;

use crate::cli::Globals;
use crate::restore::Restorer;
use crate::session::{recorder::PhaseMonitor, stamp};
use plan::{Planned, Profile};

/// How the run was asked for, as far as measuring is concerned.
#[derive(Debug, Clone)]
pub struct Settings {
    pub profile: Profile,
    pub max_khz: Option<u64>,
    pub min_khz: Option<u64>,
    /// Walk every cpufreq OPP in the clock check (root, cpufreq, tuning allowed).
    pub opp_walk: bool,
    /// Smallest possible built-in kernel work (tests only: the numbers mean nothing).
    pub tiny: bool,
    /// Pause after each phase (tests use it to interrupt a run mid-way).
    pub pause: Duration,
}

/// Everything a phase needs.
pub struct Env<'a> {
    pub root: &'a probe::Root,
    pub globals: &'a Globals,
    pub machine: &'a MachineInfo,
    pub settings: &'a Settings,
    pub restorer: &'a Restorer,
    pub runner: &'a (dyn Runner + Sync),
    pub search_path: SearchPath,
    pub tools: phases::Tools,
    /// CPUs this process may run on (a fixture machine's CPUs are mapped onto them).
    pub allowed: Vec<u32>,
}

impl Env<'_> {
    /// The CPU of this host that stands in for machine CPU `cpu`: itself when it exists here,
    /// otherwise (a replayed fixture machine with more cores) one of the allowed CPUs.
    pub fn host_cpu(&self, cpu: u32) -> u32 {
        if self.allowed.is_empty() || self.allowed.contains(&cpu) {
            cpu
        } else {
            self.allowed[cpu as usize % self.allowed.len()]
        }
    }
}

/// Runs the planned phases. `on_phase(i, n, planned)` is called before each (progress).
pub fn execute(
    env: &Env<'_>,
    planned: &[Planned],
    on_phase: &mut dyn FnMut(usize, &Planned),
) -> (Vec<Phase>, Vec<Measurement>) {
    let mon_cfg = MonitorConfig::from_machine(env.machine);
    let mut phases = Vec::new();
    let mut measurements: Vec<Measurement> = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        on_phase(i, p);
        let start = stamp::now();
        let t0 = Instant::now();
        let monitor = PhaseMonitor::start(
            &mon_cfg,
            env.root,
            Duration::from_secs_f64(p.monitor_interval_s),
        );
        let outcome = phases::run(env, p, &phases, &measurements);
        let samples =
            if outcome.status == PhaseStatus::Skipped && t0.elapsed() < Duration::from_secs(1) {
                drop(monitor);
                Vec::new()
            } else {
                monitor.finish()
            };
        let end = stamp::now();
        let first = measurements.len();
        measurements.extend(outcome.measurements);
        phases.push(Phase {
            kind: p.kind.to_string(),
            title: p.title.clone(),
            cluster: p.cluster.as_ref().and_then(|c| c.index),
            cpus: p.cpus.clone(),
            threads: p.threads,
            status: outcome.status,
            reason: outcome.reason,
            started: start.iso,
            finished: end.iso,
            started_unix_ms: start.unix_ms,
            finished_unix_ms: end.unix_ms,
            monitor_interval_s: p.monitor_interval_s,
            samples,
            tool_runs: outcome.tool_runs,
            measurements: (first..measurements.len()).collect(),
            clock: outcome.clock,
            membw: outcome.membw,
            memlat: outcome.memlat,
            sha256: outcome.sha256,
        });
        if !env.settings.pause.is_zero() {
            std::thread::sleep(env.settings.pause);
        }
    }
    add_headline_rows(&mut phases, &mut measurements);
    (phases, measurements)
}

/// sbc-bench's two 7-Zip headline figures as rows of their own: `multi` is the average of the
/// finished all-core runs, `single` the best single-threaded cluster (§2.2). They are attached
/// to the last phase of their kind.
pub fn add_headline_rows(phases: &mut [Phase], measurements: &mut Vec<Measurement>) {
    let total = |p: &Phase| -> Option<f64> {
        p.measurements
            .iter()
            .map(|&i| &measurements[i])
            .find(|m| m.suite == "7zip" && m.test == adapters::sevenzip::test_names::TOTAL_RATING)
            .map(|m| m.value)
    };
    let multi: Vec<f64> = phases
        .iter()
        .filter(|p| p.kind == kind::SEVENZIP_MULTI)
        .filter_map(total)
        .collect();
    let single: Vec<f64> = phases
        .iter()
        .filter(|p| p.kind == kind::SEVENZIP_SINGLE)
        .filter_map(total)
        .collect();
    let template = |test: &str, threads: u32, value: f64, spread: Option<f64>| Measurement {
        suite: "7zip".into(),
        test: test.into(),
        variant: None,
        threads,
        cpus: Vec::new(),
        value,
        unit: "MIPS".into(),
        higher_is_better: true,
        spread_pct: spread,
    };
    if !multi.is_empty() {
        let threads = phases
            .iter()
            .rev()
            .find(|p| p.kind == kind::SEVENZIP_MULTI)
            .map_or(1, |p| p.threads);
        let avg = multi.iter().sum::<f64>() / multi.len() as f64;
        measurements.push(template(
            "multi",
            threads,
            avg,
            kernels::stats::stddev_pct(&multi),
        ));
        if let Some(p) = phases
            .iter_mut()
            .rev()
            .find(|p| p.kind == kind::SEVENZIP_MULTI)
        {
            p.measurements.push(measurements.len() - 1);
        }
    }
    add_aes_row(phases, measurements);
    if let Some(best) = kernels::stats::max(&single) {
        measurements.push(template("single", 1, best, None));
        if let Some(p) = phases
            .iter_mut()
            .rev()
            .find(|p| p.kind == kind::SEVENZIP_SINGLE)
        {
            p.measurements.push(measurements.len() - 1);
        }
    }
}

/// sbc-bench's AES figure (§2.2): `aes-256-cbc` with 16 KiB blocks; the average of the two
/// runs on a machine with one cluster, the best cluster otherwise. Attached to the last
/// OpenSSL phase.
fn add_aes_row(phases: &mut [Phase], measurements: &mut Vec<Measurement>) {
    let test = adapters::openssl::test_name("aes-256-cbc", 16384);
    let mut per_cluster: Vec<(Option<usize>, Vec<f64>)> = Vec::new();
    for p in phases.iter().filter(|p| p.kind == kind::OPENSSL) {
        for &i in &p.measurements {
            let m = &measurements[i];
            if m.suite == "openssl" && m.test == test {
                match per_cluster.iter_mut().find(|(c, _)| *c == p.cluster) {
                    Some((_, v)) => v.push(m.value),
                    None => per_cluster.push((p.cluster, vec![m.value])),
                }
            }
        }
    }
    let figure = per_cluster
        .iter()
        .filter_map(|(_, v)| kernels::stats::mean(v))
        .reduce(f64::max);
    if let Some(value) = figure {
        measurements.push(Measurement {
            suite: "openssl".into(),
            test: "aes-256-cbc 16384".into(),
            variant: None,
            threads: 1,
            cpus: Vec::new(),
            value,
            unit: measurements
                .iter()
                .find(|m| m.suite == "openssl" && m.test == test)
                .map_or_else(|| "kB/s".to_string(), |m| m.unit.clone()),
            higher_is_better: true,
            spread_pct: None,
        });
        if let Some(p) = phases.iter_mut().rev().find(|p| p.kind == kind::OPENSSL) {
            p.measurements.push(measurements.len() - 1);
        }
    }
}
