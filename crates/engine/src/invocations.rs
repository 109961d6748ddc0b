//! Which tool invocation each profile runs — the one place that decides it, so the flags of
//! every profile are tested without running anything.
//!
//! The fast profile keeps each headline figure sbc-bench's measurement and only drops work the
//! figure never reads (measured side by side with `scripts/bench-run`, see README):
//! - OpenSSL: sbc-bench reads one cell per cipher, the 16384-byte column, measured for 3 s of
//!   wall time; `-seconds 3 -bytes 16384` measures exactly that cell and skips the other five
//!   block sizes (OpenSSL ≥ 1.1.1; older ones and LibreSSL get sbc-bench's form).
//! - memory: every variant, as in sbc-bench's profile. Running only libc memcpy/memset was
//!   measured 15–26 % higher for memcpy (3 paired runs), so the variants stay.
//! - OpenSSL runs once per cluster (sbc-bench runs twice on a one-cluster machine and averages:
//!   AES throughput at 16 KiB moves well under 1 % between runs).
//! - 7-Zip: sbc-bench's invocation (the same dictionary sizes 22…25, the same generated data,
//!   the same rating, so the figure is the same measurement) plus `-mtime=`[`FAST_7ZIP_SECONDS`]:
//!   7-Zip repeats each row's compression and decompression for about 4 s by default; this
//!   shortens the repetition, never below one full pass over the row's data. Fewer rows or a
//!   smaller dictionary would change the figure (the quick profile's `-md=18` is 69 % higher).
//!   A 7-Zip that rejects `-mtime` (p7zip 16.02) gets the exact invocation. The third all-core
//!   run is left out when the first two agree within [`AGREE_PCT`].
//! - Stockfish and cpuminer: sbc-bench's invocations (their figures depend on depth/duration).

use adapters::{openssl, sevenzip, stockfish};

use crate::plan::Profile;

/// Two all-core 7-Zip runs within this many percent of each other: a third would not move
/// sbc-bench's average of three by more than a fraction of that.
pub const AGREE_PCT: f64 = 1.0;

/// The fast profile's `7z b -mtime=` (seconds each row's compression and decompression are
/// repeated; 7-Zip's own default is about 4).
pub const FAST_7ZIP_SECONDS: u32 = 1;

/// How many times OpenSSL runs on each cluster: sbc-bench runs it twice on a one-cluster
/// machine (and averages), once per cluster otherwise; the fast profile once.
pub fn openssl_runs(profile: Profile, clusters: usize) -> usize {
    if clusters == 1 && profile != Profile::Fast {
        2
    } else {
        1
    }
}

/// `openssl speed` options for one cipher.
pub fn openssl(
    profile: Profile,
    tiny: bool,
    v: &openssl::Version,
    cipher: &str,
) -> openssl::SpeedOptions {
    match profile {
        _ if (profile == Profile::Quick || tiny) && v.supports_seconds() => {
            openssl::SpeedOptions::quick(cipher)
        }
        Profile::Fast if v.supports_bytes() => openssl::SpeedOptions::score_cell(cipher),
        _ => openssl::SpeedOptions::sbc_bench(cipher),
    }
}

/// `7z b` options.
pub fn sevenzip(
    profile: Profile,
    tiny: bool,
    threads: u32,
    available_kb: u64,
) -> sevenzip::BenchOptions {
    match profile {
        _ if profile == Profile::Quick || tiny => sevenzip::BenchOptions::quick(threads),
        Profile::Fast => sevenzip::BenchOptions::sbc_bench(threads, available_kb)
            .repeating_for(FAST_7ZIP_SECONDS),
        _ => sevenzip::BenchOptions::sbc_bench(threads, available_kb),
    }
}

/// Stockfish's bench options.
pub fn stockfish(profile: Profile, tiny: bool, threads: u32) -> stockfish::BenchOptions {
    if profile == Profile::Quick || tiny {
        stockfish::BenchOptions::quick(threads)
    } else {
        stockfish::BenchOptions::sbc_bench(threads)
    }
}

/// How long cpuminer runs (sbc-bench: 5 minutes).
pub fn cpuminer_seconds(profile: Profile, tiny: bool) -> u64 {
    match (tiny, profile) {
        (true, _) => 3,
        (false, Profile::Quick) => 30,
        _ => 300,
    }
}

/// Only the memory tests the headline reads (libc memcpy and memset): quick runs only — alone,
/// libc memcpy measured 15–26 % higher than among the other variants.
pub fn membw_libc_only(profile: Profile, tiny: bool) -> bool {
    tiny || profile == Profile::Quick
}

/// The recursive SHA-256 work: iterations and runs (not an sbc-bench figure).
pub fn sha256_work(profile: Profile, tiny: bool) -> (u64, u32) {
    match (tiny, profile) {
        (true, _) => (200_000, 1),
        (false, Profile::Quick) => (20_000_000, 1),
        (false, Profile::Fast) => (30_000_000, 1),
        _ => (100_000_000, 3),
    }
}

/// Whether `values` (two or more runs) agree within `pct` percent of their mean.
pub fn agree(values: &[f64], pct: f64) -> bool {
    let (Some(min), Some(max)) = (
        values.iter().copied().reduce(f64::min),
        values.iter().copied().reduce(f64::max),
    ) else {
        return false;
    };
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    values.len() >= 2 && mean > 0.0 && (max - min) / mean * 100.0 <= pct
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(line: &str) -> openssl::Version {
        openssl::parse_version(line).unwrap()
    }

    #[test]
    fn openssl_flags_per_profile() {
        let new = v("OpenSSL 3.0.19");
        let args = |p, v: &openssl::Version| openssl::args(&openssl(p, false, v, "aes-256-cbc"));
        assert_eq!(
            args(Profile::Standard, &new),
            ["speed", "-elapsed", "-evp", "aes-256-cbc"]
        );
        assert_eq!(
            args(Profile::Extensive, &new),
            ["speed", "-elapsed", "-evp", "aes-256-cbc"]
        );
        assert_eq!(
            args(Profile::Fast, &new),
            [
                "speed",
                "-elapsed",
                "-seconds",
                "3",
                "-bytes",
                "16384",
                "-evp",
                "aes-256-cbc"
            ]
        );
        assert_eq!(
            args(Profile::Quick, &new),
            ["speed", "-elapsed", "-seconds", "1", "-evp", "aes-256-cbc"]
        );
        // Without -bytes the fast profile runs sbc-bench's form (still comparable).
        for old in [v("OpenSSL 1.0.2g"), v("LibreSSL 3.3.6")] {
            assert_eq!(
                args(Profile::Fast, &old),
                ["speed", "-elapsed", "-evp", "aes-256-cbc"]
            );
        }
    }

    #[test]
    fn sevenzip_flags_per_profile() {
        let args = |p, avail| sevenzip::args(&sevenzip(p, false, 4, avail));
        for p in [Profile::Standard, Profile::Extensive] {
            assert_eq!(args(p, 4_000_000), ["b", "-mmt=4"], "{p:?}");
            assert_eq!(args(p, 200_000), ["b", "-md=2m", "-mmt=4"], "{p:?}");
        }
        // fast: sbc-bench's dictionary rule, each row repeated for 1 s instead of ~4 s.
        assert_eq!(args(Profile::Fast, 4_000_000), ["b", "-mmt=4", "-mtime=1"]);
        assert_eq!(
            args(Profile::Fast, 200_000),
            ["b", "-md=2m", "-mmt=4", "-mtime=1"]
        );
        assert_eq!(
            args(Profile::Quick, 4_000_000),
            ["b", "1", "-md=18", "-mmt=4"]
        );
    }

    #[test]
    fn openssl_runs_per_cluster_as_sbc_bench_except_fast() {
        assert_eq!(openssl_runs(Profile::Standard, 1), 2);
        assert_eq!(openssl_runs(Profile::Extensive, 1), 2);
        assert_eq!(openssl_runs(Profile::Standard, 3), 1);
        assert_eq!(openssl_runs(Profile::Fast, 1), 1);
        assert_eq!(openssl_runs(Profile::Fast, 2), 1);
    }

    #[test]
    fn stockfish_cpuminer_membw_sha256_per_profile() {
        for p in [Profile::Standard, Profile::Fast, Profile::Extensive] {
            assert_eq!(
                stockfish(p, false, 4),
                stockfish::BenchOptions::sbc_bench(4)
            );
            assert_eq!(cpuminer_seconds(p, false), 300);
        }
        assert_eq!(
            stockfish(Profile::Quick, false, 4),
            stockfish::BenchOptions::quick(4)
        );
        assert_eq!(cpuminer_seconds(Profile::Quick, false), 30);
        assert!(membw_libc_only(Profile::Quick, false));
        assert!(!membw_libc_only(Profile::Fast, false));
        assert!(!membw_libc_only(Profile::Standard, false));
        assert_eq!(sha256_work(Profile::Fast, false), (30_000_000, 1));
        assert_eq!(sha256_work(Profile::Standard, false), (100_000_000, 3));
    }

    #[test]
    fn agreement_needs_two_runs_within_the_tolerance() {
        assert!(agree(&[1000.0, 1009.0], AGREE_PCT));
        assert!(!agree(&[1000.0, 1020.0], AGREE_PCT));
        assert!(!agree(&[1000.0], AGREE_PCT));
        assert!(!agree(&[], AGREE_PCT));
    }
}
