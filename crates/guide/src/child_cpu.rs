//! Running an external program and measuring the CPU time it used: what `time -v` reports as
//! "Percent of CPU this job got" = (user + system) / elapsed. The child is reaped with wait4,
//! whose rusage covers the child and its own reaped children (`openssl speed -multi` forks),
//! so the figure is the tool's, not the guide's. Output is captured; Ctrl-C (the context's
//! cancel flag) or the time limit end the child.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Runs `cmd` (restricted to `cpus` when given, set in the child before exec), capturing its
/// output; ends it with SIGKILL when `cancelled()` turns true or `limit` passes.
pub fn run(
    cmd: &mut Command,
    cpus: Option<&[u32]>,
    limit: Duration,
    cancelled: &dyn Fn() -> bool,
) -> io::Result<ChildRun> {
    // Its own process group, so ending it also ends the children it forked.
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(cpus) = cpus {
        let cpus = cpus.to_vec();
        // SAFETY: only async-signal-safe calls (sched_setaffinity) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_ZERO(&mut set);
                for &c in &cpus {
                    if (c as usize) < libc::CPU_SETSIZE as usize {
                        libc::CPU_SET(c as usize, &mut set);
                    }
                }
                // A failure (CPU offline) leaves the child unpinned rather than not running.
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
                Ok(())
            });
        }
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
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
    let mut killed = false;
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waiting for our own child; status and ru are valid for writing.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid {
            break;
        }
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if !killed && (cancelled() || start.elapsed() > limit) {
            // SAFETY: signalling our own child's process group (the child is not reaped yet,
            // so the group id cannot have been reused).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = start.elapsed();
    // The child is reaped by wait4; dropping std's handle neither waits nor signals.
    drop(child);
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok(ChildRun {
        stdout,
        stderr,
        wall,
        user: tv(ru.ru_utime),
        system: tv(ru.ru_stime),
        code,
        killed,
    })
}
