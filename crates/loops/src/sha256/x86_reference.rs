//! x86_64 SHA-NI, written the straightforward way (the style of the published intrinsics
//! samples): every step hashes the 32-byte value as a message — the 64-byte block is built in
//! memory (value, 0x80, zeros, length), loaded with a byte swap, the state converted from the
//! word order to the ABEF/CDGH layout and back, the message schedule computed group by group
//! as the rounds need it. Nothing is kept across steps. This is the benchmark's "Reference"
//! figure: the same instructions as the Fast path without its latency tricks.

use core::arch::x86_64::*;

use super::{IV, K};

/// K for rounds 4·group … 4·group+3.
#[inline(always)]
fn k4(group: usize) -> __m128i {
    let i = 4 * group;
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe {
        _mm_setr_epi32(
            K[i] as i32,
            K[i + 1] as i32,
            K[i + 2] as i32,
            K[i + 3] as i32,
        )
    }
}

/// One SHA-256 compression of `block` (64 bytes, big-endian words) into `state`.
///
/// # Safety
/// The CPU must support SHA, SSSE3 and SSE4.1.
// A function of its own, called once per step with the block in memory, as the samples'
// per-buffer function: inlined, the compiler would keep the block in registers and this
// would become a second Fast path.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    // SAFETY: the caller guarantees the CPU features; every load and store is an unaligned
    // 16-byte access inside `state` or `block`.
    unsafe {
        // Word order (A,B,C,D | E,F,G,H) → the instruction's ABEF / CDGH layout.
        let tmp = _mm_loadu_si128(state.as_ptr().cast());
        let s1 = _mm_loadu_si128(state[4..].as_ptr().cast());
        let tmp = _mm_shuffle_epi32(tmp, 0xB1); // C D A B
        let s1 = _mm_shuffle_epi32(s1, 0x1B); // H G F E
        let mut state0 = _mm_alignr_epi8(tmp, s1, 8); // A B E F
        let mut state1 = _mm_blend_epi16(s1, tmp, 0xF0); // C D G H
        let abef_save = state0;
        let cdgh_save = state1;
        let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
        let mut w = [_mm_setzero_si128(); 16];
        for (g, wg) in w.iter_mut().enumerate().take(4) {
            *wg = _mm_shuffle_epi8(_mm_loadu_si128(block[16 * g..].as_ptr().cast()), bswap);
        }
        for g in 0..16 {
            if g >= 4 {
                let t = _mm_add_epi32(
                    _mm_sha256msg1_epu32(w[g - 4], w[g - 3]),
                    _mm_alignr_epi8(w[g - 1], w[g - 2], 4),
                );
                w[g] = _mm_sha256msg2_epu32(t, w[g - 1]);
            }
            let msg = _mm_add_epi32(w[g], k4(g));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(msg, 0x0E));
        }
        state0 = _mm_add_epi32(state0, abef_save);
        state1 = _mm_add_epi32(state1, cdgh_save);
        // Back to word order.
        let tmp = _mm_shuffle_epi32(state0, 0x1B); // F E B A
        let s1 = _mm_shuffle_epi32(state1, 0xB1); // D C H G
        let abcd = _mm_blend_epi16(tmp, s1, 0xF0); // D C B A → lanes A..D
        let efgh = _mm_alignr_epi8(s1, tmp, 8); // lanes E..H
        _mm_storeu_si128(state.as_mut_ptr().cast(), abcd);
        _mm_storeu_si128(state[4..].as_mut_ptr().cast(), efgh);
    }
}

/// Runs the chain the straightforward way. `words` = the 32-byte value as big-endian words.
///
/// # Safety
/// The CPU must support SHA, SSSE3 and SSE4.1 (see [`super::x86::available`]).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub unsafe fn chain(words: [u32; 8], n: u64) -> [u32; 8] {
    let mut digest = words;
    let mut block = [0u8; 64];
    for _ in 0..n {
        super::fill_padded_block(&mut block, &digest);
        let mut state = IV;
        // SAFETY: the caller guarantees the CPU features.
        unsafe { compress(&mut state, &block) };
        digest = state;
    }
    digest
}
