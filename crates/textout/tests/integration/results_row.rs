//! The summary row's cells for known inputs: sbc-bench's clock-cell rules (two clusters, one
//! cluster, no cpufreq, "~" beyond 2 %, "(throttled)"), R10 rounding, "-" for missing figures.

use crate::common;

use common::{Figures, cells, finding, machine, run_doc};
use document::Severity;
use textout::{results_row, results_row_cells};

#[test]
fn big_little_row_has_every_cell() {
    let doc = run_doc(machine("rk3399"), &Figures::default());
    let line = results_row(&doc);
    assert_eq!(
        cells(&line),
        [
            "Pine64 RockPro64 v2.1",
            "1800/1416 MHz",
            "5.15",
            "Armbian 21.11.1 Bullseye arm64",
            // R10(⌊(12345+12346+12347)/3⌋) = R10(12346)
            "12350",
            // the best single-threaded cluster, not rounded
            "2306",
            // R10(⌊1284074.15⌋): the best cluster
            "1284070",
            // R10(5113.9), R10(15710.2): the best cluster each
            "5110",
            "15710",
            "-",
        ]
    );
    assert!(line.starts_with("| ") && line.ends_with(" |"), "{line}");
    assert!(!line.contains('\n'));
}

#[test]
fn three_clusters_show_last_and_first_like_sbc_bench() {
    // RK3588: 1800 (A55) and 2400 (A76 ×2): sbc-bench shows big/little, not three values.
    let doc = run_doc(machine("rk3588"), &Figures::default());
    assert_eq!(results_row_cells(&doc).clock, "2400/1800 MHz");
    assert_eq!(results_row_cells(&doc).kernel, "5.10");
    assert_eq!(
        results_row_cells(&doc).distro,
        "Ubuntu 22.04.3 LTS (jammy) arm64"
    );
}

#[test]
fn one_cluster_and_mixed_userland() {
    let f = Figures {
        zip_single: vec![1650.0],
        aes: vec![36_000.4],
        memcpy: vec![2_550.0],
        memset: vec![3_430.0],
        ..Figures::default()
    };
    let doc = run_doc(machine("rpi4"), &f);
    let c = results_row_cells(&doc);
    assert_eq!(c.clock, "1500 MHz");
    // 64-bit kernel, armhf userland: "arm64/armhf" as sbc-bench writes it.
    assert_eq!(c.distro, "Raspbian GNU/Linux 11 (bullseye) arm64/armhf");
    assert_eq!(c.aes, Some(36_000));
}

#[test]
fn no_cpufreq_shows_the_measured_clock_or_says_so() {
    let m = machine("vm");
    let doc = run_doc(m.clone(), &Figures::default());
    // The builder measures 2000 MHz × 0.996 on machines without cpufreq.
    assert_eq!(results_row_cells(&doc).clock, "~1990 MHz");
    assert_eq!(
        results_row_cells(&doc).distro,
        "Debian GNU/Linux 12 (bookworm) x86_64/amd64"
    );
    let mut bare = doc.clone();
    bare.measurements.retain(|r| r.suite != "clock");
    assert_eq!(results_row_cells(&bare).clock, "no cpufreq support");
}

#[test]
fn measured_clock_beyond_two_percent_gets_a_tilde() {
    let at = |factor: f64| {
        let f = Figures {
            clock_factor: factor,
            hot_factor: factor,
            ..Figures::default()
        };
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock
    };
    assert_eq!(at(0.985), "1800/1416 MHz");
    assert_eq!(at(1.019), "1800/1416 MHz");
    // 1800 × 0.97 = 1746 → "~1750" (no unit, as sbc-bench)
    assert_eq!(at(0.97), "~1750");
    // fake clocks the other way: 1800 × 1.05 = 1890
    assert_eq!(at(1.05), "~1890");
}

#[test]
fn throttled_by_finding_or_by_a_clock_drop_over_three_percent() {
    let f = Figures {
        findings: vec![finding(
            "throttling",
            Severity::Invalid,
            "Throttling occured",
        )],
        ..Figures::default()
    };
    assert_eq!(
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock,
        "1800/1416 MHz (throttled)"
    );
    // Other kinds do not throttle the row.
    let f = Figures {
        findings: vec![finding("swapping", Severity::Invalid, "Swapping occured")],
        ..Figures::default()
    };
    assert_eq!(
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock,
        "1800/1416 MHz"
    );
    // before/after > 1.03 on the last cluster: 0.996/0.96 = 1.0375
    let f = Figures {
        hot_factor: 0.96,
        ..Figures::default()
    };
    assert_eq!(
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock,
        "1800/1416 MHz (throttled)"
    );
    // 0.996/0.975 = 1.0215: not throttled
    let f = Figures {
        hot_factor: 0.975,
        ..Figures::default()
    };
    assert_eq!(
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock,
        "1800/1416 MHz"
    );
    // "~" and "(throttled)" together, like sbc-bench's "~2310 (throttled)"
    let f = Figures {
        clock_factor: 0.95,
        hot_factor: 0.90,
        ..Figures::default()
    };
    assert_eq!(
        results_row_cells(&run_doc(machine("rk3399"), &f)).clock,
        "~1710 (throttled)"
    );
}

#[test]
fn r10_rounds_half_to_even_like_printf() {
    let f = Figures {
        zip_multi_runs: vec![12_344.0, 12_345.0, 12_346.0], // 12345 → 1234.5 → 1234 → 12340
        zip_single: vec![999.0, 1_001.0],
        aes: vec![1_305_485.7, 1_000.0], // ⌊⌋ 1305485 → 130548.5 → 130548 → 1305480
        memcpy: vec![12_355.0, 100.0],   // 1235.5 → 1236 → 12360
        memset: vec![12_345.2, 100.0],   // 1234.52 → 1235 → 12350 (no floor for memory)
        ..Figures::default()
    };
    let c = results_row_cells(&run_doc(machine("rk3399"), &f));
    assert_eq!(c.zip_multi, Some(12_340));
    assert_eq!(c.zip_single, Some(1_001));
    assert_eq!(c.aes, Some(1_305_480));
    assert_eq!(c.memcpy, Some(12_360));
    assert_eq!(c.memset, Some(12_350));
}

#[test]
fn missing_figures_are_dashes() {
    let f = Figures {
        zip_multi_runs: vec![],
        zip_single: vec![],
        aes: vec![],
        memcpy: vec![],
        memset: vec![],
        khs: None,
        ..Figures::default()
    };
    let line = results_row(&run_doc(machine("rk3399"), &f));
    assert_eq!(&cells(&line)[4..], ["-", "-", "-", "-", "-", "-"], "{line}");
    let f = Figures {
        khs: Some(18.744),
        ..Figures::default()
    };
    let line = results_row(&run_doc(machine("rk3399"), &f));
    assert_eq!(cells(&line)[9], "18.74");
}

#[test]
fn hostile_names_cannot_break_the_row() {
    let mut doc = run_doc(machine("rk3399"), &Figures::default());
    doc.device = Some("Evil | Board\n| 1 | 2 |\u{1b}[31m".into());
    let line = results_row(&doc);
    assert_eq!(cells(&line).len(), 10, "{line}");
    assert_eq!(cells(&line)[0], "Evil / Board / 1 / 2 /");
    assert!(!line.contains('\u{1b}') && !line.contains('\n'));
}

#[test]
fn a_quick_run_never_passes_for_a_full_one() {
    let mut doc = run_doc(machine("rk3399"), &Figures::default());
    let full = cells(&results_row(&doc));
    doc.run.as_mut().unwrap().profile = "quick".into();
    let quick = cells(&results_row(&doc));
    // Every number says which profile made it; text cells and "-" stay as they are.
    assert_eq!(quick[..4], full[..4]);
    assert_eq!(quick[4], "12350 (quick)");
    assert_eq!(quick[5], "2306 (quick)");
    assert_eq!(quick[8], "15710 (quick)");
    assert_eq!(quick[9], "-");
    assert!(
        textout::terminal_summary(&doc, false).starts_with(
            "Note: figures of this quick run are not comparable with sbc-bench's: 7-zip multi"
        ),
        "{}",
        textout::terminal_summary(&doc, false)
    );
    // The fast profile's figures are sbc-bench's: an unmarked row.
    doc.run.as_mut().unwrap().profile = "fast".into();
    assert_eq!(cells(&results_row(&doc)), full);
    // Flags stored by the run win over the profile's.
    let run = doc.run.as_mut().unwrap();
    run.comparability = headline::comparability::for_profile("fast");
    run.comparability[2].comparable_with_sbc_bench = false;
    assert_eq!(cells(&results_row(&doc))[6], "1284070 (fast)");
}

/// Issue 47: an interrupted run carried no mark in the summary row (the log's last line).
#[test]
fn an_interrupted_run_is_marked_after_its_device() {
    let mut doc = run_doc(machine("rk3399"), &Figures::default());
    let plain = cells(&results_row(&doc))[0].clone();
    assert!(!plain.contains("interrupted"), "{plain}");
    let run = doc.run.as_mut().unwrap();
    run.phases.push(document::run::Phase {
        reason: Some(document::run::interrupted_reason(15)),
        ..Default::default()
    });
    let line = results_row(&doc);
    assert_eq!(cells(&line).len(), 10, "{line}");
    assert_eq!(cells(&line)[0], format!("{plain} (interrupted)"));
}
