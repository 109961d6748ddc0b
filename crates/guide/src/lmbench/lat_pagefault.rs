//! lat_pagefault: µs per page of faulting in a page-cache-resident file mapping, pages read in
//! a random order. Measured as lmbench: (map + touch every page + unmap) minus (map + unmap),
//! divided by the pages. The file is in the page cache: these are minor faults, and Linux maps
//! up to 16 neighbouring pages per fault (fault-around), so "per page" is not "per fault".

use std::os::fd::AsRawFd;
use std::path::Path;

use document::guide::GuideValue;

use super::timing::{Error, Result, Timing, median, os_err};

/// A read-only shared mapping of the first `len` bytes of `fd` (also what `page_cache` reads).
pub(crate) fn map(fd: i32, len: usize) -> Result<*mut u8> {
    // SAFETY: maps an open file read-only and shared; checked below.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(os_err("mmap"));
    }
    // SAFETY: msync of the mapping just made.
    unsafe { libc::msync(p, len, libc::MS_INVALIDATE) };
    Ok(p.cast())
}

pub fn measure(t: &Timing, file: &Path) -> Result<GuideValue> {
    let f = std::fs::File::open(file)?;
    let len = f.metadata()?.len() as usize;
    // SAFETY: sysconf has no preconditions.
    let ps = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    let pages = len / ps;
    if pages < 16 {
        return Err(Error::Failed(
            "the test file is too small for lat_pagefault".into(),
        ));
    }
    // A random permutation of the pages (xorshift seeded by the pid, as lmbench seeds by pid).
    let mut order: Vec<usize> = (0..pages).collect();
    let mut x = (std::process::id() as u64) | 1;
    for i in (1..pages).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let fd = f.as_raw_fd();
    let mut p = map(fd, len)?;
    let mut sink = 0u8;
    let cycle = |touch: bool, n: u64, p: &mut *mut u8, sink: &mut u8| -> Result<()> {
        for _ in 0..n {
            if touch {
                for &pg in &order {
                    // SAFETY: pg < pages, the read is inside the mapping.
                    *sink = sink.wrapping_add(unsafe { std::ptr::read_volatile(p.add(pg * ps)) });
                }
            }
            // SAFETY: unmaps the mapping made by `map`.
            unsafe { libc::munmap(p.cast(), len) };
            *p = map(fd, len)?;
        }
        Ok(())
    };
    let both = t.benchmp_try(0.0, |n| cycle(true, n, &mut p, &mut sink));
    let bare = t.benchmp_try(0.0, |n| cycle(false, n, &mut p, &mut sink));
    // SAFETY: unmaps the last mapping.
    unsafe { libc::munmap(p.cast(), len) };
    std::hint::black_box(sink);
    let bare = median(&bare?).map(|s| s.per_iter()).unwrap_or(0.0);
    let per_page: Vec<f64> = both?
        .iter()
        .map(|s| ((s.per_iter() - bare) / pages as f64).max(0.0))
        .collect();
    GuideValue::from_samples(&per_page).ok_or(Error::Failed("no samples".into()))
}
