//! The IPsec section: the xfrm counter parser, and the section on the live kernel — whatever
//! the kernel supports (this VM's has no ESP: every row is refused and the section skips with
//! the reason), no namespace, state or policy may be left behind, cancelled or not. Skipped
//! under emulation and without root.

mod common;

use std::process::Command;
use std::time::Duration;

use guide::ipsec::{NS_PREFIX, algorithms, state_packets};

#[test]
fn packets_from_ip_xfrm_state_statistics() {
    let text = "src 10.214.0.1 dst 10.214.0.2\n\tproto esp spi 0x00001001 reqid 0 mode transport\n\
        \tlifetime config:\n\t  limit: soft (INF)(bytes), hard (INF)(bytes)\n\
        \tlifetime current:\n\t  1460480(bytes), 1021(packets)\n\t  add 2026-11-24 11:00:00 use 2026-11-24 11:00:01\n";
    assert_eq!(state_packets(text), Some(1021));
    assert_eq!(state_packets("nothing"), None);
    let rows: Vec<&str> = algorithms().iter().map(|(r, _)| *r).collect();
    assert_eq!(rows, ["3des", "aes128", "aes192", "aes256", "aes128-gcm"]);
}

fn leftovers() -> Vec<String> {
    let o = Command::new("ip").args(["netns", "list"]).output().unwrap();
    let me = format!("{NS_PREFIX}{}x", std::process::id());
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .filter(|w| w.starts_with(&me))
        .map(String::from)
        .collect()
}

#[test]
fn the_section_leaves_nothing_behind_finished_or_cancelled() {
    if common::host_only() || !common::is_root() || !common::have("ip") || !common::have("iperf3") {
        eprintln!("skipped: emulated, not root, or no ip/iperf3");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::host(), dir.path());
    let out = guide::ipsec::run(&ctx, Duration::from_secs(1));
    match (&out.skipped, out.tables.first()) {
        (Some(reason), _) => assert!(
            reason.contains("ESP") || reason.contains("namespaces"),
            "{reason}"
        ),
        (None, Some(t)) => {
            assert_eq!(t.title, "IPSec Software Performance");
            assert!(t.rows[0].cells[0].as_ref().unwrap().value > 0.0);
        }
        (None, None) => panic!("neither figures nor a reason: {out:?}"),
    }
    assert!(leftovers().is_empty(), "{:?}", leftovers());

    ctx.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = guide::ipsec::run(&ctx, Duration::from_secs(5));
    assert!(leftovers().is_empty(), "{:?}", leftovers());
}
