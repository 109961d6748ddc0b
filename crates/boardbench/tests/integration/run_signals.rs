//! A run ends cleanly whatever ends it (issue 47), against the real tools of this machine
//! (`openssl speed`, `7z b`): SIGTERM in the OpenSSL phase, a terminal hang-up, Ctrl-\ and Ctrl-Z
//! on a pseudo-terminal, `kill -9`. Each asserts that no tool survives (every process of the
//! tools' process groups is gone) and that the log, the document and the database row agree.
//! Bounded: every wait has a limit, and a run still alive at the end is killed.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common;

fn have(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// Skipped (with a line saying so) under emulation or without the tool.
fn skip(tool: &str) -> bool {
    if common::host_only() {
        eprintln!("skipped under emulation");
        return true;
    }
    if !have(tool) {
        eprintln!("skipped: no {tool} on PATH");
        return true;
    }
    false
}

/// One process as /proc shows it.
#[derive(Debug, Clone)]
struct Proc {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    state: char,
    comm: String,
    /// utime + stime in clock ticks.
    cpu: u64,
}

fn proc_of(pid: i32) -> Option<Proc> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (head, rest) = s.rsplit_once(") ")?;
    let comm = head.split_once(" (")?.1.to_string();
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(Proc {
        pid,
        state: f.first()?.chars().next()?,
        ppid: f.get(1)?.parse().ok()?,
        pgrp: f.get(2)?.parse().ok()?,
        comm,
        cpu: f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?,
    })
}

fn all_procs() -> Vec<Proc> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(proc_of)
        .collect()
}

/// Every descendant of `pid`.
fn descendants(pid: i32) -> Vec<Proc> {
    let all = all_procs();
    let mut out: Vec<Proc> = Vec::new();
    let mut parents = vec![pid];
    while let Some(p) = parents.pop() {
        for c in all.iter().filter(|c| c.ppid == p) {
            parents.push(c.pid);
            out.push(c.clone());
        }
    }
    out
}

/// The arguments of a process.
fn args_of(pid: i32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| {
            b.split(|&c| c == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until a descendant of `run` named `comm` runs its benchmark (its first argument is
/// `what`: `speed`, `b`; not the version query before the phases); returns it.
fn wait_for_tool(run: &mut Child, comm: &str, what: &str, limit: Duration) -> Proc {
    let t = Instant::now();
    loop {
        if let Some(p) = descendants(run.id() as i32).into_iter().find(|p| {
            p.comm == comm && p.state != 'Z' && args_of(p.pid).get(1).is_some_and(|a| a == what)
        }) {
            return p;
        }
        if t.elapsed() > limit || run.try_wait().unwrap().is_some() {
            let _ = run.kill();
            panic!("{comm} never ran under the run");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits up to `limit` for the run to end (killed and failed past it).
fn wait_bounded(run: &mut Child, limit: Duration) -> ExitStatus {
    let t = Instant::now();
    loop {
        if let Some(s) = run.try_wait().unwrap() {
            return s;
        }
        if t.elapsed() > limit {
            let _ = run.kill();
            let _ = run.wait();
            panic!("the run did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No process of the tool's process group lives (a zombie waiting for init runs nothing),
/// waiting up to 3 s for the kernel to deliver the last signals.
fn assert_group_gone(tool: &Proc) {
    let t = Instant::now();
    loop {
        let left: Vec<Proc> = all_procs()
            .into_iter()
            .filter(|p| p.pgrp == tool.pgrp && p.state != 'Z')
            .collect();
        if left.is_empty() {
            return;
        }
        if t.elapsed() > Duration::from_secs(3) {
            for p in &left {
                // SAFETY: only the leftovers of our own run's tool group.
                unsafe { libc::kill(p.pid, libc::SIGKILL) };
            }
            panic!("the tool's process group still runs after the run ended: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Files {
    _tmp: tempfile::TempDir,
    doc: PathBuf,
    log: PathBuf,
    db: PathBuf,
}

fn files() -> Files {
    let tmp = tempfile::tempdir().unwrap();
    Files {
        doc: tmp.path().join("doc.json"),
        log: tmp.path().join("run.log"),
        db: tmp.path().join("r.sqlite"),
        _tmp: tmp,
    }
}

/// `run --no-idle-gate --phases PHASES` with its document, log and database in `f`.
fn run_cmd(f: &Files, phases: &str, extra: &[&str]) -> Command {
    let mut c = common::command();
    c.env("NO_COLOR", "1")
        .args(["run", "--no-idle-gate", "--phases", phases])
        .args(extra)
        .arg("-o")
        .arg(&f.doc)
        .arg("--log")
        .arg(&f.log)
        .arg("--db")
        .arg(&f.db);
    c
}

fn results(db: &Path, what: &str) -> String {
    let o = common::command()
        .args(["results", what, "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The log's summary row, the document and the database row all say the run was cut short by
/// `signal` in the phase of `kind`; returns the document.
fn assert_marked_interrupted(f: &Files, kind: &str, signal: i32) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&f.doc).unwrap()).unwrap();
    let phase = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} phase"))
        .clone();
    assert_eq!(phase["status"], "failed", "{phase}");
    let reason = phase["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!("interrupted by signal {signal}")),
        "{reason}"
    );
    let kinds: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"interrupted"), "{kinds:?}");
    let log = std::fs::read_to_string(&f.log).unwrap();
    let row = log.trim_end().lines().last().unwrap();
    assert!(
        row.starts_with('|') && row.contains("(interrupted)"),
        "{row}"
    );
    let list = results(&f.db, "list");
    assert_eq!(list.lines().count(), 1, "{list}");
    assert!(list.contains("native (interrupted)"), "{list}");
    let table = results(&f.db, "table");
    assert!(table.contains("(interrupted)"), "{table}");
    doc
}

/// Ctrl-C or SIGTERM in the OpenSSL phase: the running `openssl speed` ends, the ciphers after
/// it are not started, and the phase is recorded as interrupted (it was recorded `done` after
/// 12 s more of measuring).
#[test]
fn sigterm_in_the_openssl_phase_ends_it_at_once() {
    if skip("openssl") {
        return;
    }
    let f = files();
    let mut run = run_cmd(&f, "openssl", &["--quick"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let tool = wait_for_tool(&mut run, "openssl", "speed", Duration::from_secs(60));
    // SAFETY: signals our own child.
    unsafe { libc::kill(run.id() as i32, libc::SIGTERM) };
    let t = Instant::now();
    let status = wait_bounded(&mut run, Duration::from_secs(30));
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    // Ending the tool takes well under a second; one more cipher would take 4 s.
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_group_gone(&tool);
    let doc = assert_marked_interrupted(&f, "openssl", libc::SIGTERM);
    let runs = doc["run"]["phases"][0]["tool_runs"].as_array().unwrap();
    assert!(runs.len() < 3, "every cipher ran: {runs:?}");
    let last = runs.last().unwrap();
    assert!(
        last["end"]
            .as_str()
            .unwrap()
            .starts_with("ended by boardbench"),
        "{last}"
    );
}

/// A pseudo-terminal whose slave is a run's controlling terminal; what the run prints is read
/// (and kept) until [`Pty::hang_up`] closes the master, as closing a terminal window or an ssh
/// session does.
struct Pty {
    master: Arc<Mutex<Option<OwnedFd>>>,
    seen: Arc<Mutex<Vec<u8>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Pty {
    /// Starts `cmd` as a session leader with the pty's slave as its terminal and stdio.
    fn spawn(cmd: &mut Command) -> (Child, Pty) {
        // SAFETY: plain libc calls on descriptors we own; ptsname_r writes into the buffer.
        let (master, slave) = unsafe {
            let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
            assert!(m >= 0);
            assert_eq!(libc::grantpt(m), 0);
            assert_eq!(libc::unlockpt(m), 0);
            let mut name = [0 as libc::c_char; 128];
            assert_eq!(libc::ptsname_r(m, name.as_mut_ptr(), name.len()), 0);
            let s = libc::open(
                name.as_ptr(),
                libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
            );
            assert!(s >= 0);
            (OwnedFd::from_raw_fd(m), OwnedFd::from_raw_fd(s))
        };
        cmd.stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid and ioctl are async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        let master = Arc::new(Mutex::new(Some(master)));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (m, s) = (master.clone(), seen.clone());
        let reader = std::thread::spawn(move || {
            loop {
                let guard = m.lock().unwrap();
                let Some(fd) = guard.as_ref() else { return };
                let mut p = libc::pollfd {
                    fd: fd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd.
                let r = unsafe { libc::poll(&mut p, 1, 50) };
                if r > 0 {
                    let mut buf = [0u8; 4096];
                    let mut file = std::fs::File::from(fd.try_clone().unwrap());
                    match file.read(&mut buf) {
                        Ok(n) if n > 0 => s.lock().unwrap().extend_from_slice(&buf[..n]),
                        // EIO: every slave descriptor is closed (the run ended).
                        _ => {
                            drop(guard);
                            std::thread::sleep(Duration::from_millis(50));
                            continue;
                        }
                    }
                }
                drop(guard);
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        (
            child,
            Pty {
                master,
                seen,
                reader: Some(reader),
            },
        )
    }

    /// Types `bytes` (`\x03` Ctrl-C, `\x1c` Ctrl-\, `\x1a` Ctrl-Z).
    fn type_keys(&self, bytes: &[u8]) {
        let g = self.master.lock().unwrap();
        let fd = g.as_ref().expect("the terminal is open");
        // SAFETY: writes from a valid buffer to our own descriptor.
        let n = unsafe { libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
        assert_eq!(n, bytes.len() as isize);
    }

    /// Closes the terminal (the kernel sends the session SIGHUP).
    fn hang_up(&mut self) {
        self.master.lock().unwrap().take();
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.seen.lock().unwrap()).into_owned()
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        self.hang_up();
    }
}

/// Closing the terminal (an ssh session ending) in the middle of the 7-Zip phase ends the run as
/// SIGHUP does: exit 129, 7z ended, the run stored and marked interrupted — never a panic on
/// the closed terminal (it was exit 101 with the run stored as a normal one).
#[test]
fn a_terminal_hang_up_ends_the_run_as_sighup() {
    if skip("7z") {
        return;
    }
    let f = files();
    let mut cmd = run_cmd(&f, "7zip-single", &[]);
    let (mut run, mut pty) = Pty::spawn(&mut cmd);
    let tool = wait_for_tool(&mut run, "7z", "b", Duration::from_secs(60));
    pty.hang_up();
    let status = wait_bounded(&mut run, Duration::from_secs(30));
    assert_eq!(status.code(), Some(128 + libc::SIGHUP), "{}", pty.text());
    assert_group_gone(&tool);
    assert_marked_interrupted(&f, "7zip-single", libc::SIGHUP);
}

/// Ctrl-\ (SIGQUIT) is taken as SIGTERM is: no core dump that leaves 7z running under init.
#[test]
fn ctrl_backslash_ends_the_run_and_its_tool() {
    if skip("7z") {
        return;
    }
    let f = files();
    let mut cmd = run_cmd(&f, "7zip-single", &[]);
    let (mut run, pty) = Pty::spawn(&mut cmd);
    let tool = wait_for_tool(&mut run, "7z", "b", Duration::from_secs(60));
    pty.type_keys(b"\x1c");
    let status = wait_bounded(&mut run, Duration::from_secs(30));
    assert_eq!(status.code(), Some(128 + libc::SIGQUIT), "{}", pty.text());
    assert_group_gone(&tool);
    assert_marked_interrupted(&f, "7zip-single", libc::SIGQUIT);
    assert!(
        pty.text().contains("signal 3: ending the run"),
        "{}",
        pty.text()
    );
}

/// `kill -9` of boardbench cannot be caught, but its tool dies with it (PR_SET_PDEATHSIG):
/// no `7z b` keeps running under init.
#[test]
fn kill_9_of_the_run_leaves_no_tool_running() {
    if skip("7z") {
        return;
    }
    let f = files();
    let mut run = run_cmd(&f, "7zip-single", &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tool = wait_for_tool(&mut run, "7z", "b", Duration::from_secs(60));
    run.kill().unwrap();
    let status = run.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    assert_group_gone(&tool);
}

/// Ctrl-Z stops the tool with boardbench (its process group is out of the terminal's reach) and
/// `fg` continues both; the phase that was stopped is marked disturbed, and the `stopped`
/// finding says its figures include the pause.
#[test]
fn ctrl_z_stops_the_tool_too_and_marks_the_phase() {
    if skip("7z") {
        return;
    }
    let f = files();
    let mut cmd = run_cmd(&f, "7zip-single", &[]);
    let (mut run, pty) = Pty::spawn(&mut cmd);
    let tool = wait_for_tool(&mut run, "7z", "b", Duration::from_secs(60));
    pty.type_keys(b"\x1a");
    let stopped = |pid: i32| proc_of(pid).is_some_and(|p| p.state == 'T');
    let t = Instant::now();
    while !(stopped(run.id() as i32) && stopped(tool.pid)) {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "not stopped: run {:?}, 7z {:?}",
            proc_of(run.id() as i32),
            proc_of(tool.pid)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Stopped, 7z uses no CPU.
    let before = proc_of(tool.pid).unwrap().cpu;
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        proc_of(tool.pid).unwrap().cpu,
        before,
        "7z ran on while stopped"
    );
    // `fg`: both go on.
    // SAFETY: signals our own child.
    unsafe { libc::kill(run.id() as i32, libc::SIGCONT) };
    let t = Instant::now();
    while stopped(tool.pid) {
        assert!(t.elapsed() < Duration::from_secs(5), "7z was not continued");
        std::thread::sleep(Duration::from_millis(20));
    }
    pty.type_keys(b"\x03");
    let status = wait_bounded(&mut run, Duration::from_secs(30));
    assert_eq!(status.code(), Some(128 + libc::SIGINT), "{}", pty.text());
    assert_group_gone(&tool);
    let doc = assert_marked_interrupted(&f, "7zip-single", libc::SIGINT);
    let phase = &doc["run"]["phases"][0];
    assert!(
        phase["reason"]
            .as_str()
            .unwrap()
            .contains("disturbed: stopped by job control (Ctrl-Z) 1 time(s)"),
        "{phase}"
    );
    let kinds: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"stopped"), "{kinds:?}");
}
