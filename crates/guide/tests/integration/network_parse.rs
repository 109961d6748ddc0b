//! The network section's pure parts: iperf3's JSON on recorded outputs, the frame → payload
//! mapping, the peer address forms, and the RFC 2544 search against a simulated path.

use crate::common;

use guide::network::{Trial, parse_iperf, split_peer, udp_payload, zero_loss_search};

#[test]
fn udp_json_sender_and_receiver_sides() {
    let r = parse_iperf(&common::data("iperf3-udp.json")).unwrap();
    assert_eq!(r.protocol, "UDP");
    assert!(r.version.starts_with("iperf 3"));
    assert!(r.udp_sent_bps > 0.0 && r.udp_packets > 0);
    assert_eq!(r.udp_lost, 0);
    assert!(r.host_cpu.is_some() && r.remote_cpu.is_some());

    let u = parse_iperf(&common::data("iperf3-udp-reverse-unlimited.json")).unwrap();
    assert!(u.udp_lost > 0 && u.udp_lost_pct > 0.0);
    // What arrived is less than what was sent, by the loss.
    assert!(u.udp_received_bps < u.udp_sent_bps);
    let expect = u.udp_sent_bps * (1.0 - u.udp_lost_pct / 100.0);
    assert!((u.udp_received_bps - expect).abs() / expect < 0.02);
}

#[test]
fn tcp_bidir_json_has_both_directions() {
    let r = parse_iperf(&common::data("iperf3-tcp-bidir.json")).unwrap();
    assert_eq!(r.protocol, "TCP");
    assert!(r.tcp_received_bps > 0.0);
    assert!(r.tcp_reverse_received_bps.unwrap() > 0.0);
    assert!(r.retransmits.is_some());
}

#[test]
fn iperf3_errors_are_errors() {
    let e = parse_iperf(r#"{"start":{},"intervals":[],"end":{},"error":"unable to connect to server: Connection refused"}"#)
        .unwrap_err();
    assert!(e.contains("Connection refused"));
    assert!(parse_iperf("iperf3: error").is_err());
}

#[test]
fn frames_map_to_udp_payloads() {
    let p: Vec<u32> = [64, 128, 256, 1024, 1518].map(udp_payload).to_vec();
    assert_eq!(p, [18, 82, 210, 978, 1472]);
}

#[test]
fn peer_forms() {
    assert_eq!(split_peer("lab-pc"), ("lab-pc".into(), 5201));
    assert_eq!(split_peer("10.0.0.2:5301"), ("10.0.0.2".into(), 5301));
    assert_eq!(split_peer("[fe80::1]:5301"), ("fe80::1".into(), 5301));
    assert_eq!(split_peer("fe80::1"), ("fe80::1".into(), 5201));
}

/// A path that forwards everything up to `limit` bit/s and drops the excess; the sender reaches
/// at most `sender_max`.
fn path(limit: f64, sender_max: f64) -> impl FnMut(f64) -> Option<Trial> {
    move |rate| {
        let sent = rate.min(sender_max);
        let packets = 10_000;
        let lost = if sent > limit {
            ((sent - limit) / sent * packets as f64).ceil() as u64
        } else {
            0
        };
        Some(Trial {
            offered_bps: rate,
            sent_bps: sent,
            received_bps: sent.min(limit),
            lost,
            packets,
            cpu: None,
            jitter_ms: None,
        })
    }
}

#[test]
fn search_finds_the_limit_within_its_resolution() {
    for limit in [1e6, 93.7e6, 200e6, 941e6] {
        let r = zero_loss_search(2e9, 0.01, path(limit, 2e9)).unwrap();
        let got = r.best.received_bps;
        assert!(got <= limit, "never above the limit");
        assert!((limit - got) / limit <= 0.011, "{limit}: {got}");
        assert!(r.best.zero_loss());
        assert!(!r.sender_limited);
        assert!(r.trials <= 24);
    }
}

#[test]
fn search_stops_at_once_when_the_maximum_passes() {
    let r = zero_loss_search(500e6, 0.01, path(1e9, 1e9)).unwrap();
    assert_eq!((r.trials, r.best.received_bps), (1, 500e6));
}

#[test]
fn search_flags_a_sender_that_cannot_keep_up_and_handles_no_result() {
    let r = zero_loss_search(1e9, 0.01, path(2e9, 300e6)).unwrap();
    assert!(r.sender_limited);
    assert!(zero_loss_search(1e9, 0.01, path(0.0, 1e9)).is_none());
    // A trial that fails (None) ends the search with what was found.
    let mut n = 0;
    let r = zero_loss_search(1e9, 0.01, |rate| {
        n += 1;
        if n > 3 { None } else { path(400e6, 1e9)(rate) }
    });
    assert!(r.is_some_and(|r| r.trials == 3));
}

#[test]
fn tcp_rtt_is_the_sending_streams_and_udp_has_jitter() {
    // --bidir: one stream each way; only this side's sending stream has the RTT that counts.
    let r = parse_iperf(&common::data("iperf3-tcp-bidir.json")).unwrap();
    assert_eq!(r.mean_rtt_us, Some(734.0));
    assert_eq!(r.min_rtt_us, Some(734.0));
    let u = parse_iperf(&common::data("iperf3-udp.json")).unwrap();
    let j = u.udp_jitter_ms.unwrap();
    assert!(j > 0.0 && j < 1.0, "{j}");
    assert_eq!(u.mean_rtt_us, None);
}

/// A board's sysfs as the kernel lays it out, written for the test: eth0 is a platform
/// device's interface whose driver link ends in the driver's name.
fn board_tree(dir: &std::path::Path, speed: &str) {
    use std::os::unix::fs::symlink;
    let dev = dir.join("sys/devices/platform/bus@f0000/8000000.ethernet");
    let net = dev.join("net/eth0");
    std::fs::create_dir_all(&net).unwrap();
    for (f, v) in [
        ("speed", speed),
        ("duplex", "full"),
        ("mtu", "1500"),
        ("operstate", "up"),
    ] {
        std::fs::write(net.join(f), format!("{v}\n")).unwrap();
    }
    std::fs::create_dir_all(dir.join("sys/bus/platform/drivers/am65-cpsw-nuss")).unwrap();
    symlink(
        "../../../../bus/platform/drivers/am65-cpsw-nuss",
        dev.join("driver"),
    )
    .unwrap();
    symlink("../../../8000000.ethernet", net.join("device")).unwrap();
    std::fs::create_dir_all(dir.join("sys/class/net")).unwrap();
    symlink(
        "../../devices/platform/bus@f0000/8000000.ethernet/net/eth0",
        dir.join("sys/class/net/eth0"),
    )
    .unwrap();
    // A virtual interface: no device, no driver link.
    let veth = dir.join("sys/devices/virtual/net/veth0");
    std::fs::create_dir_all(&veth).unwrap();
    std::fs::write(veth.join("mtu"), "9000\n").unwrap();
    symlink(
        "../../devices/virtual/net/veth0",
        dir.join("sys/class/net/veth0"),
    )
    .unwrap();
}

#[test]
fn the_interface_is_read_from_a_fixture_tree_and_recorded_ethtool() {
    use guide::netif::describe;
    let dir = tempfile::tempdir().unwrap();
    board_tree(dir.path(), "1000");
    let root = probe::Root::new(dir.path());
    let k = common::data("ethtool-k-veth.txt");
    let eth0 = describe(&root, "eth0", Ok(&k), None).unwrap();
    assert_eq!(eth0.driver.as_deref(), Some("am65-cpsw-nuss"));
    assert_eq!(eth0.speed_mbps, Some(1000));
    assert_eq!(eth0.mtu, Some(1500));
    assert_eq!(eth0.title_suffix(), "(am65-cpsw-nuss, eth0)");
    let notes = eth0.notes().join("\n");
    assert!(
        notes.contains(
            "interface eth0: driver am65-cpsw-nuss; link 1000 Mb/s full duplex; MTU 1500; state up"
        ),
        "{notes}"
    );
    assert!(
        notes.contains("rx-checksumming on, tx-checksumming on, scatter-gather on, tcp-segmentation-offload on, generic-segmentation-offload on, generic-receive-offload off, large-receive-offload off (fixed)"),
        "{notes}"
    );

    // No device link: the driver from `ethtool -i`, or unknown; no speed; no ethtool.
    let i = common::data("ethtool-i-veth.txt");
    let veth = describe(
        &root,
        "veth0",
        Err("ethtool is not installed".into()),
        Some(&i),
    )
    .unwrap();
    assert_eq!(veth.driver.as_deref(), Some("veth"));
    assert_eq!(veth.speed_mbps, None);
    assert_eq!(veth.mtu, Some(9000));
    let notes = veth.notes().join("\n");
    assert!(notes.contains("speed unknown"), "{notes}");
    assert!(notes.contains("MTU 9000"));
    assert!(notes.contains("offloads of veth0 not read: ethtool is not installed"));
    let bare = describe(&root, "veth0", Err("x".into()), None).unwrap();
    assert_eq!(bare.driver, None);
    assert_eq!(bare.title_suffix(), "(veth0)");

    let e = describe(&root, "wlan0", Ok(""), None).unwrap_err();
    assert!(
        e.contains("no interface wlan0") && e.contains("eth0, veth0"),
        "{e}"
    );
    assert!(describe(&root, "../eth0", Ok(""), None).is_err());
}

#[test]
fn a_link_that_is_down_has_no_speed() {
    let dir = tempfile::tempdir().unwrap();
    board_tree(dir.path(), "-1");
    let root = probe::Root::new(dir.path());
    let eth0 = guide::netif::describe(&root, "eth0", Ok(""), None).unwrap();
    assert_eq!(eth0.speed_mbps, None);
    assert!(eth0.notes()[1].contains("ethtool -k named none"));
}

/// A port nothing listens on: with one attempt (IPsec's rows after the first) the client fails
/// at once and says the connection was refused; with the default attempts it tries again (the
/// peer may still be starting) and says the same after its pauses (0.3 + 0.6 + 0.9 s).
#[test]
fn a_refused_port_fails_at_once_with_one_attempt() {
    if common::host_only() || guide::exec::which("iperf3").is_none() {
        eprintln!("skipped: needs iperf3 on the host");
        return;
    }
    // A port that was free a moment ago: bound, then released.
    let port = testsupport::http::free_port();
    let tmp = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::host(), tmp.path());
    let mut opt = guide::network::Options::new(&format!("127.0.0.1:{port}"));
    opt.connect_attempts = 1;
    let t0 = std::time::Instant::now();
    let r = guide::network::client(&ctx, &opt, &[], std::time::Duration::from_secs(1));
    let once = t0.elapsed();
    let Err(guide::network::ClientError::Failed(e)) = r else {
        panic!("a port nobody serves gave a figure or was cancelled");
    };
    assert!(
        e.contains(&format!(
            "127.0.0.1 port {port} was refused: nothing listens there"
        )),
        "{e}"
    );
    assert!(
        once.as_secs_f64() < 2.0,
        "one refused attempt took {once:?}"
    );
    opt.connect_attempts = 4;
    let t0 = std::time::Instant::now();
    let r = guide::network::client(&ctx, &opt, &[], std::time::Duration::from_secs(1));
    let four = t0.elapsed();
    assert!(matches!(r, Err(guide::network::ClientError::Failed(e)) if e.contains("refused")));
    assert!(
        four.as_secs_f64() >= 1.8 && four < once + std::time::Duration::from_secs(8),
        "four attempts took {four:?}"
    );
}
