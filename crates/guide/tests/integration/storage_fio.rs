//! The storage section: fio's JSON on a recorded output, the mount and device lookups on fixture
//! text, and fio itself on a small file in a temporary directory (skipped under emulation) —
//! including a cancelled run, which must leave no file behind.

use crate::common;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use guide::storage::{self, Options, mount_of, parse_fio, size_label};

#[test]
fn fio_json_direction_figures_and_percentiles() {
    let r = parse_fio(&common::data("fio-randread.json")).unwrap();
    assert!(r.version.starts_with("fio-"));
    let j = &r.jobs[0];
    assert_eq!(j.error, 0);
    assert!(j.read.iops > 0.0 && j.read.bw_bytes > 0.0 && j.read.io_bytes > 0);
    // bw_bytes / 4096 is the IOPS figure for a 4k job.
    assert!((j.read.bw_bytes / 4096.0 - j.read.iops).abs() / j.read.iops < 0.01);
    let p50 = j.read.clat_at(50.0).unwrap();
    let p99 = j.read.clat_at(99.0).unwrap();
    assert!(p50 > 0.0 && p99 >= p50);
    assert_eq!(j.write.io_bytes, 0);
    // Warnings before the JSON are skipped; garbage is an error.
    let warned = format!(
        "fio: some option is deprecated\n{}",
        common::data("fio-randread.json")
    );
    assert_eq!(parse_fio(&warned).unwrap(), r);
    assert!(parse_fio("fio: failed to open file").is_err());
}

#[test]
fn mount_lookup_takes_the_longest_mount_point_and_sees_sync() {
    let mi = common::data("mountinfo.txt");
    let m = mount_of(&mi, "/home/user").unwrap();
    assert_eq!((m.mount_point.as_str(), m.fs_type.as_str()), ("/", "ext4"));
    assert_eq!(
        (m.source.as_str(), m.dev.as_str()),
        ("/dev/mmcblk0p2", "179:2")
    );
    assert!(!m.is_sync());
    let u = mount_of(&mi, "/mnt/usb disk/x").unwrap();
    assert_eq!(u.mount_point, "/mnt/usb disk");
    assert!(u.is_sync());
    assert_eq!(mount_of(&mi, "/mnt/usb disk/tmp").unwrap().fs_type, "tmpfs");
    assert_eq!(mount_of(&mi, "/boot/firmwareX").unwrap().mount_point, "/");
}

#[test]
fn block_device_of_an_emmc_partition() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let dev = r.join("sys/devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0");
    std::fs::create_dir_all(dev.join("mmcblk0p2")).unwrap();
    std::fs::create_dir_all(dev.join("device")).unwrap();
    std::fs::create_dir_all(dev.join("queue")).unwrap();
    std::fs::write(dev.join("device/name"), "DG4016\n").unwrap();
    std::fs::write(dev.join("device/type"), "MMC\n").unwrap();
    std::fs::write(dev.join("queue/rotational"), "0\n").unwrap();
    std::fs::create_dir_all(r.join("sys/dev/block")).unwrap();
    std::fs::create_dir_all(r.join("sys/block")).unwrap();
    std::os::unix::fs::symlink(
        "../../devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0/mmcblk0p2",
        r.join("sys/dev/block/179:2"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        "../devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0",
        r.join("sys/block/mmcblk0"),
    )
    .unwrap();
    let d = storage::block_device(&probe::Root::new(r), "179:2").unwrap();
    assert_eq!(d.disk, "mmcblk0");
    assert_eq!(d.partition.as_deref(), Some("mmcblk0p2"));
    assert_eq!(d.model.as_deref(), Some("DG4016"));
    assert_eq!(d.bus.as_deref(), Some("mmc"));
    assert_eq!(d.rotational, Some(false));
    assert_eq!(d.table_prefix().as_deref(), Some("EMMC"));
}

#[test]
fn size_labels() {
    assert_eq!(size_label(1 << 30), "1G");
    assert_eq!(size_label(16 << 20), "16M");
    assert_eq!(size_label(512 << 10), "512K");
}

#[test]
fn skips_without_directory_or_with_too_little_space() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = common::ctx(probe::Root::host(), dir.path());
    let out = guide::registry::find("storage").unwrap().run;
    assert!(out(&ctx).skipped.unwrap().contains("--storage"));
    ctx.storage_dir = Some(dir.path().to_path_buf());
    if common::have("fio") {
        let huge = Options {
            size: 1 << 60,
            runtime: Duration::from_secs(1),
        };
        let r = storage::run(&ctx, &huge);
        assert!(
            r.skipped.unwrap().contains("free"),
            "too little space refused"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

fn small() -> Options {
    Options {
        size: 8 << 20,
        runtime: Duration::from_secs(1),
    }
}

#[test]
fn fio_on_a_small_file_fills_the_seed_table_and_removes_its_file() {
    if common::host_only() || !common::have("fio") {
        eprintln!("skipped: emulated or no fio");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = common::ctx(probe::Root::host(), dir.path());
    ctx.storage_dir = Some(dir.path().to_path_buf());
    let out = storage::run(&ctx, &small());
    assert!(out.failed.is_none() && out.skipped.is_none(), "{out:?}");
    assert!(out.tool.as_deref().unwrap().starts_with("fio-"));
    let seq = &out.tables[0];
    assert!(seq.title.ends_with("FIO 8M"), "{}", seq.title);
    assert_eq!(seq.key_header, "Buffer size (bytes)");
    assert!(
        seq.columns[0].starts_with("Write ")
            && seq.columns[0].ends_with(" Throughput (Mbytes/sec)")
    );
    assert!(seq.columns[3].ends_with(" CPU Load (%)"));
    let keys: Vec<_> = seq.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["1m", "4m", "4k", "256k"]);
    for row in &seq.rows {
        assert!(row.cells[0].as_ref().unwrap().value > 0.0, "{row:?}");
        assert!(row.cells[2].as_ref().unwrap().value > 0.0, "{row:?}");
    }
    let rnd = &out.tables[1];
    assert_eq!(rnd.rows.len(), 2);
    assert!(rnd.rows[0].cells[0].as_ref().unwrap().value > 0.0);
    assert!(out.notes.iter().any(|n| n.starts_with("file system: ")));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "file removed"
    );
}

#[test]
fn cancelling_storage_ends_fio_quickly_and_removes_the_file() {
    if common::host_only() || !common::have("fio") {
        eprintln!("skipped: emulated or no fio");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = common::ctx(probe::Root::host(), dir.path());
    ctx.storage_dir = Some(dir.path().to_path_buf());
    let cancel = ctx.cancel.clone();
    let opt = Options {
        size: 8 << 20,
        runtime: Duration::from_secs(30),
    };
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        cancel.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let out = storage::run(&ctx, &opt);
    let cancelled_at = t.join().unwrap();
    assert!(
        cancelled_at.elapsed() < Duration::from_secs(3),
        "fio killed promptly"
    );
    assert!(out.failed.is_none(), "{out:?}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "file removed"
    );
}
