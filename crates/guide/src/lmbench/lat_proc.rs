//! lat_proc: µs per procedure call (a call that cannot be inlined), per fork+exit+wait, per
//! fork+execve of a tiny program (/bin/true: lmbench execs its own "hello"; both are small
//! dynamically linked programs) and per fork+`/bin/sh -c` of it.
//!
//! fork's cost grows with the forking process's private memory (its page tables are copied), so
//! the section measures fork, exec and shell from a small, freshly started copy of the binary
//! (`small_process`), as lmbench forks from its small lat_proc. From the measuring child
//! (`isolate`, a copy of the guide's whole process; what library tests use) fork measured
//! 1.6–1.95× lmbench's, exec 1.2–1.3× (scripts/bench-against, issue 21). Marking the child's large
//! mappings MADV_DONTFORK instead was tried and dropped: glibc's fork runs handlers in the new
//! process that touch the allocator's arenas wherever they are, so the forked process crashed.
//!
//! The forked child ends with `_exit`; lmbench's ends with the C library's `exit`, whose handlers
//! fault in 16 more pages per fork here, so fork reads 0.81–0.90 × lmbench's figure. Calling
//! `exit` from this (Rust) program read 1.18 × instead — its exit path costs twice a C
//! program's — so `_exit` stays (docs/guide.md, "Why fork reads 0.81–0.90 × lmbench").

use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};

use document::guide::GuideValue;

use super::timing::{Error, Result, Timing, figures, os_err};

/// The program exec and shell start.
pub const HELLO: &str = "/bin/true";
pub const SHELL: &str = "/bin/sh";

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Procedure,
    Fork,
    Exec,
    Shell,
}

static SINK: AtomicU64 = AtomicU64::new(0);

/// Where the procedure-call loop starts within its 64-byte line. lmbench's (GCC 12 -O2, x86_64,
/// `do_procedure` at 0x26f6) starts at 0x36 with a 2-byte `mov %ebp,%edi`; ours moves from
/// `r12d`, one byte longer (Rust's inline asm may not name ebp), so it starts one byte earlier
/// and the call (0x38), the counter's `sub` (across the line, 0x3d–0x40), the `cmp` and the
/// `jne` (0x45) fall where lmbench's do.
#[cfg(target_arch = "x86_64")]
const LOOP_OFFSET: usize = 0x35;

/// The called procedure: lmbench's `use_int(int)` as GCC compiles it — the 32-bit argument
/// sign-extended, a load, an add and a store of a 64-bit global. (A `fetch_add` is a locked add
/// on x86: the call read 3.8–4.2 × lmbench's 1.2 ns; a relaxed load and store LLVM fuses into one
/// `add` to memory, which read 0.73–0.86 × on a Zen 5 guest; volatile accesses it fuses too. The
/// loaded value passes through `hide64`, an empty `asm!` that needs it in a register, so the load
/// stays a load.)
#[inline(never)]
extern "C" fn procedure(x: i32) {
    let v = super::lat_ops::hide64(SINK.load(Ordering::Relaxed));
    SINK.store(v.wrapping_add(x as i64 as u64), Ordering::Relaxed);
}

/// `n` calls of [`procedure`] with `arg`, the loop as GCC emits lmbench's `do_procedure` on
/// x86_64: the argument moved into `edi` before each call, then `sub $1` / `cmp $-1` / `jne`
/// on a 64-bit counter (LLVM's `dec` / `jne` is one fused micro-op less per call, and the
/// figure is 4–5 cycles: the quiet guest read 0.80 × lmbench's with it).
///
/// Placed where lmbench's is, too ([`LOOP_OFFSET`]): its 17-byte loop starts 0x36 bytes into a
/// 64-byte line and so crosses into the next one. Where the loop falls decides the figure on
/// Zen 3: left to the linker, a build whose loop crossed a line read 1.006 × lmbench's and the
/// next build, whose loop sat inside one, 0.685 × (8 pinned rounds each, 2026-11-28) — the
/// same code.
fn call_loop(n: u64, arg: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        if n == 0 {
            return;
        }
        // SAFETY: calls an `extern "C"` function that takes one int and touches only SINK;
        // every register the C ABI lets it clobber is declared clobbered; without `nostack`
        // the stack is aligned for the call and no red zone is in use.
        unsafe {
            core::arch::asm!(
                // Jump over the padding to the loop, which starts LOOP_OFFSET bytes into a
                // 64-byte line.
                "jmp 2f",
                ".p2align 6",
                ".skip {offset}, 0xcc",
                "2:",
                "mov edi, r12d",
                "call {f}",
                "sub r13, 1",
                "cmp r13, -1",
                "jne 2b",
                // Callee-saved registers, as GCC keeps them (it uses ebp and rbx, which
                // Rust's inline asm may not name).
                in("r12") arg,
                inout("r13") n - 1 => _,
                f = sym procedure,
                offset = const LOOP_OFFSET,
                clobber_abi("C"),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for _ in 0..n {
        procedure(super::lat_ops::hide32(arg) as i32);
    }
}

fn wait(pid: libc::pid_t) -> Result<()> {
    let mut status = 0;
    while super::call::waitpid(pid, &mut status) < 0 {
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return Err(os_err("waitpid"));
        }
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(Error::Failed(format!(
            "the child failed (status {status:#x})"
        )));
    }
    Ok(())
}

pub fn measure(t: &Timing, kind: Kind) -> Result<GuideValue> {
    let hello = CString::new(HELLO).unwrap_or_default();
    let shell = CString::new(SHELL).unwrap_or_default();
    let sh = CString::new("sh").unwrap_or_default();
    let dash_c = CString::new("-c").unwrap_or_default();
    let exec_argv = [hello.as_ptr(), std::ptr::null()];
    let shell_argv = [
        sh.as_ptr(),
        dash_c.as_ptr(),
        hello.as_ptr(),
        std::ptr::null(),
    ];
    let envp: [*const libc::c_char; 1] = [std::ptr::null()];
    if matches!(kind, Kind::Exec | Kind::Shell) {
        for p in [HELLO, SHELL] {
            if !std::path::Path::new(p).exists() {
                return Err(Error::Failed(format!("{p} is missing")));
            }
        }
    }
    let samples = t.benchmp_try(0.0, |n| {
        if kind == Kind::Procedure {
            // lmbench passes the same value every call, moved into the argument register
            // each time (its caller keeps it in a callee-saved register across the calls).
            call_loop(n, std::hint::black_box(1u32));
            return Ok(());
        }
        for _ in 0..n {
            // SAFETY: the child only calls async-signal-safe functions (close, execve, _exit)
            // on data prepared before the fork.
            let pid = unsafe { libc::fork() };
            if pid < 0 {
                return Err(os_err("fork"));
            }
            if pid == 0 {
                // SAFETY: see above; _exit(127) when execve fails.
                unsafe {
                    match kind {
                        Kind::Exec => {
                            libc::close(1);
                            libc::execve(hello.as_ptr(), exec_argv.as_ptr(), envp.as_ptr());
                        }
                        Kind::Shell => {
                            libc::close(1);
                            libc::execve(shell.as_ptr(), shell_argv.as_ptr(), envp.as_ptr());
                        }
                        _ => libc::_exit(0),
                    }
                    libc::_exit(127);
                }
            }
            wait(pid)?;
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The call loop calls the procedure exactly `n` times with its argument (0 calls for 0).
    #[test]
    fn the_call_loop_calls_n_times() {
        for n in [0u64, 1, 2, 1000] {
            let before = SINK.load(Ordering::Relaxed);
            call_loop(n, 3);
            assert_eq!(SINK.load(Ordering::Relaxed).wrapping_sub(before), 3 * n);
        }
        let before = SINK.load(Ordering::Relaxed);
        call_loop(5, (-2i32) as u32);
        // The 32-bit argument is sign-extended, as `use_int(int)` adds it to a 64-bit global.
        assert_eq!(
            SINK.load(Ordering::Relaxed).wrapping_sub(before),
            (-10i64) as u64
        );
    }
}
