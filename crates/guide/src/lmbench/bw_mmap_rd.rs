//! bw_mmap_rd: MB/s of summing `size` bytes of the test file through a mapping: `mmap_only`
//! (mapped once; after the warm-up pass no faults remain) or `open2close` (open, map, sum,
//! close, unmap every pass — minor faults and page-table set-up included).

use std::os::fd::AsRawFd;
use std::path::Path;

use document::guide::GuideValue;

use super::sys::bread;
use super::timing::{Error, Result, Timing, figures, os_err};

fn map(fd: i32, size: usize) -> Result<*mut u8> {
    // SAFETY: maps `size` bytes of an open file read-only; checked below.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(os_err("mmap"));
    }
    Ok(p.cast())
}

fn sum(p: *mut u8, size: usize) -> usize {
    // SAFETY: p maps `size` readable bytes.
    bread(unsafe { std::slice::from_raw_parts(p, size) })
}

pub fn measure(t: &Timing, file: &Path, size: usize, open2close: bool) -> Result<GuideValue> {
    let f = std::fs::File::open(file)?;
    if (f.metadata()?.len() as usize) < size {
        return Err(Error::Failed(
            "the test file is smaller than the size".into(),
        ));
    }
    let once = if open2close {
        None
    } else {
        Some(map(f.as_raw_fd(), size)?)
    };
    let mut sink = 0usize;
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            match once {
                Some(p) => sink = sink.wrapping_add(sum(p, size)),
                None => {
                    let g = std::fs::File::open(file)?;
                    let p = map(g.as_raw_fd(), size)?;
                    sink = sink.wrapping_add(sum(p, size));
                    drop(g);
                    // SAFETY: unmaps the mapping made above.
                    unsafe { libc::munmap(p.cast(), size) };
                }
            }
        }
        Ok(())
    });
    if let Some(p) = once {
        // SAFETY: unmaps the mapping made above.
        unsafe { libc::munmap(p.cast(), size) };
    }
    std::hint::black_box(sink);
    let mb = size as f64 / 1e6;
    GuideValue::from_samples(&figures(&samples?, |us| mb / (us / 1e6)))
        .ok_or(Error::Failed("no samples".into()))
}
