//! bw_pipe, bw_unix and bw_tcp: MB/s of a stream from a forked partner that writes 64 KiB
//! blocks forever, the parent reading in reads of up to 64 KiB — each as lmbench 3 does it:
//!
//! | | bytes per iteration | read buffer | ENOUGH floor | sockets |
//! |---|---|---|---|---|
//! | bw_pipe | 10 MiB | 128 bytes off page alignment | 2 s | — |
//! | bw_unix | 10 MiB | page-aligned | 2 s | socket pair |
//! | bw_tcp | 64 KiB (lmbench's default `-M`) | page-aligned | none | 1 MiB send and receive buffers, set before connecting |
//!
//! bw_tcp reads from our own loopback server on 127.0.0.1; lmbench warms the connection up for
//! 7.5 s, here the harness's warm-up pass does.

use std::os::fd::{FromRawFd, OwnedFd, RawFd};

use document::guide::GuideValue;

use super::lat_mem_rd::Aligned;
use super::sys::{Child, Serve, Server, pipe, raw, socketpair, write_all};
use super::timing::{Error, Result, Timing, figures, os_err};
/// lmbench's MEDIUM: the ENOUGH floor of bw_pipe and bw_unix.
pub const FLOOR_US: f64 = 2_000_000.0;
pub const CHUNK: usize = 64 * 1024;
/// Bytes per iteration of bw_pipe and bw_unix (lmbench's XFER).
pub const PER_ITER: usize = 10 * 1024 * 1024;
/// Bytes per iteration of bw_tcp (lmbench's default: one 64 KiB message).
pub const TCP_PER_ITER: usize = CHUNK;
/// lmbench's SOCKBUF: the socket buffer sizes bw_tcp asks for.
pub const SOCKBUF: libc::c_int = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Pipe,
    Unix,
    Tcp,
}

/// Reads `per_iter` bytes per iteration into a buffer `offset` bytes off page alignment.
fn drain(
    t: &Timing,
    fd: RawFd,
    per_iter: usize,
    offset: usize,
    floor_us: f64,
) -> Result<GuideValue> {
    let mem = Aligned::new(CHUNK + 4096)?;
    // SAFETY: offset (≤ 128) + CHUNK bytes inside our mapping, used only through this slice.
    let buf = unsafe { std::slice::from_raw_parts_mut(mem.as_ptr().add(offset), CHUNK) };
    let samples = t.benchmp_try(floor_us, |n| {
        for _ in 0..n {
            let mut left = per_iter;
            while left > 0 {
                let r = super::call::read(fd, &mut buf[..left.min(CHUNK)]);
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
    let mb = per_iter as f64 / 1e6;
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
            // bw_pipe's reader buffer is 128 bytes off page alignment, bw_unix's aligned.
            let offset = if kind == Kind::Pipe { 128 } else { 0 };
            let v = drain(t, raw(&rd), PER_ITER, offset, FLOOR_US);
            drop(rd);
            drop(child);
            v
        }
        Kind::Tcp => {
            let server = Server::start(Serve::Source)?;
            let sock = connect_with_buffers(server.port)?;
            let v = drain(t, raw(&sock), TCP_PER_ITER, 0, 0.0);
            drop(sock);
            drop(server);
            v
        }
    }
}

/// Asks for `SOCKBUF` bytes of `opt`, halving until the kernel accepts (lmbench's
/// sock_optimize; Linux clamps to its maximum instead of refusing).
pub fn ask_buffer(fd: RawFd, opt: libc::c_int) {
    let mut size = SOCKBUF;
    while size > 4096 {
        // SAFETY: sets an int option from a live value on our socket.
        let r = unsafe {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                opt,
                (&size as *const libc::c_int).cast(),
                size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        if r == 0 {
            return;
        }
        size /= 2;
    }
}

/// A TCP connection to 127.0.0.1:`port` with 1 MiB receive and send buffers asked for before
/// connecting (the window scale is agreed at the handshake), as lmbench's bw_tcp client.
fn connect_with_buffers(port: u16) -> Result<OwnedFd> {
    // SAFETY: creates a socket, owned below.
    let s = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) };
    if s < 0 {
        return Err(os_err("socket"));
    }
    // SAFETY: the descriptor is fresh and ours.
    let sock = unsafe { OwnedFd::from_raw_fd(s) };
    ask_buffer(s, libc::SO_RCVBUF);
    ask_buffer(s, libc::SO_SNDBUF);
    // SAFETY: a zeroed sockaddr_in is valid; family, port and address are filled below.
    let mut addr: libc::sockaddr_in = unsafe { std::mem::zeroed() };
    addr.sin_family = libc::AF_INET as libc::sa_family_t;
    addr.sin_port = port.to_be();
    addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
    // SAFETY: connects our socket to a valid address of the given length.
    let r = unsafe {
        libc::connect(
            s,
            (&addr as *const libc::sockaddr_in).cast(),
            size_of::<libc::sockaddr_in>() as libc::socklen_t,
        )
    };
    if r < 0 {
        return Err(os_err("connect to the loopback server"));
    }
    Ok(sock)
}
