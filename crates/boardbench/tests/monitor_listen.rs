//! `boardbench monitor --listen`: the live monitor as Prometheus metrics, read from a fixture
//! tree (`--sysroot`) only when scraped — clocks per cluster, temperature, load, CPU states
//! between two scrapes, x86 throttling counters, Raspberry Pi under-voltage flags — and
//! accepted by `promtool check metrics`.
//!
//! A server: skips under qemu (BOARDBENCH_EMULATED=1).

mod common;
mod http;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Starts the server on a port the kernel chooses; returns it and its address (from the
/// line it prints on stderr).
fn serve(root: &Path) -> (http::KillOnDrop, SocketAddr) {
    let mut child = common::boardbench_cmd()
        .unwrap()
        .arg("--sysroot")
        .arg(root)
        .args(["monitor", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbench starts");
    let stderr = child.stderr.take().unwrap();
    let guard = http::KillOnDrop(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server says where it listens");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (guard, addr)
}

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path.trim_start_matches('/'));
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn stat(busy: u64, idle: u64) -> String {
    format!("cpu  {busy} 0 0 {idle} 0 0 0 0 0 0\ncpu0 {busy} 0 0 {idle} 0 0 0 0 0 0\n")
}

fn has_line(text: &str, want: &str) {
    assert!(text.lines().any(|l| l == want), "{want:?} not in:\n{text}");
}

#[test]
fn rk3588_tree_is_read_at_each_scrape() {
    if common::emulated() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../probe/tests/roots/rk3588"),
        &root,
    );
    // What a live machine has and the fixture (a static capture) does not.
    let policy = "/sys/devices/system/cpu/cpufreq";
    write(
        &root,
        &format!("{policy}/policy0/scaling_cur_freq"),
        "1800000\n",
    );
    write(
        &root,
        &format!("{policy}/policy4/scaling_cur_freq"),
        "2256000\n",
    );
    write(
        &root,
        &format!("{policy}/policy6/scaling_cur_freq"),
        "2304000\n",
    );
    write(&root, "/proc/loadavg", "0.25 0.20 0.10 1/100 1234\n");
    write(&root, "/proc/stat", &stat(1000, 9000));
    let tt = "/sys/devices/system/cpu/cpu1/thermal_throttle";
    write(&root, &format!("{tt}/core_throttle_count"), "3\n");
    write(&root, &format!("{tt}/package_throttle_count"), "5\n");

    let (_server, addr) = serve(&root);
    let first = http::get_when_up(addr, "/metrics", Duration::from_secs(20));
    assert!(first.headers.contains("version=0.0.4"), "{}", first.headers);
    assert!(!first.body.contains("# EOF"), "{}", first.body);
    // What Prometheus asks for.
    let om = http::get_accept(
        addr,
        "/metrics",
        "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5",
    )
    .unwrap();
    assert!(
        om.headers.contains("application/openmetrics-text"),
        "{}",
        om.headers
    );
    let m = om.body;
    has_line(
        &m,
        "boardbench_cpu_clock_hertz{cluster=\"cpu4\",source=\"cpufreq\"} 2256000000.0",
    );
    has_line(&m, "boardbench_load1 0.25");
    has_line(
        &m,
        "boardbench_thermal_throttle_events_total{cpu=\"1\",scope=\"package\"} 5",
    );
    assert!(m.contains("boardbench_temperature_celsius "), "{m}");
    assert!(m.ends_with("# EOF\n"), "{m}");

    // Nothing is cached: the next scrape reads the files again; CPU states cover the time
    // between the two scrapes (100 busy of 400 ticks).
    write(
        &root,
        &format!("{policy}/policy4/scaling_cur_freq"),
        "408000\n",
    );
    write(&root, "/proc/stat", &stat(1100, 9300));
    write(&root, &format!("{tt}/core_throttle_count"), "4\n");
    let m = http::get(addr, "/metrics").unwrap().body;
    has_line(
        &m,
        "boardbench_cpu_clock_hertz{cluster=\"cpu4\",source=\"cpufreq\"} 408000000.0",
    );
    has_line(&m, "boardbench_cpu_usage_ratio{state=\"busy\"} 0.25");
    has_line(
        &m,
        "boardbench_thermal_throttle_events_total{cpu=\"1\",scope=\"core\"} 4",
    );

    assert_eq!(http::get(addr, "/nothing").unwrap().status, 404);
    assert_eq!(http::get(addr, "/").unwrap().status, 200);

    if let Some(promtool) = ["/usr/bin/promtool"].iter().find(|p| Path::new(p).exists()) {
        let mut child = Command::new(promtool)
            .args(["check", "metrics"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(m.as_bytes()).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "promtool: {}{}\n{m}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        panic!("promtool not found: install Debian's prometheus package (scripts/test does)");
    }
}

#[test]
fn raspberry_pi_flags_and_firmware_clock() {
    if common::emulated() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../probe/tests/roots/rpi4");
    let (_server, addr) = serve(&root);
    let m = http::get_when_up(addr, "/metrics", Duration::from_secs(20)).body;
    // The fixture's recorded get_throttled has under-voltage now and since boot.
    has_line(
        &m,
        "boardbench_rpi_throttled{flag=\"under_voltage\",when=\"now\"} 1",
    );
    has_line(
        &m,
        "boardbench_rpi_throttled{flag=\"arm_freq_capped\",when=\"now\"} 0",
    );
    has_line(
        &m,
        "boardbench_cpu_clock_hertz{cluster=\"arm\",source=\"firmware\"} 1500000000.0",
    );
    has_line(&m, "boardbench_rpi_core_voltage_volts 0.8563");
}
