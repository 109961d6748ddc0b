//! lat_proc: µs per procedure call (a call that cannot be inlined), per fork+exit+wait, per
//! fork+execve of a tiny program (/bin/true: lmbench execs its own "hello"; both are small
//! dynamically linked programs) and per fork+`/bin/sh -c` of it.
//!
//! fork's cost grows with the forking process's private memory (its page tables are copied):
//! lmbench forks from its small lat_proc process, the guide from a copy of itself with its
//! threads' stacks, allocator arenas and the earlier sections' buffers — twice lmbench's fork
//! time on the development VM. So the measuring child (`isolate`), which is thrown away
//! afterwards, first marks its large private anonymous mappings `MADV_DONTFORK` — all but the
//! one holding its stack and the ones holding what the forked process reads (the program's
//! path and arguments): the process it forks is then as small as lmbench's.

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

#[inline(never)]
fn procedure(x: u64) {
    SINK.fetch_add(x, Ordering::Relaxed);
}

fn wait(pid: libc::pid_t) -> Result<()> {
    let mut status = 0;
    // SAFETY: waits for our own child.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 {
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
    if kind != Kind::Procedure && t.in_isolated_child() {
        let local = 0u8;
        shrink_forks(&[
            std::ptr::addr_of!(local) as usize,
            hello.as_ptr() as usize,
            shell.as_ptr() as usize,
            sh.as_ptr() as usize,
            dash_c.as_ptr() as usize,
        ]);
    }
    if matches!(kind, Kind::Exec | Kind::Shell) {
        for p in [HELLO, SHELL] {
            if !std::path::Path::new(p).exists() {
                return Err(Error::Failed(format!("{p} is missing")));
            }
        }
    }
    let samples = t.benchmp_try(0.0, |n| {
        if kind == Kind::Procedure {
            for i in 0..n {
                procedure(std::hint::black_box(i));
            }
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

/// Mappings smaller than this are left alone (libraries' data, small heaps).
const SHRINK_MIN_BYTES: usize = 1 << 20;

/// Marks this process's private anonymous writable mappings of at least
/// [`SHRINK_MIN_BYTES`] `MADV_DONTFORK`, except those containing an address in `keep`: a
/// process forked afterwards does not get them (nor pays for copying their page tables). Only
/// for a process that is thrown away afterwards and whose forked children touch nothing but
/// the kept mappings. Returns the bytes marked.
fn shrink_forks(keep: &[usize]) -> usize {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return 0;
    };
    let mut marked = 0;
    for line in maps.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 5 {
            continue;
        }
        let Some((lo, hi)) = f[0].split_once('-') else {
            continue;
        };
        let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        else {
            continue;
        };
        let anonymous = f[4] == "0" && f.get(5).is_none_or(|p| *p == "[heap]");
        let private_rw = f[1].starts_with("rw") && f[1].ends_with('p');
        if !anonymous || !private_rw || hi - lo < SHRINK_MIN_BYTES {
            continue;
        }
        if keep.iter().any(|&a| a >= lo && a < hi) {
            continue;
        }
        // SAFETY: advice on a whole mapping of this process; it changes only what a later
        // fork copies.
        if unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_DONTFORK) } == 0 {
            marked += hi - lo;
        }
    }
    marked
}
