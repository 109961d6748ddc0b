//! Files that would make a naive reader hang or grow without bound: FIFOs where the probe
//! reads loadavg, cpuinfo, meminfo, a thermal `temp` and `scaling_max_freq`, and /dev/zero as
//! the cpuinfo file. `info`, `kernel` and `monitor` end in bounded time, say what they could not
//! read, and `monitor` ends promptly on SIGTERM and SIGINT.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use testsupport::cli::command;

/// The binary under test (started through [`command`]: not pointed at another machine or
/// database by the environment).
const BIN: &str = env!("CARGO_BIN_EXE_boardbench");

use crate::common;

const FIFOS: &[&str] = &[
    "proc/loadavg",
    "proc/cpuinfo",
    "proc/meminfo",
    "proc/stat",
    "sys/class/thermal/thermal_zone0/temp",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq",
];

fn mkfifo(p: &Path) {
    let _ = std::fs::remove_file(p);
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "{p:?}");
}

/// The RK3399 fixture with FIFOs in place of the files above.
fn root_with_fifos(dir: &Path) -> PathBuf {
    let root = common::fixture_machine("rk3399", dir);
    for f in FIFOS {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        mkfifo(&p);
    }
    root
}

/// Waits at most `limit` for the child; a hang fails the test (the child is killed).
fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("{what} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn run_bounded(c: &mut Command, what: &str) -> Output {
    let child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_bounded(child, Duration::from_secs(20), what)
}

#[test]
fn info_and_kernel_end_and_name_the_fifos() {
    let d = tempfile::tempdir().unwrap();
    let root = root_with_fifos(d.path());
    let o = run_bounded(command(BIN).arg("--sysroot").arg(&root).arg("info"), "info");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("/proc/cpuinfo: not a regular file (a FIFO)"),
        "{text}"
    );
    assert!(
        text.contains("/proc/meminfo: not a regular file (a FIFO)"),
        "{text}"
    );
    let o = run_bounded(
        command(BIN)
            .arg("--sysroot")
            .arg(&root)
            .args(["kernel", "--json"]),
        "kernel",
    );
    assert!(o.status.code().is_some(), "{o:?}");
}

#[test]
fn dev_zero_as_the_cpuinfo_file_is_refused_by_name() {
    let d = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3399", d.path());
    let o = run_bounded(
        command(BIN)
            .arg("--sysroot")
            .arg(&root)
            .args(["--cpuinfo-file", "/dev/zero", "info"]),
        "info with /dev/zero",
    );
    // Refused at once as a value error (issue 47: it was a note and exit 0), by name.
    let text = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(64), "{text}");
    assert!(
        text.contains("/dev/zero") && text.contains("not a regular file"),
        "{text}"
    );
    // sbc-bench's variable, a file that is not there: refused too, naming it.
    let o = run_bounded(
        command(BIN)
            .arg("--sysroot")
            .arg(&root)
            .env("CPUINFOFILE", "/nonexistent")
            .arg("info"),
        "info with CPUINFOFILE",
    );
    let text = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(64), "{text}");
    assert!(
        text.contains("/nonexistent") && text.contains("no such file"),
        "{text}"
    );
}

#[test]
fn an_unset_cpufreq_value_is_shown_invalid_not_as_a_clock() {
    let d = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3399", d.path());
    let p = root.join("sys/devices/system/cpu/cpufreq/policy0");
    for f in ["cpuinfo_max_freq", "scaling_max_freq"] {
        std::fs::write(p.join(f), "18446744073709551615\n").unwrap();
    }
    std::fs::write(
        p.join("scaling_available_frequencies"),
        "408000 600000 18446744073709551615\n",
    )
    .unwrap();
    let o = run_bounded(command(BIN).arg("--sysroot").arg(&root).arg("info"), "info");
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        text.contains("scaling_max_freq: invalid clock: 18446744073709551615 kHz"),
        "{text}"
    );
    assert!(!text.contains(" 0 MHz"), "{text}");
}

#[test]
fn monitor_samples_past_fifos_and_ends_promptly_on_signals() {
    let d = tempfile::tempdir().unwrap();
    let root = root_with_fifos(d.path());
    let o = run_bounded(
        command(BIN)
            .arg("--sysroot")
            .arg(&root)
            .args(["monitor", "-i", "0.05", "--count", "3"]),
        "monitor --count 3",
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 4);

    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut child = command(BIN)
            .arg("--sysroot")
            .arg(&root)
            .args(["monitor", "-i", "0.05"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        // The header and one sample: the handlers are in place and sampling is under way.
        for _ in 0..2 {
            line.clear();
            out.read_line(&mut line).unwrap();
        }
        let t0 = Instant::now();
        // SAFETY: kill(2) on our own child.
        unsafe {
            libc::kill(child.id() as libc::pid_t, sig);
        }
        // Keep draining so a full pipe cannot hold the child.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let o = wait_bounded(child, Duration::from_secs(5), "monitor after a signal");
        // 128 + the signal, as every mode.
        assert_eq!(o.status.code(), Some(128 + sig), "{o:?}");
        assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    }
}
