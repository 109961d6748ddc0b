//! memlat kernel: the chain visits every word once per cycle, the random-read generator stays in
//! its window, cache levels are found on synthetic ladders, and a tiny run is well-formed.
//! No timed assertions.

use document::measure::memlat::AdvertisedCache;
use loops::memlat::{self, Config, caches, chain, random};

#[test]
fn bit_reversal_chain_visits_every_word_exactly_once_per_cycle() {
    for bits in [0u32, 1, 2, 3, 5, 9, 12, 16] {
        let words = 1usize << bits;
        let next = chain::successor_indices(words);
        let mut seen = vec![false; words];
        let mut i = 0;
        for step in 0..words {
            assert!(
                !seen[i],
                "word {i} visited twice within a cycle of {words} (step {step})"
            );
            seen[i] = true;
            i = next[i];
        }
        assert_eq!(i, 0, "cycle of {words} words does not close");
        assert!(seen.iter().all(|&s| s));
    }
    // The order is the bit-reversal permutation: 0, W/2, W/4, 3W/4, W/8 …
    let next = chain::successor_indices(16);
    let mut order = vec![0];
    while order.len() < 16 {
        order.push(next[*order.last().unwrap()]);
    }
    assert_eq!(
        order,
        [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]
    );
}

#[test]
fn written_chain_in_memory_matches_the_indices_and_chase_follows_it() {
    for words in [1usize, 8, 512, 4096] {
        let mut buf = vec![0usize; words];
        let base = buf.as_mut_ptr();
        // SAFETY: `buf` holds `words` usizes.
        unsafe { chain::write_chain(base, words) };
        let next = chain::successor_indices(words);
        for (i, &w) in buf.iter().enumerate() {
            assert_eq!((w - base as usize) / std::mem::size_of::<usize>(), next[i]);
        }
        // Eight steps of 2 chains land where the index walk says.
        let starts = chain::chain_starts(words, 2);
        let mut p: Vec<*const usize> = starts
            .iter()
            // SAFETY: every start is below `words`, inside `buf`.
            .map(|&s| unsafe { base.add(s) } as _)
            .collect();
        // SAFETY: the chain was written over `buf`, which is alive; its links stay inside it.
        unsafe { chain::chase_n(&mut p, 8) };
        for (k, &s) in starts.iter().enumerate() {
            let mut i = s;
            for _ in 0..8 {
                i = next[i];
            }
            // SAFETY: `i` is an index of the chain, below `words`.
            assert_eq!(p[k], unsafe { base.add(i) } as *const usize);
        }
    }
    assert_eq!(chain::chain_starts(4096, 4), vec![0, 64, 128, 192]);
    assert_eq!(chain::chain_starts(64, 2), vec![0, 0]);
}

#[test]
fn random_read_addresses_stay_in_the_window_and_cover_it() {
    for bits in [1u32, 10, 16, 26, 30] {
        let mask = (1u32 << bits) - 1;
        let mut seed = 0u32;
        let mut seen_high = false;
        for _ in 0..100_000 {
            let a = random::random_addr(&mut seed, mask);
            let (b, c) = random::random_addr_pair(&mut seed, mask);
            assert!(a <= mask && b <= mask && c <= mask);
            seen_high |= a > mask / 2;
        }
        assert!(
            seen_high,
            "addresses never reach the upper half of a {bits}-bit window"
        );
    }
    // The reads run over an all-zero window and return the seed chain's end.
    let buf = vec![0u8; 1 << 12];
    // SAFETY: the mask (1 << 12) - 1 keeps every read inside the 4 KiB buffer.
    let s = unsafe { random::single_reads(buf.as_ptr(), (1 << 12) - 1, 1024, 0) };
    // SAFETY: as above.
    let d = unsafe { random::dual_reads(buf.as_ptr(), (1 << 12) - 1, 1024, 0) };
    assert_ne!(s, 0);
    assert_ne!(d, 0);
}

fn kib(k: u64) -> u64 {
    k << 10
}

fn ladder(ns: &[f64]) -> Vec<(u64, f64)> {
    ns.iter()
        .enumerate()
        .map(|(i, &t)| (kib(4) << i, t))
        .collect()
}

fn adv(level: u32, kind: &str, size: u64) -> AdvertisedCache {
    AdvertisedCache {
        level,
        kind: kind.into(),
        size_bytes: size,
    }
}

#[test]
fn cache_levels_on_this_vms_shape_of_ladder() {
    // 4 KiB … 64 MiB, shaped like ramlat's 1xPTR column on the reference VM: L1 to 32 KiB, L2 to
    // 256–512 KiB, a ramp (shared L3) to 2 MiB, memory from 8 MiB.
    let l = ladder(&[
        1.13, 1.12, 1.13, 1.21, 3.93, 4.09, 3.96, 5.85, 8.6, 14.9, 53.7, 149.0, 152.0, 168.0, 179.0,
    ]);
    let advertised = [
        adv(1, "Data", kib(32)),
        adv(1, "Instruction", kib(32)),
        adv(2, "Unified", kib(512)),
        adv(3, "Unified", kib(32768)),
    ];
    let a = caches::analyse(&l, &advertised);
    let eff: Vec<u64> = a.levels.iter().map(|c| c.effective_bytes).collect();
    assert_eq!(eff, vec![kib(32), kib(256), kib(2048)]);
    assert_eq!(a.levels[0].agrees, Some(true));
    assert_eq!(a.levels[1].agrees, Some(true)); // 256 KiB effective vs 512 KiB: within 2×
    assert_eq!(a.levels[2].agrees, Some(false));
    assert_eq!(a.levels[2].advertised_bytes, Some(kib(32768)));
    assert_eq!(a.levels[2].next_bytes, kib(4096));
    assert!((a.levels[0].latency_ns - 1.12).abs() < 1e-9);
    assert!((a.levels[1].latency_ns - 3.93).abs() < 1e-9);
    assert!((a.levels[2].latency_ns - 14.9).abs() < 1e-9);
    assert_eq!(a.beyond_ns, Some(179.0));
    assert_eq!(
        a.flags,
        vec!["advertised L3 32 MiB, effective ≈ 2 MiB–4 MiB".to_string()]
    );
}

#[test]
fn a_step_beyond_the_advertised_levels_is_flagged() {
    // The reference VM on a bad day: a second plateau at 8–16 MiB before memory.
    let l = ladder(&[
        1.24, 1.24, 1.24, 1.24, 4.59, 4.62, 4.71, 10.5, 16.2, 17.1, 17.2, 66.5, 69.3, 140.0, 142.0,
    ]);
    let advertised = [
        adv(1, "Data", kib(32)),
        adv(2, "Unified", kib(512)),
        adv(3, "Unified", kib(32768)),
    ];
    let a = caches::analyse(&l, &advertised);
    let eff: Vec<u64> = a.levels.iter().map(|c| c.effective_bytes).collect();
    assert_eq!(eff, vec![kib(32), kib(256), kib(4096), kib(16384)]);
    assert_eq!(a.levels[3].advertised_bytes, None);
    assert_eq!(a.flags.len(), 2, "{:?}", a.flags);
    assert!(a.flags[0].contains("advertised L3 32 MiB, effective ≈ 4 MiB–8 MiB"));
    assert!(
        a.flags[1].contains("further step after 16 MiB"),
        "{}",
        a.flags[1]
    );
}

#[test]
fn cache_levels_of_a_two_level_board_and_noise_inside_a_plateau() {
    // Cortex-A53-like: L1 32 KiB, L2 512 KiB, memory. A lone noisy cell at 16 KiB (×1.5 then
    // back) must not make a level; the moderate rise at 256→512 KiB is not the steepest.
    let l = ladder(&[1.5, 1.5, 2.3, 1.5, 7.0, 8.0, 8.0, 15.0, 100.0, 150.0, 155.0]);
    let a = caches::analyse(&l, &[adv(1, "Data", kib(32)), adv(2, "Unified", kib(512))]);
    let eff: Vec<u64> = a.levels.iter().map(|c| c.effective_bytes).collect();
    assert_eq!(eff, vec![kib(32), kib(512)]);
    assert!(a.levels.iter().all(|c| c.agrees == Some(true)));
    assert!(a.flags.is_empty(), "{:?}", a.flags);
    assert_eq!(a.beyond_ns, Some(155.0));
}

#[test]
fn cache_levels_missing_or_unadvertised_are_flagged_not_invented() {
    // Flat ladder: no level found; sysfs advertises two, the ladder stops below the largest.
    let l = ladder(&[1.0, 1.05, 0.98, 1.02]);
    let a = caches::analyse(&l, &[adv(1, "Data", kib(32)), adv(2, "Unified", kib(1024))]);
    assert!(a.levels.is_empty() && a.beyond_ns.is_none());
    assert_eq!(a.flags.len(), 1);
    assert!(a.flags[0].contains("found 0 cache level(s), sysfs advertises 2"));
    assert!(a.flags[0].contains("stops at 32 KiB"), "{}", a.flags[0]);
    // No sysfs information: levels without an opinion, no flags.
    let l = ladder(&[1.0, 1.0, 5.0, 5.0, 80.0, 90.0]);
    let a = caches::analyse(&l, &[]);
    assert_eq!(a.levels.len(), 2);
    assert!(a.levels.iter().all(|c| c.agrees.is_none()));
    assert!(a.flags.is_empty());
    // Garbage in, nothing out (no panic).
    assert!(caches::analyse(&[], &[]).levels.is_empty());
    assert!(caches::boundaries(&[(4096, f64::NAN), (8192, 3.0)]).is_empty());
    assert!(caches::boundaries(&[(4096, 0.0), (8192, 3.0)]).is_empty());
}

#[test]
fn nonsense_settings_are_refused_with_a_reason() {
    let with = |f: fn(&mut Config)| {
        let mut c = Config::standard();
        f(&mut c);
        c.validate().unwrap_err()
    };
    assert!(with(|c| c.max_size = 0).contains("must not be 0"));
    assert!(with(|c| c.max_size = 3 << 20).contains("not a power of two"));
    assert!(with(|c| c.min_size = 1024).contains("below 4 KiB"));
    assert!(with(|c| c.max_size = 2048).contains("below the minimum"));
    assert!(with(|c| c.chains = vec![3]).contains("1, 2, 4 or 8"));
    assert!(with(|c| c.runs_per_cell = 0).contains("at least 1"));
    assert!(with(|c| c.cell_ns = 0).contains("positive"));
    assert!(Config::standard().validate().is_ok());
    let err = memlat::run(&[100_000], &Config::standard(), true, &[]).unwrap_err();
    assert!(err.contains("100000"), "{err}");
}

#[test]
fn a_tiny_run_returns_positive_finite_cells() {
    let cfg = Config {
        min_size: 4 << 10,
        max_size: 64 << 10,
        chains: vec![1, 2, 4, 8],
        cell_ns: 600_000,
        runs_per_cell: 2,
        random: true,
        random_min_size: 1 << 10,
        random_repeat_ns: 200_000,
        random_repeats: 2,
    };
    let cpus = loops::affinity::allowed_cpus();
    let r = memlat::run(&cpus[..1], &cfg, true, &[adv(1, "Data", kib(32))]).unwrap();
    let t = r.chain.as_ref().unwrap();
    assert_eq!(t.chains, vec![1, 2, 4, 8]);
    assert_eq!(t.word_bytes as usize, std::mem::size_of::<usize>());
    let sizes: Vec<u64> = t.rows.iter().map(|r| r.size_bytes).collect();
    assert_eq!(sizes, vec![kib(4), kib(8), kib(16), kib(32), kib(64)]);
    for row in &t.rows {
        assert_eq!(row.ns_per_step.len(), 4);
        assert!(
            row.ns_per_step.iter().all(|x| x.is_finite() && *x > 0.0),
            "{row:?}"
        );
    }
    assert_eq!(r.random.len(), 2);
    assert_eq!(
        r.random[0].huge_pages.is_some(),
        r.random[0].madvise_error.is_none()
    );
    for tab in &r.random {
        assert_eq!(tab.rows.len(), 7); // 1 KiB … 64 KiB
        assert!(tab.baseline_single_ns > 0.0 && tab.baseline_dual_ns > 0.0);
        for row in &tab.rows {
            assert!(row.single_ns >= 0.0 && row.dual_ns >= 0.0);
            assert!(row.single_raw_ns.is_finite() && row.single_raw_ns > 0.0);
            assert!(row.dual_raw_ns.is_finite() && row.dual_raw_ns > 0.0);
        }
    }
    let caches = r.caches.unwrap();
    assert_eq!(caches.advertised.len(), 1);
    assert!(r.wall_s > 0.0);
}
