//! Boot time and U-Boot's storage tables from REAL logs (tests/data/real-qemu/README.md): a
//! LAVA dispatcher's job log (Debian's lava-dispatcher 2023.01, `lava-run`) of a QEMU x86
//! "board" running Debian's U-Boot (u-boot-qemu 2023.01) and Debian's 6.1 kernel — two power
//! cycles to the login prompt, a setup boot, two power cycles to `init=/bin/sh`'s prompt, two
//! shell commands, a boot whose U-Boot runs the storage commands — and a console capture of
//! U-Boot qemu-x86_64 (SPL, then U-Boot) typing the storage template's commands on virtio.
//! Every expected figure is computed from the lines of the log itself.

use crate::common;

use guide::console::{self, Prompt, Setup, boots, lines, parse_datetime, prompt};

const LAVA: &str = "real-qemu/lava-qemu-x86-boot-loop.yaml";
const CAPTURE: &str = "real-qemu/uboot-qemu-x86_64-storage.txt";

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6 * b.abs().max(1.0)
}

/// The dispatcher's time (`dt`) of the `nth` (0-based) entry of a LAVA log that contains
/// `needle`.
fn dt(log: &str, needle: &str, nth: usize) -> f64 {
    let line = log
        .lines()
        .filter(|l| l.contains(needle))
        .nth(nth)
        .unwrap_or_else(|| panic!("no entry {nth} with {needle}"));
    let t = line
        .split("\"dt\": \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    parse_datetime(t).unwrap()
}

/// The host time of the first line of a capture (`2026-11-27T11:05:37.625216 text`) that
/// contains `needle`.
fn capture_time(log: &str, needle: &str) -> f64 {
    let line = log.lines().find(|l| l.contains(needle)).unwrap();
    parse_datetime(line.split(' ').next().unwrap()).unwrap()
}

/// The text of every `input` entry (what LAVA typed), without its newline.
fn typed(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("\"lvl\": \"input\""))
        .map(|l| {
            let m = l.split("\"msg\": \"").nth(1).unwrap();
            m.trim_end_matches("\"}")
                .trim_end_matches("\\n")
                .to_string()
        })
        .collect()
}

fn table<'a>(
    secs: &'a [document::guide::GuideSection],
    title: &str,
) -> &'a document::guide::GuideTable {
    secs.iter()
        .flat_map(|s| &s.tables)
        .find(|t| t.title == title)
        .unwrap_or_else(|| panic!("no table {title}"))
}

fn cell(t: &document::guide::GuideTable, key: &str, col: usize) -> Option<f64> {
    t.rows
        .iter()
        .find(|r| r.key == key)
        .unwrap_or_else(|| panic!("no row {key} in {}", t.title))
        .cells[col]
        .as_ref()
        .map(|v| v.value)
}

#[test]
fn lava_s_typed_text_is_taken_out_of_the_board_s_lines() {
    let log = common::data(LAVA);
    let ls = lines(&log);
    // What LAVA typed at U-Boot's prompt (the interrupt's space, the shell's commands left
    // out) comes back as U-Boot's own echoes, one whole `=> command` line each, in order —
    // although the log has them glued into the lines U-Boot was printing (LAVA logs what it
    // sends into the same stream, and types the next command ahead).
    let sent: Vec<String> = typed(&log)
        .into_iter()
        .filter(|t| t.trim().len() > 1 && !t.starts_with("uname") && !t.starts_with("mount"))
        .collect();
    let echoed: Vec<String> = ls
        .iter()
        .filter_map(|l| l.text.strip_prefix("=> "))
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    assert!(
        log.contains("=> time virtio read ${loadaddr} 0x0 0x10000time virtio read"),
        "the fixture has the glued form"
    );
    assert_eq!(echoed, sent);
    // U-Boot's reports are whole too.
    for l in &ls {
        assert!(
            !l.text.contains("=> ") || l.text.starts_with("=> "),
            "glued: {:?}",
            l.text
        );
    }
    // The interrupt's space, typed into "Hit any key to stop autoboot:  2 ", is gone.
    assert!(ls.iter().any(|l| {
        l.text
            .starts_with("Hit any key to stop autoboot:  2 \u{8}\u{8}\u{8} 0")
    }));
    // lava-run prints the same entries without the server's `- `: the same lines.
    let local: String = log
        .lines()
        .map(|l| l.strip_prefix("- ").unwrap_or(l).to_string() + "\n")
        .collect();
    assert_eq!(lines(&local), ls);
}

#[test]
fn lava_s_escaped_quotes_and_prompts_as_the_dispatcher_logs_them() {
    // ShellLogger escapes the board's `"` as `\"` before the entry is YAML-dumped (a line of
    // this job's whole log: U-Boot's zboot).
    let entry = r#"- {"dt": "2026-11-27T11:18:01.216468", "lvl": "target", "msg": "Kernel command line: \\\"console=ttyS0,115200 \\\""}"#;
    assert_eq!(
        lines(entry)[0].text,
        "Kernel command line: \"console=ttyS0,115200 \""
    );
    // getty's prompt has no newline: LAVA logged it joined with the kernel's next message (a
    // line of an earlier run of the same job), or with busybox ash's cursor query (ESC
    // removed) and the command LAVA typed.
    let none: [String; 0] = [];
    assert_eq!(
        prompt(
            "qemux86 login: [    2.011650] tsc: Refined TSC clocksource calibration: 2596.083 MHz",
            &none
        ),
        Some(Prompt::Login)
    );
    assert_eq!(prompt("/ # [6n", &none), Some(Prompt::Shell));
    assert_eq!(
        prompt("Last login: Fri Nov 27 11:18:00 UTC 2026 on ttyS0", &none),
        None
    );
}

#[test]
fn a_real_lava_boot_loop_gives_its_boots_and_stages() {
    let log = common::data(LAVA);
    let bs = boots(&lines(&log), &[]);
    assert_eq!(bs.len(), 6, "{bs:#?}");
    let shape: Vec<(Setup, Option<Prompt>, bool)> = bs
        .iter()
        .map(|b| {
            (
                b.setup(),
                b.prompt.as_ref().map(|p| p.0.clone()),
                b.interactive,
            )
        })
        .collect();
    use Setup::*;
    assert_eq!(
        shape,
        [
            (Full, Some(Prompt::Login), false),
            (Full, Some(Prompt::Login), false),
            (InitShell, Some(Prompt::Shell), true),
            (InitShell, Some(Prompt::Shell), false),
            (InitShell, Some(Prompt::Shell), false),
            (Full, Some(Prompt::Login), true),
        ]
    );
    let banner = "\"msg\": \"U-Boot 20";
    // Each power cycle: from U-Boot's banner to the dispatcher's "Matched prompt" entry (the
    // prompt's own line is logged only when the next boot's output ends it).
    for (i, b) in bs.iter().enumerate() {
        let f = b.figures();
        let total = dt(&log, "Matched prompt", i) - dt(&log, banner, i);
        assert!(
            close(f.total.unwrap(), total),
            "boot {}: {f:?} vs {total}",
            i + 1
        );
        assert!(f.host_clock);
        assert_eq!(f.spl, None, "qemu-x86's U-Boot has no SPL");
        let init = b.init.as_ref().unwrap();
        let (program, stamp) = {
            let l = log
                .lines()
                .filter(|l| l.contains(" as init process"))
                .nth(i)
                .unwrap();
            let (s, rest) = console::kernel_stamp(l.split("\"msg\": \"").nth(1).unwrap()).unwrap();
            let p = rest
                .strip_prefix("Run ")
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            (p.to_string(), s)
        };
        assert_eq!((init.0.as_str(), init.1), (program.as_str(), stamp));
        assert!(close(f.kernel_to_init.unwrap(), stamp));
        let starting = dt(&log, "\"msg\": \"Starting kernel ...\"", i);
        assert!(close(
            f.starting_kernel_to_prompt.unwrap(),
            dt(&log, "Matched prompt", i) - starting
        ));
        // The stages on one clock: U-Boot + kernel-to-init + init-to-prompt = the total.
        assert!(close(
            f.uboot.unwrap() + f.kernel_to_init.unwrap() + f.init_to_prompt.unwrap(),
            total
        ));
        assert!(
            f.uboot.unwrap() > 0.0 && f.init_to_prompt.unwrap() > 0.0,
            "{f:?}"
        );
    }
}

#[test]
fn a_real_lava_boot_loop_gives_the_guide_s_tables() {
    let log = common::data(LAVA);
    let o = console::Options {
        medium: Some("virtio".into()),
        ..Default::default()
    };
    let secs = console::sections(&[("job.yaml".into(), log.clone())], &o);
    let banner = "\"msg\": \"U-Boot 20";
    let total = |i: usize| dt(&log, "Matched prompt", i) - dt(&log, banner, i);
    let t = table(&secs, "Boot time VIRTIO");
    let full = cell(
        t,
        "Kernel boot time test when bootloader, kernel and sdk-rootfs are in virtio",
        0,
    )
    .unwrap();
    assert!(close(full, (total(0) + total(1)) / 2.0));
    let sh = cell(
        t,
        "Kernel boot time test when init is /bin/sh and bootloader, kernel and sdk-rootfs are in virtio",
        0,
    )
    .unwrap();
    assert!(close(sh, (total(3) + total(4)) / 2.0));
    let stages = table(&secs, "Boot stages VIRTIO");
    let keys: Vec<&str> = stages.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "U-Boot, to the kernel's start (s)",
            "kernel start to init (s)",
            "init to prompt (s)",
            "U-Boot's \"Starting kernel ...\" to prompt (s)"
        ]
    );
    let notes = &secs[0].notes;
    for n in [
        "boot 3: not counted",
        "boot 6: not counted",
        "4 boots counted",
    ] {
        assert!(notes.iter().any(|x| x.contains(n)), "{n}: {notes:?}");
    }
}

#[test]
fn u_boot_s_virtio_reads_and_fat_transfers_from_the_lava_log() {
    let log = common::data(LAVA);
    let secs = console::sections(&[("job.yaml".into(), log)], &Default::default());
    // `time virtio read … 0x10000` / `0x20000`: 65536 and 131072 blocks of 512 bytes (the
    // log's "Capacity: … (262144 x 512)"), in the seconds `time:` printed after each.
    let raw = table(&secs, "UBOOT VIRTIO RAW");
    assert_eq!(cell(raw, "2000000", 0), None);
    assert!(close(cell(raw, "2000000", 1).unwrap(), 32768.0 / 0.316));
    assert!(close(cell(raw, "4000000", 1).unwrap(), 65536.0 / 0.034));
    // fatwrite/fatload: "4194304 bytes written in 74 ms", "… read in 17 ms", and so on.
    let fat = table(&secs, "UBOOT VIRTIO FAT");
    for (key, written_ms, read_ms) in [
        ("400000", 74.0, 17.0),
        ("800000", 54.0, 29.0),
        ("1000000", 336.0, 9.0),
    ] {
        let kib = u64::from_str_radix(key, 16).unwrap() as f64 / 1024.0;
        assert!(
            close(cell(fat, key, 0).unwrap(), kib / (written_ms / 1000.0)),
            "{key}"
        );
        assert!(
            close(cell(fat, key, 1).unwrap(), kib / (read_ms / 1000.0)),
            "{key}"
        );
    }
    // The setup boots' own fatwrite of optargs.env ("24 bytes written in 12 ms", "27 bytes
    // written in 3 ms") are transfers but no rates: left out, said in the notes. U-Boot's
    // distro boot loading boot.scr, the kernel and the initramfs after `boot` are not transfers
    // (nobody typed those loads).
    let keys: Vec<&str> = fat.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["400000", "800000", "1000000"]);
    let (all, _) = console::transfers(&lines(&common::data(LAVA)));
    let small: Vec<u64> = all
        .iter()
        .filter(|x| x.bytes < console::MIN_RATE_BYTES)
        .map(|x| x.bytes)
        .collect();
    assert_eq!(small, [24, 27]);
    assert!(
        secs[1]
            .notes
            .iter()
            .any(|n| n.starts_with("2 transfers smaller than 64 KiB left out")),
        "{:?}",
        secs[1].notes
    );
    assert!(
        secs[1].notes.iter().all(|n| !n.contains("mmc list")),
        "no MMC device here: {:?}",
        secs[1].notes
    );
}

#[test]
fn a_real_u_boot_capture_with_spl_and_version() {
    let log = common::data(CAPTURE);
    let ls = lines(&log);
    let bs = boots(&ls, &[]);
    // `version` prints U-Boot's banner again: not a new boot.
    assert!(log.contains("=> version"));
    assert_eq!(bs.len(), 1, "{bs:#?}");
    let b = &bs[0];
    assert!(b.interactive && b.prompt.is_none());
    assert_eq!(b.spl, Some(capture_time(&log, "U-Boot SPL 20")));
    assert_eq!(b.uboot, Some(capture_time(&log, " U-Boot 2023")));
    assert_eq!(b.spl_boot_device.as_deref(), Some("SPI"));
    let (xs, media) = console::transfers(&ls);
    assert!(media.is_empty());
    let got: Vec<(&str, &str, u32, bool, u64, f64)> = xs
        .iter()
        .map(|x| {
            (
                x.kind.as_str(),
                x.iface.as_str(),
                x.dev,
                x.write,
                x.bytes,
                x.seconds,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("RAW", "virtio", 0, false, 65536 * 512, 0.110),
            ("RAW", "virtio", 0, false, 131072 * 512, 0.548),
            ("FAT", "virtio", 0, true, 4194304, 0.055),
            ("FAT", "virtio", 0, false, 4194304, 0.006),
            ("FAT", "virtio", 0, true, 8388608, 0.065),
            ("FAT", "virtio", 0, false, 8388608, 0.006),
            ("FAT", "virtio", 0, true, 16777216, 0.316),
            ("FAT", "virtio", 0, false, 16777216, 0.009),
        ]
    );
    let titles: Vec<String> = console::uboot_tables(&xs, &media)
        .into_iter()
        .map(|t| t.title)
        .collect();
    assert_eq!(titles, ["UBOOT VIRTIO FAT", "UBOOT VIRTIO RAW"]);
}
