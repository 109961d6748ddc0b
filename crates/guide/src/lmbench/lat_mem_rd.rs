//! lat_mem_rd: ns per load of a chain of dependent loads with a 128-byte stride through a range
//! of memory, for ranges from 512 bytes to twice the last-level cache. As lmbench's default,
//! element i points to element i+1 (a sequential, prefetcher-friendly chain; the last points
//! back to the first), each interval does 100·(⌊range/(stride·100)⌋+1) loads per iteration, the
//! figure is the minimum of the samples (not the median), with ENOUGH at least 100 ms.

use document::guide::GuideValue;

use super::timing::{Error, Result, Timing, min_per_iter};

pub const FLOOR_US: f64 = 100_000.0;
pub const STRIDE: usize = 128;

/// lmbench's ranges: ×2 below 1 KiB, +1 KiB up to 4 KiB, then +¼ of the next power of two.
pub fn ranges(max: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut r = 512;
    while r <= max {
        out.push(r);
        r = if r < 1024 {
            r * 2
        } else if r < 4096 {
            r + 1024
        } else {
            let mut p = 1;
            while p <= r {
                p <<= 1;
            }
            r + p / 4
        };
    }
    out
}

/// A page-aligned buffer of `len` bytes (zeroed), freed on drop.
pub struct Aligned {
    ptr: *mut u8,
    len: usize,
}

impl Aligned {
    pub fn new(len: usize) -> Result<Aligned> {
        let len = len.max(1);
        // SAFETY: an anonymous private mapping (page-aligned, zero-filled); checked below.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(super::timing::os_err("mmap"));
        }
        // lmbench-comparable numbers: no transparent huge pages (a hint; errors are harmless).
        // SAFETY: advice on our own mapping.
        unsafe { libc::madvise(p, len, libc::MADV_NOHUGEPAGE) };
        Ok(Aligned { ptr: p.cast(), len })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for Aligned {
    fn drop(&mut self) {
        // SAFETY: unmaps the mapping made in `new`.
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}

macro_rules! ten {
    ($p:ident) => {
        // SAFETY: every element holds a pointer to another element of the chain.
        unsafe {
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
            $p = *($p as *const *const u8);
        }
    };
}

/// ns per load for one range.
pub fn measure(t: &Timing, range: usize) -> Result<GuideValue> {
    let buf = Aligned::new(range)?;
    let base = buf.as_ptr();
    let elems = range / STRIDE;
    if elems == 0 {
        return Err(Error::Failed("range below the stride".into()));
    }
    for i in 0..elems {
        let next = if i + 1 < elems { (i + 1) * STRIDE } else { 0 };
        // SAFETY: both offsets are inside the buffer; the slot is pointer-aligned (stride 128).
        unsafe { *(base.add(i * STRIDE) as *mut *const u8) = base.add(next) };
    }
    let count = 100 * (range / (STRIDE * 100) + 1);
    let mut p: *const u8 = std::hint::black_box(base);
    let samples = t.benchmp(FLOOR_US, |n| {
        // A local the loads cannot alias: with the captured `p` itself LLVM stored the pointer
        // back to memory after every load (100 stores per 100 loads); lmbench's chain is loads
        // only, its pointer in a register.
        let mut q = p;
        for _ in 0..n {
            for _ in 0..count / 100 {
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
                ten!(q);
            }
        }
        p = q;
    })?;
    std::hint::black_box(p);
    let per_load = |us: f64| us * 1000.0 / count as f64;
    let all: Vec<f64> = samples.iter().map(|s| per_load(s.per_iter())).collect();
    let best = per_load(min_per_iter(&samples));
    let mut v = GuideValue::from_samples(&all).ok_or(Error::Failed("no samples".into()))?;
    v.value = best;
    Ok(v)
}

/// The seed's row name of a range: TI prints the range in MiB with five decimals and names
/// it ×1000 truncated ("sz31k" = 32 KiB); the 512-byte point is the seed's "sz50". Below
/// 32 KiB, where that rule gives 0 or ambiguous names, the range in KiB is used ("sz4k").
pub fn row_size(range: usize) -> String {
    if range == 512 {
        return "sz50".into();
    }
    if range < 32 * 1024 {
        return format!("sz{}k", range / 1024);
    }
    let mib: f64 = format!("{:.5}", range as f64 / 1048576.0)
        .parse()
        .unwrap_or(0.0);
    format!("sz{}k", (mib * 1000.0 + 1e-9).floor() as u64)
}
