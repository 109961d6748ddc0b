//! The Reference: a plain SHA-256 compression in portable Rust (FIPS 180-4 §6.2.2), used for the
//! Reference result and to verify every fast path.

use super::{IV, K, PAD};

#[inline(always)]
fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}
#[inline(always)]
fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}
#[inline(always)]
fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}
#[inline(always)]
fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// One compression: `state ← state + rounds(state, block)`.
pub fn compress(state: &mut [u32; 8], block: &[u32; 16]) {
    let mut w = [0u32; 64];
    w[..16].copy_from_slice(block);
    for t in 16..64 {
        w[t] = small_sigma1(w[t - 2])
            .wrapping_add(w[t - 7])
            .wrapping_add(small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 16]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in 0..64 {
        let ch = (e & f) ^ (!e & g);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t1 = h
            .wrapping_add(big_sigma1(e))
            .wrapping_add(ch)
            .wrapping_add(K[t])
            .wrapping_add(w[t]);
        let t2 = big_sigma0(a).wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// `n` times `words ← SHA256(words)` on a 32-byte value given as 8 big-endian words: every step
/// is one compression of the padded block (the value, then the constant padding) from the IV.
pub fn chain(mut words: [u32; 8], n: u64) -> [u32; 8] {
    let mut block = [0u32; 16];
    block[8..].copy_from_slice(&PAD);
    for _ in 0..n {
        block[..8].copy_from_slice(&words);
        let mut state = IV;
        compress(&mut state, &block);
        words = state;
    }
    words
}
