//! Findings on result documents imported from the shared sbc-bench logs: the known throttling,
//! swapping, killed-core and background-activity cases fire, and sbc-bench's own "Results
//! validation" verdicts are matched wherever they exist (one deliberate difference: rca7s).

use std::path::PathBuf;

use document::{Finding, ResultDocument, Severity};
use findings::{analyse, kinds, trustworthy};
use testsupport::sbc_bench_logs;

fn import(name: &str) -> ResultDocument {
    let bytes = std::fs::read(sbc_bench_logs().join(name)).unwrap();
    sbcimport::import_bytes(&bytes, name).unwrap()
}

fn kinds_of(f: &[Finding]) -> Vec<&str> {
    f.iter().map(|f| f.kind.as_str()).collect()
}

fn one(f: &[Finding], kind: &str) -> Finding {
    let hits: Vec<&Finding> = f.iter().filter(|x| x.kind == kind).collect();
    assert_eq!(hits.len(), 1, "{kind} in {f:#?}");
    hits[0].clone()
}

type Analysed = (String, ResultDocument, Vec<Finding>);

/// Every importable fixture log with its findings (imported once per test binary: slow under
/// qemu).
fn all_logs() -> &'static [Analysed] {
    static LOGS: std::sync::OnceLock<Vec<Analysed>> = std::sync::OnceLock::new();
    LOGS.get_or_init(load_all)
}

fn load_all() -> Vec<Analysed> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(sbc_bench_logs())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(doc) = sbcimport::import_bytes(&std::fs::read(&path).unwrap(), &name) else {
            continue;
        };
        let f = analyse(&doc);
        out.push((name, doc, f));
    }
    assert!(out.len() > 150, "fixture logs missing: {}", out.len());
    out
}

#[test]
fn known_throttling_cases() {
    // Flipper One (RK3576), v0.9.72: both clusters below their top OPP.
    let f = analyse(&import("Xd38a.txt"));
    let t = one(&f, kinds::THROTTLING);
    assert_eq!(t.severity, Severity::Invalid);
    assert_eq!(
        t.message,
        "ATTENTION: Throttling occured. Check the log for details."
    );
    assert_eq!(
        t.evidence[0],
        "Throttling statistics (time spent on each cpufreq OPP) for CPUs 0-3 (Cortex-A53):"
    );
    assert!(t.evidence.contains(&"1800 MHz:   98.25 sec".to_string()));
    assert!(t.evidence.contains(&"2016 MHz:  165.42 sec".to_string()));
    assert!(!trustworthy(&f));
    // ODROID XU4 (v0.9.70) and a v0.5.4 Pine H64 with one table without "for CPUs".
    one(&analyse(&import("8ctH.txt")), kinds::THROTTLING);
    let t = one(&analyse(&import("1jEr.txt")), kinds::THROTTLING);
    assert!(t.evidence.contains(&"1488 MHz:   13.36 sec".to_string()));
    // sun55iw3: the big cluster spent 87 s at 1680 MHz; the little cluster's 0.2 s at 408 MHz
    // is below the 1 s tolerance and not listed.
    let t = one(&analyse(&import("Kojb.txt")), kinds::THROTTLING);
    assert!(t.evidence.iter().any(|e| e.contains("for CPUs 4-7")));
    assert!(
        !t.evidence.iter().any(|e| e.contains("for CPUs 0-3")),
        "{t:#?}"
    );
}

#[test]
fn never_throttling_where_sbc_bench_says_no_throttling() {
    let mut checked = 0;
    for (name, doc, f) in all_logs() {
        let log = doc.imported.as_ref().unwrap();
        if log.validation.iter().any(|v| v == "No throttling") {
            checked += 1;
            let k = kinds_of(f);
            assert!(
                !k.contains(&kinds::THROTTLING) && !k.contains(&kinds::CLOCK_DROP),
                "{name}: {k:?}"
            );
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn known_swapping_cases() {
    // RK3566 board: zram grew 8960 → 101632 KiB, the swap file on the SD card stayed unused
    // (sbc-bench said "Swapping occured" and blamed the SD card).
    let f = analyse(&import("4L4k.txt"));
    let s = one(&f, kinds::SWAPPING);
    assert_eq!(s.severity, Severity::Invalid);
    assert_eq!(
        s.message,
        "Swapping (zram) has occured invalidating benchmark scores."
    );
    assert_eq!(
        s.evidence[..3],
        [
            "swap used (swapon): 8960 KiB before, 101632 KiB after the run",
            "/dev/zram0: 8960 → 101632 KiB",
            "/var/swap: 0 → 0 KiB"
        ]
    );
    // v0.4 VIM2 swapping to zram.
    let s = one(&analyse(&import("1iJ7.txt")), kinds::SWAPPING);
    assert!(s.message.starts_with("Swapping (zram)"), "{}", s.message);
    // Swap in use but constant: no finding.
    assert!(!kinds_of(&analyse(&import("4pEc.txt"))).contains(&kinds::SWAPPING));
}

#[test]
fn swapping_agrees_with_sbc_bench() {
    for (name, doc, f) in all_logs() {
        let log = doc.imported.as_ref().unwrap();
        let ours = kinds_of(f).contains(&kinds::SWAPPING);
        if log.validation.iter().any(|v| v == "No swapping") {
            assert!(!ours, "{name}");
        }
        if log
            .validation
            .iter()
            .any(|v| v.starts_with("Swapping occured") || v.starts_with("Swapping (ZRAM)"))
        {
            assert!(ours, "{name}");
        }
    }
}

#[test]
fn killed_cores_any_cpu_number() {
    // Amlogic BSP unplugging cores when hot (dmesg `CPU2: shutdown`).
    let f = analyse(&import("46hs.txt"));
    let k = one(&f, kinds::CORES_KILLED);
    assert_eq!(k.severity, Severity::Invalid);
    assert!(k.message.contains("cpu2"), "{}", k.message);
    assert!(
        k.evidence
            .iter()
            .all(|e| e.contains(": shutdown") || e.starts_with('…'))
    );
}

#[test]
fn background_activity_agrees_with_sbc_bench() {
    // sbc-bench's "Too much other background activity" (%cpu) and "Too much background
    // activity (%system)" bullets against ours, for every log with a validation block.
    let mut compared = 0;
    for (name, doc, f) in all_logs() {
        let log = doc.imported.as_ref().unwrap();
        if log.validation.is_empty() {
            continue;
        }
        compared += 1;
        let k = kinds_of(f);
        let sbc_cpu = log
            .validation
            .iter()
            .any(|v| v.starts_with("Too much other background activity"));
        let sbc_sys = log
            .validation
            .iter()
            .any(|v| v.starts_with("Too much background activity (%system)"));
        assert_eq!(k.contains(&kinds::SYSTEM_ACTIVITY), sbc_sys, "{name}");
        if name == "rca7s.txt" {
            // 8 cores: sbc-bench's integer 100/8 = 12 makes the monitor's 13 % (12.5 rounded)
            // look like background activity; boardbench compares with 12.5.
            assert!(sbc_cpu && !k.contains(&kinds::BACKGROUND_ACTIVITY));
            continue;
        }
        assert_eq!(k.contains(&kinds::BACKGROUND_ACTIVITY), sbc_cpu, "{name}");
    }
    assert!(compared >= 40, "{compared}");
    // The LattePanda Mu (N100, 4 cores): a 33 % peak in a single-threaded phase.
    let b = one(&analyse(&import("uHzXI7.txt")), kinds::BACKGROUND_ACTIVITY);
    assert_eq!(b.severity, Severity::Invalid);
    assert!(b.message.contains("8.0% max"), "{}", b.message);
}

#[test]
fn fake_clock_and_falling_7zip() {
    // RK3328 (v0.4.6): every OPP 4–9 % slower than claimed, top OPP 1800 → 1727 MHz.
    let c = one(&analyse(&import("1iSX.txt")), kinds::FAKE_CLOCK);
    assert_eq!(c.severity, Severity::Warning);
    assert!(
        c.message.contains("measured 1727 MHz (-4.1 %)"),
        "{}",
        c.message
    );
    // OnePlus 5: 10798, 9517, 9076 — each run lower.
    let z = one(&analyse(&import("4fdD.txt")), kinds::SEVENZIP_FALLING);
    assert_eq!(z.severity, Severity::Invalid);
    assert!(z.evidence[0].ends_with("10798, 9517, 9076"));
}

#[test]
fn clean_logs_are_trustworthy() {
    for name in ["4pEc.txt", "87lq.txt", "XUpQ.txt", "4xwT.txt"] {
        let f = analyse(&import(name));
        assert!(trustworthy(&f), "{name}: {f:#?}");
        assert!(
            f.iter().all(|f| f.severity == Severity::Info),
            "{name}: {f:#?}"
        );
    }
}

#[test]
fn every_log_is_analysed_deterministically() {
    for (name, doc, f) in all_logs() {
        assert_eq!(*f, analyse(doc), "{name}");
        let sev: Vec<Severity> = f.iter().map(|f| f.severity).collect();
        assert!(sev.windows(2).all(|w| w[0] >= w[1]), "{name}: {sev:?}");
        assert!(f.iter().all(|f| !f.message.contains('\n')), "{name}");
    }
}

#[test]
fn dmesg_section_of_an_imported_log() {
    // Xd38a with kernel lines a hot, starved Raspberry Pi would print during the run.
    let mut doc = import("Xd38a.txt");
    doc.imported.as_mut().unwrap().kmsg = vec![
        "[  100.1] hwmon hwmon1: Undervoltage detected!".into(),
        "[  200.2] CPU12: shutdown".into(),
        "[  300.3] 7zz invoked oom-killer: gfp_mask=0x140dca".into(),
        "[  300.4] Out of memory: Killed process 4242 (7zz)".into(),
    ];
    let f = analyse(&doc);
    assert_eq!(one(&f, kinds::UNDERVOLTAGE).severity, Severity::Invalid);
    let c = one(&f, kinds::CORES_KILLED);
    assert!(c.message.contains("(cpu12)"), "{}", c.message);
    let o = one(&f, kinds::OOM_KILL);
    assert!(
        o.message.starts_with("1 oom-killer invocation(s)"),
        "{}",
        o.message
    );
    assert_eq!(o.evidence.len(), 2);
}

/// The outlier finding on logs whose cause is known: the ODROID-XU4 that throttled (AES), the
/// ODROID-N2 whose big cluster was measured at 1884 MHz instead of the usual 2400 (7-Zip
/// single), the VisionFive 2 (JH7110) at 1247 MHz, and a Renegade whose memset beats every
/// published RK3328 row with nothing to explain it. `-- --nocapture` prints every outlier of
/// the fixture logs (how these were chosen).
#[test]
fn outliers_name_their_known_causes() {
    let get = |name: &str| -> Finding {
        let (_, _, f) = all_logs().iter().find(|(n, _, _)| n == name).unwrap();
        one(f, kinds::OUTLIER)
    };
    let xu4 = get("3GnC.txt");
    assert!(
        xu4.message.starts_with("AES-256 16 KiB is "),
        "{}",
        xu4.message
    );
    assert!(
        xu4.message.contains("finding `throttling`"),
        "{}",
        xu4.message
    );
    let n2 = get("1BsF.txt");
    assert!(n2.message.starts_with("7-Zip single"), "{}", n2.message);
    assert!(
        n2.evidence
            .iter()
            .any(|e| e.starts_with("possible cause: measured clock 1884 MHz")),
        "{:#?}",
        n2.evidence
    );
    let vf2 = get("uHzXI6.txt");
    assert!(
        vf2.message.contains("measured clock 1247 MHz"),
        "{}",
        vf2.message
    );
    let renegade = get("1iFx.txt");
    assert!(
        renegade
            .message
            .ends_with("nothing in the run explains it."),
        "{}",
        renegade.message
    );
    for (name, _, f) in all_logs() {
        for o in f.iter().filter(|x| x.kind == kinds::OUTLIER) {
            println!("{name}: {}", o.message);
            for e in &o.evidence {
                println!("    {e}");
            }
            assert_eq!(o.severity, Severity::Warning);
            let last = o.evidence.last().unwrap();
            assert!(
                last.starts_with("rule: at least 3 comparable rows"),
                "{name}"
            );
            assert!(last.contains("BSD-3-Clause"), "{name}");
        }
    }
    // A log that matches its SoC's rows has none (the RockPro64, RK3399, with 20-odd rows).
    let (_, _, f) = all_logs().iter().find(|(n, _, _)| n == "1lBC.txt").unwrap();
    assert!(!kinds_of(f).contains(&kinds::OUTLIER), "{f:#?}");
}

/// The armhf cause through the import path. No fixture log with a 32-bit userland on a 64-bit
/// kernel is an outlier (3Gia, the one such log, sits inside its SoC's range), so the case is
/// derived from a real one: the Renegade log 1iFx (RK3328, aarch64 kernel, memset above every
/// published RK3328 row, "nothing in the run explains it") with sbc-bench's ` Userland:` line
/// saying armhf added after its first iostat header. Imported as any log is, the same outlier
/// now names the 32-bit userland as the possible cause; everything else in the log is unchanged.
#[test]
fn outlier_names_an_armhf_userland_on_a_64_bit_kernel() {
    let text = std::fs::read_to_string(sbc_bench_logs().join("1iFx.txt")).unwrap();
    let mut out = String::with_capacity(text.len() + 32);
    let mut added = false;
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        if !added && line.contains("_aarch64_") {
            out.push_str(" Userland: armhf\n");
            added = true;
        }
    }
    assert!(added, "1iFx has an aarch64 iostat header");
    // Under its own name: the log's own table row stays left out of its SoC's rows.
    let doc = sbcimport::import_bytes(out.as_bytes(), "1iFx.txt").unwrap();
    let (userland, kernel) = corpus::run::arches(&doc);
    assert_eq!(userland.as_deref(), Some("armhf"));
    assert_eq!(kernel.as_deref(), Some("aarch64"));
    let f = analyse(&doc);
    let o = one(&f, kinds::OUTLIER);
    assert!(o.message.starts_with("memset is "), "{}", o.message);
    assert!(
        !o.message.contains("nothing in the run explains it"),
        "{}",
        o.message
    );
    assert!(
        o.evidence
            .iter()
            .any(|e| e.starts_with("possible cause: 32-bit userland (armhf) on a 64-bit kernel")),
        "{:#?}",
        o.evidence
    );
    // The log as published: the same figure, nothing to explain it.
    let (_, _, plain) = all_logs().iter().find(|(n, _, _)| n == "1iFx.txt").unwrap();
    assert!(
        one(plain, kinds::OUTLIER)
            .message
            .ends_with("nothing in the run explains it.")
    );
}

/// The one fixture log with an armhf userland on a 64-bit kernel (3Gia, Raspberry Pi 4 B on
/// Raspberry Pi OS Buster armhf) is imported as armhf, placed among ARM rows with the 32-bit
/// userland said, and is no outlier: its figures are inside the BCM2711 range.
#[test]
fn the_armhf_fixture_log_is_placed_with_its_userland_said() {
    let (_, doc, f) = all_logs().iter().find(|(n, _, _)| n == "3Gia.txt").unwrap();
    let (userland, kernel) = corpus::run::arches(doc);
    assert_eq!(userland.as_deref(), Some("armhf"));
    assert_eq!(kernel.as_deref(), Some("aarch64"));
    let p = corpus::place_run(corpus::corpus(), doc);
    assert_eq!(p.class, Some(corpus::ArchClass::Arm));
    assert!(
        p.notes.iter().any(|n| n.contains("32-bit")),
        "{:#?}",
        p.notes
    );
    assert!(!kinds_of(f).contains(&kinds::OUTLIER), "{f:#?}");
}
