//! Every available recursive SHA-256 backend against values computed independently with the
//! sha2 crate's full SHA-256 (padding and all) of the 32-byte value, repeated.

use loops::sha256::{SEED, Sha256Backend, available_backends, chain, fast_backend, hex, run};
use sha2::{Digest, Sha256};

/// The independent value: `n` times full SHA-256 with the sha2 crate.
fn sha2_chain(seed: &[u8; 32], n: u64) -> [u8; 32] {
    let mut h = *seed;
    for _ in 0..n {
        h = Sha256::digest(h).into();
    }
    h
}

/// Digest of 10,000,000 recursive hashes of 32 zero bytes, computed once with `sha2_chain`
/// (re-checked against sha2 on every native run by `the_10m_known_answer_is_sha2s`).
const DIGEST_10M: &str = "6b4ab10d92373474a97d10639e667f6b734af012f9be29997f1befd1c7166199";

#[test]
fn the_portable_reference_is_always_available_and_hardware_is_preferred() {
    let all = available_backends();
    assert_eq!(all.last(), Some(&Sha256Backend::Portable));
    if let Some(f) = fast_backend() {
        assert!(f.is_hardware());
        assert_eq!(all[0], f);
    }
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        fast_backend() == Some(Sha256Backend::ShaNi),
        std::arch::is_x86_feature_detected!("sha")
    );
    #[cfg(target_arch = "aarch64")]
    assert_eq!(
        fast_backend() == Some(Sha256Backend::Armv8Sha2),
        std::arch::is_aarch64_feature_detected!("sha2")
    );
    // A backend of another architecture is refused, not emulated.
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(chain(Sha256Backend::ShaNi, &SEED, 1), None);
    #[cfg(not(target_arch = "aarch64"))]
    assert_eq!(chain(Sha256Backend::Armv8Sha2, &SEED, 1), None);
}

#[test]
fn every_backend_matches_sha2_after_0_1_2_and_1000_iterations() {
    for b in available_backends() {
        for n in [0, 1, 2, 3, 1000] {
            assert_eq!(
                chain(b, &SEED, n).unwrap(),
                sha2_chain(&SEED, n),
                "{b:?} after {n}"
            );
        }
    }
}

#[test]
fn every_backend_matches_sha2_from_arbitrary_start_values() {
    let seeds: [[u8; 32]; 3] = [
        [0xff; 32],
        core::array::from_fn(|i| i as u8),
        core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5),
    ];
    for b in available_backends() {
        for s in &seeds {
            assert_eq!(chain(b, s, 7).unwrap(), sha2_chain(s, 7), "{b:?} {s:?}");
        }
    }
}

#[test]
fn every_backend_matches_the_10m_known_answer() {
    for b in available_backends() {
        // The portable path under qemu is slow: there it is checked at 1M against sha2 instead.
        if testsupport::timing_unreal() && b == Sha256Backend::Portable {
            assert_eq!(
                chain(b, &SEED, 1_000_000).unwrap(),
                sha2_chain(&SEED, 1_000_000)
            );
            continue;
        }
        assert_eq!(
            hex(&chain(b, &SEED, 10_000_000).unwrap()),
            DIGEST_10M,
            "{b:?}"
        );
    }
}

#[test]
fn the_10m_known_answer_is_sha2s() {
    if testsupport::timing_unreal() {
        return; // 10M full hashes with sha2 under qemu take too long; checked natively in CI.
    }
    assert_eq!(hex(&sha2_chain(&SEED, 10_000_000)), DIGEST_10M);
}

#[test]
fn a_timed_run_reports_its_backend_iterations_and_digest() {
    let b = fast_backend().unwrap_or(Sha256Backend::Portable);
    let s = run(b, &SEED, 1000).unwrap();
    assert_eq!(s.backend, b);
    assert_eq!(s.iterations, 1000);
    assert_eq!(s.digest, hex(&sha2_chain(&SEED, 1000)));
    assert!(s.mhs > 0.0 && s.mhs.is_finite());
    #[cfg(not(target_arch = "x86_64"))]
    assert!(run(Sha256Backend::ShaNi, &SEED, 1).is_none());
}

/// Not a test of behaviour: MH/s and cycles per hash of each backend with the clock measured
/// before and after (`cargo test -p boardbench-loops --test integration -- sha256:: --ignored --nocapture`).
#[test]
#[ignore]
fn report_speed() {
    use loops::clock::{ClockOptions, measure};
    let cpu = *loops::affinity::allowed_cpus().last().unwrap();
    loops::affinity::pin_current_thread(&[cpu]).unwrap();
    for b in available_backends() {
        let n = if b.is_hardware() { 2_000_000 } else { 300_000 };
        let before = measure(&ClockOptions::default()).mhz;
        let mut best = 0.0f64;
        for _ in 0..15 {
            best = best.max(run(b, &SEED, n).unwrap().mhs);
        }
        let after = measure(&ClockOptions::default()).mhz;
        let mhz = (before + after) / 2.0;
        println!(
            "{b:?} cpu{cpu}: best {best:.2} MH/s, clock {before:.0}/{after:.0} MHz, {:.1} cycles/hash, {:.3} MH/s per 0.1 GHz",
            mhz / best,
            best / (mhz / 100.0),
        );
    }
}

#[test]
fn every_variant_matches_sha2_and_the_hardware_ones_exist_exactly_with_the_extension() {
    use loops::sha256::{Variant, chain_variant};
    let seeds: [[u8; 32]; 2] = [SEED, core::array::from_fn(|i| (i as u8) ^ 0x5c)];
    for v in Variant::ALL {
        assert_eq!(
            v.backend().is_some(),
            v == Variant::Portable || fast_backend().is_some(),
            "{v:?}"
        );
        for s in &seeds {
            for n in [0, 1, 2, 1000] {
                assert_eq!(
                    chain_variant(v, s, n),
                    v.backend().map(|_| sha2_chain(s, n)),
                    "{v:?} after {n}"
                );
            }
        }
    }
}

#[test]
fn every_variant_matches_the_10m_known_answer() {
    use loops::sha256::{Variant, chain_variant};
    let n = if testsupport::timing_unreal() {
        100_000
    } else {
        10_000_000
    };
    let want = if testsupport::timing_unreal() {
        hex(&sha2_chain(&SEED, n))
    } else {
        DIGEST_10M.to_string()
    };
    for v in Variant::ALL {
        if v == Variant::Portable && testsupport::timing_unreal() {
            continue;
        }
        if let Some(d) = chain_variant(v, &SEED, n) {
            assert_eq!(hex(&d), want, "{v:?}");
        }
    }
}
