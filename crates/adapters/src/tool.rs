//! Finding an external program and running it: the part every adapter shares.
//!
//! * [`SearchPath`] looks a program up the way a shell would, in a PATH the caller controls, so
//!   tests (and the end-to-end run test) can put stub tools first or hide real ones.
//! * [`Runner`] runs one [`Invocation`]; [`SystemRunner`] is the real one. It pins the child to
//!   CPUs in the child itself (`sched_setaffinity` between fork and exec, no `taskset` needed),
//!   captures stdout/stderr and the wall time, and ends the child's whole process group when a
//!   time limit is reached (cpuminer never ends by itself; a hung tool must not hang the run) —
//!   started and ended by the one child runner, [`crate::process::Group`].
//! * [`Skip`] is what a phase records instead of crashing when a tool is missing or unusable.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::process::{self, Group};

/// Why a phase did not run. Recorded in the result document; never a crash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    /// The tool family ("7-Zip", "OpenSSL", "Stockfish", "cpuminer").
    pub tool: String,
    /// One line for humans, e.g. "none of 7zz, 7z, 7za, 7zr found in PATH".
    pub reason: String,
}

impl Skip {
    pub fn new(tool: &str, reason: impl Into<String>) -> Self {
        Skip {
            tool: tool.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} skipped: {}", self.tool, self.reason)
    }
}

impl std::error::Error for Skip {}

/// An external program found on the search path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// The candidate name that matched ("7zz", "7za", "stockfish" …).
    pub name: String,
    /// Absolute (or as given in PATH) location of the executable.
    pub path: PathBuf,
}

/// Directories to look for programs in, in order.
///
/// [`SearchPath::from_env`] is `$PATH` plus the games directories Debian uses for stockfish
/// (`/usr/games` is not in root's PATH). [`SearchPath::new`] uses exactly the PATH string given
/// and nothing else, so a test with an empty or stub-only PATH sees no real tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchPath {
    dirs: Vec<PathBuf>,
}

/// Searched after `$PATH` by [`SearchPath::from_env`]: Debian and Ubuntu install stockfish here.
pub const FALLBACK_DIRS: &[&str] = &["/usr/games", "/usr/local/games"];

impl SearchPath {
    /// Exactly the directories of a PATH-style string (`a:b:c`). Empty entries are ignored
    /// (a shell would read them as ".", which is never what a benchmark wants).
    pub fn new(path: &OsStr) -> Self {
        let dirs = std::env::split_paths(path)
            .filter(|d| !d.as_os_str().is_empty())
            .collect();
        SearchPath { dirs }
    }

    /// The process's `$PATH` followed by [`FALLBACK_DIRS`].
    pub fn from_env() -> Self {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut sp = SearchPath::new(&path);
        for d in FALLBACK_DIRS {
            let d = PathBuf::from(d);
            if !sp.dirs.contains(&d) {
                sp.dirs.push(d);
            }
        }
        sp
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The PATH string for a child process, so the tool itself finds its helpers the same way.
    pub fn to_os_string(&self) -> OsString {
        std::env::join_paths(&self.dirs).unwrap_or_default()
    }

    /// The first executable named `name` in the search directories.
    pub fn find_one(&self, name: &str) -> Option<Tool> {
        // A name with a slash is a path, as in a shell.
        if name.contains('/') {
            let p = PathBuf::from(name);
            return is_executable(&p).then(|| Tool {
                name: file_name(&p),
                path: p,
            });
        }
        self.dirs.iter().map(|d| d.join(name)).find_map(|p| {
            is_executable(&p).then(|| Tool {
                name: name.to_string(),
                path: p,
            })
        })
    }

    /// Every candidate that exists, in the order of `candidates` (the caller's preference).
    pub fn find_all(&self, candidates: &[&str]) -> Vec<Tool> {
        candidates.iter().filter_map(|c| self.find_one(c)).collect()
    }

    /// The first candidate that exists, or a [`Skip`] naming all of them and the directories.
    pub fn find(&self, family: &str, candidates: &[&str]) -> Result<Tool, Skip> {
        self.find_all(candidates)
            .into_iter()
            .next()
            .ok_or_else(|| not_found(family, candidates, self))
    }
}

pub(crate) fn not_found(family: &str, candidates: &[&str], sp: &SearchPath) -> Skip {
    let dirs: Vec<String> = sp.dirs.iter().map(|d| d.display().to_string()).collect();
    Skip::new(
        family,
        format!(
            "none of {} found in PATH ({})",
            candidates.join(", "),
            if dirs.is_empty() {
                "empty".to_string()
            } else {
                dirs.join(":")
            }
        ),
    )
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn is_executable(p: &Path) -> bool {
    match std::fs::metadata(p) {
        Ok(m) => m.is_file() && m.permissions().mode() & 0o111 != 0,
        Err(_) => false,
    }
}

/// One run of an external program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Written to the child's stdin, which is then closed (Stockfish reads its commands there).
    /// `None`: stdin is /dev/null.
    pub stdin: Option<String>,
    /// CPUs the child (and everything it starts) may run on; empty = not pinned.
    pub cpus: Vec<u32>,
    /// The child's process group is ended after this long. For cpuminer this is the normal end
    /// of the run, so the output gathered until then is still returned.
    pub time_limit: Option<Duration>,
    /// Extra environment variables (e.g. `LC_ALL=C` so numbers use a decimal point).
    pub env: Vec<(String, String)>,
    /// When set, the child's PATH (tools that start helpers look them up the same way).
    pub path: Option<OsString>,
}

impl Invocation {
    pub fn new(tool: &Tool, args: &[&str]) -> Self {
        Invocation {
            program: tool.path.clone(),
            args: args.iter().map(|s| s.to_string()).collect(),
            stdin: None,
            cpus: Vec::new(),
            time_limit: None,
            env: vec![("LC_ALL".into(), "C".into())],
            path: None,
        }
    }

    pub fn stdin(mut self, input: impl Into<String>) -> Self {
        self.stdin = Some(input.into());
        self
    }

    pub fn pinned(mut self, cpus: &[u32]) -> Self {
        self.cpus = cpus.to_vec();
        self
    }

    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    pub fn search_path(mut self, sp: &SearchPath) -> Self {
        self.path = Some(sp.to_os_string());
        self
    }

    /// The command line as a shell user would type it (for logs and the result document).
    pub fn command_line(&self) -> String {
        let mut s = String::new();
        if !self.cpus.is_empty() {
            s.push_str(&format!("taskset -c {} ", format_cpu_list(&self.cpus)));
        }
        s.push_str(&self.program.display().to_string());
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// What a finished (or ended) child left behind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// Exit code when the child exited by itself.
    pub exit_code: Option<i32>,
    /// Signal that ended the child (also set when we ended it at the time limit).
    pub signal: Option<i32>,
    /// The time limit was reached and the child was ended by us.
    pub timed_out: bool,
    /// boardbench was ending (a signal, [`end_running_tools`]) and ended the child itself (not
    /// the kernel's OOM killer, nor the tool by itself).
    #[serde(default)]
    pub ended_by_us: bool,
    pub wall: Duration,
}

impl Output {
    /// Exited by itself with status 0.
    pub fn success(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }

    /// stdout followed by stderr: several tools print their figures on stderr (Stockfish's
    /// bench summary, cpuminer's log lines).
    pub fn combined(&self) -> String {
        let mut s = self.stdout.clone();
        if !s.is_empty() && !s.ends_with('\n') && !self.stderr.is_empty() {
            s.push('\n');
        }
        s.push_str(&self.stderr);
        s
    }

    /// A short description of how the child ended, for skip reasons and logs.
    pub fn describe_end(&self) -> String {
        if self.ended_by_us {
            return match (self.exit_code, self.signal) {
                (Some(c), _) => {
                    format!("ended by boardbench when the run was interrupted (exit status {c})")
                }
                (None, Some(s)) => {
                    format!("ended by boardbench (signal {s}) when the run was interrupted")
                }
                (None, None) => "ended by boardbench when the run was interrupted".to_string(),
            };
        }
        match (self.timed_out, self.exit_code, self.signal) {
            (true, _, _) => format!(
                "ended at the time limit after {:.1} s",
                self.wall.as_secs_f64()
            ),
            (false, Some(c), _) => format!("exit status {c}"),
            (false, None, Some(9)) => "killed (SIGKILL, out of memory?)".to_string(),
            (false, None, Some(s)) => format!("killed by signal {s}"),
            (false, None, None) => "ended without status".to_string(),
        }
    }
}

/// Why a program could not be run at all (not: why it failed; that is in [`Output`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// fork/exec failed (missing file, not executable, bad interpreter).
    Spawn(String),
    /// The CPU list cannot be applied (empty set, CPU number too large, not allowed).
    Affinity(String),
    /// Reading the child's output failed.
    Io(String),
    /// Not started: boardbench is ending (a signal arrived; [`end_running_tools`]).
    Ending,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Spawn(e) => write!(f, "cannot start: {e}"),
            RunError::Affinity(e) => write!(f, "cannot pin: {e}"),
            RunError::Io(e) => write!(f, "cannot read output: {e}"),
            RunError::Ending => write!(f, "not started: the run is ending"),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs invocations. The run uses [`SystemRunner`]; tests can substitute a runner that replays
/// recorded outputs without starting anything.
pub trait Runner {
    fn run(&self, inv: &Invocation) -> Result<Output, RunError>;
}

/// Grace period between SIGTERM and SIGKILL when the time limit is reached, so a tool that
/// flushes its log on SIGTERM (cpuminer) still gets its last lines out.
const KILL_GRACE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(20);

/// Runs real processes.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemRunner;

impl Runner for SystemRunner {
    fn run(&self, inv: &Invocation) -> Result<Output, RunError> {
        run_process(inv)
    }
}

/// The process groups of the tools running now (each tool is started in a group of its own,
/// so a terminal's Ctrl-C does not reach it): [`end_running_tools`] ends them when boardbench
/// itself is ended by a signal, so no `7z b` or `openssl speed` keeps running orphaned.
static RUNNING: std::sync::Mutex<Vec<libc::pid_t>> = std::sync::Mutex::new(Vec::new());

/// Set once by [`end_running_tools`]: from then on no tool is started ([`RunError::Ending`]),
/// so a phase of several invocations (OpenSSL's ciphers) ends with the one that was cut short.
static ENDING: AtomicBool = AtomicBool::new(false);

/// How often boardbench was stopped (SIGTSTP, Ctrl-Z) while tools ran: a phase during which
/// this changed was disturbed ([`stops`]).
static STOPS: AtomicU64 = AtomicU64::new(0);

/// Whether boardbench is ending ([`end_running_tools`] was called).
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// How often boardbench has been stopped by job control (Ctrl-Z) so far, see
/// [`follow_job_control`].
pub fn stops() -> u64 {
    STOPS.load(Ordering::SeqCst)
}

fn running_groups() -> Vec<libc::pid_t> {
    match RUNNING.try_lock() {
        Ok(g) => g.clone(),
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().clone(),
        Err(std::sync::TryLockError::WouldBlock) => {
            std::thread::sleep(Duration::from_millis(20));
            match RUNNING.try_lock() {
                Ok(g) => g.clone(),
                _ => Vec::new(),
            }
        }
    }
}

/// Job control for the tools' process groups, which the terminal does not reach: on SIGTSTP
/// (Ctrl-Z) every running tool is stopped (SIGSTOP to its group) before boardbench stops
/// itself, and on SIGCONT (`fg`, `bg`) they go on with it — a stopped run does not keep a
/// `7z b` using the CPU. Each stop is counted ([`stops`]). Installed once per process.
pub fn follow_job_control() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for (sig, f) in [
            (libc::SIGTSTP, on_tstp as extern "C" fn(libc::c_int)),
            (libc::SIGCONT, on_cont as extern "C" fn(libc::c_int)),
        ] {
            // SAFETY: the handlers only call async-signal-safe functions (kill, raise) and
            // atomics; the groups they signal are in a lock-free array (JOB_GROUPS), never
            // behind a lock.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = f as usize;
                sa.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    });
}

/// The running tools' groups as the signal handlers read them (no lock in a handler): kept
/// in step with [`RUNNING`] by [`RunningGroup`].
static JOB_GROUPS: [std::sync::atomic::AtomicI32; 64] =
    [const { std::sync::atomic::AtomicI32::new(0) }; 64];

fn job_groups_signal(sig: libc::c_int) {
    for g in &JOB_GROUPS {
        let pg = g.load(Ordering::SeqCst);
        if pg > 0 {
            // SAFETY: kill is async-signal-safe; the group is one of our running tools.
            unsafe {
                libc::kill(-pg, sig);
            }
        }
    }
}

extern "C" fn on_tstp(_: libc::c_int) {
    STOPS.fetch_add(1, Ordering::SeqCst);
    job_groups_signal(libc::SIGSTOP);
    // SAFETY: raise is async-signal-safe; SIGSTOP cannot be caught, so this stops us here.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}

extern "C" fn on_cont(_: libc::c_int) {
    job_groups_signal(libc::SIGCONT);
}

/// A tool's group in [`RUNNING`] while its run lasts.
struct RunningGroup(libc::pid_t);

impl RunningGroup {
    fn register(pgid: libc::pid_t) -> RunningGroup {
        RUNNING.lock().unwrap_or_else(|p| p.into_inner()).push(pgid);
        // A 65th concurrent tool is not followed by Ctrl-Z; no run starts that many.
        let _ = JOB_GROUPS.iter().any(|s| {
            s.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        RunningGroup(pgid)
    }
}

impl Drop for RunningGroup {
    fn drop(&mut self) {
        for s in &JOB_GROUPS {
            let _ = s.compare_exchange(self.0, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
        RUNNING
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|g| *g != self.0);
    }
}

/// Ends every running tool and whatever it started: SIGTERM to each group, SIGKILL to what is
/// left after a short grace. For the way out on a signal (the process exits right after; the
/// groups are not unregistered, so their ids cannot be reused meanwhile — the leaders are not
/// reaped). Safe from any thread; never blocks on a lock held by a stuck thread.
pub fn end_running_tools() {
    ENDING.store(true, Ordering::SeqCst);
    let groups = running_groups();
    for &g in &groups {
        process::signal_group(g, libc::SIGTERM);
        // A stopped tool (Ctrl-Z, then a signal) cannot act on SIGTERM until it goes on.
        process::signal_group(g, libc::SIGCONT);
    }
    let end = Instant::now() + Duration::from_millis(500);
    while groups.iter().any(|&g| process::group_alive(g)) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    for &g in groups.iter().filter(|&&g| process::group_alive(g)) {
        process::signal_group(g, libc::SIGKILL);
    }
}

pub use crate::process::unblock_signals_in_child;

fn run_process(inv: &Invocation) -> Result<Output, RunError> {
    if ending() {
        return Err(RunError::Ending);
    }
    // Checked up front because exec failures are not always reported by spawn (glibc's
    // posix_spawn under qemu-user, for one, only lets the child exit with 127).
    if inv.program.components().count() > 1 && !is_executable(&inv.program) {
        return Err(RunError::Spawn(format!(
            "{}: not an executable file",
            inv.program.display()
        )));
    }
    let mut cmd = Command::new(&inv.program);
    cmd.args(&inv.args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if inv.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    for (k, v) in &inv.env {
        cmd.env(k, v);
    }
    if let Some(p) = &inv.path {
        cmd.env("PATH", p);
    }
    if !inv.cpus.is_empty() {
        pin_command(&mut cmd, &inv.cpus)?;
    }
    // A tool never outlives boardbench, not even a `kill -9` of it.
    process::die_with_parent(&mut cmd);

    let start = Instant::now();
    // Its own process group (crate::process): at the time limit we end the tool *and* whatever
    // it started (wrapper scripts like Debian's /usr/bin/7z, stub scripts in tests), and no
    // grandchild keeps our pipes open.
    let mut child = Group::spawn(&mut cmd).map_err(|e| {
        if !inv.cpus.is_empty() && e.raw_os_error() == Some(libc::EINVAL) {
            RunError::Affinity(format!(
                "CPUs {} not available to this process",
                format_cpu_list(&inv.cpus)
            ))
        } else {
            RunError::Spawn(format!("{}: {e}", inv.program.display()))
        }
    })?;
    let _running = RunningGroup::register(child.id());
    if ending() {
        // end_running_tools ran between the check above and the registration.
        process::signal_group(child.id(), libc::SIGKILL);
    }

    let stdin_writer = match (inv.stdin.clone(), child.take_stdin()) {
        (Some(input), Some(mut pipe)) => Some(std::thread::spawn(move || {
            // The tool may exit without reading everything: a broken pipe is not an error.
            let _ = pipe.write_all(input.as_bytes());
        })),
        _ => None,
    };
    let out_reader = spawn_reader(child.take_stdout());
    let err_reader = spawn_reader(child.take_stderr());

    // At the time limit the kill rule: SIGTERM, SIGKILL after a grace in which a tool that
    // flushes its log on SIGTERM (cpuminer) still gets its last lines out.
    let (ended, timed_out) = child
        .supervise(POLL, KILL_GRACE, || {
            inv.time_limit.is_some_and(|limit| start.elapsed() >= limit)
        })
        .map_err(|e| RunError::Io(e.to_string()))?;
    let status = ended.status;
    let wall = start.elapsed();
    // The leader is gone. Whatever it left behind in its group (a stub's `sleep`, a helper
    // that outlived its parent) would keep our pipes open forever: at the time limit it is
    // ended at once, otherwise it gets a grace period to finish writing. While any member
    // lives, the group id cannot be reused, so the signal cannot hit a stranger.
    let grace_end = Instant::now() + KILL_GRACE;
    while !(reader_done(&out_reader) && reader_done(&err_reader)) {
        if timed_out || Instant::now() >= grace_end {
            child.end_leftovers();
            break;
        }
        std::thread::sleep(POLL);
    }
    let stdout = join_reader(out_reader)?;
    let stderr = join_reader(err_reader)?;
    if let Some(w) = stdin_writer {
        let _ = w.join();
    }
    Ok(Output {
        stdout,
        stderr,
        exit_code: status.code(),
        signal: status.signal(),
        timed_out,
        ended_by_us: !timed_out && ending() && status.code() != Some(0),
        wall,
    })
}

type Reader = Option<std::thread::JoinHandle<std::io::Result<Vec<u8>>>>;

fn spawn_reader<R: Read + Send + 'static>(pipe: Option<R>) -> Reader {
    pipe.map(|mut p| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            p.read_to_end(&mut buf)?;
            Ok(buf)
        })
    })
}

fn reader_done(r: &Reader) -> bool {
    r.as_ref().is_none_or(|h| h.is_finished())
}

fn join_reader(r: Reader) -> Result<String, RunError> {
    match r {
        None => Ok(String::new()),
        Some(h) => {
            let bytes = h
                .join()
                .map_err(|_| RunError::Io("reader thread panicked".into()))?
                .map_err(|e| RunError::Io(e.to_string()))?;
            // Tools print locale-dependent bytes now and then; never fail on them.
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
    }
}

/// Pins the command (and everything it starts) to `cpus`, like `taskset -c`: the child sets
/// its affinity between fork and exec. A CPU this process may not use makes the spawn fail with
/// EINVAL.
pub fn pin_command(cmd: &mut Command, cpus: &[u32]) -> Result<(), RunError> {
    let set = cpu_set(cpus)?;
    // SAFETY: the closure runs in the forked child before exec and only calls
    // sched_setaffinity (async-signal-safe) on a set prepared before the fork.
    unsafe {
        cmd.pre_exec(move || {
            let size = std::mem::size_of::<libc::cpu_set_t>();
            if libc::sched_setaffinity(0, size, &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    Ok(())
}

/// [`pin_command`] to those of `cpus` this process may run on (`allowed`, as
/// `loops::affinity::allowed_cpus` reads them): the others (offline, outside the cpuset) are
/// left out; when none is left the command is not pinned. Returns whether it is pinned. The
/// one rule of the commands that run pinned when they can (env's `--per-cluster`, the guide's
/// CPU-time children) rather than not at all.
pub fn pin_command_within(cmd: &mut Command, cpus: &[u32], allowed: &[u32]) -> bool {
    let usable: Vec<u32> = cpus
        .iter()
        .copied()
        .filter(|c| allowed.contains(c))
        .collect();
    !usable.is_empty() && pin_command(cmd, &usable).is_ok()
}

fn cpu_set(cpus: &[u32]) -> Result<libc::cpu_set_t, RunError> {
    // SAFETY: cpu_set_t is a plain bit array; all-zero is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    for &c in cpus {
        if c as usize >= max {
            return Err(RunError::Affinity(format!(
                "CPU {c} is beyond the {max}-CPU set"
            )));
        }
        // SAFETY: the index was checked against the set's size just above.
        unsafe { libc::CPU_SET(c as usize, &mut set) };
    }
    Ok(set)
}

/// Runs a version query of `tool` and parses its combined output with `parse`. Every failure (the
/// program cannot start, or prints no version line) becomes a [`Skip`] that names the program,
/// the reason and how it ended, so a phase can record why it did not run.
pub fn detect_version<V>(
    runner: &dyn Runner,
    tool: &Tool,
    inv: &Invocation,
    family: &str,
    parse: impl FnOnce(&str) -> Result<V, crate::ParseError>,
) -> Result<V, Skip> {
    let out = runner
        .run(inv)
        .map_err(|e| Skip::new(family, format!("{}: {e}", tool.path.display())))?;
    parse(&out.combined()).map_err(|e| {
        Skip::new(
            family,
            format!(
                "{}: {} ({})",
                tool.path.display(),
                e.message,
                out.describe_end()
            ),
        )
    })
}

/// "0-3,6" from `[0, 1, 2, 3, 6]` (taskset's and the kernel's notation; `document::cpus::CpuList`).
pub fn format_cpu_list(cpus: &[u32]) -> String {
    document::cpus::CpuList::new(cpus).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool boardbench ended on its way out is never taken for the OOM killer's victim.
    #[test]
    fn a_tool_boardbench_ended_says_so() {
        let mut o = Output {
            stdout: String::new(),
            stderr: String::new(),
            exit_code: None,
            signal: Some(9),
            timed_out: false,
            ended_by_us: false,
            wall: Duration::from_secs(1),
        };
        assert_eq!(o.describe_end(), "killed (SIGKILL, out of memory?)");
        o.ended_by_us = true;
        assert_eq!(
            o.describe_end(),
            "ended by boardbench (signal 9) when the run was interrupted"
        );
        o.signal = None;
        o.exit_code = Some(255);
        assert_eq!(
            o.describe_end(),
            "ended by boardbench when the run was interrupted (exit status 255)"
        );
    }

    #[test]
    fn cpu_list_notation() {
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(format_cpu_list(&[5]), "5");
        assert_eq!(format_cpu_list(&[3, 1, 2, 8, 9]), "1-3,8-9");
        assert_eq!(format_cpu_list(&[]), "-");
    }

    /// The CPUs a command ran on, as the kernel lists them in its own status.
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
    fn a_child_is_pinned_to_the_allowed_cpus_only_and_else_runs_unpinned() {
        let status = || {
            let mut c = Command::new("cat");
            c.arg("/proc/self/status");
            c
        };
        // The first CPU this process may use.
        // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for this thread.
        let first = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
            (0..libc::CPU_SETSIZE as usize)
                .find(|&i| libc::CPU_ISSET(i, &set))
                .unwrap() as u32
        };
        // That CPU allowed, 100000 not: pinned to it alone.
        let mut c = status();
        assert!(pin_command_within(&mut c, &[first, 100_000], &[first]));
        assert_eq!(allowed_list(&mut c), first.to_string());
        // Nothing left: the child runs as this process would, not refused.
        let mut c = status();
        assert!(!pin_command_within(&mut c, &[100_000, 4000], &[first]));
        assert_eq!(allowed_list(&mut c), allowed_list(&mut status()));
    }

    #[test]
    fn empty_path_entries_are_ignored() {
        let sp = SearchPath::new(OsStr::new("::/bin:"));
        assert_eq!(sp.dirs(), &[PathBuf::from("/bin")]);
        assert!(SearchPath::new(OsStr::new("")).dirs().is_empty());
    }

    #[test]
    fn env_search_path_ends_with_games_dirs() {
        let sp = SearchPath::from_env();
        assert!(sp.dirs().contains(&PathBuf::from("/usr/games")));
    }

    #[test]
    fn command_line_shows_pinning() {
        let tool = Tool {
            name: "7z".into(),
            path: "/usr/bin/7z".into(),
        };
        let inv = Invocation::new(&tool, &["b", "-mmt1"]).pinned(&[2]);
        assert_eq!(inv.command_line(), "taskset -c 2 /usr/bin/7z b -mmt1");
    }

    #[test]
    fn cpu_beyond_set_is_refused() {
        assert!(matches!(cpu_set(&[100_000]), Err(RunError::Affinity(_))));
    }
}
