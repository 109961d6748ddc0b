//! The system calls the timed loops make, made directly rather than through the C library's
//! wrappers.
//!
//! glibc's wrappers of the calls POSIX makes cancellation points (read, write, openat, close,
//! connect, select, wait …) take a slower path — cancellation switched on and off around the
//! call, two atomic operations — in any process that has ever had a second thread, and a forked
//! child inherits that state: glibc does not reset it after `fork`. The guide runs in a
//! multi-threaded process, so every child it forks to measure in (`isolate`) paid 4–8 ns more
//! per call than lmbench's single-threaded benchmp child pays for the same call: lat_syscall's
//! read, write and open read 1.05–1.07 × lmbench's figure (bench-against, issue 21), and a C
//! program timing `read(fd, &c, 1)` in a child of a process that had joined a thread read
//! 155–162 ns against 147–155 in a child of one that never had (the raw system call 150–156 in
//! both). A direct system call costs what the single-threaded wrapper costs, on glibc and musl
//! alike. Each function returns what the system call returns (−1 with errno set on failure).

use std::ffi::CStr;
use std::os::fd::RawFd;

/// `read(2)` into `buf`.
#[inline(always)]
pub fn read(fd: RawFd, buf: &mut [u8]) -> isize {
    // SAFETY: the kernel writes at most `buf.len()` bytes into the live slice.
    unsafe { libc::syscall(libc::SYS_read, fd, buf.as_mut_ptr(), buf.len()) as isize }
}

/// `write(2)` of `buf`.
#[inline(always)]
pub fn write(fd: RawFd, buf: &[u8]) -> isize {
    // SAFETY: the kernel reads at most `buf.len()` bytes from the live slice.
    unsafe { libc::syscall(libc::SYS_write, fd, buf.as_ptr(), buf.len()) as isize }
}

/// `openat(2)`; `dir` may be `libc::AT_FDCWD`.
#[inline(always)]
pub fn openat(dir: RawFd, path: &CStr, flags: i32, mode: libc::mode_t) -> RawFd {
    // SAFETY: a NUL-terminated path that outlives the call.
    unsafe {
        libc::syscall(
            libc::SYS_openat,
            dir,
            path.as_ptr(),
            flags,
            mode as libc::c_uint,
        ) as RawFd
    }
}

/// `close(2)`.
#[inline(always)]
pub fn close(fd: RawFd) -> i32 {
    // SAFETY: closes a descriptor number; no memory is involved.
    unsafe { libc::syscall(libc::SYS_close, fd) as i32 }
}

/// `accept(2)` of a connection on a listening socket, without its peer's address.
#[inline(always)]
pub fn accept(fd: RawFd) -> RawFd {
    // SAFETY: null address pointers are allowed: the kernel writes nothing.
    unsafe {
        libc::syscall(
            libc::SYS_accept,
            fd,
            std::ptr::null_mut::<libc::sockaddr>(),
            std::ptr::null_mut::<libc::socklen_t>(),
        ) as RawFd
    }
}

/// `connect(2)` of a socket to an IPv4 address.
#[inline(always)]
pub fn connect(fd: RawFd, addr: &libc::sockaddr_in) -> i32 {
    // SAFETY: the kernel reads the address from a live struct of the given length.
    unsafe {
        libc::syscall(
            libc::SYS_connect,
            fd,
            addr as *const libc::sockaddr_in,
            size_of::<libc::sockaddr_in>() as libc::socklen_t,
        ) as i32
    }
}

/// `select(2)` with a zero timeout over the descriptors below `nfds` in `write` — as glibc's
/// `select` makes it on Linux, a `pselect6` (the only form aarch64 and riscv64 have).
#[inline(always)]
pub fn select_write_now(nfds: i32, write: &mut libc::fd_set) -> i32 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: the kernel updates the live set and timeout; no read/except sets, no signal mask.
    unsafe {
        libc::syscall(
            libc::SYS_pselect6,
            nfds,
            std::ptr::null_mut::<libc::fd_set>(),
            write as *mut libc::fd_set,
            std::ptr::null_mut::<libc::fd_set>(),
            &mut ts as *mut libc::timespec,
            std::ptr::null_mut::<libc::c_void>(),
        ) as i32
    }
}

/// `waitpid(pid, &status, 0)` (a `wait4` without resource usage).
#[inline(always)]
pub fn waitpid(pid: libc::pid_t, status: &mut libc::c_int) -> libc::pid_t {
    // SAFETY: the kernel writes the status into a live int.
    unsafe {
        libc::syscall(
            libc::SYS_wait4,
            pid,
            status as *mut libc::c_int,
            0,
            std::ptr::null_mut::<libc::rusage>(),
        ) as libc::pid_t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_move_bytes_and_report_errors() {
        let zero = openat(libc::AT_FDCWD, c"/dev/zero", libc::O_RDONLY, 0);
        assert!(zero >= 0);
        let mut b = [7u8; 3];
        assert_eq!(read(zero, &mut b), 3);
        assert_eq!(b, [0, 0, 0]);
        assert_eq!(close(zero), 0);
        assert_eq!(close(zero), -1, "a closed descriptor is an error");
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::EBADF)
        );
        let null = openat(libc::AT_FDCWD, c"/dev/null", libc::O_WRONLY, 0);
        assert_eq!(write(null, b"abc"), 3);
        // /dev/null is always writable: select reports it at once.
        // SAFETY: a zeroed fd_set is empty.
        let mut set: libc::fd_set = unsafe { std::mem::zeroed() };
        assert!((null as usize) < libc::FD_SETSIZE);
        // SAFETY: `null` is below FD_SETSIZE.
        unsafe { libc::FD_SET(null, &mut set) };
        assert_eq!(select_write_now(null + 1, &mut set), 1);
        assert_eq!(close(null), 0);
        let missing = openat(libc::AT_FDCWD, c"/nonexistent/x", libc::O_RDONLY, 0);
        assert_eq!(missing, -1);
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOENT)
        );
    }

    #[test]
    fn waitpid_reaps_a_child_with_its_status() {
        // SAFETY: the child only calls _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: ends the child at once.
            unsafe { libc::_exit(3) };
        }
        let mut status = 0;
        assert_eq!(waitpid(pid, &mut status), pid);
        assert!(libc::WIFEXITED(status));
        assert_eq!(libc::WEXITSTATUS(status), 3);
    }
}
