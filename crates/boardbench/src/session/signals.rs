//! Ending a session cleanly on Ctrl-C: the result document is still written, then everything
//! is restored.
//!
//! The [`tune::Restorer`] restores and exits the process on SIGINT/SIGTERM/SIGHUP — at
//! once, before anything else could be written. So `thermal`, `env` and `review` block those signals in the
//! main thread *before* any other thread exists (every thread started later, the Restorer's
//! signal thread included, inherits the mask) and take them synchronously with `sigtimedwait`
//! in their wait loops. A blocked signal is never delivered to a handler, so the Restorer's
//! thread never sees it; the command then stops its work, writes the document, restores through
//! the Restorer as usual and exits with 128 + signal. A panic still restores through the hook.
//! A blocked mask survives fork and exec, so the one child runner (`adapters::process::Group`)
//! unblocks them in the command.
//! The idle gate waits through the held signals too, so Ctrl-C while waiting ends the mode with
//! 128 + signal before anything was changed.
//! SIGQUIT (Ctrl-\) is held as SIGTERM is (exit 131): its default, a core dump, would leave
//! the running tool orphaned and the settings changed. A hang-up (SIGHUP: the ssh session or
//! terminal closed) ends the mode the same way (exit 129, the run marked interrupted); the
//! standard streams that were the terminal go to /dev/null first
//! ([`probe::terminal::hang_up`]), so nothing written afterwards fails or panics.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

pub const SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT held for [`Held::wait`]. Create it before any thread
/// is started.
#[derive(Clone, Copy)]
pub struct Held {
    set: libc::sigset_t,
}

impl Held {
    pub fn block() -> Self {
        // SAFETY: sigset_t is plain data initialised by sigemptyset; pthread_sigmask only changes
        // the mask of the calling thread.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for s in SIGNALS {
                libc::sigaddset(&mut set, s);
            }
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            Held { set }
        }
    }

    /// Sleeps up to `timeout`; returns the signal when one arrived meanwhile (or was pending).
    /// A hang-up first points the standard streams that were the terminal at /dev/null.
    pub fn wait(&self, timeout: Duration) -> Option<i32> {
        let ts = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as _,
        };
        loop {
            // SAFETY: set is initialised; a null siginfo pointer is allowed.
            let r = unsafe { libc::sigtimedwait(&self.set, std::ptr::null_mut(), &ts) };
            if r > 0 {
                // The terminal is gone: what the mode prints from now on must not fail.
                if r == libc::SIGHUP {
                    probe::terminal::hang_up();
                }
                return Some(r);
            }
            // EINTR (another signal's handler ran): the remaining time is lost, which only
            // shortens one wait.
            if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return None;
            }
        }
    }
}

/// The end of a mode's work as its steps see it: a thread takes the held signals (they are
/// blocked in every thread) and sets [`Stop::cancel`]; the steps check it between
/// measurements. `run`, `guide` (and `guide peer`), `monitor` and review's monitoring window
/// use it.
pub struct Stop {
    pub cancel: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
    done: Arc<AtomicBool>,
    second_exits: Arc<AtomicBool>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

/// A [`Stop::watch`] action: gives up the probe's reads in progress (and every later one), so
/// that a read hanging in a driver does not hold the end up.
pub fn give_up_reads() {
    probe::bounded_read::cancel_flag().store(true, Ordering::Relaxed);
}

impl Stop {
    /// Watches `held` (nothing to watch: never cancelled). On the first signal it prints
    /// `say` (when given) and runs `act` (e.g. ending the running tool) on the watcher thread.
    pub fn watch(held: Option<Held>, say: Option<&'static str>, act: Option<fn()>) -> Stop {
        let cancel = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicI32::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let second_exits = Arc::new(AtomicBool::new(false));
        let watcher = held.map(|h| {
            let (cancel, signal, done, second_exits) = (
                cancel.clone(),
                signal.clone(),
                done.clone(),
                second_exits.clone(),
            );
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if let Some(s) = h.wait(Duration::from_millis(100)) {
                        let first = signal.swap(s, Ordering::Relaxed) == 0;
                        cancel.store(true, Ordering::Relaxed);
                        if !first && second_exits.load(Ordering::Relaxed) {
                            std::process::exit(128 + s);
                        }
                        if first {
                            if let Some(text) = say {
                                eprintln!("\nsignal {s}: {text}");
                            }
                            if let Some(f) = act {
                                f();
                            }
                        }
                    }
                }
            })
        });
        Stop {
            cancel,
            signal,
            done,
            second_exits,
            watcher,
        }
    }

    /// A second signal ends the process at once (128 + signal), even when something is stuck
    /// that the first could not end. Only for a mode that changed nothing (`monitor`): the
    /// process exits without restoring.
    pub fn exit_on_second_signal(self) -> Self {
        self.second_exits.store(true, Ordering::Relaxed);
        self
    }

    /// The signal that arrived, if one did.
    pub fn signal(&self) -> Option<i32> {
        Some(self.signal.load(Ordering::Relaxed)).filter(|s| *s != 0)
    }

    /// Sleeps up to `d` in short slices; false when a signal ended the sleep.
    pub fn sleep(&self, d: Duration) -> bool {
        let end = std::time::Instant::now() + d;
        while std::time::Instant::now() < end {
            if self.cancel.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20).min(end - std::time::Instant::now()));
        }
        !self.cancel.load(Ordering::Relaxed)
    }

    /// Stops watching; returns the signal that arrived, if one did.
    pub fn finish(mut self) -> Option<i32> {
        self.done.store(true, Ordering::Relaxed);
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
        self.signal()
    }
}
