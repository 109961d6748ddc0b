//! Routines every architecture has: the platform libc's memcpy/memset (sbc-bench's headline
//! figures) and scalar 64-bit loops (tinymembench's "C copy"/"C fill" idea).
//!
//! Also the byte-granular head/tail helpers the vector routines use to reach an aligned
//! destination and to finish an odd length.

use std::ptr;

/// `libc::memcpy` over the whole buffer, through the libc crate so glibc's ifunc choice and its
/// size thresholds show (exactly what sbc-bench's database compares). Not
/// `ptr::copy_nonoverlapping`, which the compiler may inline differently.
///
/// # Safety
/// `dst` and `src` valid for `len` bytes and not overlapping.
pub unsafe fn libc_memcpy(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY: the caller guarantees the function's contract, which is memcpy's.
    unsafe { libc::memcpy(dst.cast(), src.cast(), len) };
}

/// `libc::memset` over the whole buffer.
///
/// # Safety
/// `dst` valid for `len` bytes.
pub unsafe fn libc_memset(dst: *mut u8, val: u8, len: usize) {
    // SAFETY: the caller guarantees `dst` is valid for `len` bytes, memset's contract.
    unsafe { libc::memset(dst.cast(), val as libc::c_int, len) };
}

/// Copies bytes until `dst` is aligned to `align`; returns how many were copied.
///
/// # Safety
/// As [`libc_memcpy`]; `align` a power of two.
#[inline(always)]
pub unsafe fn copy_head(dst: *mut u8, src: *const u8, len: usize, align: usize) -> usize {
    let n = (dst as usize).wrapping_neg() & (align - 1);
    let n = n.min(len);
    // SAFETY: n ≤ len, and the caller guarantees both buffers for len bytes, not overlapping.
    unsafe { ptr::copy_nonoverlapping(src, dst, n) };
    n
}

/// Fills bytes until `dst` is aligned to `align`; returns how many were filled.
///
/// # Safety
/// `dst` valid for `len` bytes; `align` a power of two.
#[inline(always)]
pub unsafe fn fill_head(dst: *mut u8, val: u8, len: usize, align: usize) -> usize {
    let n = ((dst as usize).wrapping_neg() & (align - 1)).min(len);
    // SAFETY: n ≤ len, and the caller guarantees `dst` for len bytes.
    unsafe { ptr::write_bytes(dst, val, n) };
    n
}

/// The value of a read: the XOR of every 8-byte little-endian word counted from the start
/// pointer, the last partial word zero-padded. XOR does not care in which vector lane a word was
/// summed, so every read variant returns the same value for the same bytes (tests check it), and
/// the loads cannot be elided.
///
/// # Safety
/// `src` valid for `len` bytes.
pub unsafe fn read_tail(src: *const u8, len: usize) -> u64 {
    let mut acc = 0u64;
    let words = len / 8;
    for i in 0..words {
        // SAFETY: (i + 1) * 8 ≤ words * 8 ≤ len, inside the caller's buffer; unaligned reads are allowed.
        acc ^= u64::from_le(unsafe { ptr::read_unaligned(src.add(i * 8).cast::<u64>()) });
    }
    let rest = len % 8;
    if rest > 0 {
        let mut b = [0u8; 8];
        // SAFETY: words * 8 + rest = len, inside the caller's buffer; `b` holds 8 > rest bytes.
        unsafe { ptr::copy_nonoverlapping(src.add(words * 8), b.as_mut_ptr(), rest) };
        acc ^= u64::from_le_bytes(b);
    }
    acc
}

/// Scalar copy in 64-bit words, eight per iteration. Volatile stores keep the compiler from
/// turning the loop into a memcpy call or vectorising it, so this stays the "plain CPU" figure.
///
/// # Safety
/// As [`libc_memcpy`].
pub unsafe fn scalar_copy(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY: the caller guarantees both buffers for len bytes, not overlapping; every access below stays inside them.
    unsafe {
        let h = copy_head(dst, src, len, 8);
        let (mut d, mut s, mut n) = (dst.add(h).cast::<u64>(), src.add(h), len - h);
        while n >= 64 {
            for i in 0..8 {
                ptr::write_volatile(d.add(i), ptr::read_unaligned(s.add(i * 8).cast::<u64>()));
            }
            d = d.add(8);
            s = s.add(64);
            n -= 64;
        }
        while n >= 8 {
            ptr::write_volatile(d, ptr::read_unaligned(s.cast::<u64>()));
            d = d.add(1);
            s = s.add(8);
            n -= 8;
        }
        ptr::copy_nonoverlapping(s, d.cast::<u8>(), n);
    }
}

/// Scalar fill in 64-bit words (volatile, see [`scalar_copy`]).
///
/// # Safety
/// `dst` valid for `len` bytes.
pub unsafe fn scalar_fill(dst: *mut u8, val: u8, len: usize) {
    // SAFETY: the caller guarantees `dst` for len bytes; every write below stays inside it.
    unsafe {
        let h = fill_head(dst, val, len, 8);
        let word = u64::from_ne_bytes([val; 8]);
        let (mut d, mut n) = (dst.add(h).cast::<u64>(), len - h);
        while n >= 64 {
            for i in 0..8 {
                ptr::write_volatile(d.add(i), word);
            }
            d = d.add(8);
            n -= 64;
        }
        while n >= 8 {
            ptr::write_volatile(d, word);
            d = d.add(1);
            n -= 8;
        }
        ptr::write_bytes(d.cast::<u8>(), val, n);
    }
}

/// Scalar read: XOR of 64-bit words with four independent accumulators (so the loop is not
/// bound by the XOR latency). Volatile loads keep it scalar. An unaligned `src` (only in tests)
/// takes the byte-granular path, which defines the result.
///
/// # Safety
/// `src` valid for `len` bytes.
pub unsafe fn scalar_read(src: *const u8, len: usize) -> u64 {
    if (src as usize) & 7 != 0 {
        // SAFETY: the caller's contract is read_tail's (`src` valid for len bytes).
        return unsafe { read_tail(src, len) };
    }
    // SAFETY: `src` is 8-byte aligned here and the caller guarantees len bytes; every read stays inside them.
    unsafe {
        let mut acc = [0u64; 4];
        let mut s = src.cast::<u64>();
        let mut n = len;
        while n >= 64 {
            for i in 0..8 {
                acc[i % 4] ^= u64::from_le(ptr::read_volatile(s.add(i)));
            }
            s = s.add(8);
            n -= 64;
        }
        acc[0] ^ acc[1] ^ acc[2] ^ acc[3] ^ read_tail(s.cast::<u8>(), n)
    }
}
