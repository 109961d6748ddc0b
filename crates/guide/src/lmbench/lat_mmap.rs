//! lat_mmap: µs per map + touch + unmap of `size` bytes of the test file (read-write, shared),
//! touching one byte every 16 KiB over the first tenth of the mapping, as lmbench's default.

use std::os::fd::AsRawFd;
use std::path::Path;

use document::guide::GuideValue;

use super::timing::{Error, Result, Timing, figures, os_err};

pub fn measure(t: &Timing, file: &Path, size: usize) -> Result<GuideValue> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(file)?;
    if (f.metadata()?.len() as usize) < size {
        return Err(Error::Failed(
            "the test file is smaller than the mapping".into(),
        ));
    }
    let fd = f.as_raw_fd();
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            // SAFETY: maps `size` bytes of the open file; checked below.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    size,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED,
                    fd,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return Err(os_err("mmap"));
            }
            let mut off = 0;
            while off < size / 10 {
                // SAFETY: off < size, inside the mapping.
                unsafe { std::ptr::write_volatile(p.cast::<u8>().add(off), 0) };
                off += 16 * 1024;
            }
            // SAFETY: unmaps the mapping made above.
            unsafe { libc::munmap(p, size) };
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}
