//! bw_mem: memory bandwidth in MB/s (10^6 bytes) of lmbench's nine operations over a buffer of
//! `size` bytes, counting `size` bytes per pass for every operation (copies count the bytes copied;
//! the strided rd/wr/rdwr/cp touch one int in four but every cache line). Work unit: 512-byte
//! chunks of 128 4-byte ints. The reads (rd, frd) sum each chunk into one dependent chain that is
//! then added to the total, as lmbench's single expression compiles (with several accumulators frd
//! read 1.5–1.9× lmbench's figure inside the caches; with one chain across all chunks 0.75–0.85×;
//! with separate loads and adds 0.90×, so on x86_64 frd's chunk is written as GCC emits it, one
//! `add` from memory per int: bench-against, issue 21); fwr stores each chunk from its last int
//! down, as lmbench's chained assignment compiles (ascending stores wrote 1.5× lmbench's); cp and
//! fcp are written out on x86_64 as lmbench's binary has them (`copy_pass!`). The word loops use
//! volatile accesses so the compiler neither vectorises them nor turns them into memcpy/memset;
//! bzero and bcopy call the C library's memset/memmove, as lmbench.

use document::guide::GuideValue;

use super::lat_mem_rd::Aligned;
use super::timing::{Error, Result, Timing, figures};

pub const OPS: [&str; 9] = [
    "rd", "wr", "rdwr", "cp", "frd", "fwr", "fcp", "bzero", "bcopy",
];

fn needs_second(op: &str) -> bool {
    matches!(op, "cp" | "fcp" | "bcopy")
}

/// `x`, hidden from the optimiser: without it LLVM re-associates `sum + (p[0] + p[4] + …)` back
/// into one chain of adds across all chunks (integer addition is associative), which is not
/// what lmbench's binary does (a chain per chunk, then one add to the total).
#[inline(always)]
fn opaque(x: u32) -> u32 {
    std::hint::black_box(x)
}

/// The 128 ints of one frd chunk summed into one dependent chain, as GCC 12 -O2 compiles
/// lmbench's `sum += p[0] + p[1] + … + p[127]` on x86_64: a load of `p[1]`, then one
/// `add reg, [mem]` per int (`p[0]`, `p[2]` … `p[127]`). LLVM does not fold a volatile load into
/// an add, and without volatile it vectorises the sum: the separate loads and adds read 0.90–0.91
/// of lmbench's figure at every size (bench-against, issue 21), so the step is written as GCC
/// emits it. The loads only read the chunk.
///
/// # Safety
/// `p` valid for 128 readable `u32`s.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn frd_chunk(p: *const u32) -> u32 {
    macro_rules! chain {
        ($($off:literal)*) => {{
            let acc: u32;
            // SAFETY: every address lies in the chunk (offsets 0 … 508 bytes); nothing is
            // written, no stack or flags the compiler relies on are touched.
            unsafe {
                core::arch::asm!(
                    "mov {acc:e}, dword ptr [{p} + 4]",
                    "add {acc:e}, dword ptr [{p}]",
                    $(concat!("add {acc:e}, dword ptr [{p} + ", $off, "]"),)*
                    p = in(reg) p,
                    acc = out(reg) acc,
                    options(readonly, nostack),
                );
            }
            acc
        }};
    }
    chain!("0x8" "0xc" "0x10" "0x14" "0x18" "0x1c" "0x20" "0x24" "0x28" "0x2c" "0x30" "0x34" "0x38" "0x3c" "0x40" "0x44" "0x48" "0x4c" "0x50" "0x54" "0x58" "0x5c" "0x60" "0x64" "0x68" "0x6c" "0x70" "0x74" "0x78" "0x7c" "0x80" "0x84" "0x88" "0x8c" "0x90" "0x94" "0x98" "0x9c" "0xa0" "0xa4" "0xa8" "0xac" "0xb0" "0xb4" "0xb8" "0xbc" "0xc0" "0xc4" "0xc8" "0xcc" "0xd0" "0xd4" "0xd8" "0xdc" "0xe0" "0xe4" "0xe8" "0xec" "0xf0" "0xf4" "0xf8" "0xfc" "0x100" "0x104" "0x108" "0x10c" "0x110" "0x114" "0x118" "0x11c" "0x120" "0x124" "0x128" "0x12c" "0x130" "0x134" "0x138" "0x13c" "0x140" "0x144" "0x148" "0x14c" "0x150" "0x154" "0x158" "0x15c" "0x160" "0x164" "0x168" "0x16c" "0x170" "0x174" "0x178" "0x17c" "0x180" "0x184" "0x188" "0x18c" "0x190" "0x194" "0x198" "0x19c" "0x1a0" "0x1a4" "0x1a8" "0x1ac" "0x1b0" "0x1b4" "0x1b8" "0x1bc" "0x1c0" "0x1c4" "0x1c8" "0x1cc" "0x1d0" "0x1d4" "0x1d8" "0x1dc" "0x1e0" "0x1e4" "0x1e8" "0x1ec" "0x1f0" "0x1f4" "0x1f8" "0x1fc")
}

/// [`frd_chunk`] elsewhere: one load, then 127 dependent adds (volatile, so not vectorised).
///
/// # Safety
/// `p` valid for 128 readable `u32`s.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn frd_chunk(p: *const u32) -> u32 {
    use std::ptr::read_volatile as rd;
    // SAFETY: k < 128.
    unsafe {
        let mut chunk = rd(p);
        for k in 1..128 {
            chunk = chunk.wrapping_add(rd(p.add(k)));
        }
        chunk
    }
}

/// One copying pass as GCC 12 -O2 compiles lmbench's cp and fcp loops on x86_64: two pointers,
/// each copied int a `mov` from `[src + offset]` and a `mov` to `[dst + offset]`, the pointers
/// advanced by 512 bytes per chunk while `src` ≤ the last chunk's start. The offsets are the
/// macro's literals (cp: every fourth int, fcp: every int).
#[cfg(target_arch = "x86_64")]
macro_rules! copy_pass {
    ($a:expr, $b:expr, $chunks:expr, $($off:literal)*) => {{
        let (a, b, chunks): (*const u32, *mut u32, usize) = ($a, $b, $chunks);
        if chunks > 0 {
            // SAFETY: (the caller's contract) `a` holds `chunks` × 128 readable ints and `b` as
            // many writable ones; src and dst advance 512 bytes per chunk while src ≤ last, the
            // start of the last chunk; every offset lies in the chunk (0 … 0x1fc); ecx and the
            // flags are declared clobbered.
            unsafe {
                core::arch::asm!(
                    "2:",
                    $(concat!("mov ecx, dword ptr [{src} + ", $off, "]"),
                      concat!("mov dword ptr [{dst} + ", $off, "], ecx"),)*
                    "add {src}, 0x200",
                    "add {dst}, 0x200",
                    "cmp {last}, {src}",
                    "jae 2b",
                    src = inout(reg) a => _,
                    dst = inout(reg) b => _,
                    last = in(reg) a.add((chunks - 1) * 128),
                    out("ecx") _,
                    options(nostack),
                );
            }
        }
    }};
}

/// cp's pass: every fourth int of each chunk of `a` copied to `b`, written out on x86_64 as
/// lmbench's binary has it (`copy_pass!`). LLVM's form of the same volatile accesses (one index
/// register, `[src + index + offset]`: 7-byte instructions where GCC's are 3–6) read 1.05 / 1.06
/// / 1.18–1.25 × lmbench's figure at 1 / 2 / 4 MB in two sittings after an unrelated rebuild, and
/// 0.94–1.0 before it: the copy's speed follows where its instructions lie (the stride
/// prefetchers track loads by their address).
///
/// # Safety
/// `a` valid for `chunks` × 128 readable `u32`s, `b` for as many writable ones.
#[cfg(target_arch = "x86_64")]
unsafe fn cp_pass(a: *const u32, b: *mut u32, chunks: usize) {
    copy_pass!(a, b, chunks, "0x0" "0x10" "0x20" "0x30" "0x40" "0x50" "0x60" "0x70" "0x80" "0x90" "0xa0" "0xb0" "0xc0" "0xd0" "0xe0" "0xf0" "0x100" "0x110" "0x120" "0x130" "0x140" "0x150" "0x160" "0x170" "0x180" "0x190" "0x1a0" "0x1b0" "0x1c0" "0x1d0" "0x1e0" "0x1f0")
}

/// fcp's pass: every int of each chunk of `a` copied to `b`, on x86_64 as lmbench's binary has
/// it (`copy_pass!`), so the instructions' layout is not a variable. LLVM's indexed form of the
/// volatile copy read 0.79–0.95 × lmbench's figure at 1–8 MB in two sittings on a Zen 3 guest,
/// but 0.93–1.01 in a third, run alternately beside this form (0.87–1.10; both sides' A/A
/// 25–60 %): not shown to matter (bench-against, issue 21).
///
/// # Safety
/// `a` valid for `chunks` × 128 readable `u32`s, `b` for as many writable ones.
#[cfg(target_arch = "x86_64")]
unsafe fn fcp_pass(a: *const u32, b: *mut u32, chunks: usize) {
    copy_pass!(a, b, chunks, "0x0" "0x4" "0x8" "0xc" "0x10" "0x14" "0x18" "0x1c" "0x20" "0x24" "0x28" "0x2c" "0x30" "0x34" "0x38" "0x3c" "0x40" "0x44" "0x48" "0x4c" "0x50" "0x54" "0x58" "0x5c" "0x60" "0x64" "0x68" "0x6c" "0x70" "0x74" "0x78" "0x7c" "0x80" "0x84" "0x88" "0x8c" "0x90" "0x94" "0x98" "0x9c" "0xa0" "0xa4" "0xa8" "0xac" "0xb0" "0xb4" "0xb8" "0xbc" "0xc0" "0xc4" "0xc8" "0xcc" "0xd0" "0xd4" "0xd8" "0xdc" "0xe0" "0xe4" "0xe8" "0xec" "0xf0" "0xf4" "0xf8" "0xfc" "0x100" "0x104" "0x108" "0x10c" "0x110" "0x114" "0x118" "0x11c" "0x120" "0x124" "0x128" "0x12c" "0x130" "0x134" "0x138" "0x13c" "0x140" "0x144" "0x148" "0x14c" "0x150" "0x154" "0x158" "0x15c" "0x160" "0x164" "0x168" "0x16c" "0x170" "0x174" "0x178" "0x17c" "0x180" "0x184" "0x188" "0x18c" "0x190" "0x194" "0x198" "0x19c" "0x1a0" "0x1a4" "0x1a8" "0x1ac" "0x1b0" "0x1b4" "0x1b8" "0x1bc" "0x1c0" "0x1c4" "0x1c8" "0x1cc" "0x1d0" "0x1d4" "0x1d8" "0x1dc" "0x1e0" "0x1e4" "0x1e8" "0x1ec" "0x1f0" "0x1f4" "0x1f8" "0x1fc")
}

/// [`cp_pass`] elsewhere: volatile accesses, so the compiler neither vectorises the copy nor
/// turns it into memcpy.
///
/// # Safety
/// `a` valid for `chunks` × 128 readable `u32`s, `b` for as many writable ones.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn cp_pass(a: *const u32, b: *mut u32, chunks: usize) {
    use std::ptr::{read_volatile as rd, write_volatile as wr};
    for c in 0..chunks {
        // SAFETY: chunk c < chunks lies in both buffers.
        unsafe {
            let (p, q) = (a.add(c * 128), b.add(c * 128));
            for k in 0..32 {
                wr(q.add(k * 4), rd(p.add(k * 4)));
            }
        }
    }
}

/// [`fcp_pass`] elsewhere: volatile accesses, four ints a step.
///
/// # Safety
/// `a` valid for `chunks` × 128 readable `u32`s, `b` for as many writable ones.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn fcp_pass(a: *const u32, b: *mut u32, chunks: usize) {
    use std::ptr::{read_volatile as rd, write_volatile as wr};
    for c in 0..chunks {
        // SAFETY: chunk c < chunks lies in both buffers.
        unsafe {
            let (p, q) = (a.add(c * 128), b.add(c * 128));
            let mut k = 0;
            while k < 128 {
                wr(q.add(k), rd(p.add(k)));
                wr(q.add(k + 1), rd(p.add(k + 1)));
                wr(q.add(k + 2), rd(p.add(k + 2)));
                wr(q.add(k + 3), rd(p.add(k + 3)));
                k += 4;
            }
        }
    }
}

/// One pass of `op` over `chunks` 512-byte chunks of `a` (and `b` for copies).
fn pass(op: &str, a: *mut u32, b: *mut u32, chunks: usize, bytes: usize) -> u32 {
    let mut sum = 0u32;
    // SAFETY: (all loops) chunk c covers ints [128c, 128c+128) and c < chunks = size/512, so
    // every access is inside both buffers (b is 2 KiB larger than a).
    unsafe {
        use std::ptr::{read_volatile as rd, write_volatile as wr};
        match op {
            "rd" => {
                // One dependent chain of adds per chunk, as lmbench's expression
                // `sum += p[0] + p[4] + … + p[124]` compiles (GCC 12 -O2): the chunk's chain
                // starts afresh from its first load and is added to the total at its end, so
                // the chains of neighbouring chunks overlap; the adds inside one do not.
                for c in 0..chunks {
                    let p = a.add(c * 128);
                    let mut chunk = rd(p);
                    let mut k = 4;
                    while k < 128 {
                        chunk = chunk.wrapping_add(rd(p.add(k)));
                        k += 4;
                    }
                    sum = sum.wrapping_add(opaque(chunk));
                }
            }
            "wr" => {
                for c in 0..chunks {
                    let p = a.add(c * 128);
                    for k in 0..32 {
                        wr(p.add(k * 4), 1);
                    }
                }
            }
            "rdwr" => {
                for c in 0..chunks {
                    let p = a.add(c * 128);
                    for k in 0..32 {
                        sum = sum.wrapping_add(rd(p.add(k * 4)));
                        wr(p.add(k * 4), 1);
                    }
                }
            }
            "cp" => cp_pass(a, b, chunks),
            "frd" => {
                // Every int of the chunk into the chunk's own chain of 128 dependent adds, then
                // into the total, as lmbench's `sum += p[0] + p[1] + … + p[127]` compiles (GCC
                // 12 -O2: `mov` of one int, then one `add reg, mem` after the other, then one
                // add to the total). Inside the caches the chains, not memory, limit the figure.
                for c in 0..chunks {
                    sum = sum.wrapping_add(opaque(frd_chunk(a.add(c * 128))));
                }
            }
            "fwr" => {
                // lmbench's `p[0] = p[1] = … = p[127] = 1` assigns right to left: GCC 12 -O2
                // emits 128 4-byte stores, unrolled, from the chunk's last int down to its first
                // (a loop of a few stores wrote 1.3–1.5× its figure inside the caches on x86:
                // the unrolled stores with their 4-byte offsets are long instructions).
                macro_rules! down8 {
                    ($p:ident, $b:literal) => {
                        wr($p.add($b + 7), 1);
                        wr($p.add($b + 6), 1);
                        wr($p.add($b + 5), 1);
                        wr($p.add($b + 4), 1);
                        wr($p.add($b + 3), 1);
                        wr($p.add($b + 2), 1);
                        wr($p.add($b + 1), 1);
                        wr($p.add($b), 1);
                    };
                }
                for c in 0..chunks {
                    let p = a.add(c * 128);
                    down8!(p, 120);
                    down8!(p, 112);
                    down8!(p, 104);
                    down8!(p, 96);
                    down8!(p, 88);
                    down8!(p, 80);
                    down8!(p, 72);
                    down8!(p, 64);
                    down8!(p, 56);
                    down8!(p, 48);
                    down8!(p, 40);
                    down8!(p, 32);
                    down8!(p, 24);
                    down8!(p, 16);
                    down8!(p, 8);
                    down8!(p, 0);
                }
            }
            "fcp" => fcp_pass(a, b, chunks),
            "bzero" => {
                libc::memset(a.cast(), 0, bytes);
            }
            "bcopy" => {
                libc::memmove(b.cast(), a.cast(), bytes);
            }
            _ => {}
        }
    }
    sum
}

/// MB/s of `op` over `size` bytes (size ≥ 512).
pub fn measure(t: &Timing, op: &str, size: usize) -> Result<GuideValue> {
    if !OPS.contains(&op) || size < 512 {
        return Err(Error::Failed(format!(
            "bw_mem {op} {size}: not a valid case"
        )));
    }
    let a = Aligned::new(size)?;
    // Zero-filled and pre-faulted, as lmbench's buffer.
    // SAFETY: writes inside our buffer.
    unsafe { std::ptr::write_bytes(a.as_ptr(), 0, size) };
    let b = if needs_second(op) {
        Some(Aligned::new(size + 2048)?)
    } else {
        None
    };
    let ap = a.as_ptr().cast::<u32>();
    let bp = b.as_ref().map(|b| b.as_ptr().cast::<u32>()).unwrap_or(ap);
    let chunks = size / 512;
    let mut sink = 0u32;
    let samples = t.benchmp(0.0, |n| {
        for _ in 0..n {
            sink = sink.wrapping_add(pass(op, ap, bp, chunks, size));
        }
    })?;
    std::hint::black_box(sink);
    let mb = size as f64 / 1e6;
    GuideValue::from_samples(&figures(&samples, |us| mb / (us / 1e6)))
        .ok_or(Error::Failed("no samples".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frd_chunk_sums_every_int_of_the_chunk() {
        // Distinct values in every int (and wrapping), so a skipped or repeated offset shows.
        let ints: Vec<u32> = (0..128u32)
            .map(|k| k.wrapping_mul(0x9E37_79B9).wrapping_add(k << 20))
            .collect();
        let want = ints.iter().fold(0u32, |s, &x| s.wrapping_add(x));
        // SAFETY: 128 ints.
        assert_eq!(unsafe { frd_chunk(ints.as_ptr()) }, want);
    }

    /// cp copies one int in four of every chunk (lmbench's strided ops), fcp every int; neither
    /// writes past its chunks.
    #[test]
    fn copy_passes_copy_their_ints_of_every_chunk_and_nothing_else() {
        type Pass = unsafe fn(*const u32, *mut u32, usize);
        for (name, pass, step) in [("cp", cp_pass as Pass, 4), ("fcp", fcp_pass as Pass, 1)] {
            for chunks in [0usize, 1, 3] {
                let a: Vec<u32> = (0..(chunks * 128 + 128) as u32).map(|i| i + 1).collect();
                let mut b = vec![0u32; chunks * 128 + 128];
                // SAFETY: both vectors hold `chunks` chunks and one more.
                unsafe { pass(a.as_ptr(), b.as_mut_ptr(), chunks) };
                for (i, &v) in b.iter().enumerate() {
                    let copied = i < chunks * 128 && i % step == 0;
                    assert_eq!(
                        v,
                        if copied { a[i] } else { 0 },
                        "{name}: chunks {chunks}, int {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn frd_pass_sums_all_chunks() {
        let ints: Vec<u32> = (0..512u32).collect();
        let mut copy = ints.clone();
        let got = pass("frd", copy.as_mut_ptr(), copy.as_mut_ptr(), 4, 2048);
        assert_eq!(got, ints.iter().sum::<u32>());
    }
}
