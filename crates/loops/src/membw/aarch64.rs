//! aarch64 routines: NEON `ldp`/`stp` of q registers (64 bytes per iteration), the
//! non-temporal pair store `stnp`, and a NEON read. NEON is mandatory on aarch64, so no runtime
//! detection is needed.
//!
//! A byte head brings the destination to a cache-line boundary, a byte tail finishes odd lengths.

use std::arch::asm;

use super::portable::{copy_head, fill_head, read_tail};

macro_rules! neon_copy {
    ($name:ident, $st:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// `dst`/`src` valid for `len` bytes, not overlapping.
        pub unsafe fn $name(dst: *mut u8, src: *const u8, len: usize) {
            // SAFETY: the caller guarantees both buffers for len bytes, not overlapping; every access stays inside them.
            unsafe {
                let h = copy_head(dst, src, len, 64);
                let (d, s, n) = (dst.add(h), src.add(h), len - h);
                let blocks = n / 64;
                if blocks > 0 {
                    asm!(
                        "2:",
                        "ldp q0, q1, [{s}]",
                        "ldp q2, q3, [{s}, #32]",
                        "add {s}, {s}, #64",
                        concat!($st, " q0, q1, [{d}]"),
                        concat!($st, " q2, q3, [{d}, #32]"),
                        "add {d}, {d}, #64",
                        "subs {c}, {c}, #1",
                        "b.ne 2b",
                        s = inout(reg) s => _, d = inout(reg) d => _, c = inout(reg) blocks => _,
                        out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                        options(nostack),
                    );
                }
                let done = blocks * 64;
                std::ptr::copy_nonoverlapping(s.add(done), d.add(done), n - done);
            }
        }
    };
}

macro_rules! neon_fill {
    ($name:ident, $st:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// `dst` valid for `len` bytes.
        pub unsafe fn $name(dst: *mut u8, val: u8, len: usize) {
            // SAFETY: the caller guarantees `dst` for len bytes; every store stays inside it.
            unsafe {
                let h = fill_head(dst, val, len, 64);
                let (d, n) = (dst.add(h), len - h);
                let blocks = n / 64;
                if blocks > 0 {
                    asm!(
                        "dup v0.16b, {v:w}",
                        "2:",
                        concat!($st, " q0, q0, [{d}]"),
                        concat!($st, " q0, q0, [{d}, #32]"),
                        "add {d}, {d}, #64",
                        "subs {c}, {c}, #1",
                        "b.ne 2b",
                        v = in(reg) val as u32, d = inout(reg) d => _, c = inout(reg) blocks => _,
                        out("v0") _,
                        options(nostack),
                    );
                }
                let done = blocks * 64;
                std::ptr::write_bytes(d.add(done), val, n - done);
            }
        }
    };
}

neon_copy!(
    neon_copy,
    "stp",
    "NEON copy: `ldp`/`stp` of q registers, 64 bytes per iteration."
);
neon_copy!(
    neon_nt_copy,
    "stnp",
    "NEON non-temporal copy: `ldp` loads, `stnp` stores (a streaming hint to the memory system)."
);
neon_fill!(neon_fill, "stp", "NEON fill: `stp` of q registers.");
neon_fill!(
    neon_nt_fill,
    "stnp",
    "NEON non-temporal fill: `stnp` of q registers."
);

/// NEON read: `ldp` of four q registers per 64 bytes, XORed into four accumulators.
///
/// # Safety
/// `src` valid for `len` bytes.
pub unsafe fn neon_read(src: *const u8, len: usize) -> u64 {
    let blocks = len / 64;
    let (mut lo, mut hi) = (0u64, 0u64);
    // SAFETY: the caller guarantees `src` for len bytes; the reads stay inside it.
    unsafe {
        if blocks > 0 {
            asm!(
                "movi v4.16b, #0",
                "movi v5.16b, #0",
                "movi v6.16b, #0",
                "movi v7.16b, #0",
                "2:",
                "ldp q0, q1, [{s}]",
                "ldp q2, q3, [{s}, #32]",
                "add {s}, {s}, #64",
                "eor v4.16b, v4.16b, v0.16b",
                "eor v5.16b, v5.16b, v1.16b",
                "eor v6.16b, v6.16b, v2.16b",
                "eor v7.16b, v7.16b, v3.16b",
                "subs {c}, {c}, #1",
                "b.ne 2b",
                "eor v4.16b, v4.16b, v5.16b",
                "eor v6.16b, v6.16b, v7.16b",
                "eor v4.16b, v4.16b, v6.16b",
                "umov {lo}, v4.d[0]",
                "umov {hi}, v4.d[1]",
                s = inout(reg) src => _, c = inout(reg) blocks => _,
                lo = out(reg) lo, hi = out(reg) hi,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                options(nostack, readonly),
            );
        }
        let done = blocks * 64;
        // Words are little-endian in memory and in the lanes on little-endian aarch64.
        lo ^ hi ^ read_tail(src.add(done), len - done)
    }
}
