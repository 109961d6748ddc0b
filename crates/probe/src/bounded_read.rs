//! The one way the probe reads a file of the machine: bounded in size, in kind and in time.
//!
//! Why: a FIFO or a device node where /proc/loadavg or a thermal `temp` should be made `info`
//! and `monitor` hang forever; `--cpuinfo-file /dev/zero` grew to gigabytes; and vendor kernels
//! have sysfs attributes whose `read` blocks inside a driver (an I2C sensor that stopped
//! answering). So every read here:
//!
//! - refuses anything that is not a regular file *before opening it* (opening a FIFO blocks,
//!   opening some device nodes has side effects), and checks again after opening. /proc and
//!   /sys attributes are regular files (size 0 or 4096), so they pass;
//! - stops after the limit of its [`Kind`] and then fails with the file and the limit named,
//!   instead of growing without bound;
//! - runs on a reader thread and gives up after [`READ_TIMEOUT`]. Reader threads are kept in a
//!   small pool and reused, so a healthy system has one or two of them for the whole process,
//!   not one per read. A thread whose read hangs is abandoned (nothing can interrupt a
//!   syscall stuck in a driver); it ends by itself if the read ever returns. While it hangs,
//!   further reads of the same file fail at once, and at most [`MAX_HANGING`] threads are ever
//!   abandoned — after that every read fails at once — so a monitor sampling a stuck file every
//!   second does not pile up threads;
//! - is given up at once after [`cancel_flag`] is set (a signal handler sets it), so Ctrl-C and
//!   SIGTERM end a command promptly even while a read hangs.

use std::collections::HashSet;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long one read may take. Real sysfs and procfs reads take micro- to milliseconds; slow
/// hwmon sensors (I2C conversions) up to a few hundred ms.
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);

/// At most this many reader threads are ever left behind by hung reads.
pub const MAX_HANGING: usize = 8;

/// Idle reader threads kept for reuse (one per thread that reads concurrently is plenty).
const MAX_IDLE: usize = 4;

/// How often a waiting read looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// What a file is, which decides how much of it may be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One sysfs/procfs value (`scaling_max_freq`, `temp`, `online`): the kernel prints at
    /// most one page, and pages are at most 64 KiB.
    Value,
    /// Any other sysfs file (`time_in_state`, USB descriptors).
    Sysfs,
    /// A /proc table (`stat`, `meminfo`, `mounts`): megabytes on machines with thousands of
    /// CPUs or mounts.
    ProcTable,
    /// /proc/cpuinfo or the user's cpuinfo file: about 1.5 KiB per CPU, and a kernel has at
    /// most 8192 CPUs.
    Cpuinfo,
    /// A device-tree property.
    DeviceTree,
    /// A configuration file (`os-release`, `config.txt`, `/boot/config-*`).
    Text,
}

impl Kind {
    pub fn limit(self) -> u64 {
        match self {
            Kind::Value => 64 << 10,
            Kind::Sysfs | Kind::DeviceTree => 1 << 20,
            Kind::ProcTable | Kind::Text => 16 << 20,
            Kind::Cpuinfo => 32 << 20,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Value => "a sysfs value",
            Kind::Sysfs => "a sysfs file",
            Kind::ProcTable => "a /proc table",
            Kind::Cpuinfo => "a cpuinfo file",
            Kind::DeviceTree => "a device-tree property",
            Kind::Text => "a configuration file",
        }
    }

    /// The kind of a machine path read as a whole.
    pub fn of(abs: &str) -> Kind {
        if abs == "/proc/cpuinfo" {
            Kind::Cpuinfo
        } else if abs.starts_with("/proc/device-tree/")
            || abs.starts_with("/sys/firmware/devicetree/")
        {
            Kind::DeviceTree
        } else if abs.starts_with("/proc/") {
            Kind::ProcTable
        } else if abs.starts_with("/sys/") {
            Kind::Sysfs
        } else {
            Kind::Text
        }
    }
}

/// Why a read failed. `Missing` and `Denied` keep their short words (callers treat a missing
/// optional attribute as normal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    Missing,
    Denied,
    /// Everything else, already worded for a note.
    Other(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Missing => f.write_str("missing"),
            ReadError::Denied => f.write_str("permission denied"),
            ReadError::Other(s) => f.write_str(s),
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::Missing,
            std::io::ErrorKind::PermissionDenied => ReadError::Denied,
            _ => ReadError::Other(e.to_string()),
        }
    }
}

/// Reads a whole file of `kind`; more than the kind's limit is an error naming the limit.
pub fn read_whole(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    let limit = kind.limit();
    let bytes = read_bounded(path, limit + 1)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::Other(format!(
            "larger than {} (the limit for {})",
            human(limit),
            kind.name()
        )));
    }
    Ok(bytes)
}

/// Reads at most `n` bytes from the start of a file (no error when it is longer).
pub fn read_head(path: &Path, n: usize) -> Result<Vec<u8>, ReadError> {
    read_bounded(path, n as u64)
}

fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let owned = path.to_path_buf();
    with_timeout(path, READ_TIMEOUT, move || read_now(&owned, max))?
}

/// The read itself, on whatever thread runs it.
fn read_now(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    // stat first: never open a FIFO (blocks until a writer comes) or a device node.
    regular(&std::fs::metadata(path)?.file_type())?;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    // … and again on what was opened, in case the path was swapped in between.
    regular(&f.metadata()?.file_type())?;
    let mut buf = Vec::new();
    let mut f = f.take(max);
    loop {
        match f.read_to_end(&mut buf) {
            Ok(_) => return Ok(buf),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

fn regular(t: &std::fs::FileType) -> Result<(), ReadError> {
    if t.is_file() {
        return Ok(());
    }
    let what = if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_dir() {
        "a directory"
    } else {
        "a special file"
    };
    Err(ReadError::Other(format!("not a regular file ({what})")))
}

fn human(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else {
        format!("{} KiB", n >> 10)
    }
}

/// Set it (from a signal handler: it is only an atomic store) to make every waiting and
/// every later read fail at once with "interrupted".
pub fn cancel_flag() -> Arc<AtomicBool> {
    Arc::clone(CANCEL.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

fn cancelled() -> bool {
    CANCEL.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Pool {
    idle: Vec<Sender<Job>>,
    /// Files whose read was given up and has not returned yet.
    hanging: HashSet<PathBuf>,
}

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Starts a reader thread with every signal blocked (set while it is created, so it never has
/// them open even for a moment): signals go to the command's own threads, never to a reader.
/// Commands that take SIGINT/SIGTERM synchronously (`sigtimedwait` with the signals blocked
/// in the main thread) rely on no other thread accepting them, and a reader may well be
/// started before they block them.
fn spawn_worker() -> Option<Sender<Job>> {
    // SAFETY: sigset_t is plain data set up by sigfillset; pthread_sigmask changes only this
    // thread's mask, and the old mask is put back right after the spawn.
    let old = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut old);
        old
    };
    let worker = spawn_worker_thread();
    // SAFETY: restores the mask saved above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
    worker
}

fn spawn_worker_thread() -> Option<Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("probe-read".into())
        .stack_size(256 << 10)
        .spawn(move || {
            // Ends when its sender is dropped: on shutdown of the pool entry, or after a hung
            // job (the waiting side dropped it when it gave up).
            while let Ok(job) = rx.recv() {
                job();
            }
        })
        .ok()?;
    Some(tx)
}

/// Runs `f` on a pooled reader thread and waits at most `timeout` for it (`key` names the file
/// for the hung-read bookkeeping).
pub fn with_timeout<T: Send + 'static>(
    key: &Path,
    timeout: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ReadError> {
    if cancelled() {
        return Err(ReadError::Other("interrupted".into()));
    }
    let worker = {
        let mut p = pool();
        if p.hanging.contains(key) {
            return Err(ReadError::Other(
                "an earlier read of this file still hangs".into(),
            ));
        }
        if p.hanging.len() >= MAX_HANGING {
            return Err(ReadError::Other(format!(
                "not read: {MAX_HANGING} reads of other files hang"
            )));
        }
        p.idle.pop()
    };
    let Some(worker) = worker.or_else(spawn_worker) else {
        // No thread can be started (resource limits): read here, unbounded in time.
        return Ok(f());
    };
    let (reply_tx, reply_rx) = mpsc::sync_channel::<T>(1);
    let owned_key = key.to_path_buf();
    let job: Job = Box::new(move || {
        if reply_tx.send(f()).is_err() {
            // The caller gave up on this read; it has returned now.
            pool().hanging.remove(&owned_key);
        }
    });
    if worker.send(job).is_err() {
        return Err(ReadError::Other("the reader thread ended".into()));
    }
    let start = Instant::now();
    loop {
        let left = timeout.saturating_sub(start.elapsed());
        match reply_rx.recv_timeout(left.min(CANCEL_POLL)) {
            Ok(v) => {
                let mut p = pool();
                if p.idle.len() < MAX_IDLE {
                    p.idle.push(worker);
                }
                return Ok(v);
            }
            Err(RecvTimeoutError::Timeout) => {
                let interrupted = cancelled();
                if !interrupted && start.elapsed() < timeout {
                    continue;
                }
                // Registered before the reply channel is dropped, so the job's cleanup
                // always finds it.
                pool().hanging.insert(key.to_path_buf());
                drop(reply_rx);
                drop(worker);
                return Err(ReadError::Other(if interrupted {
                    "interrupted".into()
                } else {
                    format!(
                        "the read did not finish within {} s (a hung driver?)",
                        timeout.as_secs_f64()
                    )
                }));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(ReadError::Other("the reader thread failed".into()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_threads_block_every_signal() {
        let (tx, rx) = mpsc::channel();
        with_timeout(Path::new("/test/mask"), READ_TIMEOUT, move || {
            // SAFETY: reads this thread's mask into a zeroed set.
            let blocked = unsafe {
                let mut cur: libc::sigset_t = std::mem::zeroed();
                libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut cur);
                [libc::SIGINT, libc::SIGTERM, libc::SIGHUP]
                    .iter()
                    .all(|&s| libc::sigismember(&cur, s) == 1)
            };
            tx.send(blocked).unwrap();
        })
        .unwrap();
        assert!(rx.recv().unwrap());
    }

    #[test]
    fn a_hung_read_times_out_is_not_retried_and_its_thread_ends() {
        let key = Path::new("/test/hung");
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let t0 = Instant::now();
        let r = with_timeout(key, Duration::from_millis(100), move || {
            release_rx.recv().ok();
            7
        });
        assert!(t0.elapsed() < Duration::from_secs(2));
        assert!(r.unwrap_err().to_string().contains("did not finish"));
        // The same file again: refused at once while the first read hangs.
        let t1 = Instant::now();
        let again = with_timeout(key, Duration::from_secs(5), || 1);
        assert!(again.unwrap_err().to_string().contains("still hangs"));
        assert!(t1.elapsed() < Duration::from_millis(500));
        // Other files still read.
        assert_eq!(
            with_timeout(Path::new("/test/ok"), READ_TIMEOUT, || 3),
            Ok(3)
        );
        // Once the hung read returns, its file may be read again.
        release_tx.send(()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool().hanging.contains(key) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(with_timeout(key, READ_TIMEOUT, || 4), Ok(4));
    }

    #[test]
    fn healthy_reads_reuse_a_few_threads() {
        for i in 0..200 {
            assert_eq!(
                with_timeout(Path::new("/test/many"), READ_TIMEOUT, move || i),
                Ok(i)
            );
        }
        assert!(pool().idle.len() <= MAX_IDLE);
    }

    #[test]
    fn kinds_from_paths() {
        assert_eq!(Kind::of("/proc/cpuinfo"), Kind::Cpuinfo);
        assert_eq!(Kind::of("/proc/stat"), Kind::ProcTable);
        assert_eq!(Kind::of("/proc/device-tree/model"), Kind::DeviceTree);
        assert_eq!(
            Kind::of("/sys/class/thermal/thermal_zone0/temp"),
            Kind::Sysfs
        );
        assert_eq!(Kind::of("/etc/os-release"), Kind::Text);
    }
}
