//! The controlling terminal going away (SIGHUP: an ssh session closed, a terminal window
//! shut). Every later write to it would fail with EIO, and Rust's `print!`/`eprint!` panic on
//! that — so on a hang-up the standard streams that were a terminal are pointed at /dev/null
//! ([`hang_up`]), and the mode ends as a signal ended it, its log, document and database row
//! still written. Which streams were a terminal is noted at start ([`remember`]): once hung up,
//! a terminal no longer answers `isatty`.

use std::sync::atomic::{AtomicU8, Ordering};

/// Bit n: standard stream n (0, 1, 2) was a terminal when [`remember`] ran; bit 7: noted.
static TTYS: AtomicU8 = AtomicU8::new(0);

/// Notes which of stdin, stdout and stderr are terminals. Call once at start (again is
/// harmless).
pub fn remember() {
    let mut bits = 0x80u8;
    for fd in 0..3 {
        // SAFETY: isatty only inspects the descriptor.
        if unsafe { libc::isatty(fd) } == 1 {
            bits |= 1 << fd;
        }
    }
    TTYS.fetch_or(bits, Ordering::SeqCst);
}

/// Whether standard stream `fd` was a terminal at start.
pub fn was_terminal(fd: i32) -> bool {
    (0..3).contains(&fd) && TTYS.load(Ordering::SeqCst) & (1 << fd) != 0
}

/// Points every standard stream that was a terminal at /dev/null, so that nothing written
/// after a hang-up fails (or panics). Streams that are files or pipes (a script's `> log`) are
/// left as they are. Returns how many were replaced.
pub fn hang_up() -> usize {
    // SAFETY: open/dup2/close on our own descriptors; the path is a valid C string.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null < 0 {
            return 0;
        }
        let mut n = 0;
        for fd in 0..3 {
            if was_terminal(fd) && libc::dup2(null, fd) == fd {
                n += 1;
            }
        }
        libc::close(null);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_that_were_no_terminal_are_left_alone() {
        // Under cargo test the streams are pipes or files, never all three terminals; a stream
        // that is not one is never replaced.
        remember();
        for fd in 0..3 {
            // SAFETY: isatty only inspects the descriptor.
            let tty = unsafe { libc::isatty(fd) } == 1;
            assert_eq!(was_terminal(fd), tty);
        }
        // Run from a terminal, replacing it would silence the test binary: only checked when
        // none is one.
        if (0..3).all(|fd| !was_terminal(fd)) {
            assert_eq!(hang_up(), 0);
        }
    }
}
