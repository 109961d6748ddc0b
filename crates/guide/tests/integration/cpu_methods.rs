//! The built-in CPU methods on known cases: STREAM's validation and byte counting, LINPACK's
//! solution and residual check, Whetstone's and Dhrystone's final values as the algorithms
//! define them. Tiny sizes: each test takes milliseconds, also under qemu.

use std::time::Duration;

use guide::{dhrystone, linpack, stream, whetstone};

// ---------------------------------------------------------------- STREAM

#[test]
fn stream_validates_a_clean_run_and_catches_a_corrupted_array() {
    let mut arr = stream::Arrays::new(1000);
    for _ in 0..3 {
        for k in 0..4 {
            arr.kernel(k);
        }
    }
    assert_eq!(stream::validate(&[&arr], 3), Ok(()));
    // The scalar replay: a = 2, then c = a, b = 3c, c = a + b, a = b + 3c per pass.
    let (a, b, c) = stream::expected(1);
    assert_eq!((a, b, c), (30.0, 6.0, 8.0));
    assert_eq!(stream::expected(3).0, 2.0 * 15f64.powi(3));

    // A wrong pass count is a failure too.
    assert!(stream::validate(&[&arr], 2).is_err());

    arr.b[17] += 1.0;
    let err = stream::validate(&[&arr], 3).unwrap_err();
    assert!(err.contains("array b"), "{err}");
    assert!(!err.contains("array a"), "{err}");
    assert!(err.contains("1 of 1000"), "{err}");
}

#[test]
fn stream_single_and_threaded_runs_validate() {
    let (t, check) = stream::run_single(4096, 4, &|| false);
    assert_eq!(check, Ok(()));
    assert!(t.times.iter().all(|k| k.len() == 4));
    assert_eq!(t.rates(0).len(), 3, "the first pass is discarded");

    let (t, check, _notes) = stream::run_threads(4096, 3, &[0, 0], &|| false);
    assert_eq!(check, Ok(()));
    assert_eq!(t.elements, 4096);
    assert!(t.times.iter().all(|k| k.len() == 3));
    assert!(t.best(3).unwrap().value > 0.0);
}

#[test]
fn stream_counts_bytes_like_stream_and_reports_the_best_pass() {
    let t = stream::Times {
        elements: 1_000_000,
        times: [
            vec![1.0, 0.016, 0.032],
            vec![0.5, 0.016, 0.016],
            vec![0.5, 0.024, 0.048],
            vec![0.5, 0.048, 0.024],
        ],
    };
    // Copy: 2 × 8 bytes × 10^6 in 16 ms = 1000 MB/s (MB = 10^6 B); the 1 s first pass is ignored.
    let copy = t.best(0).unwrap();
    assert!((copy.value - 1000.0).abs() < 1e-6);
    assert!((copy.min.unwrap() - 500.0).abs() < 1e-6);
    // Add and Triad move 3 × 8 bytes per element.
    assert!((t.best(2).unwrap().value - 1000.0).abs() < 1e-6);
    assert!((t.best(3).unwrap().value - 1000.0).abs() < 1e-6);
}

#[test]
fn stream_arrays_are_four_times_the_last_level_cache() {
    assert_eq!(stream::elements_for(None, None), stream::DEFAULT_ELEMENTS);
    let llc = 32 << 20;
    assert_eq!(
        stream::elements_for(Some(llc), None),
        (4 * llc / 8) as usize
    );
    // Never more than a sixth of the available memory for the three arrays.
    let n = stream::elements_for(Some(llc), Some(240 << 20));
    assert_eq!(n, ((240u64 << 20) / 6 / 3 / 8) as usize);
}

// ---------------------------------------------------------------- LINPACK

#[test]
fn linpack_solves_the_generated_system_with_a_small_residual() {
    let mut solver = linpack::Solver::default();
    let (_, x) = solver.timed(1);
    let x = x.to_vec();
    let (resid, err) = linpack::residual_of(&x, linpack::N);
    assert!(resid < 10.0, "normalised residual {resid}");
    assert!(err < 1e-10, "max |x - 1| = {err}");
    assert!((linpack::ops(100) - 686_666.666).abs() < 1.0);
}

#[test]
fn linpack_residual_check_fails_on_a_perturbed_solution_or_matrix() {
    let mut solver = linpack::Solver::default();
    let (_, x) = solver.timed(1);
    let mut x = x.to_vec();
    x[5] += 1e-6;
    let (resid, _) = linpack::residual_of(&x, linpack::N);
    assert!(resid > linpack::RESIDUAL_LIMIT, "residual {resid}");

    // Solve a matrix with one perturbed element, check against the original.
    let (n, lda) = (linpack::N, linpack::LDA);
    let mut a = vec![0.0; lda * n];
    let mut b = vec![0.0; n];
    linpack::matgen(&mut a, lda, n, &mut b);
    a[lda * 3 + 7] += 0.01;
    let mut ipvt = vec![0; n];
    linpack::dgefa(&mut a, lda, n, &mut ipvt).unwrap();
    linpack::dgesl(&a, lda, n, &ipvt, &mut b);
    let (resid, _) = linpack::residual_of(&b, n);
    assert!(resid > linpack::RESIDUAL_LIMIT, "residual {resid}");
}

#[test]
fn linpack_small_known_system_and_a_singular_one() {
    // [[2, 1], [1, 3]] x = [3, 5] → x = [0.8, 1.4]; column-major with lda 2.
    let mut a = vec![2.0, 1.0, 1.0, 3.0];
    let mut b = vec![3.0, 5.0];
    let mut ipvt = vec![0; 2];
    linpack::dgefa(&mut a, 2, 2, &mut ipvt).unwrap();
    linpack::dgesl(&a, 2, 2, &ipvt, &mut b);
    assert!(
        (b[0] - 0.8).abs() < 1e-15 && (b[1] - 1.4).abs() < 1e-15,
        "{b:?}"
    );
    let mut s = vec![1.0, 2.0, 2.0, 4.0];
    assert!(linpack::dgefa(&mut s, 2, 2, &mut ipvt).is_err());
}

// ---------------------------------------------------------------- Whetstone

#[test]
fn whetstone_modules_end_where_the_algorithm_says() {
    for l in [1, 2, 3] {
        let r = whetstone::run(l);
        assert_eq!(
            whetstone::self_check(&r, l),
            Vec::<String>::new(),
            "LOOP {l}"
        );
        assert_eq!(r.module6, (1, 2, 3));
        assert_eq!(r.module9, [3.0, 2.0, 3.0]);
    }
    assert_eq!(whetstone::run(1).module4_j, 0);
    assert_eq!(whetstone::run(2).module4_j, 1);
    // Module 11 converges towards 1 from 0.75.
    let x = whetstone::run(3).module11_x;
    assert!(x > 0.75 && x < 1.0, "{x}");
    // LOOP = 10 is 10^6 Whetstone instructions: in one second, 1 MIPS.
    assert!((whetstone::mips(10.0, 1.0) - 1.0).abs() < 1e-12);
}

#[test]
fn whetstone_self_check_notices_a_wrong_value() {
    let mut r = whetstone::run(1);
    r.module6 = (1, 2, 4);
    assert_eq!(whetstone::self_check(&r, 1).len(), 1);
}

// ---------------------------------------------------------------- Dhrystone

#[test]
fn dhrystone_final_values_match_the_published_should_be_list() {
    for runs in [1u64, 1000] {
        let mut g = dhrystone::State::new();
        let l = dhrystone::run(&mut g, 1, runs);
        assert_eq!(
            dhrystone::self_check(&g, &l, runs),
            Vec::<String>::new(),
            "{runs} runs"
        );
        assert_eq!(g.arr_2_glob[8][7] as u64, runs + 10);
        assert_eq!((l.int_1_loc, l.int_2_loc, l.int_3_loc), (5, 13, 7));
        assert_eq!(g.records[0].int_comp, 17);
        assert_eq!(g.records[1].int_comp, 18);
    }
    // Continuing a run (as the sampler does) keeps Arr_2_Glob[8][7] = runs + 10.
    let mut g = dhrystone::State::new();
    dhrystone::run(&mut g, 1, 300);
    let l = dhrystone::run(&mut g, 301, 500);
    assert!(dhrystone::self_check(&g, &l, 500).is_empty());
}

#[test]
fn dhrystone_self_check_notices_a_corrupted_state_and_dmips_is_per_vax() {
    let mut g = dhrystone::State::new();
    let l = dhrystone::run(&mut g, 1, 10);
    g.int_glob = 6;
    let bad = dhrystone::self_check(&g, &l, 10);
    assert!(bad.iter().any(|b| b.starts_with("Int_Glob")), "{bad:?}");
    assert!((dhrystone::dmips(1757.0) - 1.0).abs() < 1e-12);
}

// ---------------------------------------------------------------- sampling

#[test]
fn repeat_stops_at_the_budget_and_calibrates_the_iteration_count() {
    let plan = guide::repeat::Plan {
        budget: Duration::from_millis(200),
        sample: Duration::from_millis(20),
        max_range_pct: 0.0,
        min_samples: 1000,
    };
    let start = std::time::Instant::now();
    let s = guide::repeat::measure(plan, &|| false, |n| {
        // A fake kernel: 1 µs per iteration, without sleeping.
        Duration::from_micros(n)
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(s.iterations >= 20_000, "{}", s.iterations);
    assert!(!s.rates.is_empty());
    assert!((s.rates[0] - 1e6).abs() < 1.0);
    // Cancelled before calibration ends: nothing.
    let s = guide::repeat::measure(plan, &|| true, Duration::from_micros);
    assert!(s.rates.is_empty());
}
