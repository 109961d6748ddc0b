//! The network section against a real iperf3 server: both ends on this machine in two network
//! namespaces joined by a veth pair that each test creates and removes itself (private 10.x
//! addresses exist only inside those namespaces). One test shapes the link with a token bucket
//! so the zero-loss search has a known answer. Skipped under emulation and without root, ip or
//! iperf3; each test is bounded (seconds).

use crate::common;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use guide::network::{self, Options};

/// Two namespaces `<tag>a` and `<tag>b`, a veth pair between them, an iperf3 server in b.
/// Everything is removed on drop (a panicking test included).
struct Pair {
    a: String,
    b: String,
    server: Option<Child>,
}

fn ip(args: &[&str]) {
    let st = Command::new("ip").args(args).status().expect("ip");
    assert!(st.success(), "ip {args:?}");
}

impl Pair {
    fn new(tag: &str, subnet: u8) -> Pair {
        let a = format!("bbg{}{tag}a", std::process::id());
        let b = format!("bbg{}{tag}b", std::process::id());
        let p = Pair {
            a: a.clone(),
            b: b.clone(),
            server: None,
        };
        ip(&["netns", "add", &a]);
        ip(&["netns", "add", &b]);
        ip(&[
            "link", "add", "vA", "netns", &a, "type", "veth", "peer", "name", "vB", "netns", &b,
        ]);
        for (ns, dev, host) in [(&a, "vA", 1), (&b, "vB", 2)] {
            let addr = format!("10.213.{subnet}.{host}/24");
            ip(&["-n", ns, "addr", "add", &addr, "dev", dev]);
            ip(&["-n", ns, "link", "set", dev, "up"]);
            ip(&["-n", ns, "link", "set", "lo", "up"]);
        }
        let mut p = p;
        p.server = Some(
            Command::new("ip")
                .args([
                    "netns", "exec", &b, "chrt", "-f", "10", "iperf3", "-s", "-B",
                ])
                .arg(format!("10.213.{subnet}.2"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("iperf3 -s"),
        );
        p
    }

    fn options(&self, subnet: u8) -> Options {
        let mut o = Options::new(&format!("10.213.{subnet}.2"));
        // Both ends at a real-time priority: on a shared, busy machine a stalled sender bursts
        // and a stalled receiver overflows its buffer, both below the path's limit; the tests
        // are about the path (and the search), not about this machine's scheduler.
        o.prefix = ["ip", "netns", "exec", &self.a, "chrt", "-f", "10"]
            .map(String::from)
            .to_vec();
        o.socket_buffer = Some("2M".into());
        o.tcp_time = Duration::from_secs(1);
        o.trial_time = Duration::from_secs(1);
        o.frame_sizes = vec![1518];
        o
    }

    fn pids_in_a(&self) -> String {
        let o = Command::new("ip")
            .args(["netns", "pids", &self.a])
            .output()
            .expect("ip netns pids");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        if let Some(mut s) = self.server.take() {
            let _ = s.kill();
            let _ = s.wait();
        }
        for ns in [&self.a, &self.b] {
            let _ = Command::new("ip").args(["netns", "del", ns]).status();
        }
    }
}

/// The tests take turns: iperf3 at full speed in one test would make another's trials lossy.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

fn runnable() -> bool {
    if common::host_only() || !common::is_root() || !common::have("ip") || !common::have("iperf3") {
        eprintln!("skipped: emulated, not root, or no ip/iperf3");
        return false;
    }
    true
}

fn ns_exists(name: &str) -> bool {
    let o = Command::new("ip").args(["netns", "list"]).output().unwrap();
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .any(|w| w == name)
}

#[test]
fn tcp_and_udp_tables_between_two_namespaces() {
    if !runnable() {
        return;
    }
    let _turn = turn();
    let dir = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::host(), dir.path());
    let names;
    {
        let pair = Pair::new("t", 1);
        names = (pair.a.clone(), pair.b.clone());
        let mut o = pair.options(1);
        o.udp_egress = false;
        o.resolution = 0.1;
        let out = network::run(&ctx, &o);
        assert!(out.failed.is_none() && out.skipped.is_none(), "{out:?}");
        assert!(out.tool.as_deref().unwrap().starts_with("iperf 3"));
        let tcp = &out.tables[0];
        assert_eq!(tcp.title, "TCP Throughput");
        assert_eq!(tcp.columns[0], "THROUGHPUT (Mbits/sec)");
        assert_eq!(tcp.rows.len(), 3);
        for r in &tcp.rows {
            assert!(r.cells[0].as_ref().unwrap().value > 0.0, "{r:?}");
        }
        let titles: Vec<&str> = out.tables.iter().map(|t| t.title.as_str()).collect();
        assert!(
            titles.contains(&"UDP Ingress Throughput 0 loss"),
            "{titles:?}"
        );
        assert!(titles.contains(&"UDP Ingress Throughput possible loss"));
        let zero = out
            .tables
            .iter()
            .find(|t| t.title.ends_with("0 loss"))
            .unwrap();
        assert_eq!(zero.key_header, "Frame Size(bytes)");
        assert_eq!(zero.rows[0].key, "1518");
        assert_eq!(zero.rows[0].cells[0].as_ref().unwrap().value, 1472.0);
        let mbit = zero.rows[0].cells[1].as_ref().unwrap().value;
        let kpps = zero.rows[0].cells[2].as_ref().unwrap().value;
        assert!(mbit > 0.0);
        assert!((kpps * 1000.0 * 1472.0 * 8.0 / 1e6 - mbit).abs() / mbit < 1e-6);
    }
    assert!(
        !ns_exists(&names.0) && !ns_exists(&names.1),
        "namespaces removed"
    );
}

#[test]
fn zero_loss_search_finds_a_token_bucket_limit() {
    if !runnable() || !common::have("tc") {
        return;
    }
    let _turn = turn();
    let dir = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::host(), dir.path());
    let pair = Pair::new("s", 2);
    ip(&[
        "netns", "exec", &pair.a, "tc", "qdisc", "add", "dev", "vA", "root", "tbf", "rate",
        "200mbit", "burst", "64kb", "latency", "20ms",
    ]);
    let mut o = pair.options(2);
    o.tcp = false;
    o.udp_ingress = false;
    let started = Instant::now();
    let out = network::run(&ctx, &o);
    assert!(out.failed.is_none(), "{out:?}");
    let zero = out
        .tables
        .iter()
        .find(|t| t.title == "UDP Egress Throughput 0 loss")
        .unwrap();
    let mbit = zero.rows[0].cells[1].as_ref().unwrap().value;
    // tbf counts the Ethernet header: 1472 payload bytes travel in 1514-byte frames on a veth.
    let expect = 200.0 * 1472.0 / 1514.0;
    assert!(
        (mbit - expect).abs() / expect < 0.05,
        "0-loss {mbit:.1} Mbit/s, expected {expect:.1} ± 5 %; notes {:?}",
        out.notes
    );
    assert!(started.elapsed() < Duration::from_secs(40));
}

#[test]
fn cancelling_the_network_section_stops_iperf3_at_once() {
    if !runnable() {
        return;
    }
    let _turn = turn();
    let dir = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::host(), dir.path());
    let pair = Pair::new("c", 3);
    let mut o = pair.options(3);
    o.tcp_time = Duration::from_secs(20);
    let cancel = ctx.cancel.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        cancel.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let out = network::run(&ctx, &o);
    let at = t.join().unwrap();
    assert!(at.elapsed() < Duration::from_secs(5), "stopped promptly");
    assert!(out.failed.is_none(), "{out:?}");
    assert_eq!(
        pair.pids_in_a(),
        "",
        "no iperf3 client left in the namespace"
    );
}

/// Namespace a's sysfs mounted on `<dir>/sys` (sysfs shows the interfaces of the namespace that
/// mounts it): a root in which /sys/class/net/vA is the test's veth. Unmounted on drop.
struct NsSysfs {
    dir: tempfile::TempDir,
}

impl NsSysfs {
    fn new(ns: &str) -> Option<NsSysfs> {
        let dir = tempfile::tempdir().unwrap();
        let sys = dir.path().join("sys");
        std::fs::create_dir(&sys).unwrap();
        let ok = Command::new("nsenter")
            .arg(format!("--net=/run/netns/{ns}"))
            .args(["mount", "-t", "sysfs", "sysfs"])
            .arg(&sys)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(NsSysfs { dir })
    }
}

impl Drop for NsSysfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg(self.dir.path().join("sys"))
            .status();
    }
}

#[test]
fn the_interface_is_named_in_the_titles_bound_and_described() {
    if !runnable() || !common::have("nsenter") {
        return;
    }
    let _turn = turn();
    let pair = Pair::new("i", 4);
    let Some(sysfs) = NsSysfs::new(&pair.a) else {
        eprintln!("skipped: cannot mount the namespace's sysfs");
        return;
    };
    let wd = tempfile::tempdir().unwrap();
    let mut ctx = common::ctx(probe::Root::new(sysfs.dir.path()), wd.path());
    ctx.network.interface = Some("vA".into());
    ctx.network.trial = Some(Duration::from_secs(1));
    let mut o = network::Options::for_context(&ctx, "10.213.4.2");
    let base = pair.options(4);
    o.prefix = base.prefix.clone();
    o.socket_buffer = base.socket_buffer.clone();
    o.frame_sizes = base.frame_sizes.clone();
    o.udp_ingress = false;
    o.resolution = 0.2;
    assert_eq!(
        o.trial_time,
        Duration::from_secs(1),
        "--net-time sets the trials"
    );
    assert_eq!(o.tcp_time, Duration::from_secs(1));
    let started = Instant::now();
    let out = network::run(&ctx, &o);
    assert!(out.failed.is_none() && out.skipped.is_none(), "{out:?}");
    let titles: Vec<&str> = out.tables.iter().map(|t| t.title.as_str()).collect();
    // ethtool -i names the veth driver where ethtool is installed; else the interface alone.
    let suffix = if common::have("ethtool") {
        "(veth, vA)"
    } else {
        "(vA)"
    };
    assert!(
        titles.contains(&format!("TCP Throughput {suffix}").as_str()),
        "{titles:?}"
    );
    assert!(titles.contains(&format!("UDP Egress Throughput 0 loss {suffix}").as_str()));
    let notes = out.notes.join("\n");
    assert!(notes.contains("interface vA: driver"), "{notes}");
    assert!(notes.contains("MTU 1500"), "{notes}");
    assert!(notes.contains("bound to 10.213.4.1 (iperf3 -B)"), "{notes}");
    if common::have("ethtool") {
        assert!(
            notes.contains("offloads of vA (ethtool -k): rx-checksumming on"),
            "{notes}"
        );
    } else {
        assert!(notes.contains("offloads of vA not read"), "{notes}");
    }
    assert!(notes.contains("MEAN_LATENCY"));
    let latency = out
        .tables
        .iter()
        .find(|t| t.title.starts_with("Latency"))
        .expect("a latency table");
    let keys: Vec<&str> = latency.rows.iter().map(|r| r.key.as_str()).collect();
    assert!(
        keys.contains(&"TCP RTT under load, egress, mean (us)"),
        "{keys:?}"
    );
    assert!(
        keys.iter()
            .any(|k| k.starts_with("UDP jitter at 0 loss, egress, frame 1518")),
        "{keys:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(60));

    // An interface the namespace does not have: the section says so and measures nothing.
    ctx.network.interface = Some("nope0".into());
    let mut o2 = o.clone();
    o2.interface = Some("nope0".into());
    let out = network::run(&ctx, &o2);
    let why = out.skipped.expect("skipped");
    assert!(
        why.contains("no interface nope0") && why.contains("vA"),
        "{why}"
    );
}
