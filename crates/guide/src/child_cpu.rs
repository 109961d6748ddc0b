//! Running an external program and measuring the CPU time it used: what `time -v` reports as
//! "Percent of CPU this job got" = (user + system) / elapsed. The child is reaped with wait4,
//! whose rusage covers the child and its own reaped children (`openssl speed -multi` forks),
//! so the figure is the tool's, not the guide's (the one child runner,
//! [`adapters::process::Group`], reaps that way). Output is captured; Ctrl-C (the context's
//! cancel flag) or the time limit end the child by the runner's kill rule (SIGTERM to its
//! process group, SIGKILL after [`crate::exec::GRACE`]).

use std::io::{self, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use adapters::process::Group;

/// What one run of a program gave.
#[derive(Debug, Clone, Default)]
pub struct ChildRun {
    pub stdout: String,
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// User and system CPU time of the child (and the children it waited for).
    pub user: Duration,
    pub system: Duration,
    /// Exit code; None when a signal ended it.
    pub code: Option<i32>,
    /// Ended by us (cancelled or over the time limit).
    pub killed: bool,
}

impl ChildRun {
    /// (user + system) / wall in percent; above 100 % when several CPUs worked.
    pub fn cpu_load_pct(&self) -> f64 {
        cpu_load_pct(self.user + self.system, self.wall)
    }
}

/// CPU time over wall time in percent (0 for no wall time).
pub fn cpu_load_pct(cpu: Duration, wall: Duration) -> f64 {
    if wall.is_zero() {
        return 0.0;
    }
    cpu.as_secs_f64() / wall.as_secs_f64() * 100.0
}

/// Runs `cmd` (restricted to `cpus` when given, set in the child before exec), capturing its
/// output; ends it when `cancelled()` turns true or `limit` passes.
pub fn run(
    cmd: &mut Command,
    cpus: Option<&[u32]>,
    limit: Duration,
    cancelled: &dyn Fn() -> bool,
) -> io::Result<ChildRun> {
    // Its own process group (Group::spawn), so ending it also ends the children it forked.
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(cpus) = cpus {
        // The one rule of pinning a child: CPUs this process may not use (offline, outside
        // the cpuset) are left out; with none left the child runs unpinned rather than not at all.
        adapters::tool::pin_command_within(cmd, cpus, &loops::affinity::allowed_cpus());
    }
    let start = Instant::now();
    let mut child = Group::spawn(cmd)?;
    let mut out = child.take_stdout().expect("piped");
    let mut err = child.take_stderr().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let (ended, killed) = child.supervise(Duration::from_millis(10), crate::exec::GRACE, || {
        cancelled() || start.elapsed() > limit
    })?;
    let wall = start.elapsed();
    if killed {
        // What it started and left behind would hold the pipes open.
        child.end_leftovers();
    }
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    Ok(ChildRun {
        stdout,
        stderr,
        wall,
        user: ended.user,
        system: ended.system,
        code: ended.status.code(),
        killed,
    })
}
