//! The log: its very last line is the summary row followed by exactly one '\n', its sections
//! are there, no ANSI escape gets in, and one full log is pinned by a snapshot.

use crate::common;

use common::{Figures, finding, machine, run_doc};
use document::{ResultDocument, Severity};
use textout::{log, results_row};

fn assert_results_row_last(doc: &ResultDocument) -> String {
    let text = log(doc);
    assert!(text.ends_with('\n'), "log must end with a line end");
    assert!(
        !text.ends_with("\n\n"),
        "nothing may follow the summary line"
    );
    let last = text.lines().last().unwrap();
    assert_eq!(last, results_row(doc));
    assert!(last.starts_with("| ") && last.ends_with(" |"));
    text
}

#[test]
fn last_line_is_the_results_row_and_nothing_follows() {
    for m in ["rk3588", "rk3399", "rpi4", "vm", "intel-hybrid", "broken"] {
        let doc = run_doc(machine(m), &Figures::default());
        let text = assert_results_row_last(&doc);
        // the row appears exactly once
        assert_eq!(text.matches(&results_row(&doc)).count(), 1, "{m}");
    }
}

#[test]
fn sections_are_all_there_in_sbc_bench_order() {
    let f = Figures {
        throttled_seconds: 12.34,
        khs: Some(18.74),
        findings: vec![finding(
            "throttling",
            Severity::Invalid,
            "ATTENTION: Throttling occured. Check the log for details.",
        )],
        ..Figures::default()
    };
    let text = assert_results_row_last(&run_doc(machine("rk3588"), &f));
    let order = [
        "boardbench 0.1.0 Radxa ROCK 5 Model B unattended (Mon, 23 Nov 2026 12:00:00 +0100)",
        "SoC guess: Rockchip RK3588",
        "Distro:    Ubuntu 22.04.3 LTS",
        "Kernel:    5.10.110-rockchip-rk3588 aarch64",
        "Memory:    15.4 GiB total, 14.9 GiB available",
        " CPU    cluster  policy   speed  speed   core type",
        "  4        1        4      408    2400   Cortex-A76 / r4p0",
        "Checking cpufreq OPP for cpu0-cpu3 (Cortex-A55):",
        "Cpufreq OPP: 1800    Measured: 1792 (1793.300/1792.800/1792.300)",
        "Checking cpufreq OPP for cpu4-cpu5 (Cortex-A76):",
        "Executing memory bandwidth on cpu0 (Cortex-A55):",
        " libc memcpy copy                                :   4321.4 MB/s (3)",
        "Executing OpenSSL AES on cpu4 (Cortex-A76):",
        "OpenSSL 3.0.15: taskset -c 4 openssl speed -elapsed -evp aes-256-cbc (exit 0, 18.0 s)",
        "Executing recursive SHA-256 on cpu0 (Cortex-A55):",
        "Executing 7-Zip single-threaded on cpu4 (Cortex-A76):",
        "Executing 7-Zip multi-threaded on all 8 cores (run 1 of 3):",
        "Total: 12345,12346,12347",
        "Executing cpuminer on all 8 cores:",
        "[2026-11-23 12:30:00] Total: 18.74 kH/s",
        "Testing maximum cpufreq again, still under full load. System health now:",
        "Thermal source: /sys/class/thermal/thermal_zone0/temp (soc-thermal)",
        "System health while running memory bandwidth on cpu0 (Cortex-A55):",
        "Time       cpu0/cpu4/cpu6    load %cpu %sys %usr %nice %io %irq   Temp",
        "Throttling statistics (time spent on each cpufreq OPP) for CPUs 0-3 (Cortex-A55):",
        "Throttling statistics (time spent on each cpufreq OPP) for CPUs 6-7 (Cortex-A76):",
        "2208 MHz:   12.34 sec",
        "dmesg output while running the benchmarks:",
        "[ 1627.500000] hwmon hwmon1: Undervoltage detected!",
        "Swap before the run: 0 KiB used",
        "Swap after the run: 0 KiB used",
        "Findings:",
        "  * [INVALID] throttling: ATTENTION: Throttling occured. Check the log for details.",
        "Durations:",
        "2026-11-23T12:00:02.000+01:00 - 2026-11-23T12:00:08.000+01:00      6.0 s  clock check on cpu0 (Cortex-A55)",
    ];
    let mut from = 0;
    for want in order {
        let at = text[from..]
            .find(want)
            .unwrap_or_else(|| panic!("missing or out of order: {want:?}\n{text}"));
        from += at + want.len();
    }
    // The top OPP of the throttled policy ran 600 s during the run.
    assert!(text.contains("2400 MHz:     600 sec"), "{text}");
    assert!(text.contains(
        "\n##########################################################################\n"
    ));
}

#[test]
fn no_ansi_and_no_stray_control_characters() {
    let f = Figures {
        khs: Some(18.74),
        ..Figures::default()
    };
    let mut doc = run_doc(machine("rk3399"), &f);
    doc.device = Some("\u{1b}[1mBold\u{1b}[0m board".into());
    let text = assert_results_row_last(&doc);
    assert!(!text.contains('\u{1b}'), "ANSI in the log");
    assert!(!text.contains('\r'));
    assert!(text.starts_with("boardbench 0.1.0 Bold board unattended ("));
}

#[test]
fn a_tool_printing_a_results_row_like_line_cannot_end_the_log() {
    let mut doc = run_doc(machine("rk3399"), &Figures::default());
    let run = doc.run.as_mut().unwrap();
    let p = run
        .phases
        .iter_mut()
        .find(|p| !p.tool_runs.is_empty())
        .unwrap();
    p.tool_runs[0]
        .output
        .push_str("\n| fake | row | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n\n\n");
    assert_results_row_last(&doc);
}

#[test]
fn sparse_and_empty_documents_still_end_with_the_row() {
    let empty = ResultDocument {
        schema_version: 1,
        producer: "boardbench 0.1.0".into(),
        device: None,
        started: None,
        finished: None,
        machine: None,
        measurements: vec![],
        findings: vec![],
        imported: None,
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    };
    let text = assert_results_row_last(&empty);
    assert!(
        text.ends_with(
            "\n\n| unknown device | no cpufreq support | - | - | - | - | - | - | - | - |\n"
        ),
        "{text}"
    );
    let mut no_run_details = run_doc(machine("rk3588"), &Figures::default());
    let run = no_run_details.run.as_mut().unwrap();
    run.before = None;
    run.after = None;
    run.kmsg = None;
    run.monitor = None;
    let text = assert_results_row_last(&no_run_details);
    assert!(text.contains("Throttling statistics: no before/after snapshots recorded."));
    assert!(text.contains("(kernel messages were not recorded)"));
}

#[test]
fn logs_of_imported_sbc_bench_documents_end_with_the_row() {
    let dir = testsupport::sbc_bench_logs();
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(doc) = sbcimport::import_bytes(&bytes, &path.display().to_string()) else {
            continue;
        };
        assert_results_row_last(&doc);
        n += 1;
    }
    assert!(n > 100, "only {n} logs imported");
}

#[test]
fn full_log_snapshot() {
    let f = Figures {
        throttled_seconds: 12.34,
        findings: vec![
            finding(
                "throttling",
                Severity::Invalid,
                "ATTENTION: Throttling occured. Check the log for details.",
            ),
            finding("vm-guest", Severity::Info, "not a VM"),
        ],
        ..Figures::default()
    };
    let doc = run_doc(machine("rk3588"), &f);
    insta::assert_snapshot!(log(&doc));
}

#[test]
fn malformed_documents_never_panic() {
    let mut doc = run_doc(machine("rk3588"), &Figures::default());
    doc.measurements.push(document::Measurement {
        suite: "clock".into(),
        test: "cpu4".into(),
        variant: None,
        threads: 1,
        cpus: vec![],
        value: f64::NAN,
        unit: "MHz".into(),
        higher_is_better: true,
        spread_pct: Some(f64::INFINITY),
    });
    let run = doc.run.as_mut().unwrap();
    if let Some(l) = run.monitor.as_mut() {
        l.display_order.push(99);
    }
    for p in &mut run.phases {
        p.measurements.push(usize::MAX);
        p.cluster = Some(1000);
        p.started = "not a date".into();
        p.finished_unix_ms = 0;
        for s in &mut p.samples {
            s.unix_ms = u64::MAX;
            s.temp_c = Some(f64::NAN);
            s.load1 = Some(f64::INFINITY);
        }
        for r in &mut p.clock {
            r.mhz = f64::NAN;
            r.samples.clear();
            r.opp_khz = Some(0);
        }
    }
    if let Some(a) = run.after.as_mut() {
        for p in &mut a.policies {
            for t in &mut p.time_in_state {
                t.seconds = -5.0;
            }
        }
    }
    doc.started = Some("garbage".into());
    let text = assert_results_row_last(&doc);
    assert!(text.starts_with("boardbench 0.1.0 Radxa ROCK 5 Model B unattended (date unknown)"));
    let _ = textout::terminal_summary(&doc, true);
}
