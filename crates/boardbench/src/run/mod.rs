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

use crate::session::signals::Stop;
use crate::session::{phase, phase_recorder::PhaseRecorder, stamp};
use document::run::{INTERRUPTED_REASON, STOPPED_REASON, interrupted_reason};

/// Runs the planned phases. `on_phase(i, n, planned)` is called before each (progress).
/// After a signal (`stop`; the running tool has been ended by then) the phase it cut short
/// says so unless it finished anyway, and the phases after it are recorded as not run: what
/// was measured is kept, and the `interrupted` finding says the run is not complete.
pub fn execute(
    env: &BenchContext<'_>,
    planned: &[Planned],
    stop: Option<&Stop>,
    on_phase: &mut dyn FnMut(usize, &Planned),
) -> (Vec<Phase>, Vec<Measurement>) {
    let mon_cfg = SamplerConfig::from_machine(env.machine);
    let mut phases = Vec::new();
    let mut measurements: Vec<Measurement> = Vec::new();
    let signal = || stop.and_then(Stop::signal);
    for (i, p) in planned.iter().enumerate() {
        if let Some(sig) = signal() {
            let now = stamp::now();
            phases.push(Phase {
                cluster: p.cluster.as_ref().and_then(|c| c.index),
                cpus: p.cpus.clone(),
                threads: p.threads,
                status: PhaseStatus::Skipped,
                reason: Some(format!("not run: {INTERRUPTED_REASON} {sig}")),
                ..phase::between(
                    p.kind,
                    p.title.clone(),
                    &now,
                    now.clone(),
                    p.monitor_interval_s,
                )
            });
            continue;
        }
        on_phase(i, p);
        let start = stamp::now();
        let t0 = Instant::now();
        let monitor = PhaseRecorder::start(
            &mon_cfg,
            env.root,
            Duration::from_secs_f64(p.monitor_interval_s),
        );
        let stops = adapters::tool::stops();
        let outcome = benchmarks::run(env, p, &phases, &measurements);
        let samples =
            if outcome.status == PhaseStatus::Skipped && t0.elapsed() < Duration::from_secs(1) {
                drop(monitor);
                Vec::new()
            } else {
                monitor.finish()
            };
        let end = stamp::now();
        let (mut status, mut reason) = (outcome.status, outcome.reason);
        if let Some(sig) = signal()
            && status != PhaseStatus::Done
        {
            status = PhaseStatus::Failed;
            reason = Some(match reason {
                Some(r) => format!("{INTERRUPTED_REASON} {sig} ({r})"),
                None => interrupted_reason(sig),
            });
        }
        // Stopped (Ctrl-Z) while it ran: the tool was stopped with boardbench, but its
        // figures include the pause.
        let stopped = adapters::tool::stops() - stops;
        if stopped > 0 && status != PhaseStatus::Skipped {
            reason = Some(match reason {
                Some(r) => format!("{STOPPED_REASON} {stopped} time(s) ({r})"),
                None => format!("{STOPPED_REASON} {stopped} time(s)"),
            });
        }
        let first = measurements.len();
        measurements.extend(outcome.measurements);
        phases.push(Phase {
            cluster: p.cluster.as_ref().and_then(|c| c.index),
            cpus: p.cpus.clone(),
            threads: p.threads,
            status,
            reason,
            samples,
            tool_runs: outcome.tool_runs,
            measurements: (first..measurements.len()).collect(),
            clock: outcome.clock,
            membw: outcome.membw,
            memlat: outcome.memlat,
            sha256: outcome.sha256,
            ..phase::between(p.kind, p.title.clone(), &start, end, p.monitor_interval_s)
        });
        if !env.settings.pause.is_zero() {
            match stop {
                Some(s) => {
                    s.sleep(env.settings.pause);
                }
                None => std::thread::sleep(env.settings.pause),
            }
        }
    }
    headline::native::add_rows(&mut phases, &mut measurements);
    (phases, measurements)
}
