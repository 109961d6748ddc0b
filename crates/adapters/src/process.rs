//! The one child runner: a program started in a process group of its own, waited for, and
//! ended by the one kill rule.
//!
//! Every external program boardbench starts goes through [`Group`]: the run's tools
//! ([`crate::tool::SystemRunner`]), a mode's command (`env -- CMD`, `review -- CMD`, `thermal
//! --load CMD`: the binary's `session::child`), and the guide's tools (fio, iperf3,
//! systemd-analyze, `openssl speed`, CoreMark …, arecord/aplay). Each caller keeps its own
//! time limit, cancel flag and output capture (it takes the pipes with [`Group::take_stdin`]
//! and the like); what they share is here:
//!
//! * **Its own process group** ([`Group::spawn`]): ending the program also ends what it
//!   started (a `sh -c` line, Debian's `/usr/bin/7z` wrapper, fio's job processes), no
//!   grandchild keeps our pipes open, and a terminal's Ctrl-C reaches only boardbench, which
//!   ends the program itself. SIGINT/SIGTERM/SIGHUP/SIGQUIT are unblocked in the child (a session holds
//!   them blocked, and a blocked mask survives exec).
//! * **The kill rule** ([`Group::stop`]): SIGTERM to the child and its group, SIGKILL to both
//!   after a grace period — so a tool that cleans up or flushes its log on SIGTERM (fio,
//!   iperf3, cpuminer, arecord) gets to, and one that ignores it still ends. The child itself is
//!   signalled besides its group: one stuck between fork and exec (qemu-user deadlocks there
//!   now and then) has not joined its group yet.
//! * **Reaping with wait4** ([`Group::try_wait`], [`Group::wait`]): the [`Ended`] status carries
//!   the child's CPU time (its own and that of the children it waited for), which the guide's
//!   CPU-load column reports.

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::time::{Duration, Instant};

/// How often [`Group::stop`] looks whether the child has ended.
const POLL: Duration = Duration::from_millis(10);

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    pub status: ExitStatus,
    /// User CPU time of the child and of the children it waited for.
    pub user: Duration,
    /// System CPU time, likewise.
    pub system: Duration,
}

/// A started child, leader of its own process group, not yet (or just) reaped.
///
/// Dropping it neither waits nor signals (as with [`std::process::Child`]): a caller ends it
/// with [`Group::stop`] or waits for it.
#[derive(Debug)]
pub struct Group {
    /// Holds the pipes; never waited for or killed through std (the child is reaped here, with
    /// wait4, so std's handle must not signal a pid that may have been reused).
    child: std::process::Child,
    pid: libc::pid_t,
    ended: Option<Ended>,
}

impl Group {
    /// Starts `cmd` (its stdio as the caller set it) as the leader of a new process group.
    /// A program file still open for writing somewhere ("Text file busy") is tried again for
    /// a moment.
    pub fn spawn(cmd: &mut Command) -> io::Result<Group> {
        cmd.process_group(0);
        unblock_signals_in_child(cmd);
        let child = spawn_when_not_busy(cmd)?;
        let pid = child.id() as libc::pid_t;
        Ok(Group {
            child,
            pid,
            ended: None,
        })
    }

    /// The child's pid, which is also its process group's id.
    pub fn id(&self) -> libc::pid_t {
        self.pid
    }

    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr.take()
    }

    /// `Some` once the child has ended (it is reaped then); never blocks.
    pub fn try_wait(&mut self) -> io::Result<Option<Ended>> {
        self.reap(libc::WNOHANG)
    }

    /// Waits until the child has ended.
    pub fn wait(&mut self) -> io::Result<Ended> {
        loop {
            if let Some(e) = self.reap(0)? {
                return Ok(e);
            }
        }
    }

    /// The kill rule: SIGTERM to the child and its group, SIGKILL to both when it has not ended
    /// after `grace`; returns how it ended. A child that already ended is only reaped.
    pub fn stop(&mut self, grace: Duration) -> io::Result<Ended> {
        if let Some(e) = self.try_wait()? {
            return Ok(e);
        }
        self.signal(libc::SIGTERM);
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Some(e) = self.try_wait()? {
                return Ok(e);
            }
            std::thread::sleep(POLL);
        }
        self.signal(libc::SIGKILL);
        self.wait()
    }

    /// Waits for the child, polling every `poll`; when `stop_now()` says so first, ends it by
    /// the kill rule ([`Group::stop`] with `grace`). Returns how it ended and whether it was
    /// stopped by us. `stop_now` may itself wait (then `poll` can be zero).
    pub fn supervise(
        &mut self,
        poll: Duration,
        grace: Duration,
        mut stop_now: impl FnMut() -> bool,
    ) -> io::Result<(Ended, bool)> {
        loop {
            if let Some(e) = self.try_wait()? {
                return Ok((e, false));
            }
            if stop_now() {
                return self.stop(grace).map(|e| (e, true));
            }
            if !poll.is_zero() {
                std::thread::sleep(poll);
            }
        }
    }

    /// SIGKILL to whatever is left in the child's process group once the child itself has
    /// ended (a helper that outlived it would hold our pipes open). While a member lives, the
    /// group's id cannot be reused, so the signal cannot reach a stranger.
    pub fn end_leftovers(&self) {
        signal_group(self.pid, libc::SIGKILL);
    }

    /// `sig` to the child and its group; to the group only once the child is reaped (its pid
    /// may be reused then).
    fn signal(&self, sig: libc::c_int) {
        if self.ended.is_none() {
            // SAFETY: plain syscall on our own unreaped child.
            unsafe {
                libc::kill(self.pid, sig);
            }
        }
        signal_group(self.pid, sig);
    }

    fn reap(&mut self, flags: libc::c_int) -> io::Result<Option<Ended>> {
        if let Some(e) = self.ended {
            return Ok(Some(e));
        }
        let mut status = 0;
        // SAFETY: rusage is plain data, filled by wait4.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waiting for our own child; status and ru are valid for writing.
            let r = unsafe { libc::wait4(self.pid, &mut status, flags, &mut ru) };
            if r == self.pid {
                let e = Ended {
                    status: ExitStatus::from_raw(status),
                    user: duration(ru.ru_utime),
                    system: duration(ru.ru_stime),
                };
                self.ended = Some(e);
                return Ok(Some(e));
            }
            if r == 0 {
                return Ok(None);
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

fn duration(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// `sig` to every member of process group `pgid`; a group that is gone gives ESRCH, ignored.
pub fn signal_group(pgid: libc::pid_t, sig: libc::c_int) {
    // SAFETY: plain syscall; no memory involved.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// Whether process group `pgid` still has a member.
pub fn group_alive(pgid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the group still has a member.
    unsafe { libc::kill(-pgid, 0) == 0 }
}

/// A mode that holds SIGINT/SIGTERM/SIGHUP (blocked, taken on a thread of its own) would pass
/// the blocked mask on through exec: the command could then not be ended by them. This
/// unblocks them in the child between fork and exec.
pub fn unblock_signals_in_child(cmd: &mut Command) {
    // SAFETY: only async-signal-safe calls (sigemptyset, sigaddset, sigprocmask) between fork
    // and exec.
    unsafe {
        cmd.pre_exec(|| {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
                libc::sigaddset(&mut set, s);
            }
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            Ok(())
        });
    }
}

/// The child gets SIGKILL when the thread that started it ends — with boardbench, even by
/// `kill -9` (PR_SET_PDEATHSIG; kept across exec, so Debian's `exec`ing `/usr/bin/7z` wrapper
/// passes it on). Only for a child whose starting thread waits for it (the run's tools, which
/// [`crate::tool::SystemRunner`] waits for on the thread that started them): the signal follows
/// the *thread*, not the process. What the child forks does not inherit it; its own group is
/// still ended by the kill rule while boardbench lives.
pub fn die_with_parent(cmd: &mut Command) {
    // SAFETY: getpid has no preconditions; the pid is read before the fork.
    let parent = unsafe { libc::getpid() };
    // SAFETY: only async-signal-safe calls (prctl, getppid, _exit) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The parent died between fork and prctl: nobody would send the signal.
            if libc::getppid() != parent {
                libc::_exit(137);
            }
            Ok(())
        });
    }
}

/// `spawn`, tried again for a moment while the program file is "busy" (ETXTBSY): some process
/// still holds it open for writing — a package upgrade replacing the tool, or, in a
/// multi-threaded program, a child forked elsewhere between another thread's write of a script
/// and its close (the classic race of tests that write stub tools). Any other error at once.
fn spawn_when_not_busy(cmd: &mut Command) -> io::Result<std::process::Child> {
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            r => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    use std::process::Stdio;

    #[test]
    fn a_program_still_open_for_writing_is_started_once_it_is_closed() {
        // qemu-user runs a guest's exec its own way: a busy file does not fail the spawn there
        // (the child just never runs the script), so this is a native-only test.
        if testsupport::host_only() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tool");
        let mut f = std::fs::File::create(&path).unwrap();
        f.write_all(b"#!/bin/sh\necho started\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = Command::new(&path);
        cmd.stdout(Stdio::piped());
        // Still open for writing: the kernel refuses to execute it ("Text file busy").
        assert_eq!(
            cmd.spawn().err().and_then(|e| e.raw_os_error()),
            Some(libc::ETXTBSY)
        );
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(f);
        });
        let out = spawn_when_not_busy(&mut cmd)
            .unwrap()
            .wait_with_output()
            .unwrap();
        closer.join().unwrap();
        assert_eq!(out.stdout, b"started\n");
    }

    #[test]
    fn stop_ends_a_program_that_ignores_sigterm_after_the_grace() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "trap '' TERM; sleep 30 & wait"])
            .stdin(Stdio::null());
        let mut g = Group::spawn(&mut cmd).unwrap();
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_millis(200));
        let e = g.stop(Duration::from_millis(300)).unwrap();
        assert_eq!(e.status.signal(), Some(libc::SIGKILL));
        assert!(t0.elapsed() < Duration::from_secs(10));
        g.end_leftovers();
    }

    /// `kill -9` of boardbench cannot be caught: the child dies with the thread that started
    /// it all the same (issue 47; a `7z b` kept running under init).
    #[test]
    fn a_child_dies_with_the_thread_that_started_it() {
        if testsupport::host_only() {
            return;
        }
        let pid = std::thread::spawn(|| {
            let mut cmd = Command::new("sleep");
            cmd.arg("30").stdin(Stdio::null());
            die_with_parent(&mut cmd);
            let g = Group::spawn(&mut cmd).unwrap();
            // Dropped unwaited: only the death signal can end it now.
            g.id()
        })
        .join()
        .unwrap();
        let t0 = Instant::now();
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
                .unwrap_or(false)
        };
        while alive() && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(), "sleep {pid} outlived the thread that started it");
        // SAFETY: reaps our own child.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
    }

    #[test]
    fn stop_sends_sigterm_first() {
        let mut cmd = Command::new("sleep");
        cmd.arg("30");
        let mut g = Group::spawn(&mut cmd).unwrap();
        let (e, stopped) = g
            .supervise(Duration::from_millis(10), Duration::from_secs(20), || true)
            .unwrap();
        assert!(stopped);
        assert_eq!(e.status.signal(), Some(libc::SIGTERM));
    }

    #[test]
    fn an_ended_child_is_reaped_once_with_its_status() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "exit 3"]);
        let mut g = Group::spawn(&mut cmd).unwrap();
        let (e, stopped) = g
            .supervise(Duration::from_millis(5), Duration::from_secs(1), || false)
            .unwrap();
        assert!(!stopped);
        assert_eq!(e.status.code(), Some(3));
        assert_eq!(g.try_wait().unwrap(), Some(e));
        assert_eq!(g.stop(Duration::from_secs(1)).unwrap(), e);
    }
}
