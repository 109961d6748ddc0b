//! tinymembench's random reads: byte addresses from a 32-bit LCG, each address depending on the
//! byte loaded before (the buffer is all zeros, so the sequence is fixed, but the CPU cannot know
//! that): a serial chain of loads. The dual variant builds two independent addresses per
//! iteration, loads both, and lets the next iteration wait for both — dual ≈ single shows that
//! the memory system handles two outstanding misses.

/// One step of the LCG (`seed × 1103515245 + 12345`).
#[inline(always)]
fn lcg(seed: &mut u32) -> u32 {
    *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
    *seed
}

/// The next single-read address: three LCG steps give bits 0–7, 8–15 and 16–30 of a byte
/// address (the well-mixed high bits of each step), cut to the window by `mask`.
#[inline(always)]
pub fn random_addr(seed: &mut u32, mask: u32) -> u32 {
    let a = (lcg(seed) >> 16) & 0xFF;
    let b = (lcg(seed) >> 8) & 0xFF00;
    let c = lcg(seed) & 0x7FFF_0000;
    (a | b | c) & mask
}

/// The next pair of dual-read addresses: five LCG steps, the low byte of both from the first.
#[inline(always)]
pub fn random_addr_pair(seed: &mut u32, mask: u32) -> (u32, u32) {
    let s = lcg(seed);
    let (mut a, mut b) = ((s >> 16) & 0xFF, (s >> 24) & 0xFF);
    a |= (lcg(seed) >> 8) & 0xFF00;
    a |= lcg(seed) & 0x7FFF_0000;
    b |= (lcg(seed) >> 8) & 0xFF00;
    b |= lcg(seed) & 0x7FFF_0000;
    (a & mask, b & mask)
}

/// `count` (a multiple of 16) dependent single reads in the window `base[..=mask]`, starting
/// from `seed`. Callers vary the seed between runs: a run that repeats the previous run's
/// addresses would find them in the caches.
///
/// # Safety
/// `base` valid for `mask + 1` bytes.
#[inline(never)]
pub unsafe fn single_reads(base: *const u8, mask: u32, count: usize, seed: u32) -> u32 {
    let mut seed = seed;
    for _ in 0..count / 16 {
        for _ in 0..16 {
            let a = random_addr(&mut seed, mask);
            // SAFETY: a <= mask.
            seed |= unsafe { *base.add(a as usize) } as u32;
        }
    }
    seed
}

/// `count` (a multiple of 16) dual-read iterations in the window `base[..=mask]`, starting
/// from `seed` (see [`single_reads`]).
///
/// # Safety
/// `base` valid for `mask + 1` bytes.
#[inline(never)]
pub unsafe fn dual_reads(base: *const u8, mask: u32, count: usize, seed: u32) -> u32 {
    let mut seed = seed;
    for _ in 0..count / 16 {
        for _ in 0..16 {
            let (a, b) = random_addr_pair(&mut seed, mask);
            // SAFETY: a, b <= mask.
            let (x, y) = unsafe { (*base.add(a as usize), *base.add(b as usize)) };
            seed |= x as u32;
            seed = seed.wrapping_add(y as u32);
        }
    }
    seed
}
