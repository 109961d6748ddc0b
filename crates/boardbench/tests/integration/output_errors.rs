//! Every printing command under the one output rule (README, exit codes): a reader that went
//! away ends the command quietly with 141 — no panic, no "Broken pipe" line — and a full disk
//! (`> /dev/full`) is one error line and exit code 1. Each run is bounded in time.

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

fn vm_root() -> PathBuf {
    testsupport::probe_root("vm")
}

fn run_quick_doc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run-quick.json")
}

/// The write end of a pipe whose read end is already closed.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors, which are owned from here on.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both are fresh descriptors of this process.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

/// Runs `args` with `stdout`, killed after 60 s (a hang fails the test, not the suite).
fn run(args: &[String], stdout: Stdio) -> Output {
    let mut c = common::command();
    c.args(args)
        .env("NO_COLOR", "1")
        .stdout(stdout)
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("{args:?} did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Every printing command, with what it needs (fixture root, a database with one run).
fn commands(tmp: &Path) -> Vec<Vec<String>> {
    let db = tmp.join("results.sqlite");
    let add = common::command()
        .args(["results", "--db"])
        .arg(&db)
        .arg("add")
        .arg(run_quick_doc())
        .output()
        .unwrap();
    assert!(add.status.success(), "{add:?}");
    let root = vm_root().to_string_lossy().into_owned();
    let db = db.to_string_lossy().into_owned();
    let doc = run_quick_doc().to_string_lossy().into_owned();
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let mut v = vec![
        s(&["--sysroot", &root, "info"]),
        s(&["--sysroot", &root, "info", "--json"]),
        s(&["--sysroot", &root, "kernel", "--today", "2026-01-01"]),
        s(&[
            "--sysroot",
            &root,
            "kernel",
            "--json",
            "--today",
            "2026-01-01",
        ]),
        s(&["schema"]),
        s(&["--sysroot", &root, "doctor"]),
        s(&["--sysroot", &root, "doctor", "--json"]),
        s(&["--sysroot", &root, "monitor", "-i", "0.05", "--count", "2"]),
        s(&[
            "--sysroot",
            &root,
            "monitor",
            "-i",
            "0.05",
            "--count",
            "2",
            "--json",
        ]),
        s(&["results", "--db", &db, "list"]),
        s(&["results", "--db", &db, "list", "--json"]),
        s(&["results", "--db", &db, "show", "1"]),
        s(&["results", "--db", &db, "table"]),
        s(&["report", &doc, "--html", "-"]),
        s(&["--help"]),
        s(&["info", "--help"]),
    ];
    if !common::timing_unreal() {
        // Real measurements, with the smallest settings.
        v.push(s(&["clock", "--json"]));
        v.push(s(&[
            "membw",
            "--size",
            "64K",
            "--samples",
            "1",
            "--variant",
            "libc memcpy copy",
            "--no-aggregate",
            "--json",
        ]));
        v.push(s(&[
            "memlat",
            "--max-size",
            "16K",
            "--cell-ms",
            "1",
            "--no-random",
        ]));
    }
    v
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_closed_pipe_ends_every_command_quietly_with_141() {
    let tmp = tempfile::tempdir().unwrap();
    for args in commands(tmp.path()) {
        let o = run(&args, closed_pipe());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert!(!err.contains("os error"), "{args:?}: {err}");
    }
}

#[test]
fn a_full_disk_is_one_error_line_and_exit_1() {
    let tmp = tempfile::tempdir().unwrap();
    for args in commands(tmp.path()) {
        let o = run(&args, dev_full());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(last.starts_with("boardbench: "), "{args:?}: {err}");
        assert!(last.contains("No space left on device"), "{args:?}: {err}");
        let errors = err.lines().filter(|l| l.contains("No space left")).count();
        assert_eq!(errors, 1, "{args:?}: {err}");
    }
}
