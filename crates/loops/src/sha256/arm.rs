//! aarch64 path: the ARMv8 cryptographic extension's SHA-256 instructions.
//!
//! `sha256h`/`sha256h2` keep the state in the natural layout (ABCD, EFGH), which is also the
//! layout of the next message (W0–W3, W4–W7), so the recursive chain needs no reordering: the
//! digest of one step is `state + IV` and goes straight into the next schedule. The IV, the
//! padding half of the block (W8–W15) with its +K sums stay in registers across iterations.

use core::arch::aarch64::*;

use super::{IV, K, PAD};

/// True when this CPU has the SHA2 instructions.
pub fn available() -> bool {
    std::arch::is_aarch64_feature_detected!("sha2")
}

/// Runs the chain. `words` = the 32-byte value as big-endian words.
///
/// # Safety
/// The CPU must support the SHA2 extension (see [`available`]).
#[target_feature(enable = "neon,sha2")]
pub unsafe fn chain(words: [u32; 8], n: u64) -> [u32; 8] {
    // SAFETY: (whole body) loads read from local arrays of the right size.
    unsafe {
        let abcd_iv = vld1q_u32(IV.as_ptr());
        let efgh_iv = vld1q_u32(IV[4..].as_ptr());
        let g2 = vld1q_u32(PAD.as_ptr());
        let g3 = vld1q_u32(PAD[4..].as_ptr());
        let ks: [uint32x4_t; 16] = core::array::from_fn(|i| vld1q_u32(K[4 * i..].as_ptr()));
        let m2 = vaddq_u32(g2, ks[2]);
        let m3 = vaddq_u32(g3, ks[3]);
        // su0 of the two constant groups (needed for g6).
        let su0_23 = vsha256su0q_u32(g2, g3);

        let mut g0 = vld1q_u32(words.as_ptr());
        let mut g1 = vld1q_u32(words[4..].as_ptr());
        for _ in 0..n {
            let mut abcd = abcd_iv;
            let mut efgh = efgh_iv;
            macro_rules! rounds4 {
                ($wk:expr) => {{
                    let wk = $wk;
                    let a = abcd;
                    abcd = vsha256hq_u32(abcd, efgh, wk);
                    efgh = vsha256h2q_u32(efgh, a, wk);
                }};
            }
            rounds4!(vaddq_u32(g0, ks[0]));
            rounds4!(vaddq_u32(g1, ks[1]));
            rounds4!(m2);
            rounds4!(m3);
            let g4 = vsha256su1q_u32(vsha256su0q_u32(g0, g1), g2, g3);
            let g5 = vsha256su1q_u32(vsha256su0q_u32(g1, g2), g3, g4);
            let g6 = vsha256su1q_u32(su0_23, g4, g5);
            let g7 = vsha256su1q_u32(vsha256su0q_u32(g3, g4), g5, g6);
            let mut gs = [g4, g5, g6, g7];
            rounds4!(vaddq_u32(g4, ks[4]));
            rounds4!(vaddq_u32(g5, ks[5]));
            rounds4!(vaddq_u32(g6, ks[6]));
            rounds4!(vaddq_u32(g7, ks[7]));
            for k in ks.iter().skip(8) {
                let g = vsha256su1q_u32(vsha256su0q_u32(gs[0], gs[1]), gs[2], gs[3]);
                gs = [gs[1], gs[2], gs[3], g];
                rounds4!(vaddq_u32(g, *k));
            }
            g0 = vaddq_u32(abcd, abcd_iv);
            g1 = vaddq_u32(efgh, efgh_iv);
        }
        let mut out = [0u32; 8];
        vst1q_u32(out.as_mut_ptr(), g0);
        vst1q_u32(out[4..].as_mut_ptr(), g1);
        out
    }
}
