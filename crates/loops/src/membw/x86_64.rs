//! x86-64 routines: `rep movsb`/`rep stosb` (fast with ERMS/FSRM), SSE2 and AVX2 loops with
//! normal and non-temporal (`movntdq`) stores, and vector reads.
//!
//! Every routine accepts any alignment and length: a byte head brings the destination to a
//! cache-line boundary, the main loop moves 64 bytes per iteration, a byte tail finishes. With
//! the benchmark's buffers (1 MiB + 128-byte-granular offsets) head and tail are empty.

use std::arch::asm;
use std::arch::x86_64::*;

use super::portable::{copy_head, fill_head, read_tail};

/// `rep movsb` over the whole buffer (the microcoded string copy; tinymembench's "MOVSB copy").
///
/// # Safety
/// `dst`/`src` valid for `len` bytes, not overlapping.
pub unsafe fn rep_movsb_copy(dst: *mut u8, src: *const u8, len: usize) {
    // The direction flag is clear by the ABI, so this copies forwards.
    // SAFETY: rep movsb copies exactly len bytes between the caller's non-overlapping buffers.
    unsafe {
        asm!("rep movsb",
            inout("rcx") len => _, inout("rdi") dst => _, inout("rsi") src => _,
            options(nostack, preserves_flags));
    }
}

/// `rep stosb` over the whole buffer.
///
/// # Safety
/// `dst` valid for `len` bytes.
pub unsafe fn rep_stosb_fill(dst: *mut u8, val: u8, len: usize) {
    // SAFETY: rep stosb writes exactly len bytes of the caller's buffer.
    unsafe {
        asm!("rep stosb",
            inout("rcx") len => _, inout("rdi") dst => _, in("al") val,
            options(nostack, preserves_flags));
    }
}

macro_rules! copy_loop {
    ($name:ident, $feat:literal, $vec:ty, $load:ident, $store:ident, $fence:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// `dst`/`src` valid for `len` bytes, not overlapping; the CPU has the target feature.
        #[target_feature(enable = $feat)]
        pub unsafe fn $name(dst: *mut u8, src: *const u8, len: usize) {
            const W: usize = std::mem::size_of::<$vec>();
            // SAFETY: the target feature is enabled by the caller's dispatch; loads and stores stay inside the caller's buffers (head and tail by the scalar helpers).
            unsafe {
                let h = copy_head(dst, src, len, 64);
                let (mut d, mut s, mut n) = (dst.add(h), src.add(h), len - h);
                while n >= 64 {
                    // Four (SSE2) or two (AVX2) loads first, then the stores.
                    let mut v: [$vec; 64 / W] = std::mem::zeroed();
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = $load(s.add(i * W).cast());
                    }
                    for (i, x) in v.iter().enumerate() {
                        $store(d.add(i * W).cast(), *x);
                    }
                    d = d.add(64);
                    s = s.add(64);
                    n -= 64;
                }
                if $fence {
                    // Non-temporal stores are weakly ordered: make them visible before returning.
                    _mm_sfence();
                }
                std::ptr::copy_nonoverlapping(s, d, n);
            }
        }
    };
}

macro_rules! fill_loop {
    ($name:ident, $feat:literal, $vec:ty, $splat:expr, $store:ident, $fence:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// `dst` valid for `len` bytes; the CPU has the target feature.
        #[target_feature(enable = $feat)]
        pub unsafe fn $name(dst: *mut u8, val: u8, len: usize) {
            const W: usize = std::mem::size_of::<$vec>();
            // SAFETY: the target feature is enabled by the caller's dispatch; stores stay inside the caller's buffer (head and tail by the scalar helpers).
            unsafe {
                let h = fill_head(dst, val, len, 64);
                let (mut d, mut n) = (dst.add(h), len - h);
                let v: $vec = $splat(val as i8);
                while n >= 64 {
                    for i in 0..64 / W {
                        $store(d.add(i * W).cast(), v);
                    }
                    d = d.add(64);
                    n -= 64;
                }
                if $fence {
                    _mm_sfence();
                }
                std::ptr::write_bytes(d, val, n);
            }
        }
    };
}

copy_loop!(
    sse2_copy,
    "sse2",
    __m128i,
    _mm_loadu_si128,
    _mm_store_si128,
    false,
    "SSE2 copy: 16-byte loads, aligned 16-byte stores."
);
copy_loop!(
    sse2_nt_copy,
    "sse2",
    __m128i,
    _mm_loadu_si128,
    _mm_stream_si128,
    true,
    "SSE2 non-temporal copy: `movntdq` stores bypass the caches (no read-for-ownership)."
);
copy_loop!(
    avx2_copy,
    "avx2",
    __m256i,
    _mm256_loadu_si256,
    _mm256_store_si256,
    false,
    "AVX2 copy: 32-byte loads and aligned stores."
);
copy_loop!(
    avx2_nt_copy,
    "avx2",
    __m256i,
    _mm256_loadu_si256,
    _mm256_stream_si256,
    true,
    "AVX2 non-temporal copy: `vmovntdq` 32-byte stores."
);
fill_loop!(
    sse2_fill,
    "sse2",
    __m128i,
    _mm_set1_epi8,
    _mm_store_si128,
    false,
    "SSE2 fill: aligned 16-byte stores."
);
fill_loop!(
    sse2_nt_fill,
    "sse2",
    __m128i,
    _mm_set1_epi8,
    _mm_stream_si128,
    true,
    "SSE2 non-temporal fill."
);
fill_loop!(
    avx2_fill,
    "avx2",
    __m256i,
    _mm256_set1_epi8,
    _mm256_store_si256,
    false,
    "AVX2 fill: aligned 32-byte stores."
);
fill_loop!(
    avx2_nt_fill,
    "avx2",
    __m256i,
    _mm256_set1_epi8,
    _mm256_stream_si256,
    true,
    "AVX2 non-temporal fill."
);

/// SSE2 read: four 16-byte loads per 64 bytes XORed into four accumulators.
///
/// # Safety
/// `src` valid for `len` bytes.
#[target_feature(enable = "sse2")]
pub unsafe fn sse2_read(src: *const u8, len: usize) -> u64 {
    // SAFETY: SSE2 is part of x86_64; the reads stay inside the caller's buffer of len bytes.
    unsafe {
        let mut a = [_mm_setzero_si128(); 4];
        let (mut s, mut n) = (src, len);
        while n >= 64 {
            for (i, x) in a.iter_mut().enumerate() {
                *x = _mm_xor_si128(*x, _mm_loadu_si128(s.add(i * 16).cast()));
            }
            s = s.add(64);
            n -= 64;
        }
        let v = _mm_xor_si128(_mm_xor_si128(a[0], a[1]), _mm_xor_si128(a[2], a[3]));
        let lanes: [u64; 2] = std::mem::transmute(v);
        lanes[0] ^ lanes[1] ^ read_tail(s, n)
    }
}

/// AVX2 read: 32-byte loads, four accumulators (128 bytes per iteration).
///
/// # Safety
/// `src` valid for `len` bytes; the CPU has AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn avx2_read(src: *const u8, len: usize) -> u64 {
    // SAFETY: the caller checked AVX2 before calling; the reads stay inside the caller's buffer of len bytes.
    unsafe {
        let mut a = [_mm256_setzero_si256(); 4];
        let (mut s, mut n) = (src, len);
        while n >= 128 {
            for (i, x) in a.iter_mut().enumerate() {
                *x = _mm256_xor_si256(*x, _mm256_loadu_si256(s.add(i * 32).cast()));
            }
            s = s.add(128);
            n -= 128;
        }
        let v = _mm256_xor_si256(_mm256_xor_si256(a[0], a[1]), _mm256_xor_si256(a[2], a[3]));
        let lanes: [u64; 4] = std::mem::transmute(v);
        lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3] ^ read_tail(s, n)
    }
}

pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}
