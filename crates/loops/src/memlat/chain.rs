//! ramlat's chain method: every word of the window holds the address of the next word in
//! bit-reversal order of the word index (0, W/2, W/4, 3W/4, W/8 …), so one cycle visits every
//! word once, successive loads land far apart, no stride is there for a prefetcher to learn, and
//! every load depends on the previous one. N parallel chains walk the same cycle from different
//! starting words; one *step* advances all N chains by one load.

/// Bit-reversal of the low `bits` bits of `i`.
#[inline]
pub fn bit_reverse(i: usize, bits: u32) -> usize {
    if bits == 0 {
        return 0;
    }
    i.reverse_bits() >> (usize::BITS - bits)
}

/// The successor of every word index in a window of `words` words (a power of two): the chain
/// the kernel writes, as indices. `next[bitrev(k)] = bitrev(k + 1)`, wrapping at the end.
pub fn successor_indices(words: usize) -> Vec<usize> {
    assert!(
        words.is_power_of_two(),
        "window must be a power of two words"
    );
    let bits = words.trailing_zeros();
    let mut next = vec![0usize; words];
    for k in 0..words {
        next[bit_reverse(k, bits)] = bit_reverse((k + 1) % words, bits);
    }
    next
}

/// Writes the chain into `words` words at `base`: each word holds the address of its successor.
///
/// # Safety
/// `base` valid for `words` writable, aligned `usize`s; `words` a power of two.
pub unsafe fn write_chain(base: *mut usize, words: usize) {
    let bits = words.trailing_zeros();
    let mut cur = 0usize; // bitrev(0)
    for k in 1..=words {
        let next = bit_reverse(k % words, bits);
        // SAFETY: cur, next < words.
        unsafe { *base.add(cur) = base.add(next) as usize };
        cur = next;
    }
}

/// First words of the N chains: 64 words apart (512 bytes with 8-byte words), as ramlat, so
/// they start in different cache lines and pages of the same cycle.
pub fn chain_starts(words: usize, n: usize) -> Vec<usize> {
    (0..n).map(|k| (k * 64) % words).collect()
}

/// Follows N chains for `steps` steps (a multiple of 8), 8 steps per loop iteration; returns
/// where each chain stopped (so the caller can continue, and the loads stay live).
///
/// # Safety
/// Every pointer starts a chain written by [`write_chain`] that is still mapped.
#[inline(never)]
pub unsafe fn chase<const N: usize>(mut p: [*const usize; N], steps: usize) -> [*const usize; N] {
    for _ in 0..steps / 8 {
        for _ in 0..8 {
            for q in p.iter_mut() {
                // SAFETY: a chain word holds the address of another word of the same chain.
                *q = unsafe { q.read() } as *const usize;
            }
        }
    }
    p
}

/// [`chase`] for a run-time N (1, 2, 4 or 8).
///
/// # Safety
/// As [`chase`]; `p.len()` is 1, 2, 4 or 8.
pub unsafe fn chase_n(p: &mut [*const usize], steps: usize) {
    macro_rules! go {
        ($n:literal) => {{
            let mut a = [std::ptr::null::<usize>(); $n];
            a.copy_from_slice(p);
            // SAFETY: forwarded.
            let a = unsafe { chase::<$n>(a, steps) };
            p.copy_from_slice(&a);
        }};
    }
    match p.len() {
        1 => go!(1),
        2 => go!(2),
        4 => go!(4),
        8 => go!(8),
        n => panic!("unsupported number of chains {n}"),
    }
}
