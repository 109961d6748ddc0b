//! bw_file_rd: MB/s of reading `size` bytes of the test file in 64 KiB reads into a page-aligned
//! buffer and summing each buffer (lmbench's `bread`: `sys::bread`), `io_only` (file opened once, lseek to 0 each pass)
//! or `open2close` (open, read, close each pass). The file was just written: it is in the page
//! cache, so this is copy bandwidth from the cache, as in the guides.

use std::os::fd::AsRawFd;
use std::path::Path;

use document::guide::GuideValue;

use super::lat_mem_rd::Aligned;
use super::sys::bread;
use super::timing::{Error, Result, Timing, figures, os_err};

pub const XFER: usize = 64 * 1024;

fn read_through(fd: i32, buf: &mut [u8], size: usize, sink: &mut usize) -> Result<()> {
    let mut left = size;
    while left > 0 {
        let want = left.min(buf.len());
        let r = super::call::read(fd, &mut buf[..want]);
        if r < 0 {
            return Err(os_err("read"));
        }
        if r == 0 {
            break; // end of file: lmbench counts `size` anyway
        }
        *sink = sink.wrapping_add(bread(&buf[..r as usize]));
        left -= r as usize;
    }
    Ok(())
}

pub fn measure(t: &Timing, file: &Path, size: usize, open2close: bool) -> Result<GuideValue> {
    let xfer = XFER.min(size);
    let mem = Aligned::new(xfer)?;
    // SAFETY: the mapping is ours, `xfer` bytes long, and only used through this slice.
    let buf = unsafe { std::slice::from_raw_parts_mut(mem.as_ptr(), xfer) };
    let f = std::fs::File::open(file)?;
    let mut sink = 0usize;
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            if open2close {
                let g = std::fs::File::open(file)?;
                read_through(g.as_raw_fd(), buf, size, &mut sink)?;
            } else {
                // SAFETY: seeks our open file.
                unsafe { libc::lseek(f.as_raw_fd(), 0, libc::SEEK_SET) };
                read_through(f.as_raw_fd(), buf, size, &mut sink)?;
            }
        }
        Ok(())
    })?;
    std::hint::black_box(sink);
    let mb = size as f64 / 1e6;
    GuideValue::from_samples(&figures(&samples, |us| mb / (us / 1e6)))
        .ok_or(Error::Failed("no samples".into()))
}
