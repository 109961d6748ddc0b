//! review as a session (sbc-bench -r): it waits for an idle box with run's rules and switches
//! before it tunes anything, and the monitor's header appears as soon as monitoring starts
//! (not after the first 60-second interval).

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(dir: &Path, loadavg: &str) -> PathBuf {
    let root = dir.join("root");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../review/tests/roots/rk3588-nvme"),
        &root,
    );
    std::fs::write(root.join("proc/loadavg"), loadavg).unwrap();
    root
}

fn review(root: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.arg("--sysroot")
        .arg(root)
        .arg("review")
        .arg("--no-baseline");
    c.env_remove("ExecuteCommand");
    c
}

#[test]
fn a_busy_box_is_not_reviewed_and_nothing_is_tuned() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixture(tmp.path(), "3.50 2.00 1.00 3/123 4567\n");
    let gov = root.join("sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    let original = std::fs::read_to_string(&gov).unwrap();
    let out = review(&root)
        .args([
            "--idle-timeout",
            "0.3",
            "--idle-step",
            "0.1",
            "--count",
            "1",
        ])
        .args(["--interval", "0.2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("not reviewing a busy box: still busy"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&gov).unwrap(), original);
    // The review itself is printed first: it measures nothing.
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Review of"));
}

#[test]
fn no_idle_gate_starts_at_once_on_a_busy_box() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixture(tmp.path(), "3.50 2.00 1.00 3/123 4567\n");
    let out = review(&root)
        .args(["--no-idle-gate", "--no-tune", "--count", "1"])
        .args(["--interval", "0.2"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_monitor_header_follows_monitoring_until_ctrl_c_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixture(tmp.path(), "0.02 0.05 0.01 1/123 4567\n");
    let mut child = review(&root)
        .args(["--no-tune", "--interval", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut saw_monitoring = false;
    let header = loop {
        let l = lines
            .next()
            .expect("output ended before the header")
            .unwrap();
        if l.starts_with("Monitoring until Ctrl-C") {
            saw_monitoring = true;
        } else if saw_monitoring {
            break l;
        }
    };
    assert!(header.starts_with("Time"), "{header}");
    assert!(
        t0.elapsed() < Duration::from_secs(30),
        "the header took {:?}",
        t0.elapsed()
    );
    // SAFETY: kill only sends a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    assert_eq!(child.wait().unwrap().code(), Some(130));
}

#[test]
fn ctrl_c_while_waiting_for_an_idle_box_ends_before_anything_is_tuned() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixture(tmp.path(), "3.50 2.00 1.00 3/123 4567\n");
    let gov = root.join("sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    let original = std::fs::read_to_string(&gov).unwrap();
    let mut child = review(&root)
        .args(["--idle-step", "0.1", "--interval", "0.2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the gate says what is busy: the wait has begun.
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    let busy = err.find(|l| l.as_ref().is_ok_and(|l| l.starts_with("Too busy")));
    assert!(busy.is_some(), "the gate never reported the busy box");
    // SAFETY: kill only sends a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(std::fs::read_to_string(&gov).unwrap(), original);
}
