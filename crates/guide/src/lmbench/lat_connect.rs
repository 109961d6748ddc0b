//! lat_connect: µs per TCP connection to our own server on 127.0.0.1 — socket, SO_REUSEADDR,
//! connect, close. Every connect must succeed (lmbench retries and then ignores failures; we
//! stop and report the error).

use document::guide::GuideValue;

use super::sys::{Serve, Server};
use super::timing::{Error, Result, Timing, figures, os_err};

pub fn measure(t: &Timing) -> Result<GuideValue> {
    let server = Server::start(Serve::Drain)?;
    // SAFETY: a zeroed sockaddr_in is valid; family, port and address are filled below.
    let mut addr: libc::sockaddr_in = unsafe { std::mem::zeroed() };
    addr.sin_family = libc::AF_INET as libc::sa_family_t;
    addr.sin_port = server.port.to_be();
    addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            // SAFETY: creates a socket we close below.
            let s = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) };
            if s < 0 {
                return Err(os_err("socket"));
            }
            let one: libc::c_int = 1;
            // SAFETY: sets an int option from a live value.
            unsafe {
                libc::setsockopt(
                    s,
                    libc::SOL_SOCKET,
                    libc::SO_REUSEADDR,
                    (&one as *const libc::c_int).cast(),
                    size_of::<libc::c_int>() as libc::socklen_t,
                )
            };
            let ok = super::call::connect(s, &addr) == 0;
            let err = (!ok).then(|| os_err("connect to the loopback server"));
            super::call::close(s);
            if let Some(e) = err {
                return Err(e);
            }
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}
