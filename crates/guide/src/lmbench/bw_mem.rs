//! bw_mem: memory bandwidth in MB/s (10^6 bytes) of lmbench's nine operations over a buffer of
//! `size` bytes, counting `size` bytes per pass for every operation (copies count the bytes
//! copied; the strided rd/wr/rdwr/cp touch one int in four but every cache line). Work unit:
//! 512-byte chunks of 128 4-byte ints. The reads (rd, frd) sum each chunk into one dependent
//! chain that is then added to the total, as lmbench's single expression compiles (with several
//! accumulators frd read 1.5–1.9× lmbench's figure inside the caches; with one chain across all
//! chunks 0.75–0.85×: bench-against, issue 21); fwr stores each chunk from its last int down, as
//! lmbench's chained assignment compiles (ascending stores wrote 1.5× lmbench's). The word loops use volatile accesses so the compiler
//! neither vectorises them nor turns them into memcpy/memset; bzero and bcopy call the C
//! library's memset/memmove, as lmbench.

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
            "cp" => {
                for c in 0..chunks {
                    let (p, q) = (a.add(c * 128), b.add(c * 128));
                    for k in 0..32 {
                        wr(q.add(k * 4), rd(p.add(k * 4)));
                    }
                }
            }
            "frd" => {
                // Every int of the chunk into the chunk's own chain of 128 dependent adds, then
                // into the total, as lmbench's `sum += p[0] + p[1] + … + p[127]` compiles (GCC
                // 12 -O2: `mov` of one int, then one `add reg, mem` after the other, then one
                // add to the total). Inside the caches the chains, not memory, limit the figure.
                for c in 0..chunks {
                    let p = a.add(c * 128);
                    let mut chunk = rd(p);
                    for k in 1..128 {
                        chunk = chunk.wrapping_add(rd(p.add(k)));
                    }
                    sum = sum.wrapping_add(opaque(chunk));
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
            "fcp" => {
                for c in 0..chunks {
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
