//! Leave the system as found: every sysfs value boardbench changes (cpufreq limits and
//! governors, devfreq governors, boost, the PCIe ASPM policy …) is written through a
//! [`Restorer`], which remembers the first original of each file and writes it back
//! - when the restorer is dropped (normal end, early return, `?`),
//! - on SIGINT, SIGTERM, SIGHUP or SIGQUIT (then the process exits with 128 + signal: 130,
//!   143, 129, 131),
//! - from the panic hook (before the default hook prints the panic).
//!
//! sbc-bench leaves `scaling_min_freq`, MaxKHz caps and devfreq governors changed and applies
//! policy0's governor to every policy (docs/sbc-bench-compat.md); this guard restores each file to exactly what it held,
//! written in the form the kernel accepts ([`crate::sysfs::restore_form`]: the selected word of
//! an `[a] b c` list). A write the kernel refuses is a [`Refused`] error and is not recorded:
//! nothing changed, so there is nothing to put back and nothing to fail later.
//!
//! Restoring goes backwards (last change first) and makes a second pass for writes the kernel
//! refused in the first, because cpufreq may reject a `scaling_min_freq` above the current
//! `scaling_max_freq` (or the other way round) until the partner value is back.

use std::fmt;
use std::sync::{Arc, Mutex, Once, Weak};

use crate::sysfs::{RootFs, Sysfs, restore_form};

/// A change that did not happen: "could not change X to V: reason". The file is untouched and
/// not recorded, so it is never restored; callers report it once and carry on.
#[derive(Debug)]
pub struct Refused {
    /// Machine path ("/sys/module/pcie_aspm/parameters/policy").
    pub path: String,
    /// The value that was to be written.
    pub value: String,
    /// Why: the kernel's error, or why the current value could not be put back afterwards.
    pub reason: String,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "could not change {} to {}: {}",
            self.path, self.value, self.reason
        )
    }
}

impl std::error::Error for Refused {}

/// One file changed by boardbench and what to write to put it back.
#[derive(Debug, Clone)]
struct Saved {
    /// Machine path ("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq").
    abs: String,
    /// The original in the form the kernel accepts, without the newline.
    original: String,
}

#[derive(Debug)]
struct Ledger {
    sysfs: Arc<dyn Sysfs>,
    saved: Vec<Saved>,
    /// Set once the signal thread (or the panic hook) has restored this ledger: the process is
    /// ending, and a write the main thread makes after that — a tuning step that was under way
    /// when Ctrl-C came — would never be put back, so it is refused instead.
    closed: bool,
}

impl Ledger {
    /// Writes every original back, last change first, and forgets them. Returns the failures.
    fn restore(&mut self) -> Vec<String> {
        let mut pending: Vec<Saved> = self.saved.drain(..).rev().collect();
        let mut errors = Vec::new();
        for pass in 0..2 {
            let mut failed = Vec::new();
            for s in pending {
                if let Err(e) = self.sysfs.write(&s.abs, &format!("{}\n", s.original)) {
                    if pass == 1 {
                        errors.push(format!("{} (to {}): {e}", s.abs, s.original));
                    }
                    failed.push(s);
                }
            }
            pending = failed;
            if pending.is_empty() {
                break;
            }
        }
        errors
    }
}

/// Every live ledger, for the signal handler and the panic hook.
static LEDGERS: Mutex<Vec<Weak<Mutex<Ledger>>>> = Mutex::new(Vec::new());
static HOOKS: Once = Once::new();
/// What else must end before the process exits on a signal (the running tools: they are in
/// process groups of their own and would outlive it), run before the restore.
static ON_SIGNAL: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// Adds `f` to what the signal thread runs before it restores and exits (once per `f`).
pub fn on_signal(f: fn()) {
    let mut v = ON_SIGNAL.lock().unwrap_or_else(|p| p.into_inner());
    if !v.iter().any(|g| std::ptr::fn_addr_eq(*g, f)) {
        v.push(f);
    }
}

/// Restores every live ledger (signal handler, panic hook). Never panics.
///
/// The panic hook passes `wait = false`: a panic inside [`Restorer::write`] happens with that
/// ledger locked on this very thread, and waiting would deadlock (its drop restores it during
/// unwinding instead). The signal thread waits: the main thread releases the lock in
/// microseconds.
fn restore_all(wait: bool) {
    let ledgers: Vec<Arc<Mutex<Ledger>>> = match LEDGERS.lock() {
        Ok(l) => l.iter().filter_map(Weak::upgrade).collect(),
        Err(p) => p.get_ref().iter().filter_map(Weak::upgrade).collect(),
    };
    for l in ledgers {
        let mut guard = if wait {
            l.lock().unwrap_or_else(|p| p.into_inner())
        } else {
            match l.try_lock() {
                Ok(g) => g,
                Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => continue,
            }
        };
        guard.closed = true;
        for e in guard.restore() {
            eprintln!("boardbench: could not restore {e}");
        }
    }
}

/// Installs the signal thread and the panic hook (once per process).
fn install_hooks() {
    HOOKS.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_all(false);
            prev(info);
        }));
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) {
            Ok(mut signals) => {
                std::thread::Builder::new()
                    .name("restore-on-signal".into())
                    .spawn(move || {
                        if let Some(sig) = signals.forever().next() {
                            // A closed terminal: what is printed from here on must not fail.
                            if sig == SIGHUP {
                                probe::terminal::hang_up();
                            }
                            let hooks: Vec<fn()> =
                                ON_SIGNAL.lock().unwrap_or_else(|p| p.into_inner()).clone();
                            for f in hooks {
                                f();
                            }
                            restore_all(true);
                            std::process::exit(128 + sig);
                        }
                    })
                    .ok();
            }
            Err(e) => eprintln!("boardbench: cannot watch signals ({e}); Ctrl-C will not restore"),
        }
    });
}

/// Writes sysfs values and puts the originals back (see the module documentation).
#[derive(Debug)]
pub struct Restorer {
    ledger: Arc<Mutex<Ledger>>,
}

impl Restorer {
    /// A restorer writing files under `root`. Installs the signal and panic handlers on first
    /// use.
    pub fn new(root: &probe::Root) -> Self {
        Self::with_sysfs(Arc::new(RootFs::new(root)))
    }

    /// A restorer writing through `sysfs` (tests put a model of the kernel here).
    pub fn with_sysfs(sysfs: Arc<dyn Sysfs>) -> Self {
        install_hooks();
        let ledger = Arc::new(Mutex::new(Ledger {
            sysfs,
            saved: Vec::new(),
            closed: false,
        }));
        let mut all = LEDGERS.lock().unwrap_or_else(|p| p.into_inner());
        all.retain(|w| w.strong_count() > 0);
        all.push(Arc::downgrade(&ledger));
        Restorer { ledger }
    }

    /// Writes `value` (plus a newline, as `echo` does) to the machine path `abs`. The file's
    /// original is remembered after the first write that the kernel accepts. A file whose
    /// current value could not be written back is not changed at all.
    pub fn write(&self, abs: &str, value: &str) -> Result<(), Refused> {
        let refused = |reason: String| Refused {
            path: abs.to_string(),
            value: value.to_string(),
            reason,
        };
        let mut ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
        if ledger.closed {
            return Err(refused(
                "the session is ending (everything was restored)".into(),
            ));
        }
        let known = ledger.saved.iter().any(|s| s.abs == abs);
        let original = if known {
            None
        } else {
            let shown = ledger
                .sysfs
                .read(abs)
                .map_err(|e| refused(format!("cannot read it first: {e}")))?;
            let form = restore_form(&shown)
                .map_err(|e| refused(format!("its value could not be put back: {e}")))?;
            Some(form)
        };
        ledger
            .sysfs
            .write(abs, &format!("{value}\n"))
            .map_err(|e| refused(e.to_string()))?;
        if let Some(original) = original {
            ledger.saved.push(Saved {
                abs: abs.to_string(),
                original,
            });
        }
        Ok(())
    }

    /// [`Restorer::write`] as a plain callback, for procedures that take a writer (an OPP walk).
    pub fn setter(&self) -> impl Fn(&str, &str) -> Result<(), Refused> + '_ {
        move |abs, value| self.write(abs, value)
    }

    /// Machine paths changed so far (in order of their first change).
    pub fn changed(&self) -> Vec<String> {
        let ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
        ledger.saved.iter().map(|s| s.abs.clone()).collect()
    }

    /// Restores now (also done on drop). Returns the paths that could not be restored, each
    /// with the value and the reason.
    pub fn restore(&self) -> Vec<String> {
        let mut ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
        ledger.restore()
    }
}

impl Drop for Restorer {
    fn drop(&mut self) {
        for e in self.restore() {
            eprintln!("boardbench: could not restore {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panic hook restores every live restorer of the process: tests that write must not
    /// overlap with the one that panics on purpose.
    static SERIAL: Mutex<()> = Mutex::new(());
    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn tree() -> (tempfile::TempDir, probe::Root) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("sys/devices/system/cpu/cpufreq/policy0");
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(p.join("scaling_max_freq"), "1800000\n").unwrap();
        std::fs::write(p.join("scaling_min_freq"), "1000000\n").unwrap();
        std::fs::write(p.join("scaling_governor"), "schedutil\n").unwrap();
        let root = probe::Root::new(d.path());
        (d, root)
    }

    const MAX: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq";
    const MIN: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq";
    const GOV: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor";

    #[test]
    fn drop_puts_back_the_first_original_of_every_file() {
        let _s = serial();
        let (_d, root) = tree();
        {
            let r = Restorer::new(&root);
            r.write(MIN, "408000").unwrap();
            r.write(MAX, "600000").unwrap();
            r.write(MAX, "816000").unwrap();
            r.write(GOV, "performance").unwrap();
            assert_eq!(root.read(MAX).unwrap(), "816000\n");
            assert_eq!(root.read(GOV).unwrap(), "performance\n");
            assert_eq!(r.changed(), [MIN, MAX, GOV]);
        }
        assert_eq!(root.read(MAX).unwrap(), "1800000\n");
        assert_eq!(root.read(MIN).unwrap(), "1000000\n");
        assert_eq!(root.read(GOV).unwrap(), "schedutil\n");
    }

    #[test]
    fn after_the_signal_restore_no_write_gets_through() {
        // Ctrl-C while tuning is still under way: the signal thread restores, then exits; a
        // write the main thread makes in between would stay changed, so it is refused.
        let _s = serial();
        let (_d, root) = tree();
        let r = Restorer::new(&root);
        r.write(GOV, "performance").unwrap();
        restore_all(true);
        assert_eq!(root.read(GOV).unwrap(), "schedutil\n");
        let e = r.write(MAX, "600000").unwrap_err();
        assert!(e.to_string().contains("session is ending"), "{e}");
        assert_eq!(root.read(MAX).unwrap(), "1800000\n");
        assert!(r.changed().is_empty());
    }

    #[test]
    fn explicit_restore_then_drop_restores_once_and_reports_nothing() {
        let _s = serial();
        let (_d, root) = tree();
        let r = Restorer::new(&root);
        r.write(GOV, "performance").unwrap();
        assert!(r.restore().is_empty());
        assert_eq!(root.read(GOV).unwrap(), "schedutil\n");
        // A later change by someone else is not overwritten by the drop.
        std::fs::write(root.path(GOV), "powersave\n").unwrap();
        drop(r);
        assert_eq!(root.read(GOV).unwrap(), "powersave\n");
    }

    #[test]
    fn a_missing_file_is_an_error_and_nothing_is_recorded() {
        let _s = serial();
        let (_d, root) = tree();
        let r = Restorer::new(&root);
        let e = r.write("/sys/nope/scaling_max_freq", "1").unwrap_err();
        assert!(e.to_string().contains("/sys/nope/scaling_max_freq"), "{e}");
        assert!(r.changed().is_empty());
    }

    #[test]
    fn a_panic_restores_through_the_hook() {
        let _s = serial();
        let (_d, root) = tree();
        let r = Restorer::new(&root);
        r.write(MAX, "600000").unwrap();
        // The restorer lives on after the panic, so its drop cannot be what restored the value:
        // only the hook can have.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _keep = &r;
            panic!("test panic");
        }));
        assert!(result.is_err());
        assert_eq!(root.read(MAX).unwrap(), "1800000\n");
        assert!(r.changed().is_empty());
    }
}
