//! lat_syscall: the cost of the simplest system calls (µs per call). `null` is a raw getppid
//! system call (no libc caching), read/write move one byte from /dev/zero and to /dev/null,
//! stat/fstat/open use the guide's test file, like lmbench's `lat_syscall OP test1.txt` (stat
//! and open by its name relative to its directory, as TI runs it from there).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use document::guide::GuideValue;

use super::call;
use super::timing::{Error, Result, Timing, figures, os_err};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    Null,
    Read,
    Write,
    Stat,
    Fstat,
    Open,
}

impl Op {
    pub const ALL: [Op; 6] = [Op::Null, Op::Read, Op::Write, Op::Stat, Op::Fstat, Op::Open];

    pub fn name(self) -> &'static str {
        match self {
            Op::Null => "null",
            Op::Read => "read",
            Op::Write => "write",
            Op::Stat => "stat",
            Op::Fstat => "fstat",
            Op::Open => "open",
        }
    }
}

fn open(path: &CString, flags: i32) -> Result<i32> {
    // SAFETY: opens a NUL-terminated path.
    let fd = unsafe { libc::open(path.as_ptr(), flags) };
    if fd < 0 {
        return Err(os_err(&format!("open {}", path.to_string_lossy())));
    }
    Ok(fd)
}

/// µs per call of `op`; `file` is the test file for stat/fstat/open. `in_its_dir`: this process
/// runs in `file`'s directory (a child [`super::isolate::in_child_at`] moved there), so stat and
/// open name the file relative to the working directory, exactly as TI's `lat_syscall stat
/// test1.txt` does; otherwise relative to the directory opened by descriptor (fstatat and
/// openat through a descriptor cost 1.5–3 % more per call on this kernel).
pub fn measure(t: &Timing, op: Op, file: &Path, in_its_dir: bool) -> Result<GuideValue> {
    let path = CString::new(file.as_os_str().as_bytes())
        .map_err(|_| Error::Failed("file name with a NUL byte".into()))?;
    // stat and open look the file up by its name in its directory, as TI's `lat_syscall stat
    // test1.txt` run in the test file's directory does: one path component, relative to an open
    // directory (an absolute path walks every component: stat read 0.90 × lmbench's given
    // /tmp/…/lmbench-ref/test1.txt, issue 21).
    let name = CString::new(
        file.file_name()
            .map(|n| n.as_bytes().to_vec())
            .unwrap_or_default(),
    )
    .map_err(|_| Error::Failed("file name with a NUL byte".into()))?;
    let dir = match (op, file.parent()) {
        (Op::Stat | Op::Open, Some(d)) if !in_its_dir => open(
            &CString::new(if d.as_os_str().is_empty() {
                b".".to_vec()
            } else {
                d.as_os_str().as_bytes().to_vec()
            })
            .map_err(|_| Error::Failed("directory name with a NUL byte".into()))?,
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )?,
        _ => libc::AT_FDCWD,
    };
    let fd = match op {
        Op::Read => open(
            &CString::new("/dev/zero").unwrap_or_default(),
            libc::O_RDONLY,
        )?,
        Op::Write => open(
            &CString::new("/dev/null").unwrap_or_default(),
            libc::O_WRONLY,
        )?,
        Op::Fstat => open(&path, libc::O_RDONLY)?,
        _ => -1,
    };
    let mut byte = [0u8; 1];
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            let ok = match op {
                // SAFETY: getppid takes no arguments and cannot fail.
                Op::Null => unsafe { libc::syscall(libc::SYS_getppid) >= 0 },
                Op::Read => call::read(fd, &mut byte) == 1,
                Op::Write => call::write(fd, &byte) == 1,
                Op::Stat => {
                    // SAFETY: stat fills a zeroed struct we own.
                    let mut st: libc::stat = unsafe { std::mem::zeroed() };
                    // SAFETY: an open directory (or the cwd), a NUL-terminated name and a valid
                    // out pointer.
                    unsafe { libc::fstatat(dir, name.as_ptr(), &mut st, 0) == 0 }
                }
                Op::Fstat => {
                    // SAFETY: as above.
                    let mut st: libc::stat = unsafe { std::mem::zeroed() };
                    // SAFETY: our open descriptor and a valid out pointer.
                    unsafe { libc::fstat(fd, &mut st) == 0 }
                }
                Op::Open => {
                    let f = call::openat(dir, &name, libc::O_RDONLY, 0);
                    f >= 0 && call::close(f) == 0
                }
            };
            if !ok {
                return Err(os_err(&format!("lat_syscall {}", op.name())));
            }
        }
        Ok(())
    });
    if fd >= 0 {
        // SAFETY: closes the descriptor opened above.
        unsafe { libc::close(fd) };
    }
    if dir >= 0 {
        // SAFETY: closes the directory opened above.
        unsafe { libc::close(dir) };
    }
    GuideValue::from_samples(&figures(&samples?, |us| us))
        .ok_or_else(|| Error::Failed("no samples".into()))
}
