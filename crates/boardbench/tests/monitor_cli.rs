//! `boardbench monitor` end to end on a fixture root: text lines, sbc-bench's `-m`, JSON Lines,
//! and a clean exit on SIGTERM.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A one-cluster board: policy0 for cpu0-3 at 1.8 GHz, no thermal zone.
fn board() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    write(
        r,
        "proc/stat",
        "cpu  100 0 50 1000 0 0 0 0 0 0\ncpu0 100 0 50 1000 0 0 0 0 0 0\n",
    );
    write(r, "proc/loadavg", "0.42 0.30 0.20 1/100 999\n");
    let p = "sys/devices/system/cpu/cpufreq/policy0";
    write(r, &format!("{p}/related_cpus"), "0 1 2 3\n");
    write(r, &format!("{p}/cpuinfo_max_freq"), "1800000\n");
    write(r, &format!("{p}/cpuinfo_min_freq"), "408000\n");
    write(r, &format!("{p}/scaling_cur_freq"), "1800000\n");
    d
}

fn boardbench() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_boardbench"));
    c.env_remove("BOARDBENCH_SYSROOT").env_remove("CPUINFOFILE");
    c
}

#[test]
fn prints_a_header_and_one_line_per_sample() {
    let d = board();
    let out = boardbench()
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "--interval", "0.2", "--count", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[0],
        "Time        CPU    load %cpu %sys %usr %nice %io %irq   Temp"
    );
    for l in &lines[1..] {
        // The fixture's /proc/stat does not advance: no CPU states, but clock and load.
        assert_eq!(
            &l[8..],
            ": 1800MHz  0.42  --%  --%  --%  --%  --%  --%    --°C",
            "{l}"
        );
        assert_eq!(l.as_bytes()[2], b':');
    }
}

#[test]
fn sbc_bench_switch_m_runs_the_monitor() {
    let d = board();
    let out = boardbench()
        .env("BOARDBENCH_SYSROOT", d.path())
        .args(["-m", "0.2", "--count", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.lines().skip(1).all(|l| l.contains(" 1800MHz ")),
        "{text}"
    );
}

#[test]
fn json_streams_one_object_per_sample() {
    let d = board();
    let out = boardbench()
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "-i", "0.2", "--count", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let ts = v["timestamp"].as_str().unwrap();
        // ISO 8601 with the zone offset: 2026-01-01T12:00:05.123+01:00
        assert_eq!(ts.as_bytes()[10], b'T', "{ts}");
        assert!(
            ts.ends_with('Z') || ts[ts.len() - 6..].starts_with(['+', '-']),
            "{ts}"
        );
        assert_eq!(v["clocks_mhz"], serde_json::json!([1800]));
        assert_eq!(v["clock_cpus"], serde_json::json!([0]));
        assert_eq!(v["load1"], 0.42);
        assert!(v["interval_s"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn sigterm_ends_the_monitor_cleanly() {
    let d = board();
    let mut child = boardbench()
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "--interval", "30", "--count", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    out.read_line(&mut header).unwrap();
    assert!(header.starts_with("Time"), "{header}");
    // The handlers are installed before the header is printed.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    // Ended by the signal, not by the 30 s sample: nothing after the header.
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(rest, "");
}

#[test]
fn rejects_a_zero_interval() {
    let out = boardbench()
        .args(["monitor", "--interval", "0", "--count", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("interval"));
}
