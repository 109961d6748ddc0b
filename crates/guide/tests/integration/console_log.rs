//! Boot time and U-Boot's storage tables from console logs written for the tests
//! (tests/data/README.md): a LAVA job log of a reboot loop (two full boots, a setup boot whose
//! U-Boot was interrupted, two `init=/bin/sh` boots, a boot that hangs), a grabserial capture
//! of U-Boot's `mmc read/write` and `fatload/fatwrite`, and plain captures.

use crate::common;

use guide::console::{
    self, Line, Medium, Prompt, Setup, boots, lines, parse_datetime, prompt, yaml_double_quoted,
};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-5
}

fn value(t: &document::guide::GuideTable, key: &str, col: usize) -> document::guide::GuideValue {
    t.rows
        .iter()
        .find(|r| r.key == key)
        .unwrap_or_else(|| panic!("no row {key} in {}", t.title))
        .cells[col]
        .clone()
        .unwrap_or_else(|| panic!("{key}: empty"))
}

#[test]
fn line_forms_and_their_host_times() {
    assert_eq!(parse_datetime("1970-01-02T00:00:01.5"), Some(86_401.5));
    assert_eq!(
        parse_datetime("2026-11-27 03:00:00"),
        parse_datetime("2026-11-27T03:00:00Z")
    );
    assert_eq!(parse_datetime("2026-13-01T00:00:00"), None);
    assert_eq!(parse_datetime("[    1.234567]"), None);
    // LAVA writes YAML double-quoted scalars, not JSON: \e and \xE9 are YAML escapes.
    let (s, rest) = yaml_double_quoted(r#""[\e[0m] caf\xE9 \"q\"", "x""#).unwrap();
    assert_eq!(
        (s.as_str(), rest),
        ("[\u{1b}[0m] caf\u{e9} \"q\"", r#", "x""#)
    );
    let ls = lines(concat!(
        "- {\"dt\": \"2026-11-27T03:00:01.250000\", \"lvl\": \"target\", \"msg\": \"U-Boot SPL 2024.04\"}\n",
        "- {\"dt\": \"2026-11-27T03:00:02\", \"lvl\": \"info\", \"msg\": \"start: 1 minimal-boot\"}\n",
        "- {\"dt\": \"2026-11-27T03:00:03\", \"lvl\": \"results\", \"msg\": {\"case\": \"x\"}}\n",
        "[12.500000 0.100000] U-Boot 2024.04\n",
        "2026-11-27T03:00:04.5 => mmc list\n",
        "[2026-11-27 03:00:05.25] mmc@fa00000: 1 (SD)\n",
        "[    1.234567] Run /sbin/init as init process\n",
    ));
    let t0 = parse_datetime("2026-11-27T03:00:00").unwrap();
    let got: Vec<(Option<f64>, &str)> = ls
        .iter()
        .map(|l| (l.host.map(|h| h - t0), l.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(1.25), "U-Boot SPL 2024.04"),
            (Some(12.5 - t0), "U-Boot 2024.04"),
            (Some(4.5), "=> mmc list"),
            (Some(5.25), "mmc@fa00000: 1 (SD)"),
            (None, "[    1.234567] Run /sbin/init as init process"),
        ]
    );
}

#[test]
fn prompts_end_a_boot() {
    let none: Vec<String> = Vec::new();
    assert_eq!(prompt("example-board login: ", &none), Some(Prompt::Login));
    for p in ["/ # ", "sh-5.2#", "bash-5.1# ", "root@board:~#", "#"] {
        assert_eq!(prompt(p, &none), Some(Prompt::Shell), "{p}");
    }
    for p in [
        "/bin/sh: can't access tty; job control turned off",
        "[  OK  ] Reached target multi-user.target",
        "Hit any key to stop autoboot:  0",
        "Last login: Fri Nov 27 03:00:00 UTC 2026 on ttyS2",
    ] {
        assert_eq!(prompt(p, &none), None, "{p}");
    }
    // A prompt and what was typed at it on one line (LAVA logs the line when the echo of its
    // reply ends it).
    assert_eq!(
        prompt("example-board login: root", &none),
        Some(Prompt::Login)
    );
    assert_eq!(prompt("/ # cat /proc/cmdline", &none), Some(Prompt::Shell));
    assert_eq!(prompt("root@board:~# uname -a", &none), Some(Prompt::Shell));
    assert_eq!(prompt("# a comment, not a prompt", &none), None);
    let given = vec!["Welcome to the lab".to_string()];
    assert!(matches!(
        prompt("** Welcome to the lab **", &given),
        Some(Prompt::Given(_))
    ));
    assert_eq!(Medium::new("SD").name, "mmc-sd");
    assert_eq!(Medium::new("eMMC").title, "EMMC");
    assert_eq!(Medium::new("usb-sata").title, "USBSATA");
}

#[test]
fn a_lava_reboot_loop_gives_the_boot_time_tables() {
    let log = common::data("console-lava-boot-loop.yaml");
    let ls = lines(&log);
    let bs = boots(&ls, &[]);
    assert_eq!(bs.len(), 6, "{bs:#?}");
    assert!(bs[2].interactive && !bs[0].interactive && !bs[3].interactive);
    assert!(bs[5].prompt.is_none());
    assert_eq!(
        bs.iter().map(|b| b.setup()).collect::<Vec<_>>(),
        [
            Setup::Full,
            Setup::Full,
            Setup::InitShell,
            Setup::InitShell,
            Setup::InitShell,
            Setup::Full
        ]
    );
    // root=/dev/mmcblk1p2 and, for the init=/bin/sh boots, root=PARTUUID with the first mount.
    assert_eq!(bs[0].medium().unwrap().name, "mmc-sd");
    assert_eq!(bs[3].medium().unwrap().name, "mmc-sd");
    assert_eq!(bs[0].spl_boot_device.as_deref(), Some("MMC2"));
    // LAVA logs a console line when its newline arrives: the login prompt (none after it) is
    // in the log with the next boot's first line, after the dispatcher's entry on matching it,
    // whose time is the prompt's.
    let t0 = parse_datetime("2026-11-27T03:01:54.7").unwrap();
    assert!(close(bs[0].prompt.as_ref().unwrap().1.unwrap(), t0));
    let f = bs[0].figures();
    assert!(f.host_clock);
    assert!(close(f.total.unwrap(), 14.7), "{f:?}");
    assert!(close(f.spl.unwrap(), 1.8));
    assert!(close(f.uboot.unwrap(), 1.7));
    assert!(close(f.kernel_to_init.unwrap(), 2.2));
    assert!(close(f.init_to_prompt.unwrap(), 9.0));
    // Differences of host times (seconds since 1970) are to the microsecond: no binary noise
    // (15.099999904632568) reaches the document and its JSON.
    for x in [f.total, f.spl, f.uboot, f.init_to_prompt].map(Option::unwrap) {
        assert!(x.to_string().len() <= 9, "{x} carries noise: {f:?}");
    }

    let labelled: Vec<(String, console::Boot)> = bs
        .into_iter()
        .enumerate()
        .map(|(i, b)| (format!("job boot {}", i + 1), b))
        .collect();
    let r = console::boot_tables(&labelled, None);
    assert_eq!(r.counted, 4);
    let t = &r.tables[0];
    assert_eq!(
        (
            t.title.as_str(),
            t.key_header.as_str(),
            t.columns.as_slice()
        ),
        (
            "Boot time MMCSD",
            "Boot Configuration",
            &["boot time (sec)".to_string()][..]
        )
    );
    let full = value(
        t,
        "Kernel boot time test when bootloader, kernel and sdk-rootfs are in mmc-sd",
        0,
    );
    assert!(close(full.value, 14.9) && full.samples == 2, "{full:?}");
    assert!(close(full.min.unwrap(), 14.7) && close(full.max.unwrap(), 15.1));
    let sh = value(
        t,
        "Kernel boot time test when init is /bin/sh and bootloader, kernel and sdk-rootfs are in mmc-sd",
        0,
    );
    assert!(close(sh.value, 5.575) && sh.samples == 2, "{sh:?}");
    let st = &r.tables[1];
    assert_eq!(st.title, "Boot stages MMCSD");
    assert_eq!(
        st.columns,
        ["full root file system (sec)", "init=/bin/sh (sec)"]
    );
    assert!(close(value(st, "init to prompt (s)", 0).value, 9.2));
    assert!(close(value(st, "init to prompt (s)", 1).value, 0.05));
    assert!(close(value(st, "kernel start to init (s)", 1).value, 2.0));
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("job boot 3: not counted — U-Boot was interrupted"))
    );
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("job boot 6: not counted — no prompt"))
    );
    assert!(r.notes.iter().any(|n| n.contains("console host's clock")));

    // --medium names the medium of every boot.
    let given = console::boot_tables(&labelled, Some("emmc"));
    assert_eq!(given.tables[0].title, "Boot time EMMC");
    assert!(given.tables[0].rows[0].key.ends_with("are in emmc"));
}

#[test]
fn older_kernels_u_boot_s_starting_kernel_and_its_mmc_line() {
    // A kernel without "Run … as init process" (before 5.8): init starts at its last
    // "Freeing unused kernel memory"; U-Boot's "Starting kernel ..." gives the stage some
    // editions of the guides time; a VPL banner starts the boot; U-Boot's own `MMC:` line
    // names the devices it has initialised.
    let log = concat!(
        "[0.000000 0.000000] U-Boot VPL 2024.04 (Nov 20 2026 - 10:00:00 +0000)\n",
        "[0.500000 0.500000] U-Boot SPL 2024.04 (Nov 20 2026 - 10:00:00 +0000)\n",
        "[1.000000 0.500000] U-Boot 2024.04 (Nov 20 2026 - 10:00:00 +0000)\n",
        "[1.100000 0.100000] MMC:   mmc@fe2b0000: 1 (SD), mmc@fe310000: 0 (eMMC)\n",
        "[2.000000 0.900000] Starting kernel ...\n",
        "[2.300000 0.300000] [    0.000000] Booting Linux on physical CPU 0x0\n",
        "[2.300000 0.000000] [    0.000000] Kernel command line: root=/dev/mmcblk1p2 rw\n",
        "[3.400000 1.100000] [    1.000000] mmc1: new high speed SDHC card at address 0007\n",
        "[3.500000 0.100000] [    1.100000] mmcblk1: mmc1:0007 SD16G 14.4 GiB\n",
        "[3.900000 0.400000] [    1.500000] Freeing unused kernel memory: 1024K\n",
        "[8.000000 4.100000] board login: \n",
    );
    let ls = lines(log);
    let (_, media) = console::transfers(&ls);
    assert_eq!(media.get(&1).map(String::as_str), Some("MMCSD"));
    assert_eq!(media.get(&0).map(String::as_str), Some("EMMC"));
    let bs = boots(&ls, &[]);
    assert_eq!(bs.len(), 1, "{bs:#?}");
    let f = bs[0].figures();
    assert!(close(f.total.unwrap(), 8.0), "{f:?}");
    assert!(close(f.spl.unwrap(), 1.0), "VPL banner to U-Boot's: {f:?}");
    assert!(
        f.init_from_freeing && close(f.kernel_to_init.unwrap(), 1.5),
        "{f:?}"
    );
    // The kernel's start on the host's clock is 2.3 (its lines are stamped on arrival here).
    assert!(close(f.init_to_prompt.unwrap(), 8.0 - (2.3 + 1.5)), "{f:?}");
    assert!(close(f.starting_kernel_to_prompt.unwrap(), 6.0), "{f:?}");
    let r = console::boot_tables(&[("cap boot 1".into(), bs[0].clone())], None);
    assert!(
        r.notes.iter().any(|n| n.contains("Freeing unused kernel")),
        "{:?}",
        r.notes
    );
    assert!(close(
        value(
            &r.tables[1],
            "U-Boot's \"Starting kernel ...\" to prompt (s)",
            0
        )
        .value,
        6.0
    ));
}

#[test]
fn u_boot_raw_and_fat_tables_from_a_capture() {
    let log = common::data("console-grabserial-uboot.txt");
    let ls = lines(&log);
    let (xs, media) = console::transfers(&ls);
    assert_eq!(media.get(&0).map(String::as_str), Some("EMMC"));
    assert_eq!(media.get(&1).map(String::as_str), Some("MMCSD"));
    // 3 raw reads, 2 raw writes, 3 FAT reads of 4 MiB and one each of 8 and 16, 3 FAT writes;
    // the kernel U-Boot loaded by itself (no command typed) is not one.
    assert_eq!(xs.len(), 3 + 2 + 3 + 1 + 1 + 3, "{xs:#?}");
    let ts = console::uboot_tables(&xs, &media);
    let titles: Vec<&str> = ts.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["UBOOT EMMC RAW", "UBOOT MMCSD FAT"]);
    let raw = &ts[0];
    assert_eq!(raw.key_header, "File size (bytes in hex)");
    assert_eq!(
        raw.columns,
        [
            "Write Throughput (Kbytes/sec)",
            "Read Throughput (Kbytes/sec)"
        ]
    );
    assert_eq!(
        raw.rows.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
        ["2000000", "4000000"]
    );
    // 32 MiB in 0.512 s and 0.500 s: 64000 and 65536 KiB/s.
    let r = value(raw, "2000000", 1);
    assert!(close(r.value, 64768.0) && r.samples == 2, "{r:?}");
    assert!(close(value(raw, "2000000", 0).value, 20480.0));
    assert!(close(value(raw, "4000000", 1).value, 64000.0));
    let fat = &ts[1];
    assert_eq!(
        fat.rows.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
        ["400000", "800000", "1000000"]
    );
    let r = value(fat, "400000", 1);
    assert!(close(r.value, 20480.0) && r.samples == 3, "{r:?}");
    assert!(close(r.max.unwrap(), 4096.0 / 0.19));
    assert!(close(value(fat, "1000000", 0).value, 10240.0));

    // The boot after the commands was interactive: no boot-time table, the reason said.
    let secs = console::sections(
        &[("capture.txt".to_string(), log.clone())],
        &console::Options::default(),
    );
    assert_eq!(secs[0].name, console::BOOT_SECTION);
    assert_eq!(secs[0].status, document::guide::SectionStatus::Skipped);
    assert!(
        secs[0]
            .notes
            .iter()
            .any(|n| n.contains("capture.txt boot 1: not counted"))
    );
    assert_eq!(secs[1].name, console::UBOOT_SECTION);
    assert_eq!(secs[1].status, document::guide::SectionStatus::Done);
    assert_eq!(secs[1].tables.len(), 2);
    assert!(secs[1].notes[0].contains("console capture with host times"));
}

#[test]
fn a_plain_capture_counts_the_kernels_own_time() {
    let log = "U-Boot 2024.04 (Nov 20 2026)\n\
        Hit any key to stop autoboot:  0\n\
        Starting kernel ...\n\
        [    0.000000] Booting Linux on physical CPU 0x0\n\
        [    0.000000] Kernel command line: root=/dev/mmcblk0p2 init=/bin/sh\n\
        [    1.100000] mmc0: new HS200 MMC card at address 0001\n\
        [    2.500000] Run /bin/sh as init process\n\
        /bin/sh: can't access tty; job control turned off\n\
        / # \n";
    let ls: Vec<Line> = lines(log);
    assert!(ls.iter().all(|l| l.host.is_none()));
    let bs = boots(&ls, &[]);
    assert_eq!(bs.len(), 1);
    let r = console::boot_tables(&[("plain".into(), bs[0].clone())], None);
    let t = &r.tables[0];
    assert_eq!(t.title, "Boot time EMMC");
    assert_eq!(
        value(t, &console::row_name(Setup::InitShell, "emmc"), 0).value,
        2.5
    );
    assert!(r.notes.iter().any(|n| n.contains("kernel's own stamps")));
    // No stage measured on the host's clock but the kernel's: one stage row.
    assert_eq!(r.tables[1].rows.len(), 1);
    assert_eq!(r.tables[1].rows[0].key, "kernel start to init (s)");
}

/// U-Boot's other block interfaces, in cmd/blk_common.c's form (the form a real U-Boot printed
/// for virtio: tests/integration/console_real.rs): the medium named as U-Boot names it, the block size from
/// `IF info`'s capacity, a second device on one interface numbered.
#[test]
fn scsi_and_usb_transfers_are_named_by_their_interface() {
    let ls = lines(concat!(
        "=> scsi scan\n",
        "=> scsi info\n",
        "Device 0: (0:0) Vendor: ATA Prod.: QEMU HARDDISK Rev: 2.5+\n",
        "            Type: Hard Disk\n",
        "            Capacity: 64.0 MB = 0.0 GB (16384 x 4096)\n",
        "=> time scsi read ${loadaddr} 0x0 0x800\n",
        "\n",
        "scsi read: device 0 block # 0, count 2048 ... 2048 blocks read: OK\n",
        "\n",
        "time: 0.100 seconds\n",
        "=> fatload usb 0:1 ${loadaddr} f.bin\n",
        "4194304 bytes read in 100 ms (40 MiB/s)\n",
        "=> fatload usb 1:1 ${loadaddr} f.bin\n",
        "4194304 bytes read in 200 ms (20 MiB/s)\n",
        "=> fatwrite usb 1:1 ${loadaddr} env.txt 0x18\n",
        "24 bytes written in 11 ms (2 KiB/s)\n",
    ));
    let (xs, media) = console::transfers(&ls);
    assert!(media.is_empty());
    let got: Vec<(&str, &str, u32, u64)> = xs
        .iter()
        .map(|x| (x.kind.as_str(), x.iface.as_str(), x.dev, x.bytes))
        .collect();
    assert_eq!(
        got,
        [
            ("RAW", "scsi", 0, 2048 * 4096),
            ("FAT", "usb", 0, 4194304),
            ("FAT", "usb", 1, 4194304),
            ("FAT", "usb", 1, 24),
        ]
    );
    let secs = console::sections(
        &[(
            "t.txt".into(),
            ls.iter().map(|l| l.text.clone() + "\n").collect(),
        )],
        &Default::default(),
    );
    let titles: Vec<&str> = secs[1].tables.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(
        titles,
        ["UBOOT SCSI RAW", "UBOOT USB0 FAT", "UBOOT USB1 FAT"]
    );
    // 8 MiB in 0.1 s; the 24-byte file is no rate (left out, said).
    assert!(close(
        secs[1].tables[0].rows[0].cells[1].as_ref().unwrap().value,
        8192.0 / 0.1
    ));
    assert_eq!(secs[1].tables[2].rows.len(), 1);
    assert!(
        secs[1]
            .notes
            .iter()
            .any(|n| n.starts_with("1 transfer smaller than 64 KiB left out")),
        "{:?}",
        secs[1].notes
    );
}
