//! lat_select tcp: µs per select() over 200 descriptors of one TCP connection to our own
//! loopback server (the connection dup'ed until 200 exist), all in the write set, zero timeout.
//! As lmbench, nfds is the count (200), not the highest descriptor + 1.

use document::guide::GuideValue;

use super::sys::{Serve, Server, raw};
use super::timing::{Error, Result, Timing, figures, os_err};

pub const FDS: usize = 200;

pub fn measure(t: &Timing) -> Result<GuideValue> {
    raise_nofile();
    let server = Server::start(Serve::Drain)?;
    let sock = server.connect()?;
    let mut fds = vec![raw(&sock)];
    let close_all = |fds: &[i32]| {
        for &fd in &fds[1..] {
            // SAFETY: closes a descriptor we dup'ed.
            unsafe { libc::close(fd) };
        }
    };
    while fds.len() < FDS {
        // SAFETY: dup of our open socket.
        let d = unsafe { libc::dup(raw(&sock)) };
        if d < 0 {
            let e = os_err("dup");
            close_all(&fds);
            return Err(e);
        }
        fds.push(d);
    }
    // SAFETY: a zeroed fd_set is empty; FD_SET only for descriptors below FD_SETSIZE.
    let mut set: libc::fd_set = unsafe { std::mem::zeroed() };
    for &fd in &fds {
        if (fd as usize) < libc::FD_SETSIZE {
            // SAFETY: fd is in range of the set.
            unsafe { libc::FD_SET(fd, &mut set) };
        }
    }
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            let mut w = set;
            let r = super::call::select_write_now(FDS as i32, &mut w);
            if r < 0 {
                return Err(os_err("select"));
            }
        }
        Ok(())
    });
    close_all(&fds);
    GuideValue::from_samples(&figures(&samples?, |us| us)).ok_or(Error::Failed("no samples".into()))
}

/// Raises the soft descriptor limit to the hard one, as lmbench's script does.
fn raise_nofile() {
    // SAFETY: reads and sets our own limit through a struct we own.
    unsafe {
        let mut l: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}
