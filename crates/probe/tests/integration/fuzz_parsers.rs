//! Fuzz targets (proptest with arbitrary bytes, no nightly needed) for every parser of files
//! from outside: cpuinfo, sysfs values (through the Root's readers, bytes as the kernel or a
//! broken fixture would leave them), /proc/stat, /proc/loadavg, meminfo, swaps, time_in_state,
//! vmstat, kmsg records and /proc/PID/stat. None may panic.
//!
//! Bounded: proptest's default of 256 cases per target (about a second each here);
//! `PROPTEST_CASES` raises it for a longer run (scripts/test does, with a time limit).

use probe::runstate::{kmsg, procs, rpi_config};
use probe::{Root, cpufreq, cpuinfo, memory, root, runstate, sampler, stat};
use proptest::prelude::*;

/// Arbitrary bytes, or bytes that look like the files (digits, separators, keys), which reach
/// deeper into the parsers than random noise.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        "([a-zA-Z_ ()]{0,12}[:= \t]{0,2}[0-9a-fx.,\\- ]{0,24}\n?){0,24}"
            .prop_map(String::into_bytes),
    ]
}

proptest! {
    #[test]
    fn cpuinfo_never_panics(b in bytes()) {
        let text = String::from_utf8_lossy(&b);
        let _ = cpuinfo::parse(&text);
    }

    #[test]
    fn proc_tables_never_panic(b in bytes()) {
        let text = String::from_utf8_lossy(&b);
        if let (Some(a), Some(c)) = (stat::parse_cpu_times(&b), stat::parse_cpu_times(&b)) {
            let _ = a.states_since(&c);
        }
        let _ = stat::parse_load1(&b);
        let _ = memory::parse_meminfo(&text);
        let _ = memory::parse_swaps(&text);
        let _ = runstate::time_in_state(&text);
        let _ = runstate::parse_vmstat_field(&text, "oom_kill");
        let _ = cpufreq::parse_time_in_state(&text);
        let _ = kmsg::parse_records(&b);
        let _ = procs::parse_stat(&text);
        let _ = rpi_config::parse(&text);
        let _ = sampler::parse_temp_c(&b);
        let _ = root::parse_cpu_list(&text);
        let _ = root::parse_u64_list(&text);
    }
}

/// Sysfs values through the Root's typed readers: one file rewritten for every case.
#[test]
fn sysfs_value_readers_never_panic() {
    let dir = tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap();
    std::fs::create_dir_all(dir.path().join("sys/v")).unwrap();
    let file = dir.path().join("sys/v/x");
    let r = Root::new(dir.path());
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&bytes(), |b| {
            std::fs::write(&file, &b).unwrap();
            let _ = r.read_value("/sys/v/x");
            let _ = r.read_u64("/sys/v/x");
            let _ = r.read_i64("/sys/v/x");
            let _ = r.read_cpu_list("/sys/v/x");
            let _ = r.read_u64_list("/sys/v/x");
            let _ = r.read_dt_strings("/sys/v/x");
            if let Ok(khz) = cpufreq::read_khz(&r, "/sys/v/x") {
                prop_assert!(khz <= cpufreq::MAX_PLAUSIBLE_KHZ);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn an_unset_cpufreq_value_is_invalid_not_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sys/v")).unwrap();
    std::fs::write(dir.path().join("sys/v/max"), "18446744073709551615\n").unwrap();
    let e = cpufreq::read_khz(&Root::new(dir.path()), "/sys/v/max").unwrap_err();
    assert_eq!(e.reason, "invalid clock: 18446744073709551615 kHz");
    // In a policy: the limits are absent, the list keeps its real clocks, and notes say why.
    let p = dir.path().join("sys/p");
    std::fs::create_dir_all(&p).unwrap();
    for (f, v) in [
        ("related_cpus", "0-3"),
        ("cpuinfo_min_freq", "408000"),
        ("cpuinfo_max_freq", "18446744073709551615"),
        ("scaling_max_freq", "18446744073709551615"),
        (
            "scaling_available_frequencies",
            "408000 1416000 18446744073709551615",
        ),
    ] {
        std::fs::write(p.join(f), format!("{v}\n")).unwrap();
    }
    let mut notes = probe::Notes::default();
    let pol = cpufreq::read_policy(&Root::new(dir.path()), &mut notes, "/sys/p", 0);
    assert_eq!(pol.cpuinfo_max_khz, None);
    assert_eq!(pol.scaling_max_khz, None);
    assert_eq!(pol.frequencies_khz, [408_000, 1_416_000]);
    let text: Vec<String> = notes.0.iter().map(|a| a.to_string()).collect();
    assert!(
        text.contains(&"/sys/p/cpuinfo_max_freq: invalid clock: 18446744073709551615 kHz".into()),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("/sys/p/scaling_available_frequencies: invalid clock")),
        "{text:?}"
    );
}
