//! scripts/test ends a hung emulated test run through `run_bounded_session`
//! (scripts/bounded-session.sh): everything the run started ends — also a child in a process
//! group of its own, as the tools' Runner makes them — and nothing else on the machine does.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bounded-session.sh")
}

/// Runs `run_bounded_session LIMIT sh -c CMD` in bash; returns its exit status.
fn bounded(limit: &str, cmd: &str) -> i32 {
    let line = format!(
        ". '{}' && run_bounded_session {limit} sh -c \"$CMD\"",
        script().display()
    );
    Command::new("bash")
        .args(["-c", &line])
        .env("CMD", cmd)
        .stdin(Stdio::null())
        .status()
        .unwrap()
        .code()
        .unwrap_or(-1)
}

/// Gone or a zombie (waiting for its new parent to reap it).
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
    }
}

#[test]
fn a_finished_command_keeps_its_status() {
    assert_eq!(bounded("20s", "exit 3"), 3);
    assert_eq!(bounded("20s", "true"), 0);
}

#[test]
fn an_overrun_ends_the_runs_processes_and_nothing_else() {
    let d = tempfile::tempdir().unwrap();
    let pids = d.path().join("pids");
    // Not part of the run: another emulated test on the machine, say.
    let mut other = Command::new("sleep")
        .arg("60")
        .process_group(0)
        .spawn()
        .unwrap();
    // The run: a child in a process group of its own, then a hang.
    let cmd = format!(
        "perl -e 'setpgrp(0,0); sleep 60' & echo $! > {p}; sleep 60",
        p = pids.display()
    );
    let start = Instant::now();
    assert_eq!(bounded("1s", &cmd), 124);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    let grandchild: u32 = std::fs::read_to_string(&pids)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !ended(grandchild) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ended(grandchild), "the run's own process group survived");
    assert!(
        other.try_wait().unwrap().is_none(),
        "a foreign process was killed"
    );
    other.kill().unwrap();
    other.wait().unwrap();
}
