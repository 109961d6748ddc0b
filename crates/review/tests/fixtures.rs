//! The review on fixture trees of real boards (built by tests/roots/generate.py).

use std::path::Path;

use document::Severity;
use probe::Root;
use review::mmc::Counterfeit;
use review::{Review, clocks, review, window};

fn tree(name: &str) -> Root {
    Root::new(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/roots")
            .join(name),
    )
}

fn load(name: &str) -> (Root, document::machine::MachineInfo, Review) {
    let root = tree(name);
    let m = probe::snapshot::take(&root);
    let r = review(&root, &m);
    (root, m, r)
}

fn kinds(r: &Review) -> Vec<&str> {
    r.findings.iter().map(|f| f.kind.as_str()).collect()
}

#[test]
fn rk3588_nvme_link_trained_below_both_ends_is_downgraded() {
    let (_, _, r) = load("rk3588-nvme");
    let nvme = r.pcie.iter().find(|d| d.address == "0000:01:00.0").unwrap();
    assert_eq!(nvme.kind, "NVMe SSD");
    assert_eq!(nvme.driver.as_deref(), Some("nvme"));
    assert_eq!(nvme.current.text(), "Gen2 x1");
    assert_eq!(nvme.capable.text(), "Gen3 x4");
    assert_eq!(nvme.upstream.as_deref(), Some("0000:00:00.0"));
    assert_eq!(nvme.expected().text(), "Gen3 x4");
    let f: Vec<_> = r.of_kind("pcie-link-downgraded").collect();
    assert_eq!(f.len(), 1, "{:#?}", r.findings);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].message.contains("0000:01:00.0"), "{}", f[0].message);
    assert!(f[0].evidence[0].starts_with("Why it matters: "));
    // The ASM1061 runs at its full Gen2 x1: named, not flagged.
    let asm = r.pcie.iter().find(|d| d.address == "0002:21:00.0").unwrap();
    assert!(asm.name.as_deref().unwrap().contains("ASM1061"));
    assert_eq!(asm.driver.as_deref(), Some("ahci"));
    assert_eq!(r.of_kind("pcie-link-slot-limited").count(), 0);
    // ASPM powersave is reported and planned to change.
    assert_eq!(r.aspm_policy.as_ref().unwrap().selected, "powersave");
    assert_eq!(r.of_kind("pcie-aspm-policy").count(), 1);
}

#[test]
fn rk3588_usb_nvme_bridge_speed_uas_and_ntfs() {
    let (_, _, r) = load("rk3588-nvme");
    let enc = r.usb.iter().find(|d| d.path == "2-1").unwrap();
    let b = enc.bridge.as_ref().unwrap();
    assert_eq!(
        (b.name.as_str(), b.target.as_str()),
        ("ASMedia ASM2362", "NVMe")
    );
    assert_eq!(enc.storage_driver.as_deref(), Some("uas"));
    assert_eq!(enc.uas_capable, Some(true));
    assert_eq!(enc.speed_mbps, Some(5000.0));
    assert_eq!(
        enc.capable_mbps,
        Some(10000.0),
        "SuperSpeedPlus from the BOS"
    );
    assert!(kinds(&r).contains(&"usb-speed-below-capability"));
    assert_eq!(r.of_kind("usb-storage-not-uas").count(), 0);
    // The USB disk sits behind that bridge and holds the NTFS (FUSE) mount.
    let sda = r.disks.iter().find(|d| d.name == "sda").unwrap();
    assert_eq!(sda.transport, "usb");
    assert_eq!(sda.usb_path.as_deref(), Some("2-1"));
    let ntfs: Vec<_> = r.of_kind("ntfs-fuse").collect();
    assert_eq!(ntfs.len(), 1);
    assert!(ntfs[0].message.contains("/mnt/usb-ntfs"));
    let nvme = r.disks.iter().find(|d| d.name == "nvme0n1").unwrap();
    assert_eq!(nvme.pci_address.as_deref(), Some("0000:01:00.0"));
    // Swap file on / lives on the NVMe SSD.
    assert_eq!(r.swap[0].disk.as_deref(), Some("nvme0n1"));
    // eMMC identity and wear.
    let emmc = &r.mmc[0];
    assert_eq!(emmc.card_type.as_deref(), Some("MMC"));
    assert_eq!(emmc.life_time, vec![1, 1]);
    assert_eq!(r.of_kind("emmc-worn").count(), 0);
}

#[test]
fn rk3588_thermal_trips_and_cooling() {
    let (_, _, r) = load("rk3588-nvme");
    let z0 = &r.thermal.zones[0];
    assert_eq!(z0.name, "soc-thermal");
    assert_eq!(z0.trips.len(), 3);
    assert_eq!(z0.trips[0].kind, "passive");
    assert_eq!(z0.trips[0].temp_c, 75.0);
    let t: Vec<_> = r.of_kind("thermal-trip").collect();
    assert_eq!(t.len(), 1);
    assert!(t[0].message.contains("75.0°C"), "{}", t[0].message);
    assert!(r.thermal.cooling.iter().any(|c| c.is_fan()));
    assert_eq!(r.of_kind("cooling-active").count(), 0);
}

#[test]
fn rk3588_tuning_plan_covers_governors_devfreq_and_aspm() {
    let (root, m, _) = load("rk3588-nvme");
    let plan = review_plan(&root, &m);
    let paths: Vec<&str> = plan.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
            "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor",
            "/sys/devices/system/cpu/cpufreq/policy6/scaling_governor",
            "/sys/class/devfreq/dmc/governor",
            "/sys/class/devfreq/fb000000.gpu/governor",
            "/sys/module/pcie_aspm/parameters/policy",
        ]
    );
    assert!(plan.iter().all(|w| w.value == "performance"));
    assert_eq!(plan[3].from.as_deref(), Some("dmc_ondemand"));
    assert_eq!(plan[5].from.as_deref(), Some("powersave"));
    let clocks = clocks::clocks(&root, &m);
    assert_eq!(clocks[0].mhz, Some(408));
    assert_eq!(clocks[3].what, "devfreq dmc");
    assert_eq!(clocks[3].mhz, Some(528));
}

#[test]
fn rpi4_jms578_on_usb_storage_with_uas_quirk() {
    let (_, _, r) = load("rpi4-usb-sata");
    let jm = r.usb.iter().find(|d| d.path == "2-1").unwrap();
    assert_eq!(jm.bridge.as_ref().unwrap().name, "JMicron JMS578/JMS579");
    assert_eq!(jm.bridge.as_ref().unwrap().target, "SATA");
    assert_eq!(jm.storage_driver.as_deref(), Some("usb-storage"));
    assert_eq!(jm.uas_capable, Some(true), "alt setting 1 offers UAS");
    assert_eq!(jm.quirks.as_deref(), Some("u"));
    let f: Vec<_> = r
        .of_kind("usb-storage-not-uas")
        .filter(|f| f.message.contains("JMS578"))
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].message.contains("quirk"), "{}", f[0].message);
    // The USB 3 stick in a USB 2 port.
    let s: Vec<_> = r.of_kind("usb-superspeed-at-high-speed").collect();
    assert_eq!(s.len(), 1);
    assert!(s[0].message.contains("1-1.2"), "{}", s[0].message);
    // The disk behind the bridge is recognised as a USB disk of that bridge.
    let sda = r.disks.iter().find(|d| d.name == "sda").unwrap();
    assert_eq!(sda.usb_path.as_deref(), Some("2-1"));
}

#[test]
fn rpi4_ondemand_io_is_busy_zero_is_a_finding() {
    let (_, _, r) = load("rpi4-usb-sata");
    let g = &r.governors[0];
    assert_eq!(g.governor.as_deref(), Some("ondemand"));
    let t = g.tunables.as_ref().unwrap();
    assert_eq!(t.policy, None, "global ondemand directory");
    assert_eq!(t.values["io_is_busy"], "0");
    assert_eq!(t.values["up_threshold"], "50");
    let f: Vec<_> = r.of_kind("ondemand-io-is-busy").collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(
        f[0].evidence
            .iter()
            .any(|e| e == "/sys/devices/system/cpu/cpufreq/ondemand/io_is_busy = 0")
    );
}

#[test]
fn rpi4_sd_card_identity_swap_and_firmware() {
    let (_, _, r) = load("rpi4-usb-sata");
    let c = &r.mmc[0];
    let cid = c.cid.as_ref().unwrap();
    assert_eq!(cid.manfid, 0x03);
    assert_eq!(cid.oemid, "SD");
    assert_eq!(cid.name, "SN64G");
    assert_eq!(cid.serial, 0x7a1c32e9);
    assert_eq!((cid.year, cid.month), (2022, 4));
    assert_eq!(c.manufacturer.as_deref(), Some("SanDisk"));
    assert_eq!(c.csd_version, Some(2));
    assert_eq!(c.csd_bytes, c.block_bytes);
    assert_eq!(c.counterfeit, None, "{:?}", c.signs);
    assert_eq!(c.timing.as_deref(), Some("sd high-speed"));
    // /dev/root is resolved through root= on the command line.
    let root_mount = r.mounts.iter().find(|m| m.mountpoint == "/").unwrap();
    assert_eq!(root_mount.disk.as_deref(), Some("mmcblk0"));
    assert!(kinds(&r).contains(&"rootfs-on-sd"));
    assert_eq!(r.of_kind("swap-on-sd").count(), 1);
    // Firmware: the recorded get_throttled says under-voltage now; config.txt overclocks.
    assert_eq!(
        r.of_kind("rpi-under-voltage").next().unwrap().severity,
        Severity::Invalid
    );
    assert!(kinds(&r).contains(&"rpi-overclock"));
    assert_eq!(r.rpi_config.as_ref().unwrap().settings["arm_freq"], "2000");
}

#[test]
fn rpi4_counterfeit_sd_card_is_called_out() {
    let (_, _, r) = load("rpi4-fake-sd");
    let c = &r.mmc[0];
    assert_eq!(c.counterfeit, Some(Counterfeit::Definite));
    let signs = c.signs.join("\n");
    for s in ["0x000012", "\"42\"", "serial number 0x00000000", "month 0"] {
        assert!(signs.contains(s), "{s} missing in {signs}");
    }
    let f = r.of_kind("sd-counterfeit").next().unwrap();
    assert_eq!(f.severity, Severity::Invalid);
    assert!(f.message.starts_with("Definite counterfeit SD card"));
}

#[test]
fn x86_tidy_box_has_nothing_to_fix() {
    let (root, m, r) = load("x86-tidy");
    let bad: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let nvme = r.pcie.iter().find(|d| d.address == "0000:01:00.0").unwrap();
    assert_eq!(nvme.current.text(), "Gen4 x4");
    assert!(!kinds(&r).iter().any(|k| k.starts_with("pcie-")));
    // Sixteen per-CPU policies: one grouped governor finding; sixteen governor writes and
    // the ASPM policy (default → performance, as sbc-bench does).
    assert_eq!(r.of_kind("governor-dynamic").count(), 1);
    let plan = review_plan(&root, &m);
    assert_eq!(plan.len(), 17);
    assert_eq!(plan[16].from.as_deref(), Some("default"));
    assert_eq!(r.swap[0].disk.as_deref(), Some("zram"));
    let hdd = r.disks.iter().find(|d| d.name == "sda").unwrap();
    assert_eq!(hdd.kind(), "SATA HDD");
}

#[test]
fn review_serialises_and_reads_back() {
    let (_, _, r) = load("rk3588-nvme");
    let j = serde_json::to_string(&r).unwrap();
    let back: Review = serde_json::from_str(&j).unwrap();
    assert_eq!(back, r);
}

#[test]
fn window_throttling_and_device_changes() {
    let (root, m, before) = load("rk3588-nvme");
    let tis = window::read_time_in_state(&root, &m);
    assert_eq!(tis.len(), 3);
    // policy4 spent 3 s at 2400 MHz and 1 s at 1800 MHz during the window.
    let mut after = tis.clone();
    for row in &mut after[1].rows {
        match row.0 {
            2_400_000 => row.1 += 300,
            1_800_000 => row.1 += 100,
            _ => {}
        }
    }
    let f = window::throttling(&tis, &after, &m, true);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].kind, "throttling");
    assert!(f[0].message.contains("policy4"));
    assert!(f[0].message.contains("25.0 %"), "{}", f[0].message);
    // Untuned: a distribution, not throttling.
    let g = window::throttling(&tis, &after, &m, false);
    assert_eq!(g[0].kind, "clock-distribution");
    // Nothing changed: no finding; a retrained link: one.
    assert!(window::changes(&before, &before).is_empty());
    let mut later = before.clone();
    later.pcie[1].current.width = Some(2);
    later.usb.clear();
    let c = window::changes(&before, &later);
    assert_eq!(c.len(), 1);
    assert!(
        c[0].evidence
            .iter()
            .any(|e| e.contains("USB 2-1 disconnected"))
    );
}

#[test]
fn the_probes_broken_tree_and_garbage_never_panic() {
    let broken = testsupport::probe_root("broken");
    let root = Root::new(broken);
    let m = probe::snapshot::take(&root);
    let _ = review::text::render(&review(&root, &m));

    let d = tempfile::tempdir().unwrap();
    let w = |p: &str, c: &[u8]| {
        let f = d.path().join(p);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, c).unwrap();
    };
    w("sys/bus/pci/devices/0000:01:00.0/class", b"0xzz");
    w(
        "sys/bus/pci/devices/0000:01:00.0/current_link_speed",
        b"fast",
    );
    w("sys/bus/pci/devices/0000:01:00.0/max_link_width", b"-1");
    w("sys/bus/usb/devices/1-1/idVendor", b"xyz");
    w("sys/bus/usb/devices/1-1/speed", b"\xff\xfe");
    w(
        "sys/bus/usb/devices/1-1/bos_descriptors",
        &[5, 0x0f, 200, 0, 9, 255, 0x10, 0x0a],
    );
    w("sys/bus/usb/devices/1-1/descriptors", &[0, 0, 0]);
    w("sys/bus/usb/devices/1-1:1.0/bInterfaceClass", b"08");
    w("sys/class/mmc_host/mmc0/mmc0:1/type", b"SD");
    w("sys/class/mmc_host/mmc0/mmc0:1/cid", b"0123");
    w(
        "sys/class/mmc_host/mmc0/mmc0:1/csd",
        b"ffffffffffffffffffffffffffffffff",
    );
    w("sys/class/mmc_host/mmc0/mmc0:1/name", b"AAAAAAAAAG");
    w(
        "sys/class/thermal/thermal_zone0/trip_point_0_temp",
        b"999999999999999999999",
    );
    w("sys/class/thermal/thermal_zone0/trip_point_x_temp", b"1");
    w("sys/block/sda/size", b"-5");
    w("proc/mounts", b"/dev/sda1\n\n/dev/sda1 / \n");
    w("proc/swaps", b"Filename\n/dev/sda1 partition 1 0 -2\n");
    w("proc/cmdline", b"maxcpus= mem mitigations");
    w("proc/loadavg", b"nan garbage");
    let root = Root::new(d.path());
    let m = probe::snapshot::take(&root);
    let r = review(&root, &m);
    let _ = review::text::render(&r);
    let _ = review_plan(&root, &m);
    assert_eq!(r.pcie[0].current.gts, None);
}

#[test]
fn a_busy_machine_is_called_out() {
    let (_d, root) = {
        let d = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/roots/x86-tidy");
        let root = d.path().join("t");
        testsupport::copy_tree(&src, &root);
        (d, root)
    };
    std::fs::write(root.join("proc/loadavg"), "11.50 9.00 4.00 12/345 6789\n").unwrap();
    let root = Root::new(root);
    let m = probe::snapshot::take(&root);
    let r = review(&root, &m);
    let f = r.of_kind("background-load").next().unwrap();
    assert!(
        f.message.contains("11.50 on 16 online CPUs"),
        "{}",
        f.message
    );
    std::fs::write(root.path("/proc/loadavg"), "0.08 0.10 0.09 1/345 6789\n").unwrap();
    let r = review(&root, &m);
    assert_eq!(r.of_kind("background-load").count(), 0);
}

/// Review's tune-up: the one tuning plan, governors and ASPM.
fn review_plan(root: &Root, m: &document::machine::MachineInfo) -> Vec<tune::tuning::Write> {
    let o = tune::tuning::TuneOptions {
        governors: true,
        max_khz: None,
        aspm: true,
    };
    tune::tuning::plan(root, m, &o).writes
}
