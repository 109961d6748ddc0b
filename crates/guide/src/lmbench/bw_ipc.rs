//! bw_pipe, bw_unix and bw_tcp: MB/s of a stream from a forked partner that writes 64 KiB
//! blocks forever, the parent reading in reads of up to 64 KiB — each as lmbench 3 does it:
//!
//! | | bytes per iteration | read buffer | ENOUGH floor | sockets |
//! |---|---|---|---|---|
//! | bw_pipe | 10 MiB | 128 bytes off page alignment | 2 s | — |
//! | bw_unix | 10 MiB | page-aligned | 2 s | socket pair |
//! | bw_tcp | 64 KiB (lmbench's default `-M`) | page-aligned | none | 1 MiB send and receive buffers, set before connecting |
//!
//! bw_pipe's and bw_tcp's writers stream without a pause. bw_unix's, as lmbench's, writes only
//! on request: each iteration the reader sends the byte count over a control pipe and the
//! writer, asleep on that pipe, writes exactly that many bytes and waits again — so every
//! iteration starts with an empty socket and a sleeping writer, and ends with the writer idle.
//! (With a writer that never paused, bw_unix read 1.23–1.34 × lmbench's figure in two
//! 10-round sittings with two vCPUs, issue 21.)
//!
//! bw_tcp reads from our own loopback server on 127.0.0.1; lmbench warms the connection up for
//! 7.5 s, here the harness's warm-up pass does.

use std::os::fd::{FromRawFd, OwnedFd, RawFd};

use document::guide::GuideValue;

use super::lat_mem_rd::Aligned;
use super::sys::{Child, Serve, Server, pipe, raw, read_exact, socketpair, write_all};
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

/// Reads `per_iter` bytes per iteration into a buffer `offset` bytes off page alignment; with
/// `request`, each iteration first asks the writer for them there ([`REQUEST`]).
fn drain(
    t: &Timing,
    fd: RawFd,
    per_iter: usize,
    offset: usize,
    floor_us: f64,
    request: Option<RawFd>,
) -> Result<GuideValue> {
    let mem = Aligned::new(CHUNK + 4096)?;
    // SAFETY: offset (≤ 128) + CHUNK bytes inside our mapping, used only through this slice.
    let buf = unsafe { std::slice::from_raw_parts_mut(mem.as_ptr().add(offset), CHUNK) };
    let ask = (per_iter as u64).to_ne_bytes();
    let samples = t.benchmp_try(floor_us, |n| {
        for _ in 0..n {
            if let Some(control) = request
                && !write_all(control, &ask)
            {
                return Err(os_err("the writer stopped"));
            }
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

/// The request of bw_unix's reader: the byte count of one iteration, 8 bytes in native order.
pub const REQUEST: usize = 8;

/// bw_unix's writer: reads a [`REQUEST`] from `control`, writes that many bytes of `block` to
/// `out` (whole blocks, then the rest), and waits for the next; returns when either side is
/// gone. Async-signal-safe (it runs in a forked child).
fn write_on_request(control: RawFd, out: RawFd, block: &[u8]) {
    let mut ask = [0u8; REQUEST];
    while read_exact(control, &mut ask) {
        let mut left = u64::from_ne_bytes(ask) as usize;
        while left > 0 {
            let n = left.min(block.len());
            if !write_all(out, &block[..n]) {
                return;
            }
            left -= n;
        }
    }
}

pub fn measure(t: &Timing, kind: Kind) -> Result<GuideValue> {
    let block = vec![7u8; CHUNK];
    match kind {
        Kind::Pipe => {
            let (rd, wr) = pipe()?;
            let w = raw(&wr);
            let child = Child::spawn(move || while write_all(w, &block) {})?;
            drop(wr);
            // bw_pipe's reader buffer is 128 bytes off page alignment.
            let v = drain(t, raw(&rd), PER_ITER, 128, FLOOR_US, None);
            drop(rd);
            drop(child);
            v
        }
        Kind::Unix => {
            let (rd, wr) = socketpair()?;
            let (control_rd, control_wr) = pipe()?;
            let (w, c) = (raw(&wr), raw(&control_rd));
            let child = Child::spawn(move || write_on_request(c, w, &block))?;
            drop(wr);
            drop(control_rd);
            let v = drain(t, raw(&rd), PER_ITER, 0, FLOOR_US, Some(raw(&control_wr)));
            drop(control_wr);
            drop(rd);
            drop(child);
            v
        }
        Kind::Tcp => {
            let server = Server::start(Serve::Source)?;
            let sock = connect_with_buffers(server.port)?;
            let v = drain(t, raw(&sock), TCP_PER_ITER, 0, 0.0, None);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// bw_unix's writer writes exactly what each request asks for, then waits (nothing more
    /// arrives until the next request), and ends when the control pipe closes.
    #[test]
    fn the_unix_writer_writes_exactly_what_is_asked_and_waits() {
        let (rd, wr) = socketpair().unwrap();
        // A writer that wrote less than asked fails the test instead of hanging it.
        let wait = libc::timeval {
            tv_sec: 10,
            tv_usec: 0,
        };
        // SAFETY: sets a timeval option from a live value on our socket.
        let r = unsafe {
            libc::setsockopt(
                raw(&rd),
                libc::SOL_SOCKET,
                libc::SO_RCVTIMEO,
                (&wait as *const libc::timeval).cast(),
                size_of::<libc::timeval>() as libc::socklen_t,
            )
        };
        assert_eq!(r, 0);
        let (control_rd, control_wr) = pipe().unwrap();
        let block = vec![7u8; CHUNK];
        let (w, c) = (raw(&wr), raw(&control_rd));
        let writer = std::thread::spawn(move || write_on_request(c, w, &block));
        let mut buf = vec![0u8; CHUNK];
        for want in [2 * CHUNK + 100, 1, CHUNK] {
            assert!(write_all(raw(&control_wr), &(want as u64).to_ne_bytes()));
            let mut got = 0;
            while got < want {
                let r = super::super::call::read(raw(&rd), &mut buf[..(want - got).min(CHUNK)]);
                assert!(r > 0, "the writer stopped or wrote less than asked");
                assert!(buf[..r as usize].iter().all(|&b| b == 7));
                got += r as usize;
            }
            // Nothing beyond the request: a read that must not block finds the socket empty.
            let mut one = [0u8; 1];
            // SAFETY: a non-blocking receive into a live one-byte buffer on our socket.
            let r = unsafe { libc::recv(raw(&rd), one.as_mut_ptr().cast(), 1, libc::MSG_DONTWAIT) };
            assert_eq!(r, -1, "a byte beyond the request arrived");
        }
        drop(control_wr);
        writer.join().unwrap();
        drop(wr);
        drop(control_rd);
    }
}
