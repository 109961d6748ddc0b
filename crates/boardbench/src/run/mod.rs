//! The full assessment run (`boardbench run`, sbc-bench's default run; review's baseline).
//!
//! The engine (crate `engine`) plans the phases and measures each; [`execute`] runs them in
//! order, each with its own background monitor and ISO timestamps, and collects one [`Phase`]
//! record per phase plus the flat list of measurements. The session (idle gate, tuning,
//! snapshots, document: `session::lifecycle`) and the outputs belong to the caller.

pub mod progress;

use std::time::{Duration, Instant};

use document::Measurement;
use document::run::{Phase, PhaseStatus};
use engine::BenchContext;
use engine::benchmarks;
use engine::plan::Planned;
use probe::sampler::SamplerConfig;

use crate::session::{phase_recorder::PhaseRecorder, stamp};

/// Runs the planned phases. `on_phase(i, n, planned)` is called before each (progress).
pub fn execute(
    env: &BenchContext<'_>,
    planned: &[Planned],
    on_phase: &mut dyn FnMut(usize, &Planned),
) -> (Vec<Phase>, Vec<Measurement>) {
    let mon_cfg = SamplerConfig::from_machine(env.machine);
    let mut phases = Vec::new();
    let mut measurements: Vec<Measurement> = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        on_phase(i, p);
        let start = stamp::now();
        let t0 = Instant::now();
        let monitor = PhaseRecorder::start(
            &mon_cfg,
            env.root,
            Duration::from_secs_f64(p.monitor_interval_s),
        );
        let outcome = benchmarks::run(env, p, &phases, &measurements);
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
    headline::native::add_rows(&mut phases, &mut measurements);
    (phases, measurements)
}
