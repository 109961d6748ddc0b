//! bw_pipe, bw_unix and bw_tcp: MB/s of a stream from a forked partner that writes 64 KiB
//! blocks forever, the parent reading 10 MiB per iteration in reads of up to 64 KiB into a
//! buffer offset 128 bytes from page alignment (lmbench's bw_pipe). bw_tcp reads from our own
//! loopback server on 127.0.0.1 (lmbench: 1 MiB socket buffers, a 7.5 s warm-up; here the
//! harness's warm-up pass). ENOUGH floor two seconds.

use std::os::fd::RawFd;

use document::guide::GuideValue;

use super::lat_mem_rd::Aligned;
use super::sys::{Child, Serve, Server, pipe, raw, socketpair, write_all};
use super::timing::{Error, Result, Timing, figures, os_err};

pub const FLOOR_US: f64 = 2_000_000.0;
pub const CHUNK: usize = 64 * 1024;
pub const PER_ITER: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Pipe,
    Unix,
    Tcp,
}

fn drain(t: &Timing, fd: RawFd) -> Result<GuideValue> {
    let mem = Aligned::new(CHUNK + 4096)?;
    // SAFETY: 128 + CHUNK bytes inside our mapping, used only through this slice.
    let buf = unsafe { std::slice::from_raw_parts_mut(mem.as_ptr().add(128), CHUNK) };
    let samples = t.benchmp_try(FLOOR_US, |n| {
        for _ in 0..n {
            let mut left = PER_ITER;
            while left > 0 {
                // SAFETY: reads into our buffer, at most its length.
                let r = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), left.min(CHUNK)) };
                if r <= 0 {
                    if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                    {
                        continue;
                    }
                    return Err(os_err("the writer stopped"));
                }
                left -= r as usize;
            }
        }
        Ok(())
    })?;
    let mb = PER_ITER as f64 / 1e6;
    GuideValue::from_samples(&figures(&samples, |us| mb / (us / 1e6)))
        .ok_or(Error::Failed("no samples".into()))
}

pub fn measure(t: &Timing, kind: Kind) -> Result<GuideValue> {
    let block = vec![7u8; CHUNK];
    match kind {
        Kind::Pipe | Kind::Unix => {
            let (rd, wr) = if kind == Kind::Pipe {
                pipe()?
            } else {
                socketpair()?
            };
            let w = raw(&wr);
            let child = Child::spawn(move || while write_all(w, &block) {})?;
            drop(wr);
            let v = drain(t, raw(&rd));
            drop(rd);
            drop(child);
            v
        }
        Kind::Tcp => {
            let server = Server::start(Serve::Source)?;
            let sock = server.connect()?;
            let v = drain(t, raw(&sock));
            drop(sock);
            drop(server);
            v
        }
    }
}
