//! The clock kernel on the real machine: a positive, sane clock, structure of the sample, and
//! pinning. Under emulation (BOARDBENCH_EMULATED) only the structure is checked.

use loops::clock::{ClockOptions, LONG_OPS, SHORT_OPS, measure};

#[test]
fn a_measurement_has_the_requested_runs_and_a_calibrated_count() {
    let opts = ClockOptions {
        short_target_ns: 5_000_000,
        runs: 3,
    };
    let s = measure(&opts);
    assert_eq!(s.short_ns.len(), 3);
    assert_eq!(s.long_ns.len(), 3);
    assert_eq!((s.short_ops, s.long_ops), (SHORT_OPS, LONG_OPS));
    assert!(s.count >= 1000);
    assert!(s.mhz >= 0.0 && s.mhz.is_finite());
    assert!(s.elapsed_ns > 0);
}

#[test]
fn the_clock_of_a_pinned_core_is_in_a_sane_range() {
    let cpu = loops::affinity::allowed_cpus()[0];
    loops::affinity::pin_current_thread(&[cpu]).unwrap();
    let s = measure(&ClockOptions::default());
    if testsupport::timing_unreal() {
        return;
    }
    // Any real core this tool runs on: 20 MHz … 10 GHz.
    assert!(s.mhz > 20.0 && s.mhz < 10_000.0, "{s:?}");
    if cfg!(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )) {
        assert!(s.exact);
    }
}

/// Not a test of behaviour: prints the median clock and run time of 5 measurements
/// (`cargo test -p boardbench-loops --test integration -- clock:: --ignored --nocapture`).
#[test]
#[ignore]
fn report_five_measurements() {
    loops::affinity::pin_current_thread(&[1]).ok();
    let mut mhz = Vec::new();
    let mut secs = Vec::new();
    for _ in 0..5 {
        let s = measure(&ClockOptions::default());
        println!(
            "{:.1} MHz count={} {:.3} s",
            s.mhz,
            s.count,
            s.elapsed_ns as f64 / 1e9
        );
        mhz.push(s.mhz);
        secs.push(s.elapsed_ns as f64 / 1e9);
    }
    println!(
        "median {:.1} MHz, {:.3} s",
        loops::stats::median(&mhz).unwrap(),
        loops::stats::median(&secs).unwrap()
    );
}
