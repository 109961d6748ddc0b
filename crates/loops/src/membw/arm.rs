//! armv7 routines: NEON `vld1`/`vst1` of four d registers (64 bytes per iteration) and a NEON
//! read. The armv7 Rust target does not assume NEON, so the assembler is told `.fpu neon` inside
//! the block and callers check the kernel's HWCAP_NEON bit first ([`has_neon`]).

use std::arch::asm;

use super::portable::{copy_head, fill_head, read_tail};

/// Whether the kernel reports NEON (AT_HWCAP bit 12 on 32-bit ARM).
pub fn has_neon() -> bool {
    const HWCAP_NEON: libc::c_ulong = 1 << 12;
    // SAFETY: getauxval has no preconditions.
    unsafe { libc::getauxval(libc::AT_HWCAP) & HWCAP_NEON != 0 }
}

/// NEON copy: `vld1.8`/`vst1.8` of d0–d7 (64 bytes per iteration).
///
/// # Safety
/// `dst`/`src` valid for `len` bytes, not overlapping; the CPU has NEON.
pub unsafe fn neon_copy(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY: the caller guarantees both buffers for len bytes and NEON; every access stays inside them.
    unsafe {
        let h = copy_head(dst, src, len, 64);
        let (d, s, n) = (dst.add(h), src.add(h), len - h);
        let blocks = n / 64;
        if blocks > 0 {
            asm!(
                ".fpu neon",
                "2:",
                "vld1.8 {{d0-d3}}, [{s}]!",
                "vld1.8 {{d4-d7}}, [{s}]!",
                "vst1.8 {{d0-d3}}, [{d}]!",
                "vst1.8 {{d4-d7}}, [{d}]!",
                "subs {c}, {c}, #1",
                "bne 2b",
                s = inout(reg) s => _, d = inout(reg) d => _, c = inout(reg) blocks => _,
                out("d0") _, out("d1") _, out("d2") _, out("d3") _,
                out("d4") _, out("d5") _, out("d6") _, out("d7") _,
                options(nostack),
            );
        }
        let done = blocks * 64;
        std::ptr::copy_nonoverlapping(s.add(done), d.add(done), n - done);
    }
}

/// NEON fill: `vst1.8` of d0–d3 twice per 64 bytes.
///
/// # Safety
/// `dst` valid for `len` bytes; the CPU has NEON.
pub unsafe fn neon_fill(dst: *mut u8, val: u8, len: usize) {
    // SAFETY: the caller guarantees `dst` for len bytes and NEON; every store stays inside it.
    unsafe {
        let h = fill_head(dst, val, len, 64);
        let (d, n) = (dst.add(h), len - h);
        let blocks = n / 64;
        if blocks > 0 {
            asm!(
                ".fpu neon",
                "vdup.8 q0, {v}",
                "vdup.8 q1, {v}",
                "2:",
                "vst1.8 {{d0-d3}}, [{d}]!",
                "vst1.8 {{d0-d3}}, [{d}]!",
                "subs {c}, {c}, #1",
                "bne 2b",
                v = in(reg) val as u32, d = inout(reg) d => _, c = inout(reg) blocks => _,
                out("d0") _, out("d1") _, out("d2") _, out("d3") _,
                options(nostack),
            );
        }
        let done = blocks * 64;
        std::ptr::write_bytes(d.add(done), val, n - done);
    }
}

/// NEON read: 64 bytes per iteration XORed into two q accumulators.
///
/// # Safety
/// `src` valid for `len` bytes; the CPU has NEON.
pub unsafe fn neon_read(src: *const u8, len: usize) -> u64 {
    let blocks = len / 64;
    let mut w = [0u32; 4];
    // SAFETY: the caller guarantees `src` for len bytes and NEON; the reads stay inside it, `w` is local.
    unsafe {
        if blocks > 0 {
            asm!(
                ".fpu neon",
                "vmov.i8 q4, #0",
                "vmov.i8 q5, #0",
                "2:",
                "vld1.8 {{d0-d3}}, [{s}]!",
                "vld1.8 {{d4-d7}}, [{s}]!",
                "veor q4, q4, q0",
                "veor q5, q5, q1",
                "veor q4, q4, q2",
                "veor q5, q5, q3",
                "subs {c}, {c}, #1",
                "bne 2b",
                "veor q4, q4, q5",
                "vst1.8 {{d8-d9}}, [{o}]",
                s = inout(reg) src => _, c = inout(reg) blocks => _, o = in(reg) w.as_mut_ptr(),
                out("d0") _, out("d1") _, out("d2") _, out("d3") _,
                out("d4") _, out("d5") _, out("d6") _, out("d7") _,
                out("d8") _, out("d9") _, out("d10") _, out("d11") _,
                options(nostack),
            );
        }
        let done = blocks * 64;
        // The accumulator holds two little-endian 64-bit lanes as four u32 in memory order.
        let lo = w[0] as u64 | (w[1] as u64) << 32;
        let hi = w[2] as u64 | (w[3] as u64) << 32;
        lo ^ hi ^ read_tail(src.add(done), len - done)
    }
}
