//! `boardbench monitor` end to end on fixture roots: text lines, sbc-bench's `-m`, JSON Lines,
//! the Raspberry Pi view, and a clean exit on SIGTERM.
//!
//! The machine trees are built here (only the files the snapshot and the sampler read), so the
//! test stands on its own: /proc/stat, /proc/loadavg, CPU lists, cpufreq policies with their
//! current clocks, a thermal zone, the device tree and recorded vcgencmd outputs.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use testsupport::cli::command;

/// The binary under test (started through [`command`]: not pointed at another machine or
/// database by the environment).
const BIN: &str = env!("CARGO_BIN_EXE_boardbench");

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A board: `policies` are (policy, its CPU range, max kHz, current kHz); `compatible` the device
/// tree's NUL-separated strings.
fn board(policies: &[(u32, &str, u64, u64)], compatible: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    write(
        r,
        "proc/stat",
        "cpu  100 0 50 1000 0 0 0 0 0 0\ncpu0 100 0 50 1000 0 0 0 0 0 0\n",
    );
    write(r, "proc/loadavg", "0.42 0.30 0.20 1/100 999\n");
    // CPU lists as related_cpus ranges ("0-3"); the highest CPU ends the possible list.
    let last_cpu = policies
        .iter()
        .filter_map(|p| p.1.rsplit(['-', ' ']).next()?.parse::<u32>().ok())
        .max()
        .unwrap();
    let cpu = "sys/devices/system/cpu";
    for f in ["possible", "present", "online"] {
        write(r, &format!("{cpu}/{f}"), &format!("0-{last_cpu}\n"));
    }
    for (p, cpus, max, cur) in policies {
        let d = format!("{cpu}/cpufreq/policy{p}");
        write(r, &format!("{d}/related_cpus"), &format!("{cpus}\n"));
        write(r, &format!("{d}/affected_cpus"), &format!("{cpus}\n"));
        write(r, &format!("{d}/cpuinfo_min_freq"), "408000\n");
        write(r, &format!("{d}/cpuinfo_max_freq"), &format!("{max}\n"));
        write(r, &format!("{d}/scaling_cur_freq"), &format!("{cur}\n"));
    }
    write(r, "sys/class/thermal/thermal_zone0/type", "cpu-thermal\n");
    write(r, "sys/class/thermal/thermal_zone0/temp", "45000\n");
    write(
        r,
        "proc/device-tree/compatible",
        &compatible.replace(' ', "\0"),
    );
    // What vcgencmd would answer (the probe's fixture runner reads these for non-host roots).
    write(
        r,
        ".fixture/vcgencmd/measure_clock arm.txt",
        "frequency(48)=1500398464\n",
    );
    write(
        r,
        ".fixture/vcgencmd/measure_volts core.txt",
        "volt=0.8563V\n",
    );
    d
}

/// RK3399: little cpu0-3 (policy0, 1416 MHz), big cpu4-5 (policy4, 1800 MHz).
fn rk3399(little_khz: u64, big_khz: u64) -> tempfile::TempDir {
    board(
        &[
            (0, "0-3", 1_416_000, little_khz),
            (4, "4-5", 1_800_000, big_khz),
        ],
        "radxa,rockpi4b rockchip,rk3399",
    )
}

fn lines(out: &std::process::Output) -> Vec<String> {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn prints_a_header_and_one_line_per_sample() {
    let d = rk3399(1_416_000, 1_800_000);
    let out = command(BIN)
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "--interval", "0.2", "--count", "2"])
        .output()
        .unwrap();
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{l:?}");
    assert_eq!(
        l[0],
        "Time       big.LITTLE   load %cpu %sys %usr %nice %io %irq   Temp"
    );
    for line in &l[1..] {
        // Big (policy4) first; the fixture's /proc/stat does not advance, so no CPU states.
        assert_eq!(
            &line[8..],
            ": 1800/1416MHz  0.42  --%  --%  --%  --%  --%  --%  45.0°C",
            "{line}"
        );
        assert_eq!(line.as_bytes()[2], b':');
    }
}

#[test]
fn sbc_bench_switch_m_runs_the_monitor() {
    let d = rk3399(1_416_000, 1_800_000);
    let out = command(BIN)
        .env("BOARDBENCH_SYSROOT", d.path())
        .args(["-m", "0.2", "--count", "2"])
        .output()
        .unwrap();
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{l:?}");
    assert!(l[1..].iter().all(|x| x.contains(" 1800/1416MHz ")), "{l:?}");
}

#[test]
fn a_raspberry_pi_shows_fake_real_and_vcore() {
    // vcgencmd answers from the tree's recordings (measure_clock arm = 1500398464 Hz).
    let d = board(
        &[(0, "0-3", 1_500_000, 1_500_000)],
        "raspberrypi,4-model-b brcm,bcm2711",
    );
    let out = command(BIN)
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "--interval", "0.2", "--count", "1"])
        .output()
        .unwrap();
    let l = lines(&out);
    assert_eq!(
        l[0],
        "Time        fake/real   load %cpu %sys %usr %nice %io %irq   Temp    VCore"
    );
    assert!(l[1].contains(": 1500/1500MHz  0.42 "), "{l:?}");
    assert!(l[1].ends_with("°C  0.8563V"), "{l:?}");
}

#[test]
fn a_fake_vcgencmd_on_another_board_changes_nothing() {
    // Every tree here answers vcgencmd (sbc-bench PR #13's fake wrapper on a non-Pi).
    let d = rk3399(408_000, 408_000);
    let out = command(BIN)
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "--interval", "0.2", "--count", "1"])
        .output()
        .unwrap();
    assert!(lines(&out)[0].contains(" big.LITTLE "));
}

#[test]
fn json_streams_one_object_per_sample() {
    let d = rk3399(1_416_000, 1_800_000);
    let out = command(BIN)
        .arg("--sysroot")
        .arg(d.path())
        .args(["monitor", "-i", "0.2", "--count", "2", "--json"])
        .output()
        .unwrap();
    let l = lines(&out);
    assert_eq!(l.len(), 2, "{l:?}");
    for x in l {
        let v: serde_json::Value = serde_json::from_str(&x).unwrap();
        let ts = v["timestamp"].as_str().unwrap();
        // ISO 8601 with the zone offset: 2026-01-01T12:00:05.123+01:00
        assert_eq!(ts.as_bytes()[10], b'T', "{ts}");
        assert!(ts[ts.len() - 6..].starts_with(['+', '-']), "{ts}");
        // Samples keep cluster order (little first); the text view puts big first.
        assert_eq!(v["clocks_mhz"], serde_json::json!([1416, 1800]));
        assert_eq!(v["clock_cpus"], serde_json::json!([0, 4]));
        assert_eq!(v["load1"], 0.42);
        assert_eq!(v["temp_c"], 45.0);
        assert!(v["interval_s"].as_f64().unwrap() > 0.0);
        assert!(
            v.get("cpu").is_none(),
            "no CPU states from a static /proc/stat"
        );
    }
}

#[test]
fn a_signal_ends_the_monitor_cleanly_with_its_exit_code() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        monitor_ended_by(sig, code);
    }
}

fn monitor_ended_by(sig: libc::c_int, code: i32) {
    let d = rk3399(1_416_000, 1_800_000);
    let mut child = command(BIN)
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
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
    let status = child.wait().unwrap();
    // 128 + the signal, as every mode: a script sees that the monitor was stopped.
    assert_eq!(status.code(), Some(code), "{status:?}");
    // Ended by the signal, not by the 30 s sample: nothing after the header.
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(rest, "");
}

#[test]
fn rejects_a_zero_interval() {
    let out = command(BIN)
        .args(["monitor", "--interval", "0", "--count", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("interval"));
}

/// On the host the monitor never competes with what it observes: every one of its threads runs
/// at nice 19. Linux keeps a nice value per thread, so it must be set before the probe's reader
/// threads start (they used to run at nice 0). Native only (under qemu the threads are qemu's).
#[test]
fn every_thread_of_the_host_monitor_runs_at_nice_19() {
    if testsupport::host_only() {
        return;
    }
    let mut child = command(BIN)
        .args(["monitor", "--interval", "0.5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("boardbench starts");
    let pid = child.id();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // The header and a first sample: the snapshot (and its reader threads) is behind us.
        for line in BufReader::new(stdout).lines().take(3) {
            let _ = tx.send(line.is_ok());
        }
    });
    for _ in 0..3 {
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("the monitor prints its header and a sample");
    }
    let mut nice = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let stat = std::fs::read_to_string(task.unwrap().path().join("stat")).unwrap_or_default();
        // Fields after the command (which may hold spaces) end with ") ": nice is the 19th field.
        if let Some((_, rest)) = stat.rsplit_once(") ") {
            nice.push(rest.split(' ').nth(16).unwrap_or("").to_string());
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(!nice.is_empty());
    assert!(
        nice.iter().all(|n| n == "19"),
        "nice values of the monitor's threads: {nice:?}"
    );
}
