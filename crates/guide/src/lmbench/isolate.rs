//! Running one measurement in a forked, single-threaded child — as lmbench's benchmp runs every
//! benchmark in a child it forks.
//!
//! It matters for the kernel's costs: the guide's process has several threads, and the kernel
//! charges a multi-threaded process more for the same system call — every descriptor lookup takes
//! a reference on the shared descriptor table (200 of them per `select`), every `munmap` of a
//! touched mapping sends TLB shoot-down interrupts to the other CPUs the process ran on (an exit
//! to the hypervisor each on a VM). A forked child has one thread, its own descriptor table and
//! a fresh CPU mask, like lmbench's child. The child reports its result as one JSON document
//! over a pipe; the parent's cancel flag (Ctrl-C) reaches it through a shared page, so a
//! cancelled child still cleans up (partner processes, semaphore sets, files) before it ends.
//!
//! The child runs Rust code after `fork` in a multi-threaded process: glibc and musl make
//! `malloc` usable in the child (their fork resets the allocator's locks); nothing here takes
//! another lock (no stdio, no environment).

use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::sys::{pipe, write_all};
use super::timing::{Error, Result, Timing};

/// A page shared with the child, holding its cancel flag.
struct SharedFlag {
    ptr: *mut libc::c_void,
}

impl SharedFlag {
    fn new() -> Option<SharedFlag> {
        // SAFETY: an anonymous shared mapping of one page; checked below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        (ptr != libc::MAP_FAILED).then_some(SharedFlag { ptr })
    }

    fn flag(&self) -> &AtomicBool {
        // SAFETY: the page is zeroed (false), page-aligned and lives as long as `self`.
        unsafe { &*(self.ptr as *const AtomicBool) }
    }
}

impl Drop for SharedFlag {
    fn drop(&mut self) {
        // SAFETY: unmaps the page mapped in `new`.
        unsafe { libc::munmap(self.ptr, 4096) };
    }
}

pub(crate) fn encode<T: Serialize>(r: &Result<T>) -> String {
    let v = match r {
        Ok(v) => serde_json::json!({ "ok": v }),
        Err(Error::Cancelled) => serde_json::json!({ "cancelled": true }),
        Err(Error::Failed(m)) => serde_json::json!({ "failed": m }),
    };
    v.to_string()
}

pub(crate) fn decode<T: DeserializeOwned>(text: &str) -> Result<T> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Error::Failed(format!("the measuring child's report is unreadable: {e}")))?;
    if let Some(ok) = v.get("ok") {
        return serde_json::from_value(ok.clone()).map_err(|e| {
            Error::Failed(format!("the measuring child's report is unreadable: {e}"))
        });
    }
    if v.get("cancelled").is_some() {
        return Err(Error::Cancelled);
    }
    Err(Error::Failed(
        v.get("failed")
            .and_then(|m| m.as_str())
            .unwrap_or("the measuring child failed")
            .to_string(),
    ))
}

/// Runs `measure` in a forked single-threaded child and returns what it measured. When the
/// child cannot be forked the measurement runs in this process.
pub fn in_child<T, F>(t: &Timing, measure: F) -> Result<T>
where
    T: Serialize + DeserializeOwned,
    F: FnOnce(&Timing) -> Result<T>,
{
    run(t, None, |t, _| measure(t))
}

/// [`in_child`] with the child's working directory changed to `dir` first, as lmbench's
/// programs run from the directory TI starts them in. `measure` learns whether it runs there
/// (`true`) — not when the child could not be forked (or `dir` entered) and it runs in this
/// process, whose working directory is never changed.
pub fn in_child_at<T, F>(t: &Timing, dir: &Path, measure: F) -> Result<T>
where
    T: Serialize + DeserializeOwned,
    F: FnOnce(&Timing, bool) -> Result<T>,
{
    run(t, Some(dir), measure)
}

fn run<T, F>(t: &Timing, dir: Option<&Path>, measure: F) -> Result<T>
where
    T: Serialize + DeserializeOwned,
    F: FnOnce(&Timing, bool) -> Result<T>,
{
    if t.cancelled() {
        return Err(Error::Cancelled);
    }
    // Prepared before the fork: the child makes no allocation for it.
    let dir = dir.and_then(|d| CString::new(d.as_os_str().as_bytes()).ok());
    let (Some(shared), Ok((rd, wr))) = (SharedFlag::new(), pipe()) else {
        return measure(t, false);
    };
    // SAFETY: fork in a possibly multi-threaded process; the child runs the measurement (see the
    // module's note on what it may do), writes its report and `_exit`s without unwinding into
    // the parent's code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return measure(t, false);
    }
    if pid == 0 {
        drop(rd);
        // SAFETY: prctl has no memory preconditions: the child dies with the guide.
        unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
        let mut ct = t.clone();
        ct.set_shared_cancel(shared.flag());
        // SAFETY: chdir of a NUL-terminated path, in the child only.
        let at = dir.is_some_and(|d| unsafe { libc::chdir(d.as_ptr()) } == 0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| measure(&ct, at)))
            .unwrap_or_else(|_| Err(Error::Failed("the measurement panicked".into())));
        let _ = write_all(wr.as_raw_fd(), encode(&r).as_bytes());
        // SAFETY: ends the child without running the parent's destructors or atexit handlers.
        unsafe { libc::_exit(0) };
    }
    drop(wr);
    let report = collect(t, &shared, &rd);
    let mut status = 0;
    // SAFETY: reaps our own child.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    if report.is_empty() {
        if t.cancelled() {
            return Err(Error::Cancelled);
        }
        return Err(Error::Failed(format!(
            "the measuring child ended without a report (wait status {status:#x})"
        )));
    }
    decode(&report)
}

/// Reads the child's report, passing the parent's cancel flag on while it waits.
fn collect(t: &Timing, shared: &SharedFlag, rd: &OwnedFd) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if t.cancelled() {
            shared.flag().store(true, Ordering::Relaxed);
        }
        let mut p = libc::pollfd {
            fd: rd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: polls one descriptor we own.
        let r = unsafe { libc::poll(&mut p, 1, 100) };
        if r == 0 || (r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR))
        {
            continue;
        }
        if r < 0 {
            break;
        }
        // SAFETY: reads into our buffer of the given length.
        let n = unsafe { libc::read(rd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        if n <= 0 {
            break;
        }
        out.extend_from_slice(&buf[..n as usize]);
    }
    String::from_utf8_lossy(&out).into_owned()
}
