//! `boardbench monitor --listen`: the live monitor as Prometheus metrics, read from a fixture
//! tree (`--sysroot`) only when scraped — clocks per cluster, temperature, load, each CPU's time
//! per mode as counters, x86 throttling counters, Raspberry Pi under-voltage flags — and
//! accepted by `promtool check metrics`. Served by axum through the `connections` crate (as the
//! results service): connections held half-open do not delay a scrape, one over the cap is
//! answered 503, two scrapers do not see each other, a signal ends it with 128 + the signal.
//!
//! A server: skips under qemu (BOARDBENCH_EMULATED=1). Every wait is bounded.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testsupport::http;

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
        let mut stderr = BufReader::new(stderr);
        let mut line = String::new();
        let _ = stderr.read_line(&mut line);
        let _ = tx.send(line);
        // Read on: the server's later lines (a shutdown past its deadline) must not hit a
        // closed pipe.
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
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

/// Writes a file of the tree whole: a temporary file renamed over it, so a scrape never reads
/// it half-written.
fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path.trim_start_matches('/'));
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let tmp = p.with_extension("tmp-writing");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &p).unwrap();
}

/// /proc/stat with `user` and `idle` ticks on cpu0 (and the aggregate line), the rest 0.
fn stat(user: u64, idle: u64) -> String {
    format!("cpu  {user} 0 0 {idle} 0 0 0 0 0 0\ncpu0 {user} 0 0 {idle} 0 0 0 0 0 0\n")
}

fn has_line(text: &str, want: &str) {
    assert!(text.lines().any(|l| l == want), "{want:?} not in:\n{text}");
}

/// The value of the first sample line starting with `series`.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {series} in:\n{text}"))
}

const USER0: &str = "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"user\"}";
const IDLE0: &str = "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"idle\"}";
const IOWAIT0: &str = "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"iowait\"}";

/// A copy of the rk3588 fixture (cpu0-3, 4-5, 6-7) with what a live machine has and the
/// static capture does not: current clocks, load, /proc/stat, thermal_throttle counters.
fn rk3588(dir: &Path) -> PathBuf {
    let root = dir.join("root");
    common::copy_tree(&testsupport::probe_root("rk3588"), &root);
    let policy = "/sys/devices/system/cpu/cpufreq";
    for (p, khz) in [(0, "1800000"), (4, "2256000"), (6, "2304000")] {
        write(
            &root,
            &format!("{policy}/policy{p}/scaling_cur_freq"),
            &format!("{khz}\n"),
        );
    }
    write(&root, "/proc/loadavg", "0.25 0.20 0.10 1/100 1234\n");
    write(&root, "/proc/stat", &stat(1000, 9000));
    let tt = "/sys/devices/system/cpu/cpu1/thermal_throttle";
    write(&root, &format!("{tt}/core_throttle_count"), "3\n");
    write(&root, &format!("{tt}/package_throttle_count"), "5\n");
    root
}

/// Sends `raw` and reads the answer until the server closes (5 s at most).
fn exchange(addr: SocketAddr, raw: &str) -> String {
    http::exchange_raw(addr, http::Timeouts::QUICK, raw.as_bytes()).unwrap()
}

/// Waits at most `limit` for the server to end; its exit code.
fn exit_code_within(server: &mut http::KillOnDrop, limit: Duration) -> Option<i32> {
    let t0 = Instant::now();
    loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            return status.code();
        }
        assert!(
            t0.elapsed() < limit,
            "the listener did not end within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `n` connections that sent the start of a request line and nothing more, held open.
fn half_open(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| http::half_open(addr, b"GET /metr"))
        .collect()
}

/// The RK3588 fixture tree (its directory, root) served; `None` under qemu (a server: native
/// only).
fn rk3588_served() -> Option<(tempfile::TempDir, PathBuf, http::KillOnDrop, SocketAddr)> {
    if common::host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = rk3588(dir.path());
    let (server, addr) = serve(&root);
    Some((dir, root, server, addr))
}

#[test]
fn rk3588_tree_is_read_at_each_scrape() {
    let Some((_dir, root, _server, addr)) = rk3588_served() else {
        return;
    };
    let first = http::get_when_up(addr, "/metrics", Duration::from_secs(20));
    assert!(first.headers.contains("version=0.0.4"), "{}", first.headers);
    assert!(!first.text().contains("# EOF"), "{}", first.text());
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
    let m = om.text();
    has_line(
        &m,
        "boardbench_cpu_clock_hertz{cluster=\"cpu4\",source=\"cpufreq\"} 2256000000.0",
    );
    has_line(&m, "boardbench_load1 0.25");
    has_line(
        &m,
        "boardbench_thermal_throttle_events_total{cpu=\"1\",scope=\"package\"} 5",
    );
    // /proc/stat's ticks (USER_HZ = 100) as seconds, per CPU and mode, labelled with the
    // CPU's cluster as the clocks are.
    has_line(&m, "# TYPE boardbench_cpu_seconds counter");
    has_line(&m, &format!("{USER0} 10.0"));
    has_line(&m, &format!("{IDLE0} 90.0"));
    has_line(
        &m,
        "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"softirq\"} 0.0",
    );
    assert!(m.contains("boardbench_temperature_celsius "), "{m}");
    assert!(m.ends_with("# EOF\n"), "{m}");

    // Nothing is cached: the next scrape reads the files again.
    let policy = "/sys/devices/system/cpu/cpufreq";
    write(
        &root,
        &format!("{policy}/policy4/scaling_cur_freq"),
        "408000\n",
    );
    write(&root, "/proc/stat", &stat(1100, 9300));
    let tt = "/sys/devices/system/cpu/cpu1/thermal_throttle";
    write(&root, &format!("{tt}/core_throttle_count"), "4\n");
    let m = http::get(addr, "/metrics").unwrap().text();
    has_line(
        &m,
        "boardbench_cpu_clock_hertz{cluster=\"cpu4\",source=\"cpufreq\"} 408000000.0",
    );
    has_line(&m, &format!("{USER0} 11.0"));
    has_line(&m, &format!("{IDLE0} 93.0"));
    has_line(
        &m,
        "boardbench_thermal_throttle_events_total{cpu=\"1\",scope=\"core\"} 4",
    );
    // No share since the previous scrape, no state overlapping the others.
    assert!(!m.contains("state=\"busy\""), "{m}");
    assert!(!m.contains("cpu_usage"), "{m}");
    promtool_accepts(&m);
}

/// `promtool check metrics` (Debian's prometheus package) accepts the classic answer.
fn promtool_accepts(m: &str) {
    let promtool = "/usr/bin/promtool";
    assert!(
        Path::new(promtool).exists(),
        "promtool not found: install Debian's prometheus package (scripts/test does)"
    );
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(m.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool: {}{}\n{m}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn connections_held_half_open_do_not_delay_a_scrape() {
    let Some((_dir, _root, _server, addr)) = rk3588_served() else {
        return;
    };
    http::get_when_up(addr, "/metrics", Duration::from_secs(20));
    // The std server of before answered one connection at a time with a 5 s read deadline:
    // eight of these held a scrape for 40 s, beyond Prometheus's 10 s scrape timeout.
    let _held = half_open(addr, 8);
    for _ in 0..2 {
        let t0 = Instant::now();
        let a = http::get(addr, "/metrics").unwrap();
        let took = t0.elapsed();
        assert_eq!(a.status, 200, "{}", a.headers);
        has_line(&a.text(), &format!("{USER0} 10.0"));
        assert!(
            took < Duration::from_secs(2),
            "a scrape took {took:?} behind held connections"
        );
    }
}

#[test]
fn a_connection_over_the_cap_is_answered_503_and_scrapes_go_on_after() {
    let Some((_dir, _root, _server, addr)) = rk3588_served() else {
        return;
    };
    http::get_when_up(addr, "/metrics", Duration::from_secs(20));
    // 32 connections at once (LIMITS): all of them held half-open, one more is refused.
    let held = half_open(addr, 32);
    std::thread::sleep(Duration::from_millis(200));
    let refused = exchange(addr, "GET /metrics HTTP/1.0\r\n\r\n");
    assert!(
        refused.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
        "{refused}"
    );
    assert!(refused.ends_with("too many connections\n"), "{refused}");
    // Closed by the client, the held connections free their places at once.
    drop(held);
    let t0 = Instant::now();
    let a = loop {
        let a = http::get(addr, "/metrics").unwrap();
        if a.status == 200 || t0.elapsed() > Duration::from_secs(5) {
            break a;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(a.status, 200, "{}", a.headers);
    has_line(&a.text(), &format!("{USER0} 10.0"));
}

#[test]
fn two_scrapers_get_the_same_monotonic_counters() {
    let Some((_dir, root, _server, addr)) = rk3588_served() else {
        return;
    };
    let scrape = || http::get(addr, "/metrics").unwrap().text();
    http::get_when_up(addr, "/metrics", Duration::from_secs(20));

    // What one scraper sees does not depend on how often the other one scraped.
    let a: Vec<String> = (0..3).map(|_| scrape()).collect();
    let b = scrape();
    for m in a.iter().chain([&b]) {
        assert_eq!(value(m, USER0), 10.0);
        assert_eq!(value(m, IDLE0), 90.0);
    }
    write(&root, "/proc/stat", &stat(1500, 9500));
    assert_eq!(value(&scrape(), USER0), 15.0);
    assert_eq!(value(&scrape(), USER0), 15.0);

    // Both scrape while the counters advance: each sees them only grow, in the file's steps.
    let steps = 40u64;
    let writer = {
        let root = root.clone();
        std::thread::spawn(move || {
            for k in 1..=steps {
                write(&root, "/proc/stat", &stat(1500 + 10 * k, 9500 + 90 * k));
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let scrapers: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                let t0 = Instant::now();
                let mut seen = Vec::new();
                while seen
                    .last()
                    .is_none_or(|&(u, _)| u < 15.0 + 0.1 * steps as f64 - 1e-9)
                {
                    assert!(t0.elapsed() < Duration::from_secs(20), "{seen:?}");
                    let m = http::get(addr, "/metrics").unwrap().text();
                    seen.push((value(&m, USER0), value(&m, IDLE0)));
                }
                seen
            })
        })
        .collect();
    writer.join().unwrap();
    for s in scrapers {
        let seen = s.join().unwrap();
        for w in seen.windows(2) {
            assert!(w[0].0 <= w[1].0 && w[0].1 <= w[1].1, "{seen:?}");
        }
        for &(user, idle) in &seen {
            // Whole steps of the writer: 0.1 s user to 0.9 s idle.
            let k = ((user - 15.0) * 10.0).round();
            assert!((user - (15.0 + k / 10.0)).abs() < 1e-9, "{seen:?}");
            assert!((idle - (95.0 + 0.9 * k)).abs() < 1e-9, "{seen:?}");
        }
    }

    // A counter the kernel moved backwards (iowait under NO_HZ) is not answered lower.
    let with_iowait =
        |io: u64| format!("cpu  1 0 0 1 {io} 0 0 0 0 0\ncpu0 2000 0 0 20000 {io} 0 0 0 0 0\n");
    write(&root, "/proc/stat", &with_iowait(500));
    assert_eq!(value(&scrape(), IOWAIT0), 5.0);
    write(&root, "/proc/stat", &with_iowait(450));
    let m = scrape();
    assert_eq!(value(&m, IOWAIT0), 5.0);
    assert_eq!(value(&m, USER0), 20.0);
}

#[test]
fn paths_and_methods() {
    let Some((_dir, _root, _server, addr)) = rk3588_served() else {
        return;
    };
    http::get_when_up(addr, "/metrics", Duration::from_secs(20));
    assert_eq!(http::get(addr, "/nothing").unwrap().status, 404);
    let index = http::get(addr, "/").unwrap();
    assert_eq!(index.status, 200);
    assert!(index.headers.contains("text/html"), "{}", index.headers);
    assert!(
        index.text().contains("href=\"/metrics\""),
        "{}",
        index.text()
    );
    // A query string does not change the path.
    assert_eq!(http::get(addr, "/metrics?x=1").unwrap().status, 200);

    let head = exchange(addr, "HEAD /metrics HTTP/1.0\r\n\r\n");
    assert!(
        head.starts_with("HTTP/1.") && head.contains(" 200 OK\r\n"),
        "{head}"
    );
    assert!(head.ends_with("\r\n\r\n"), "HEAD has no body: {head}");
    for path in ["/metrics", "/nothing"] {
        let post = exchange(
            addr,
            &format!("POST {path} HTTP/1.0\r\nContent-Length: 0\r\n\r\n"),
        );
        assert!(post.contains(" 405 Method Not Allowed\r\n"), "{post}");
    }
}

#[test]
fn a_signal_ends_the_listener_with_its_exit_code() {
    if common::host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = rk3588(dir.path());
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let (mut server, addr) = serve(&root);
        http::get_when_up(addr, "/metrics", Duration::from_secs(20));
        // Held connections are closed at the shutdown deadline (1 s), not waited for.
        let _held = half_open(addr, 3);
        std::thread::sleep(Duration::from_millis(100));
        // SAFETY: kill(2) on our own child.
        unsafe {
            libc::kill(server.0.id() as libc::pid_t, sig);
        }
        let t0 = Instant::now();
        // 128 + the signal, as the text monitor.
        assert_eq!(
            exit_code_within(&mut server, Duration::from_secs(5)),
            Some(code)
        );
        assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    }
}

#[test]
fn raspberry_pi_flags_and_firmware_clock() {
    if common::host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return;
    }
    let root = testsupport::probe_root("rpi4");
    let (_server, addr) = serve(&root);
    let m = http::get_when_up(addr, "/metrics", Duration::from_secs(20)).text();
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
