//! aarch64 SHA2 instructions, written the straightforward way (the style of the published
//! intrinsics samples): every step hashes the 32-byte value as a message — the 64-byte block
//! is built in memory, loaded with a byte swap, the schedule computed group by group as the
//! rounds need it, nothing kept across steps. The benchmark's "Reference" figure.

use core::arch::aarch64::*;

use super::{IV, K};

/// One SHA-256 compression of `block` (64 bytes, big-endian words) into `state`.
///
/// # Safety
/// The CPU must support the SHA2 extension.
// A function of its own, called once per step with the block in memory, as the samples'
// per-buffer function: inlined, the compiler would keep the block in registers and this
// would become a second Fast path.
#[inline(never)]
#[target_feature(enable = "neon,sha2")]
unsafe fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    // SAFETY: the caller guarantees the CPU features; every load and store is 16 bytes inside
    // `state`, `block` or `K`.
    unsafe {
        let mut abcd = vld1q_u32(state.as_ptr());
        let mut efgh = vld1q_u32(state[4..].as_ptr());
        let abcd_save = abcd;
        let efgh_save = efgh;
        let mut w = [vdupq_n_u32(0); 16];
        for (g, wg) in w.iter_mut().enumerate().take(4) {
            *wg = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block[16 * g..].as_ptr())));
        }
        for g in 0..16 {
            if g >= 4 {
                w[g] = vsha256su1q_u32(vsha256su0q_u32(w[g - 4], w[g - 3]), w[g - 2], w[g - 1]);
            }
            let wk = vaddq_u32(w[g], vld1q_u32(K[4 * g..].as_ptr()));
            let a = abcd;
            abcd = vsha256hq_u32(abcd, efgh, wk);
            efgh = vsha256h2q_u32(efgh, a, wk);
        }
        vst1q_u32(state.as_mut_ptr(), vaddq_u32(abcd, abcd_save));
        vst1q_u32(state[4..].as_mut_ptr(), vaddq_u32(efgh, efgh_save));
    }
}

/// Runs the chain the straightforward way. `words` = the 32-byte value as big-endian words.
///
/// # Safety
/// The CPU must support the SHA2 extension (see [`super::arm::available`]).
#[target_feature(enable = "neon,sha2")]
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
