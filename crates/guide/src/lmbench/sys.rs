//! The process and descriptor plumbing the system-cost benchmarks share: a forked partner
//! process that is always killed and reaped, pipes and socket pairs that close themselves, raw
//! reads and writes, lmbench's word-sum "touch", and loopback servers on 127.0.0.1.
//!
//! The guide runs inside a multi-threaded process, so a forked child may only make
//! async-signal-safe calls: every partner body below is plain read/write/accept/semop on memory
//! and descriptors prepared before the fork, and ends in `_exit`, never in Rust's exit path.

use std::net::TcpListener;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};

use super::timing::{Error, Result, os_err};

/// A forked partner process: killed (SIGKILL) and reaped when dropped, and killed by the kernel
/// when this process dies first.
pub struct Child {
    pid: libc::pid_t,
}

impl Child {
    /// Forks; the child runs `body` and `_exit`s. `body` must only make async-signal-safe calls
    /// on data prepared before the fork (no allocation, no locks, no printing).
    pub fn spawn(body: impl FnOnce()) -> Result<Child> {
        // SAFETY: fork in a possibly multi-threaded process; the child only runs `body`, which
        // by this function's contract makes async-signal-safe calls, and then `_exit`s.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(os_err("fork"));
        }
        if pid == 0 {
            // SAFETY: prctl and _exit are async-signal-safe; the child never returns from here.
            unsafe {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            }
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
            // SAFETY: ends the child without running the parent's atexit handlers or destructors.
            unsafe { libc::_exit(0) };
        }
        Ok(Child { pid })
    }

    pub fn pid(&self) -> libc::pid_t {
        self.pid
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // SAFETY: signals and reaps our own child by its pid; a dead child is simply reaped.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
            let mut status = 0;
            while libc::waitpid(self.pid, &mut status, 0) < 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
        }
    }
}

/// A pipe: (read end, write end).
pub fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe writes two descriptors into the array we own.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } < 0 {
        return Err(os_err("pipe"));
    }
    // SAFETY: both descriptors are fresh and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A connected AF_UNIX stream socket pair.
pub fn socketpair() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: socketpair writes two descriptors into the array we own.
    if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) } < 0 {
        return Err(os_err("socketpair"));
    }
    // SAFETY: both descriptors are fresh and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Writes all of `buf` (raw, async-signal-safe); false on error or a closed peer.
pub fn write_all(fd: RawFd, buf: &[u8]) -> bool {
    let mut done = 0;
    while done < buf.len() {
        let r = super::call::write(fd, &buf[done..]);
        if r <= 0 {
            if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return false;
        }
        done += r as usize;
    }
    true
}

/// Reads exactly `buf.len()` bytes (raw, async-signal-safe); false on error or end of file.
pub fn read_exact(fd: RawFd, buf: &mut [u8]) -> bool {
    let mut done = 0;
    while done < buf.len() {
        let r = super::call::read(fd, &mut buf[done..]);
        if r <= 0 {
            if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return false;
        }
        done += r as usize;
    }
    true
}

/// One round trip of `msg` over (to, from), failing loudly: the body of the latency methods.
pub fn round_trip(to: RawFd, from: RawFd, msg: &mut [u8]) -> Result<()> {
    if !write_all(to, msg) || !read_exact(from, msg) {
        return Err(Error::Failed(format!(
            "the partner process stopped answering: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// `N` machine words at `p` summed into one dependent chain, as GCC 12 -O2 compiles lmbench's
/// `p[0] + p[1] + … + p[N-1]` on x86_64: a load of `p[1]`, then one `add reg, [mem]` per word
/// (`p[0]`, `p[2]` …). Separate loads and adds (or several accumulators) read faster than
/// lmbench's binary (bw_mmap_rd 1.14 ×: bench-against, issue 21).
///
/// # Safety
/// `p` valid for `N` readable words.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn word_chain<const N: usize>(p: *const usize) -> usize {
    macro_rules! chain {
        ($($off:literal)*) => {{
            let acc: usize;
            // SAFETY: every address lies in the N words; nothing is written, no stack used.
            unsafe {
                core::arch::asm!(
                    "mov {acc}, qword ptr [{p} + 8]",
                    "add {acc}, qword ptr [{p}]",
                    $(concat!("add {acc}, qword ptr [{p} + ", $off, "]"),)*
                    p = in(reg) p,
                    acc = out(reg) acc,
                    options(readonly, nostack),
                );
            }
            acc
        }};
    }
    match N {
        128 => {
            chain!("0x10" "0x18" "0x20" "0x28" "0x30" "0x38" "0x40" "0x48" "0x50" "0x58" "0x60" "0x68" "0x70" "0x78" "0x80" "0x88" "0x90" "0x98" "0xa0" "0xa8" "0xb0" "0xb8" "0xc0" "0xc8" "0xd0" "0xd8" "0xe0" "0xe8" "0xf0" "0xf8" "0x100" "0x108" "0x110" "0x118" "0x120" "0x128" "0x130" "0x138" "0x140" "0x148" "0x150" "0x158" "0x160" "0x168" "0x170" "0x178" "0x180" "0x188" "0x190" "0x198" "0x1a0" "0x1a8" "0x1b0" "0x1b8" "0x1c0" "0x1c8" "0x1d0" "0x1d8" "0x1e0" "0x1e8" "0x1f0" "0x1f8" "0x200" "0x208" "0x210" "0x218" "0x220" "0x228" "0x230" "0x238" "0x240" "0x248" "0x250" "0x258" "0x260" "0x268" "0x270" "0x278" "0x280" "0x288" "0x290" "0x298" "0x2a0" "0x2a8" "0x2b0" "0x2b8" "0x2c0" "0x2c8" "0x2d0" "0x2d8" "0x2e0" "0x2e8" "0x2f0" "0x2f8" "0x300" "0x308" "0x310" "0x318" "0x320" "0x328" "0x330" "0x338" "0x340" "0x348" "0x350" "0x358" "0x360" "0x368" "0x370" "0x378" "0x380" "0x388" "0x390" "0x398" "0x3a0" "0x3a8" "0x3b0" "0x3b8" "0x3c0" "0x3c8" "0x3d0" "0x3d8" "0x3e0" "0x3e8" "0x3f0" "0x3f8")
        }
        16 => {
            chain!("0x10" "0x18" "0x20" "0x28" "0x30" "0x38" "0x40" "0x48" "0x50" "0x58" "0x60" "0x68" "0x70" "0x78")
        }
        _ => unreachable!("word_chain is used for 128 and 16 words"),
    }
}

/// [`word_chain`] elsewhere: one load, then dependent adds (volatile, so not vectorised).
///
/// # Safety
/// `p` valid for `N` readable words.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn word_chain<const N: usize>(p: *const usize) -> usize {
    // SAFETY: k < N.
    unsafe {
        let mut acc = std::ptr::read_volatile(p);
        for k in 1..N {
            acc = acc.wrapping_add(std::ptr::read_volatile(p.add(k)));
        }
        acc
    }
}

/// lmbench's `bread`, the sum bw_file_rd and bw_mmap_rd take of what they read: machine words
/// in chunks of 128 (1 KiB on 64-bit), each chunk one dependent chain added to the total, then
/// chunks of 16, then single words. `buf` must be word-aligned (a page-aligned buffer or a
/// mapping). Returns the sum so callers can sink it.
#[inline(never)]
pub fn bread(buf: &[u8]) -> usize {
    let words = buf.len() / size_of::<usize>();
    let p = buf.as_ptr().cast::<usize>();
    if words == 0 {
        return 0;
    }
    assert!(p.is_aligned(), "bread needs a word-aligned buffer");
    let mut sum = 0usize;
    let mut i = 0;
    while i + 128 <= words {
        // SAFETY: words i .. i + 128 lie in `buf`, aligned.
        sum = sum.wrapping_add(unsafe { word_chain::<128>(p.add(i)) });
        i += 128;
    }
    while i + 16 <= words {
        // SAFETY: as above.
        sum = sum.wrapping_add(unsafe { word_chain::<16>(p.add(i)) });
        i += 16;
    }
    while i < words {
        // SAFETY: i < words, aligned.
        sum = sum.wrapping_add(unsafe { std::ptr::read_volatile(p.add(i)) });
        i += 1;
    }
    sum
}

/// What a loopback server child does with each accepted connection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Serve {
    /// Echo everything back (lat_tcp).
    Echo,
    /// Read until the client closes, then close (lat_connect, lat_select's held connection).
    Drain,
    /// Send 64 KiB blocks until the client goes away (bw_tcp).
    Source,
}

/// The listen backlog of lmbench's servers (`tcp_server` in its lib_tcp).
pub const LISTEN_BACKLOG: i32 = 100;

/// A loopback TCP server in a forked child on 127.0.0.1 (an ephemeral port, bound before the
/// fork so there is no race); connections are served one after the other.
pub struct Server {
    pub port: u16,
    _child: Child,
}

impl Server {
    pub fn start(mode: Serve) -> Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| Error::Failed(format!("cannot listen on 127.0.0.1: {e}")))?;
        let port = listener.local_addr()?.port();
        let lfd = listener.into_raw_fd();
        // lmbench's servers listen with a backlog of 100 (Rust's default is 128). It matters
        // for lat_connect: the client connects and closes faster than a server accepts on a
        // guest whose vCPUs wake slowly, and when the accept queue is full the SYN is dropped
        // and retried a second later — lmbench's own lat_connect read 3.7–5.1 ms per connect
        // in most runs here, 10 listen overflows in a run (`nstat`), ours 25 µs with one.
        // SAFETY: listen again on our own bound socket, only changing its backlog.
        if unsafe { libc::listen(lfd, LISTEN_BACKLOG) } < 0 {
            let e = os_err("listen");
            // SAFETY: closes the descriptor we own.
            unsafe { libc::close(lfd) };
            return Err(e);
        }
        if mode == Serve::Source {
            // bw_tcp's server asks for 1 MiB send buffers; accepted sockets inherit them.
            super::bw_ipc::ask_buffer(lfd, libc::SO_SNDBUF);
        }
        // Prepared before the fork: the child must not allocate.
        let mut buf = vec![0u8; 64 * 1024];
        let child = Child::spawn(move || serve(lfd, mode, &mut buf));
        // SAFETY: the parent's copy of the listening descriptor, owned by nobody else now.
        unsafe { libc::close(lfd) };
        Ok(Server {
            port,
            _child: child?,
        })
    }

    /// A connected client socket (fails loudly when the server does not answer).
    pub fn connect(&self) -> Result<std::net::TcpStream> {
        std::net::TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| {
            Error::Failed(format!(
                "cannot connect to the loopback server on 127.0.0.1:{}: {e}",
                self.port
            ))
        })
    }
}

fn serve(lfd: RawFd, mode: Serve, buf: &mut [u8]) {
    loop {
        let c = super::call::accept(lfd);
        if c < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return;
        }
        match mode {
            Serve::Echo => loop {
                let r = super::call::read(c, buf);
                if r <= 0 || !write_all(c, &buf[..r as usize]) {
                    break;
                }
            },
            Serve::Drain => while super::call::read(c, buf) > 0 {},
            Serve::Source => while write_all(c, buf) {},
        }
        super::call::close(c);
    }
}

/// The raw descriptor of anything that has one (shorthand).
pub fn raw(fd: &impl AsRawFd) -> RawFd {
    fd.as_raw_fd()
}

#[cfg(test)]
mod bread_tests {
    use super::bread;

    #[test]
    fn bread_sums_every_word_through_all_three_loops() {
        // 128 + 128 + 16 + 3 words: both chunk sizes and the single-word tail.
        let words: Vec<usize> = (0..275usize)
            .map(|k| k.wrapping_mul(0x9E37_79B9).wrapping_add(k << 7))
            .collect();
        let want = words.iter().fold(0usize, |s, &x| s.wrapping_add(x));
        // SAFETY: the vector's words viewed as bytes (aligned, same length).
        let bytes = unsafe {
            std::slice::from_raw_parts(
                words.as_ptr().cast::<u8>(),
                std::mem::size_of_val(&words[..]),
            )
        };
        assert_eq!(bread(bytes), want);
        assert_eq!(
            bread(&bytes[..size_of::<usize>() * 140]),
            words[..140].iter().fold(0usize, |s, &x| s.wrapping_add(x))
        );
        assert_eq!(bread(&[]), 0);
    }
}
