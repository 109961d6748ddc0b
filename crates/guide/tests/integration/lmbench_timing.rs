//! The benchmp harness's rules on synthetic bodies whose "time" is exact, so the count
//! adjustment, the acceptance window, the repetitions and the median are checked without a
//! clock.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use guide::lmbench::timing::{Error, Sample, TRIES, Timing, median, min_per_iter};

#[test]
fn counts_are_rescaled_until_intervals_reach_enough() {
    let t = Timing::with_enough(1000.0);
    let mut seen = Vec::new();
    let samples = t
        .benchmp_timed(0.0, |n| {
            seen.push(n);
            Ok(Duration::from_nanos(n * 3000))
        })
        .unwrap();
    // warm-up 1, then 1 → ×8 → ×8 (still ≤150 µs) → 64·1.1·1000/192 + 1 = 367, kept 11 times.
    assert_eq!(&seen[..5], &[1, 1, 8, 64, 367]);
    assert_eq!(samples.len(), TRIES);
    assert!(samples.iter().all(|s| s.n == 367 && s.us > 950.0));
}

#[test]
fn short_intervals_are_not_kept_and_long_ones_are_rescaled_down() {
    let t = Timing::with_enough(1000.0);
    let mut calls = 0u64;
    // The first timed interval is far too long (5 ms): kept (> 0.95·ENOUGH) but rescaled.
    let samples = t
        .benchmp_timed(0.0, |n| {
            calls += 1;
            let per = if calls <= 2 { 5000 } else { 1 };
            Ok(Duration::from_micros(n * per))
        })
        .unwrap();
    assert_eq!(samples.len(), TRIES);
    assert_eq!(samples[0], Sample { us: 5000.0, n: 1 });
    assert!(samples[1..].iter().all(|s| s.us > 950.0));
}

#[test]
fn floors_raise_enough_and_a_second_means_one_sample() {
    let t = Timing::with_enough(5000.0);
    assert_eq!(t.enough_for(0.0), 5000.0);
    assert_eq!(t.enough_for(1_000_000.0), 1_000_000.0);
    assert_eq!(t.repetitions(1_000_000.0), 1);
    assert_eq!(t.repetitions(100_000.0), TRIES);
    let mut q = Timing::with_enough(5000.0);
    q.floor_scale = 0.1;
    q.enough_cap_us = Some(20_000.0);
    assert_eq!(q.enough_for(1_000_000.0), 20_000.0);
    let samples = t
        .benchmp_timed(1_000_000.0, |n| Ok(Duration::from_micros(n * 100_000)))
        .unwrap();
    assert_eq!(samples.len(), 1);
}

#[test]
fn the_median_averages_the_two_middle_samples_separately() {
    let s = |us, n| Sample { us, n };
    let odd = [s(10.0, 1), s(30.0, 1), s(20.0, 1)];
    assert_eq!(median(&odd).unwrap(), s(20.0, 1));
    let even = [s(10.0, 1), s(40.0, 2), s(30.0, 1), s(100.0, 1)];
    // by time per iteration: 100, 30, 20, 10 → the middle two are (30,1) and (40,2).
    assert_eq!(median(&even).unwrap(), s(35.0, 1));
    assert_eq!(min_per_iter(&even), 10.0);
    assert!(median(&[]).is_none());
}

#[test]
fn a_body_that_does_not_scale_gives_up_and_cancel_stops() {
    let t = Timing::with_enough(1000.0);
    let r = t.benchmp_timed(0.0, |_| Ok(Duration::from_micros(1)));
    assert!(matches!(r, Err(Error::Failed(_))));
    let flag = Arc::new(AtomicBool::new(true));
    let t = Timing::with_enough(1000.0).with_cancel(flag);
    assert_eq!(
        t.benchmp_timed(0.0, |n| Ok(Duration::from_micros(n))),
        Err(Error::Cancelled)
    );
}

#[test]
fn the_real_clock_gives_intervals_of_enough() {
    let t = Timing::with_enough(2000.0);
    let samples = t
        .benchmp(0.0, |n| {
            let mut x = 0u64;
            for i in 0..n * 100 {
                x = std::hint::black_box(x.wrapping_add(i));
            }
        })
        .unwrap();
    assert_eq!(samples.len(), TRIES);
    assert!(samples.iter().all(|s| s.us > 0.95 * 2000.0));
}

#[test]
fn a_failed_calibration_is_said_and_a_retried_one_lists_its_failures() {
    use guide::lmbench::timing::{ATTEMPTS, CANDIDATES, Calibration};
    let ok = Calibration {
        enough_us: 5000.0,
        passed: true,
        tests: 1,
        failures: vec![],
        clock_step_us: None,
        longer_skipped: false,
    };
    assert_eq!(ok.describe(), "calibrated");
    let retried = Calibration {
        enough_us: 5000.0,
        passed: true,
        tests: 2,
        failures: vec!["5 ms: 0.41 % off at +2.0 %".into()],
        clock_step_us: None,
        longer_skipped: false,
    };
    assert!(retried.describe().contains("after 1 failed"));
    assert!(retried.describe().contains("0.41 % off"));
    let failed = Calibration {
        enough_us: 100_000.0,
        passed: false,
        tests: 8,
        failures: vec!["5 ms: 0.41 % off at +2.0 %".into()],
        clock_step_us: None,
        longer_skipped: false,
    };
    let d = failed.describe();
    assert!(d.starts_with("CALIBRATION FAILED"), "{d}");
    assert!(d.contains("8 tries"), "{d}");
    // Failed on the machine's own wander, chosen by the clock's step: said as such, with the
    // failures, and not as a failed calibration.
    let by_clock = Calibration {
        enough_us: 5000.0,
        passed: false,
        tests: 8,
        failures: vec!["5 ms: 0.41 % off at +2.0 %".into()],
        clock_step_us: Some(0.031),
        longer_skipped: false,
    };
    let d = by_clock.describe();
    assert!(
        !d.contains("FAILED") && d.contains("failed in all 8 tries"),
        "{d}"
    );
    assert!(
        d.contains("0.41 % off") && d.contains("step 0.031 µs"),
        "{d}"
    );
    // A real calibration capped at 10 ms ends on a candidate (passed, or chosen by this
    // machine's fine clock when every test failed) and says which.
    let c = guide::lmbench::timing::calibrate(10_000.0);
    assert!(c.enough_us == 5000.0 || c.enough_us == 10_000.0, "{c:?}");
    assert!(c.tests >= 1 && c.tests <= 2 * ATTEMPTS);
    assert_eq!(c.passed, c.failures.len() < c.tests as usize);
    // Under qemu-user the loop's speed is the emulator's, and a clock read its time: a failed
    // calibration there may also find the clock too coarse for 5 and 10 ms.
    assert!(
        c.passed || c.clock_step_us.is_some() || testsupport::timing_unreal(),
        "{c:?}"
    );
    let _ = CANDIDATES;
}

/// Ctrl-C during the calibration: it gives up between two timed loops instead of trying every
/// candidate (seconds on a noisy machine), keeps the fallback and says it was interrupted.
#[test]
fn calibration_gives_up_when_cancelled() {
    use guide::lmbench::timing::{INTERRUPTED, calibrate_cancellable};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let set = AtomicBool::new(true);
    let c = calibrate_cancellable(1_000_000.0, &set);
    assert_eq!(c.tests, 0, "{c:?}");
    assert!(c.interrupted() && !c.passed, "{c:?}");
    assert_eq!(c.enough_us, 1_000_000.0);
    assert!(c.describe().contains("interrupted"), "{}", c.describe());

    // Set while the first candidate's test runs (a 5 ms test times ≥ 10 loops of 10 runs).
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let c = calibrate_cancellable(100_000.0, &flag);
    setter.join().unwrap();
    assert!(c.passed || c.interrupted(), "{c:?}");
    if !c.passed {
        assert_eq!(c.failures.last().map(String::as_str), Some(INTERRUPTED));
        assert!(c.tests <= 1, "gave up in the first test: {c:?}");
    }
    // The harness keeps working with the fallback.
    let t = guide::lmbench::timing::Timing::calibrate_until(Some(2000.0), 1e6, &set);
    assert_eq!(t.enough_us, 2000.0);
}

/// The clock step that picks ENOUGH when the linearity test cannot pass: CLOCK_MONOTONIC on
/// Linux moves in well under a microsecond (the read itself), far inside 0.25 % of 5 ms.
#[test]
fn the_clock_step_is_measured_and_fine_on_linux() {
    let step = guide::lmbench::timing::clock_step_us();
    assert!(step > 0.0, "{step}");
    // Under qemu-user a clock read costs the emulator's time (12.5 µs seen on armv7).
    if !testsupport::timing_unreal() {
        assert!(step < 12.5, "{step}");
    }
}
