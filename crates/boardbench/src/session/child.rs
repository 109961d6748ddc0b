//! An external command under the session (`thermal --load CMD`, `env -- CMD …`, `review -- CMD …`): stdin is
//! /dev/null, its output is passed through (when asked) and captured for the document's tool
//! run, and it can be ended when the session is interrupted — by the one kill rule of
//! [`adapters::process::Group`] (its own process group; SIGTERM, then SIGKILL after a grace).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use document::run::ToolRun;

/// Captured output is cut to its last this many bytes (a long Phoronix run prints a lot).
const KEEP: usize = 256 * 1024;

/// How long a command the session ends gets between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_secs(5);

/// Where the command's own output goes besides the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Echo {
    /// Captured only.
    Quiet,
    /// Its stdout to ours, its stderr to ours.
    AsIs,
    /// Both to our stderr (when our stdout is machine-readable, e.g. JSON Lines).
    ToStderr,
}

use adapters::process::Group;

pub struct Running {
    child: Group,
    captured: Arc<Mutex<Vec<u8>>>,
    readers: Vec<JoinHandle<()>>,
    started: Instant,
    pub tool: String,
    pub command: String,
}

fn pump(
    mut from: impl Read + Send + 'static,
    echo_err: Option<bool>,
    buf: Arc<Mutex<Vec<u8>>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        while let Ok(n) = from.read(&mut chunk) {
            if n == 0 {
                break;
            }
            match echo_err {
                Some(true) => {
                    let _ = std::io::stderr().write_all(&chunk[..n]);
                }
                Some(false) => {
                    let mut o = std::io::stdout();
                    let _ = o.write_all(&chunk[..n]);
                    let _ = o.flush();
                }
                None => {}
            }
            let mut b = buf.lock().unwrap_or_else(|p| p.into_inner());
            b.extend_from_slice(&chunk[..n]);
            if b.len() > 2 * KEEP {
                let cut = b.len() - KEEP;
                b.drain(..cut);
            }
        }
    })
}

impl Running {
    /// Starts `cmd` (program and arguments); `echo` says where its output is passed through.
    pub fn start(tool: &str, mut cmd: Command, shown: String, echo: Echo) -> anyhow::Result<Self> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group, so ending it also ends what a `sh -c` started; the signals the
        // session holds blocked (session::signals) are unblocked in it.
        let mut child =
            Group::spawn(&mut cmd).map_err(|e| anyhow::anyhow!("cannot start {shown}: {e}"))?;
        let captured = Arc::new(Mutex::new(Vec::new()));
        let mut readers = Vec::new();
        if let Some(o) = child.take_stdout() {
            let to = match echo {
                Echo::Quiet => None,
                Echo::AsIs => Some(false),
                Echo::ToStderr => Some(true),
            };
            readers.push(pump(o, to, Arc::clone(&captured)));
        }
        if let Some(e) = child.take_stderr() {
            readers.push(pump(
                e,
                (echo != Echo::Quiet).then_some(true),
                Arc::clone(&captured),
            ));
        }
        Ok(Running {
            child,
            captured,
            readers,
            started: Instant::now(),
            tool: tool.into(),
            command: shown,
        })
    }

    /// `Some(end)` once the command has ended.
    pub fn ended(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(e)) => Some(describe(e.status)),
            Ok(None) => None,
            Err(e) => Some(format!("lost ({e})")),
        }
    }

    /// SIGTERM, then SIGKILL after [`GRACE`]; returns how it ended.
    pub fn terminate(&mut self) -> String {
        self.child
            .stop(GRACE)
            .map(|e| describe(e.status))
            .unwrap_or_else(|e| format!("lost ({e})"))
    }

    /// The supervision of every mode's command: waits for its end, looking every `poll`
    /// whether `interrupted()` (a signal ended the session's work; it may wait itself, then
    /// `poll` is zero) — then ends it as [`Running::terminate`] does. Returns how it ended.
    pub fn supervise(&mut self, poll: Duration, interrupted: impl FnMut() -> bool) -> String {
        self.child
            .supervise(poll, GRACE, interrupted)
            .map(|(e, _)| describe(e.status))
            .unwrap_or_else(|e| format!("lost ({e})"))
    }

    /// The tool run for the document (call after it ended). Output still held by a grandchild
    /// that outlived it is not waited for.
    pub fn finish(mut self, end: String) -> ToolRun {
        // Whatever is left of the command's own process group.
        self.child.end_leftovers();
        for r in self.readers.drain(..) {
            let _ = r.join();
        }
        let out = self
            .captured
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let start = out.len().saturating_sub(KEEP);
        ToolRun {
            tool: self.tool.clone(),
            program: self
                .command
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string(),
            version: None,
            comparable_with_sbc_bench: None,
            command: self.command.clone(),
            end,
            output: String::from_utf8_lossy(&out[start..]).into_owned(),
            wall_s: self.started.elapsed().as_secs_f64(),
        }
    }
}

/// Whether [`Running::ended`]'s description means success.
pub fn succeeded(end: &str) -> bool {
    end == "exit 0"
}

fn describe(st: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (st.code(), st.signal()) {
        (Some(c), _) => format!("exit {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => "ended".into(),
    }
}

/// Pins the command (and everything it starts) to `cpus`, like `taskset -c`, by the one rule
/// ([`adapters::tool::pin_command_within`] this process's allowed CPUs): CPUs this process may
/// not use are left out; when none is left the command is not pinned and this says so.
pub fn pin(cmd: &mut Command, cpus: &[u32]) -> bool {
    adapters::tool::pin_command_within(cmd, cpus, &loops::affinity::allowed_cpus())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed_list(cmd: &mut Command) -> String {
        let out = cmd.output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap_or_default()
            .trim()
            .to_string()
    }

    #[test]
    fn pinned_commands_run_on_the_given_cpu_only() {
        let mut c = Command::new("cat");
        c.arg("/proc/self/status");
        assert!(pin(&mut c, &[0]));
        assert_eq!(allowed_list(&mut c), "0");
    }

    #[test]
    fn cpus_this_host_lacks_leave_the_command_unpinned() {
        let mut c = Command::new("cat");
        c.arg("/proc/self/status");
        assert!(!pin(&mut c, &[100_000, 4000]));
        let mut plain = Command::new("cat");
        plain.arg("/proc/self/status");
        assert_eq!(allowed_list(&mut c), allowed_list(&mut plain));
    }
}
