//! The run engine: sbc-bench's procedure as data and phase functions, so every mode that runs
//! benchmarks (`run`, review's baseline) and every load (`thermal`'s heat, `graph`'s points)
//! uses one implementation, testable without spawning the binary.
//!
//! - [`plan`]: which phases a run has, in sbc-bench's order, per cluster, with the profiles.
//! - [`invocations`]: which tool invocation each profile runs, the 7-Zip agreement rule.
//! - [`benchmarks`]: the function of each phase kind (clock with the OPP walk, memory, SHA-256,
//!   OpenSSL, 7-Zip, Stockfish, cpuminer): an [`benchmarks::Outcome`], never printed.
//! - [`load`]: the pinned SHA-256 threads — `thermal`'s heat (counting until stopped) and
//!   `graph`'s fixed workload of a point (per-thread rates for a fixed time).
//! - [`opp_writer`]: the OPP walk's writes through the session's [`tune::Restorer`].
//! - [`sweep`]: what a `graph` sweep visits — CPU groups per cluster from `--cpus`, the OPPs to
//!   cap each to — pure functions of the machine snapshot.
//! - [`thermal`]: what a thermal test's series say — first throttling, sustained clocks and
//!   score, whether the score settled — as pure functions (the verdict `thermal` stores).
//!
//! The session (idle gate, tuning, snapshots, monitor, timestamps, document) belongs to the
//! caller: the binary's `run::execute` wraps each phase with its monitor and timestamps.

pub mod benchmarks;
pub mod invocations;
pub mod load;
pub mod opp_writer;
pub mod plan;
pub mod sweep;
pub mod thermal;

use std::time::Duration;

use adapters::tool::{Runner, SearchPath};
use document::machine::MachineInfo;
use plan::Profile;
use tune::Restorer;

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
pub struct BenchContext<'a> {
    pub root: &'a probe::Root,
    pub machine: &'a MachineInfo,
    pub settings: &'a Settings,
    pub restorer: &'a Restorer,
    pub runner: &'a (dyn Runner + Sync),
    pub search_path: SearchPath,
    pub tools: benchmarks::Tools,
    /// CPUs this process may run on (a fixture machine's CPUs are mapped onto them).
    pub allowed: Vec<u32>,
}

impl BenchContext<'_> {
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
