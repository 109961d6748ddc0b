//! Running the external tools the I/O sections drive (fio, iperf3, systemd-analyze, arecord):
//! found on PATH, bounded in time, and ended as soon as the guide is cancelled — so a Ctrl-C
//! during a 60-second fio job ends it within a fraction of a second and the section's cleanup
//! (its file, its namespaces) runs right after. Started and ended by the one child runner,
//! [`adapters::process::Group`]: its own process group; SIGTERM, then SIGKILL after
//! [`GRACE`].

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use adapters::process::Group;

/// How long a tool the guide ends (cancelled, or over its time limit) gets between SIGTERM and
/// SIGKILL: fio and iperf3 end their workers (which run in sessions of their own) and remove
/// nothing of ours on SIGTERM, arecord/aplay close the device.
pub const GRACE: Duration = Duration::from_secs(3);

/// The first executable called `name` on PATH (the one lookup rule:
/// [`adapters::tool::SearchPath`], here without its fallback directories).
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    adapters::tool::SearchPath::new(&path)
        .find_one(name)
        .map(|t| t.path)
}

/// What a finished (or stopped) tool left.
#[derive(Debug, Clone)]
pub struct Ran {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn ok(&self) -> bool {
        self.status == Some(0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// It could not be started at all.
    Spawn(String),
    /// The guide was cancelled; the tool was killed.
    Cancelled,
    /// It ran longer than allowed and was killed.
    TimedOut(Duration),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(e) => write!(f, "could not start: {e}"),
            RunError::Cancelled => write!(f, "cancelled"),
            RunError::TimedOut(d) => write!(f, "did not finish within {} s", d.as_secs()),
        }
    }
}

/// Runs `cmd` to its end, at most `limit`; polls `cancel` every 20 ms and ends the tool
/// (SIGTERM, SIGKILL after [`GRACE`]) when it is set. Output is collected by two reader threads so a chatty tool never blocks.
pub fn run(cmd: &mut Command, limit: Duration, cancel: &AtomicBool) -> Result<Ran, RunError> {
    // Its own process group: tools that fork workers (fio runs each job in a child) are ended
    // as a whole, and a terminal's Ctrl-C reaches only us (we stop the tool ourselves).
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Group::spawn(cmd).map_err(|e| RunError::Spawn(e.to_string()))?;
    let mut out = child.take_stdout().expect("piped");
    let mut err = child.take_stderr().expect("piped");
    let (tx_out, rx_out) = std::sync::mpsc::channel();
    let (tx_err, rx_err) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        let _ = tx_out.send(s);
    });
    std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        let _ = tx_err.send(s);
    });
    let start = Instant::now();
    let mut why = None;
    let outcome = match child.supervise(Duration::from_millis(20), GRACE, || {
        if cancel.load(Ordering::Relaxed) {
            why = Some(RunError::Cancelled);
        } else if start.elapsed() > limit {
            why = Some(RunError::TimedOut(limit));
        }
        why.is_some()
    }) {
        Ok((_, true)) => Err(why.take().expect("set when stopped")),
        Ok((ended, false)) => Ok(ended.status.code()),
        Err(e) => {
            child.end_leftovers();
            Err(RunError::Spawn(e.to_string()))
        }
    };
    // A worker the tool left behind (in a session of its own) may hold the pipes open: the
    // output is waited for briefly, never forever.
    let grace = if outcome.is_ok() {
        limit
    } else {
        Duration::from_secs(2)
    };
    let stdout =
        String::from_utf8_lossy(&rx_out.recv_timeout(grace).unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(
        &rx_err
            .recv_timeout(Duration::from_secs(2))
            .unwrap_or_default(),
    )
    .into_owned();
    outcome.map(|status| Ran {
        status,
        stdout,
        stderr,
    })
}

/// The first line a tool prints for `args` (its version), trimmed; None when it fails.
pub fn version_line(tool: &str, args: &[&str]) -> Option<String> {
    let never = AtomicBool::new(false);
    let ran = run(
        Command::new(tool).args(args),
        Duration::from_secs(10),
        &never,
    )
    .ok()?;
    let text = if ran.stdout.trim().is_empty() {
        ran.stderr
    } else {
        ran.stdout
    };
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}
