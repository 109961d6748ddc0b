//! x86_64 SHA extensions (SHA-NI) path.
//!
//! The recursive chain is pure latency, so the code is shaped around the dependency chain rather
//! than throughput:
//! - The IV, the constant second half of the block (padding, W8–W15) and everything derived only
//!   from them (their +K sums, σ0 parts, message-schedule pieces) are computed once, outside the
//!   loop, and stay in registers.
//! - The digest is kept in the message layout between hashes: `p = (A,B,E,F)`, `q = (C,D,G,H)`.
//!   Those come straight from the round state (ABEF/CDGH) with one `pshufd` each; the IV
//!   feed-forward is folded into the constants, so the round chain of the next hash waits only
//!   for `pshufd` + `paddd` after the last `sha256rnds2`.
//! - Message schedule: the usual `g_k = msg2(msg1(g_{k−4}, g_{k−3}) + alignr(g_{k−1}, g_{k−2}, 4),
//!   g_{k−1})` puts `palignr → paddd → sha256msg2` (2 + 2 + 6 cycles on Zen 5) on the loop-carried
//!   schedule path, 10 cycles per 4 words, slower than the 8 cycles the rounds need. Since
//!   `sha256msg2` only feeds lane 3 of its first operand into lane 3 of the result, adding
//!   `g_{k−1}[0]` into lane 3 *after* `sha256msg2` is the same: `alignr(g_{k−1}, g_{k−2}, 4) =
//!   srldq(g_{k−2}, 4) + slldq(g_{k−1}, 12)`, and the first part is ready early. The schedule
//!   path becomes `sha256msg2 → paddd` = 8 cycles per group, no longer the bottleneck, and the
//!   round chain (32 × `sha256rnds2` + 4) sets the pace.

use core::arch::x86_64::*;

use super::{IV, K, PAD};

/// True when this CPU has the SHA extensions (and SSE4.1, which every SHA-NI CPU has).
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("sha") && std::arch::is_x86_feature_detected!("sse4.1")
}

/// Lanes 0..3 = `a, b, c, d`.
#[inline(always)]
fn v(a: u32, b: u32, c: u32, d: u32) -> __m128i {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { _mm_setr_epi32(a as i32, b as i32, c as i32, d as i32) }
}

/// K for rounds 4·group … 4·group+3.
#[inline(always)]
fn k4(group: usize) -> __m128i {
    let i = 4 * group;
    v(K[i], K[i + 1], K[i + 2], K[i + 3])
}

/// Runs the chain. `words` = the 32-byte value as big-endian words.
///
/// # Safety
/// The CPU must support SHA and SSE4.1 (see [`available`]).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub unsafe fn chain(words: [u32; 8], n: u64) -> [u32; 8] {
    let w = words;
    // Round state in the SHA-NI layout: ABEF = lanes (F, E, B, A), CDGH = lanes (H, G, D, C).
    let abef_iv = v(IV[5], IV[4], IV[1], IV[0]);
    let cdgh_iv = v(IV[7], IV[6], IV[3], IV[2]);
    // pshufd(…, 0x1B) of those, i.e. the feed-forward in the message layout (A,B,E,F)/(C,D,G,H).
    let iv_p = v(IV[0], IV[1], IV[4], IV[5]);
    let iv_q = v(IV[2], IV[3], IV[6], IV[7]);
    // +K for rounds 0,1 | 4,5 and 2,3 | 6,7, matching the p/q lane order.
    let k_p = v(K[0], K[1], K[4], K[5]);
    let k_q = v(K[2], K[3], K[6], K[7]);
    let iv_p_k = _mm_add_epi32(iv_p, k_p);
    let iv_q_k = _mm_add_epi32(iv_q, k_q);
    // Constant message groups 2 and 3 (padding) and their +K forms, pre-shuffled for each rnds2.
    let g2 = v(PAD[0], PAD[1], PAD[2], PAD[3]);
    let g3 = v(PAD[4], PAD[5], PAD[6], PAD[7]);
    let m2 = _mm_add_epi32(g2, k4(2));
    let m2h = _mm_shuffle_epi32(m2, 0x0E);
    let m3 = _mm_add_epi32(g3, k4(3));
    let m3h = _mm_shuffle_epi32(m3, 0x0E);
    // Schedule pieces that depend only on the padding.
    let c4 = _mm_alignr_epi8(g3, g2, 4); // alignr(g3, g2) for g4
    let s5 = _mm_srli_si128(g3, 4); // srldq(g3) for g5
    let m6 = _mm_sha256msg1_epu32(g2, g3); // msg1(g2, g3) for g6
    let ks: [__m128i; 16] = core::array::from_fn(k4);

    // Digest (real, fed forward) in the message layout.
    let mut p = v(w[0], w[1], w[4], w[5]);
    let mut q = v(w[2], w[3], w[6], w[7]);
    // The same + K for rounds 0..7.
    let mut mp = _mm_add_epi32(p, k_p);
    let mut mq = _mm_add_epi32(q, k_q);

    for _ in 0..n {
        // Rounds 0..7: the message is the previous digest.
        let mut abef = _mm_sha256rnds2_epu32(cdgh_iv, abef_iv, mp);
        let mut cdgh = abef_iv;
        macro_rules! rounds2 {
            ($m:expr) => {{
                let t = _mm_sha256rnds2_epu32(cdgh, abef, $m);
                cdgh = abef;
                abef = t;
            }};
        }
        rounds2!(mq);
        rounds2!(_mm_shuffle_epi32(mp, 0x0E));
        rounds2!(_mm_shuffle_epi32(mq, 0x0E));
        // Message groups 0 and 1 for the schedule.
        let g0 = _mm_unpacklo_epi64(p, q);
        let g1 = _mm_unpackhi_epi64(p, q);
        // Rounds 8..15: padding, constant.
        rounds2!(m2);
        rounds2!(m2h);
        rounds2!(m3);
        rounds2!(m3h);
        // g4 = msg2(msg1(g0, g1) + alignr(g3, g2), g3)  (everything but g0/g1 constant)
        let g4 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(g0, g1), c4), g3);
        // g_k = msg2(msg1(g_{k−4}, g_{k−3}) + srldq(g_{k−2}, 4), g_{k−1}) + slldq(g_{k−1}, 12)
        macro_rules! next {
            ($x:expr, $prev:expr) => {
                _mm_add_epi32(_mm_sha256msg2_epu32($x, $prev), _mm_slli_si128($prev, 12))
            };
        }
        let g5 = next!(_mm_add_epi32(_mm_sha256msg1_epu32(g1, g2), s5), g4);
        let g6 = next!(_mm_add_epi32(m6, _mm_srli_si128(g4, 4)), g5);
        let g7 = next!(
            _mm_add_epi32(_mm_sha256msg1_epu32(g3, g4), _mm_srli_si128(g5, 4)),
            g6
        );
        let mut gs = [g4, g5, g6, g7];
        macro_rules! group {
            ($k:expr, $g:expr) => {{
                let m = _mm_add_epi32($g, $k);
                rounds2!(m);
                rounds2!(_mm_shuffle_epi32(m, 0x0E));
            }};
        }
        group!(ks[4], gs[0]);
        group!(ks[5], gs[1]);
        group!(ks[6], gs[2]);
        group!(ks[7], gs[3]);
        // Groups 8..15, schedule rolling over the last four groups.
        for k in &ks[8..] {
            let g = next!(
                _mm_add_epi32(_mm_sha256msg1_epu32(gs[0], gs[1]), _mm_srli_si128(gs[2], 4)),
                gs[3]
            );
            gs = [gs[1], gs[2], gs[3], g];
            group!(*k, g);
        }
        // Next message = digest = IV + state; lanes reordered with one pshufd each; the IV
        // (and for the round inputs also K) are pre-added constants.
        let a = _mm_shuffle_epi32(abef, 0x1B);
        let c = _mm_shuffle_epi32(cdgh, 0x1B);
        p = _mm_add_epi32(a, iv_p);
        q = _mm_add_epi32(c, iv_q);
        mp = _mm_add_epi32(a, iv_p_k);
        mq = _mm_add_epi32(c, iv_q_k);
    }

    let mut pw = [0u32; 4];
    let mut qw = [0u32; 4];
    // SAFETY: both arrays are 16 bytes; storeu has no alignment requirement.
    unsafe {
        _mm_storeu_si128(pw.as_mut_ptr().cast(), p);
        _mm_storeu_si128(qw.as_mut_ptr().cast(), q);
    }
    [pw[0], pw[1], qw[0], qw[1], pw[2], pw[3], qw[2], qw[3]]
}
