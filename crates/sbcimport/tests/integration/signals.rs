//! The evidence for findings, checked on fixture logs with known throttling, swapping and
//! background activity, and against sbc-bench's own "Results validation" verdicts.

use document::imported::ImportedLog;
use sbcimport::{parse_log, signals::signals};
use testsupport::sbc_bench_logs;

fn parse(name: &str) -> ImportedLog {
    let text = std::fs::read_to_string(sbc_bench_logs().join(name)).unwrap();
    parse_log(&text, name).unwrap()
}

#[test]
fn throttling_below_max_per_cluster() {
    // Flipper One (RK3576): both clusters spent time below their top OPP.
    let s = signals(&parse("Xd38a.txt"));
    assert!(s.has_throttling_statistics);
    assert_eq!(s.throttling.len(), 2);
    assert_eq!(s.throttling[0].cluster, "for CPUs 0-3 (Cortex-A53)");
    assert_eq!(s.throttling[0].max_mhz, 2016);
    assert_eq!(
        s.throttling[0].below_max,
        vec![(1800, 98.25), (1608, 42.58)]
    );
    assert_eq!(s.throttling[1].max_mhz, 2208);
    assert!((s.throttling[1].seconds_below_max - (165.42 + 1.66)).abs() < 1e-9);
    // ODROID XU4 (Exynos 5422), v0.9.70: both clusters throttled.
    assert_eq!(signals(&parse("8ctH.txt")).throttling.len(), 2);
    // Single-cluster statistics without a "for CPUs" part (v0.5.4 Pine H64).
    let s = signals(&parse("1jEr.txt"));
    assert_eq!(s.throttling.len(), 1);
    assert_eq!(s.throttling[0].below_max, vec![(1488, 13.36)]);
    // x86 box without cpufreq statistics: nothing to report either way.
    let s = signals(&parse("4HYd.txt"));
    assert!(!s.has_throttling_statistics && s.throttling.is_empty());
}

#[test]
fn throttling_agrees_with_sbc_bench_verdict() {
    for entry in std::fs::read_dir(sbc_bench_logs()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let log = parse(&name);
        let s = signals(&log);
        // "Throttling occured" may also come from dmesg or the clock re-check, so only the
        // other direction is strict: a "No throttling" run shows no time below max.
        if log.validation.iter().any(|v| v == "No throttling") {
            assert!(s.throttling.is_empty(), "{name}");
        }
        if log
            .validation
            .iter()
            .any(|v| v.starts_with("Swapping occured"))
        {
            assert!(s.swapped(), "{name}");
        }
        if log.validation.iter().any(|v| v == "No swapping") {
            assert!(!s.swapped(), "{name}");
        }
    }
}

#[test]
fn swapping_before_and_after() {
    // Rockchip RK3566 board whose validation says "Swapping occured" (swap on SD card).
    let s = signals(&parse("4L4k.txt"));
    let swap = s.swap.clone().unwrap();
    assert_eq!((swap.used_kib_before, swap.used_kib_after), (8960, 101632));
    assert!(s.swapped());
    // Swap in use, but constant ("No swapping").
    let s = signals(&parse("4pEc.txt"));
    assert_eq!(
        s.swap
            .clone()
            .map(|w| (w.used_kib_before, w.used_kib_after)),
        Some((129536, 129536))
    );
    assert!(!s.swapped());
    // v0.4 VIM2 with zram: usage grew from 279600 to 292740 KiB.
    assert!(signals(&parse("1iJ7.txt")).swapped());
    // No swap configured at all: no evidence.
    assert!(signals(&parse("Xd38a.txt")).swap.is_none());
}

#[test]
fn background_activity_matches_sbc_bench_figures() {
    // "Too much background activity (%system): 1% avg, 29% max" (4L4k) and "1% avg, 4% max"
    // (8gl6, 4rRV): same peak; the average rounds down to the same integer.
    for (name, avg, max) in [("4L4k.txt", 1, 29), ("8gl6.txt", 1, 4), ("4rRV.txt", 1, 4)] {
        let s = signals(&parse(name));
        let (a, m) = s.system_activity().unwrap();
        assert_eq!(m, max, "{name}");
        assert_eq!(a.floor() as u32, avg, "{name}: {a}");
    }
    // Phases come with their samples; the first (since-boot) sample is left out.
    let s = signals(&parse("Xd38a.txt"));
    let multi = s
        .activity
        .iter()
        .find(|a| a.phase == "7-zip multi core benchmark")
        .unwrap();
    assert_eq!(multi.samples, 18);
    assert_eq!(multi.cpu_max, 99);
    let tiny = s
        .activity
        .iter()
        .find(|a| a.phase == "tinymembench")
        .unwrap();
    assert_eq!((tiny.cpu_max, tiny.sys_max), (12, 0));
}
