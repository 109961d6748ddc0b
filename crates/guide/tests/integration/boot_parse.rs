//! The boot section's parsers on recorded systemd-analyze outputs and kernel logs, and the
//! section itself over a fixture tree (no systemd there: kernel log only).

use crate::common;

use guide::boot::{kernel_init_time, parse_blame, parse_time, parse_timespan};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn timespans_in_systemd_units() {
    assert!(close(parse_timespan("850ms").unwrap(), 0.85));
    assert!(close(parse_timespan("1min 2.345s").unwrap(), 62.345));
    assert!(close(parse_timespan("1h 2min").unwrap(), 3720.0));
    assert!(close(parse_timespan("900us").unwrap(), 0.0009));
    assert_eq!(parse_timespan("soon"), None);
    assert_eq!(parse_timespan(""), None);
}

#[test]
fn time_with_firmware_loader_and_initrd() {
    let b = parse_time(&common::data("systemd-analyze-time-efi.txt")).unwrap();
    assert_eq!(b.firmware, Some(3.215));
    assert_eq!(b.loader, Some(1.047));
    assert_eq!(b.kernel, Some(2.871));
    assert_eq!(b.initrd, Some(4.102));
    assert!(close(b.userspace.unwrap(), 62.345));
    assert!(close(b.total.unwrap(), 73.58));
    let (t, s) = b.target.unwrap();
    assert_eq!(t, "graphical.target");
    assert!(close(s, 62.301));
}

#[test]
fn time_of_a_board_without_efi() {
    let b = parse_time(&common::data("systemd-analyze-time-arm.txt")).unwrap();
    assert_eq!((b.firmware, b.loader, b.initrd), (None, None, None));
    assert_eq!(
        (b.kernel, b.userspace, b.total),
        (Some(4.512), Some(9.874), Some(14.386))
    );
    assert_eq!(b.target.unwrap().0, "multi-user.target");
    assert!(parse_time("Bootup is not yet finished.\n").is_none());
}

#[test]
fn blame_lines_keep_their_order_and_units() {
    let b = parse_blame(&common::data("systemd-analyze-blame.txt"));
    assert_eq!(b.len(), 9);
    assert_eq!(
        b[0],
        ("NetworkManager-wait-online.service".to_string(), 5.012)
    );
    assert!(close(b[1].1, 61.25));
    assert_eq!(b[2], ("dev-mmcblk0p2.device".to_string(), 0.85));
    assert!(close(b[8].1, 0.0009));
}

#[test]
fn kernel_time_to_init_from_kmsg_and_dmesg() {
    // The first "as init process" line counts (the initramfs's /init), not the later switch.
    assert_eq!(kernel_init_time(&common::data("kmsg.txt")), Some(1.901122));
    assert_eq!(kernel_init_time(&common::data("dmesg.txt")), Some(2.031877));
    assert_eq!(kernel_init_time("6,1,5,-;nothing\n"), None);
}

#[test]
fn section_over_a_fixture_tree_reports_kernel_time_and_boot_id() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::create_dir_all(r.join("dev")).unwrap();
    std::fs::create_dir_all(r.join("proc/sys/kernel/random")).unwrap();
    std::fs::write(r.join("dev/kmsg"), common::data("kmsg.txt")).unwrap();
    std::fs::write(
        r.join("proc/sys/kernel/random/boot_id"),
        "3f1c4a8e-0d6b-4a57-9a0e-2c5f5f1d9b11\n",
    )
    .unwrap();
    let ctx = common::ctx(probe::Root::new(r), r);
    let out = (guide::registry::find("boot").unwrap().run)(&ctx);
    assert!(out.skipped.is_none(), "{:?}", out.skipped);
    let t = &out.tables[0];
    assert_eq!(
        (t.title.as_str(), t.key_header.as_str()),
        ("Boot time", "Boot Configuration")
    );
    assert_eq!(t.columns, ["boot time (sec)"]);
    assert_eq!(t.rows[0].key, "kernel start to init, kernel log (s)");
    assert_eq!(t.rows[0].cells[0].as_ref().unwrap().value, 1.901122);
    assert!(out.notes.iter().any(|n| n.contains("3f1c4a8e-0d6b")));

    // Nothing known at all: skipped with the reason.
    let empty = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::new(empty.path()), empty.path());
    let out = guide::boot::section(&ctx);
    assert!(out.skipped.unwrap().contains("no boot times"));
}
