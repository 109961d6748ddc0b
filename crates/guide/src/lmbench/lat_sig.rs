//! lat_sig: signal costs (µs). `install` = one sigaction of an empty SIGUSR1 handler; `catch` =
//! sending SIGUSR1 to ourselves and returning from the empty handler, minus the cost of sending
//! signal 0 (the permission check); `prot` = one protection fault on a read-only page of the
//! test file caught by a SIGSEGV handler, minus the catch cost.
//!
//! Signals are sent as lmbench sends them, `kill(getpid())` with the pid looked up once: the
//! section runs each of these in a single-threaded child (`isolate`), so the sending thread is
//! the one that catches it (called from a multi-threaded process they go to the calling thread
//! with `tgkill`). Every handler installed here is restored afterwards.

use std::os::fd::AsRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use document::guide::GuideValue;

use super::timing::{Error, Result, Sample, Timing, figures, median, os_err};

extern "C" fn empty_handler(_: libc::c_int) {}

static FAULTS: AtomicU64 = AtomicU64::new(0);
static FAULT_LIMIT: AtomicU64 = AtomicU64::new(0);
static FAULT_PAGE: AtomicPtr<libc::c_void> = AtomicPtr::new(std::ptr::null_mut());
static PAGE_SIZE: AtomicU64 = AtomicU64::new(4096);

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

/// A handler installed for the scope, the old one restored on drop.
struct Installed {
    sig: libc::c_int,
    old: libc::sigaction,
}

impl Installed {
    fn new(sig: libc::c_int, handler: usize, flags: libc::c_int) -> Result<Installed> {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value.
        let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
        sa.sa_sigaction = handler;
        sa.sa_flags = flags;
        // SAFETY: zeroed storage for the old action.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to a filled and an out sigaction.
        if unsafe { libc::sigaction(sig, &sa, &mut old) } < 0 {
            return Err(os_err("sigaction"));
        }
        Ok(Installed { sig, old })
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        // SAFETY: restores the action saved at installation.
        unsafe { libc::sigaction(self.sig, &self.old, std::ptr::null_mut()) };
    }
}

/// Where a signal to ourselves goes: the process (`kill`, as lmbench sends it) when this
/// process has one thread — the measuring child of the section (`isolate`) — else this thread
/// (`tgkill`): in a multi-threaded process another thread could take a process signal later,
/// after the handler is gone. Looked up once, so each signal costs one system call either way.
#[derive(Clone, Copy)]
struct Target {
    pid: libc::pid_t,
    /// Some(tid) when the process has other threads.
    tid: Option<libc::pid_t>,
}

fn target() -> Target {
    // SAFETY: getpid and gettid have no preconditions.
    let (pid, tid) = unsafe {
        (
            libc::getpid(),
            libc::syscall(libc::SYS_gettid) as libc::pid_t,
        )
    };
    let threads = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|v| v.trim().parse::<u32>().ok())
        })
        .unwrap_or(2);
    Target {
        pid,
        tid: (threads != 1).then_some(tid),
    }
}

fn to_self(to: Target, sig: libc::c_int) -> bool {
    // SAFETY: sends a signal to this process or to this thread of it.
    unsafe {
        match to.tid {
            None => libc::kill(to.pid, sig) == 0,
            Some(tid) => libc::syscall(libc::SYS_tgkill, to.pid, tid, sig) == 0,
        }
    }
}

pub fn install(t: &Timing) -> Result<GuideValue> {
    // SAFETY: zeroed storage for the old action, restored below.
    let mut saved: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: reads the current action into our storage.
    unsafe { libc::sigaction(libc::SIGUSR1, std::ptr::null(), &mut saved) };
    let samples = t.benchmp(0.0, |n| {
        for _ in 0..n {
            // SAFETY: a zeroed sigaction is valid; we fill handler, empty mask, no flags.
            let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
            sa.sa_sigaction = empty_handler as *const () as usize;
            // SAFETY: zeroed storage for the old action.
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: valid pointers.
            unsafe {
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(libc::SIGUSR1, &sa, &mut old);
            }
        }
    });
    // SAFETY: restores the saved action.
    unsafe { libc::sigaction(libc::SIGUSR1, &saved, std::ptr::null_mut()) };
    value(&figures(&samples?, |us| us))
}

fn value(v: &[f64]) -> Result<GuideValue> {
    GuideValue::from_samples(v).ok_or_else(|| Error::Failed("no samples".into()))
}

/// (send samples, catch samples): signal 0 and a caught SIGUSR1 per iteration.
fn send_and_catch(t: &Timing) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let pid = target();
    let send = t.benchmp_try(0.0, |n| {
        for _ in 1..n {
            if !to_self(pid, 0) {
                return Err(os_err("kill 0"));
            }
        }
        Ok(())
    })?;
    let _h = Installed::new(libc::SIGUSR1, empty_handler as *const () as usize, 0)?;
    let catch = t.benchmp_try(0.0, |n| {
        for _ in 1..n {
            if !to_self(pid, libc::SIGUSR1) {
                return Err(os_err("kill SIGUSR1"));
            }
        }
        Ok(())
    })?;
    Ok((send, catch))
}

/// µs per caught signal, without the cost of sending it.
pub fn catch(t: &Timing) -> Result<GuideValue> {
    let (send, catch) = send_and_catch(t)?;
    let send_us = median(&send).map(|s| s.per_iter()).unwrap_or(0.0);
    value(&figures(&catch, |us| (us - send_us).max(0.0)))
}

extern "C" fn fault_handler(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let page = FAULT_PAGE.load(Ordering::Relaxed);
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() };
    let ps = PAGE_SIZE.load(Ordering::Relaxed) as usize;
    let ours =
        !page.is_null() && (addr as usize) >= page as usize && (addr as usize) < page as usize + ps;
    if !ours {
        // Not our page: a real crash. Fall back to the default action and let it re-fault.
        // SAFETY: signal() is async-signal-safe.
        unsafe { libc::signal(sig, libc::SIG_DFL) };
        return;
    }
    let k = FAULTS.fetch_add(1, Ordering::Relaxed) + 1;
    if k >= FAULT_LIMIT.load(Ordering::Relaxed) {
        // The interval's last fault: make the page writable so the store completes.
        // SAFETY: mprotect of our own private mapping is async-signal-safe.
        unsafe { libc::mprotect(page, ps, libc::PROT_READ | libc::PROT_WRITE) };
    }
}

/// µs per protection fault caught by a handler (the catch cost subtracted).
pub fn prot(t: &Timing, file: &Path) -> Result<GuideValue> {
    let f = std::fs::File::open(file)?;
    let ps = page_size();
    PAGE_SIZE.store(ps as u64, Ordering::Relaxed);
    let (send, catch) = send_and_catch(t)?;
    let catch_us = median(&catch).map(|s| s.per_iter()).unwrap_or(0.0)
        - median(&send).map(|s| s.per_iter()).unwrap_or(0.0);
    let flags = libc::SA_SIGINFO;
    let _segv = Installed::new(libc::SIGSEGV, fault_handler as *const () as usize, flags)?;
    let _bus = Installed::new(libc::SIGBUS, fault_handler as *const () as usize, flags)?;
    let samples = t.benchmp_timed(0.0, |n| {
        // Untimed: a fresh read-only private mapping of the file's first page.
        // SAFETY: maps one page of an open file; checked below.
        let page = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                ps,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                f.as_raw_fd(),
                0,
            )
        };
        if page == libc::MAP_FAILED {
            return Err(os_err("mmap"));
        }
        FAULTS.store(0, Ordering::Relaxed);
        FAULT_LIMIT.store(n, Ordering::Relaxed);
        FAULT_PAGE.store(page, Ordering::Relaxed);
        let t0 = std::time::Instant::now();
        // Faults n times: the handler returns and the store is retried until the n-th fault
        // makes the page writable.
        // SAFETY: a store into our mapping; faults are handled by `fault_handler`.
        unsafe { std::ptr::write_volatile(page.cast::<u8>(), 1) };
        let d = t0.elapsed();
        FAULT_PAGE.store(std::ptr::null_mut(), Ordering::Relaxed);
        // SAFETY: unmaps the page mapped above.
        unsafe { libc::munmap(page, ps) };
        Ok(d)
    })?;
    value(&figures(&samples, |us| (us - catch_us).max(0.0)))
}
