//! One lifecycle for every mode that benchmarks or watches the machine (`run`, `thermal`,
//! `env`, `graph`, `review`), so that none of them can forget a step: signals, the idle gate,
//! the Restorer, tuning, the kernel-message cursor and the snapshots around the work, and at the
//! end restoring, the result document and the exit status.
//!
//! A mode writes only its phases:
//!
//! ```text
//! let probed = Session::probe(root, Signals::Held);      // signals first, then the machine
//! // … the mode's own warnings about probed.machine …
//! let session = match probed.start(&SessionOptions { idle, tune, record: true }) {
//!     Ok(s) => s,
//!     Err(status) => return Ok(status),                   // never idle, or Ctrl-C while waiting
//! };
//! // … the mode's phases: session.root, .machine, .restorer, .wait(…) for Ctrl-C,
//! // .writes for values the mode changes and puts back itself (graph's and clock's OPP caps) …
//! let closed = session.close();     // after snapshot, kernel messages, restore and record
//! let doc = closed.document(Record { profile, options, monitor, phases, measurements, … });
//! out.save(&doc)?;                  // -o FILE and the results database
//! Ok(ExitStatus::judged(&doc))
//! ```

use std::time::{Duration, Instant};

use document::machine::MachineInfo;
use document::run::{
    IdleGate, KmsgWindow, Phase, RunOptions, RunRecord, SettingChange, StateSnapshot,
};
use document::samples::MonitorLayout;
use document::{Measurement, ResultDocument};
use probe::runstate::{Cursor, Kmsg};

use crate::session::assemble;
use crate::session::idle::{self, IdleOptions};
use crate::session::signals::Held;
use crate::session::stamp::{self, Stamp};
use tune::Restorer;
use tune::restorer::Refused;
use tune::tuning;

/// How a mode ends, as the process exit code says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: completed, the numbers can be trusted.
    Valid,
    /// 1: an error the mode reported itself (errors returned as `Err` are 1 as well).
    Error,
    /// 2: completed, but the findings (or a failed command) say not to trust it.
    Untrusted,
    /// 3: the idle gate gave up on a busy box (unattended).
    NeverIdle,
    /// 128 + signal: ended by Ctrl-C, SIGTERM or SIGHUP (after restoring everything).
    Interrupted(i32),
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Valid => 0,
            ExitStatus::Error => 1,
            ExitStatus::Untrusted => 2,
            ExitStatus::NeverIdle => 3,
            ExitStatus::Interrupted(s) => 128 + s,
        }
    }

    /// The one rule of every mode: a signal that ended it → 128 + signal; otherwise Valid when
    /// the mode's figures (its findings, a command's end …) can be trusted, else Untrusted.
    pub fn of(signal: Option<i32>, trusted: bool) -> Self {
        match signal {
            Some(s) => ExitStatus::Interrupted(s),
            None => Self::valid_if(trusted),
        }
    }

    /// Valid or Untrusted, as the document's findings say.
    pub fn judged(doc: &ResultDocument) -> Self {
        Self::valid_if(findings::trustworthy(&doc.findings))
    }

    pub fn valid_if(ok: bool) -> Self {
        if ok {
            ExitStatus::Valid
        } else {
            ExitStatus::Untrusted
        }
    }
}

/// What happens on SIGINT, SIGTERM and SIGHUP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signals {
    /// The Restorer restores and exits at once (`run`, `graph`: nothing left worth writing).
    Restore,
    /// Held for the mode ([`Session::wait`]): it ends its work, still writes its result, and
    /// then restores (see [`crate::session::signals`]).
    Held,
}

/// The machine as found, before anything was changed. Signals are already held (when asked),
/// so that every thread started later inherits the mask.
pub struct Probed {
    pub root: probe::Root,
    pub machine: MachineInfo,
    pub started: Stamp,
    pub root_user: bool,
    held: Option<Held>,
}

/// The idle-gate step: its thresholds and time limit, and what the refusal says the mode was
/// about to do ("benchmarking", "preparing"). A mode makes it from its flags with
/// [`IdleArgs::step`](crate::session::idle::IdleArgs::step) (none with `--no-idle-gate`).
pub struct IdleStep<'a> {
    pub options: IdleOptions,
    pub doing: &'a str,
}

/// Which steps a mode's session takes.
#[derive(Default)]
pub struct SessionOptions<'a> {
    /// Wait for an idle box first.
    pub idle: Option<IdleStep<'a>>,
    /// Tune (governors, devfreq, MaxKHz) for the whole session; `None`: the mode changes what
    /// it needs itself, through [`Session::restorer`].
    pub tune: Option<tuning::TuneOptions>,
    /// Snapshots before and after (and, with `kmsg`, the kernel messages in between): for a
    /// result document.
    pub record: bool,
    pub kmsg: bool,
}

/// A running session: the machine is tuned, the "before" state recorded.
pub struct Session {
    pub root: probe::Root,
    pub machine: MachineInfo,
    pub started: Stamp,
    /// Every write goes through it: restored on close, error, signal and panic.
    pub restorer: Restorer,
    pub idle_gate: Option<IdleGate>,
    /// What the tuning step changed (with the values before).
    pub settings: Vec<SettingChange>,
    /// What the mode changes itself and puts back before the session ends (see [`ModeWrites`]).
    pub writes: ModeWrites,
    pub before: Option<StateSnapshot>,
    held: Option<Held>,
    tuned: bool,
    kmsg: Option<Cursor>,
    t0: Instant,
}

/// The sysfs values a mode changes itself during its session, beside the tuning (graph's and
/// clock's OPP caps): written through a [`Restorer`] of their own, so that the mode can put
/// them back at any point ([`ModeWrites::restore`]: graph after each cluster, clock after each
/// policy, so the next runs on the machine as found) while the tuning stays. Each file is
/// recorded for the document once per stretch (its value before, the last value set, and when
/// restored the value read back); what is still changed at [`Session::close`] is restored
/// there, and on a signal or panic by the Restorer itself.
pub struct ModeWrites {
    root: probe::Root,
    restorer: Restorer,
    settings: Vec<SettingChange>,
}

impl ModeWrites {
    fn new(root: &probe::Root) -> Self {
        ModeWrites {
            root: root.clone(),
            restorer: Restorer::new(root),
            settings: Vec::new(),
        }
    }

    /// Writes `value` to the machine path `abs` and records the change (see [`ModeWrites`]).
    pub fn write(&mut self, abs: &str, value: &str) -> Result<(), Refused> {
        let before = self.root.read_value(abs).unwrap_or_default();
        self.restorer.write(abs, value)?;
        match self
            .settings
            .iter_mut()
            .rev()
            .find(|s| s.path == abs && s.after.is_none())
        {
            Some(s) => s.set = value.into(),
            None => self.settings.push(SettingChange {
                path: abs.to_string(),
                before,
                set: value.into(),
                after: None,
            }),
        }
        Ok(())
    }

    /// Puts every value changed since the last restore back now and reads each back into its
    /// record. Returns the files that could not be restored.
    pub fn restore(&mut self) -> Vec<String> {
        let failed = self.restorer.restore();
        let open = self.settings.iter_mut().filter(|s| s.after.is_none());
        read_back(&self.root, open);
        failed
    }
}

/// An OPP walk (`measure::opp_walk`) writes its caps through the mode's writes.
impl measure::opp_walk::PolicyWriter for ModeWrites {
    fn write_value(&mut self, abs: &str, value: &str) -> Result<(), String> {
        self.write(abs, value).map_err(|e| format!("{e:#}"))
    }
}

/// The one rule for what a restored file held afterwards: read back, `None` when unreadable.
fn read_back<'a>(root: &probe::Root, settings: impl Iterator<Item = &'a mut SettingChange>) {
    for s in settings {
        s.after = root.read_value(&s.path).ok();
    }
}

/// After the session: everything restored, the "after" state recorded.
pub struct Closed {
    pub root: probe::Root,
    pub machine: MachineInfo,
    pub started: Stamp,
    pub idle_gate: Option<IdleGate>,
    pub settings: Vec<SettingChange>,
    pub before: Option<StateSnapshot>,
    pub after: Option<StateSnapshot>,
    pub kmsg: Option<KmsgWindow>,
    pub duration_s: f64,
    /// Files that could not be put back.
    pub restore_failures: Vec<String>,
}

/// What the mode adds to its result document.
#[derive(Default)]
pub struct Record {
    pub profile: String,
    /// Per headline figure, whether it compares with sbc-bench's (empty: the profile decides).
    pub comparability: Vec<document::run::FigureComparability>,
    pub options: RunOptions,
    pub monitor: Option<MonitorLayout>,
    pub phases: Vec<Phase>,
    pub measurements: Vec<Measurement>,
    /// `--device`; default: the device name of [`assemble::device_name`].
    pub device: Option<String>,
}

/// Whether this process runs as root (needed to tune the real machine and read /dev/kmsg).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

impl Session {
    /// Holds the signals (when asked) before any thread exists, then reads the machine.
    pub fn probe(root: probe::Root, signals: Signals) -> Probed {
        let held = (signals == Signals::Held).then(Held::block);
        let started = stamp::now();
        let machine = probe::snapshot::take(&root);
        Probed {
            root,
            machine,
            started,
            root_user: is_root(),
            held,
        }
    }

    /// Sleeps up to `d`; with held signals, returns the one that arrived meanwhile.
    pub fn wait(&self, d: Duration) -> Option<i32> {
        match &self.held {
            Some(h) => h.wait(d),
            None => {
                std::thread::sleep(d);
                None
            }
        }
    }

    /// The held signals (for a mode that waits for them on a thread of its own).
    pub fn held(&self) -> Option<Held> {
        self.held
    }

    /// Starts a stretch of the session that is recorded as a document of its own (the
    /// "before" snapshot now; see [`Stretch`]).
    pub fn stretch(&self) -> Stretch {
        Stretch {
            before: assemble::snapshot(&self.root, &self.machine),
            t0: Instant::now(),
        }
    }

    /// The stretch's result document with its findings: the "after" snapshot now, then the
    /// same assembly as [`Closed::document`]. Nothing is restored: the session goes on.
    pub fn stretch_document(&self, s: Stretch, r: Record) -> ResultDocument {
        let after = assemble::snapshot(&self.root, &self.machine);
        compose(
            &self.root,
            &self.machine,
            &self.started,
            Frame {
                idle_gate: self.idle_gate.clone(),
                settings: self.settings.clone(),
                before: Some(s.before),
                after: Some(after),
                kmsg: None,
                duration_s: s.t0.elapsed().as_secs_f64(),
            },
            r,
        )
    }

    /// After snapshot, the kernel messages of the window, restore, and each changed file read
    /// back into its record.
    pub fn close(mut self) -> Closed {
        let duration_s = self.t0.elapsed().as_secs_f64();
        let after = self
            .before
            .is_some()
            .then(|| assemble::snapshot(&self.root, &self.machine));
        let kmsg = self.kmsg.map(|c| Kmsg::since(&self.root, &c));
        // The mode's own changes first (they were made last), then the tuning's.
        let own_failures = self.writes.restore();
        let mut restore_failures =
            tuning::restore_and_record(&self.root, &self.restorer, &mut self.settings);
        if self.tuned {
            for e in &restore_failures {
                eprintln!("boardbench: could not restore {e}");
            }
        }
        for e in &own_failures {
            eprintln!("boardbench: could not restore {e}");
        }
        restore_failures.extend(own_failures);
        self.settings.append(&mut self.writes.settings);
        Closed {
            root: self.root,
            machine: self.machine,
            started: self.started,
            idle_gate: self.idle_gate,
            settings: self.settings,
            before: self.before,
            after,
            kmsg,
            duration_s,
            restore_failures,
        }
    }
}

impl Probed {
    /// Writing sysfs needs root on the real machine; a --sysroot tree is writable by its owner.
    pub fn may_write(&self) -> bool {
        self.root_user || !self.root.is_host()
    }

    /// The one "not running as root" warning (stderr), on the real machine only:
    /// `consequences` says what stays as it is ("governors stay as they are").
    pub fn warn_unless_root(&self, consequences: &str) {
        if !self.root_user && self.root.is_host() {
            eprintln!("Warning: not running as root: {consequences}.");
        }
    }

    /// The idle gate, the Restorer, tuning (its remarks and refusals on stderr), the kernel
    /// message cursor and the "before" snapshot. `Err` is how the mode ends without starting:
    /// the box never became idle, or a signal arrived while waiting.
    pub fn start(self, o: &SessionOptions) -> Result<Session, ExitStatus> {
        let idle_gate = match &o.idle {
            Some(i) => idle::gate(&i.options, &self.root, i.doing, self.held.as_ref())?,
            None => None,
        };
        let restorer = Restorer::new(&self.root);
        let writes = ModeWrites::new(&self.root);
        let mut settings = Vec::new();
        if let Some(t) = &o.tune {
            let plan = tuning::plan(&self.root, &self.machine, t);
            for r in &plan.remarks {
                eprintln!("Note: {r}");
            }
            let applied = tuning::apply(&self.root, &restorer, &plan);
            for f in &applied.failures {
                eprintln!("Warning: {f}");
            }
            settings = applied.settings;
        }
        let kmsg = (o.record && o.kmsg).then(|| kmsg_cursor(&self.root, self.root_user));
        let before = o
            .record
            .then(|| assemble::snapshot(&self.root, &self.machine));
        Ok(Session {
            root: self.root,
            machine: self.machine,
            started: self.started,
            restorer,
            idle_gate,
            settings,
            writes,
            before,
            held: self.held,
            tuned: o.tune.is_some(),
            kmsg,
            t0: Instant::now(),
        })
    }
}

impl Closed {
    /// The result document with its findings.
    pub fn document(&self, r: Record) -> ResultDocument {
        compose(
            &self.root,
            &self.machine,
            &self.started,
            Frame {
                idle_gate: self.idle_gate.clone(),
                // The tuning's changes, then the mode's own (`Session::writes`).
                settings: self.settings.clone(),
                before: self.before.clone(),
                after: self.after.clone(),
                kmsg: self.kmsg.clone(),
                duration_s: self.duration_s,
            },
            r,
        )
    }
}

/// A stretch of a running session recorded as a result document of its own: review's
/// performance baseline, measured between its tuning and its monitoring window. The stretch
/// has its own before/after snapshots and duration; the machine, the start, the idle gate and
/// the tuning's record are the session's. Made by [`Session::stretch`], recorded by
/// [`Session::stretch_document`] — through the same assembly as [`Closed::document`].
pub struct Stretch {
    before: StateSnapshot,
    t0: Instant,
}

/// What the session (or one stretch of it) adds to a mode's [`Record`].
struct Frame {
    idle_gate: Option<IdleGate>,
    settings: Vec<SettingChange>,
    before: Option<StateSnapshot>,
    after: Option<StateSnapshot>,
    kmsg: Option<KmsgWindow>,
    duration_s: f64,
}

/// The one assembly of a mode's result document from the session's frame and the mode's record.
fn compose(
    root: &probe::Root,
    machine: &MachineInfo,
    started: &Stamp,
    f: Frame,
    r: Record,
) -> ResultDocument {
    let run = RunRecord {
        profile: r.profile,
        comparability: r.comparability,
        options: r.options,
        idle_gate: f.idle_gate,
        settings: f.settings,
        monitor: r.monitor,
        phases: r.phases,
        before: f.before,
        after: f.after,
        kmsg: f.kmsg,
        duration_s: f.duration_s,
        // Filled in by assemble::document.
        kernel: None,
        // A mode's own record (thermal's verdict) is set by the mode on the document.
        thermal: None,
    };
    assemble::document(root, machine, r.device, started, r.measurements, run)
}

/// Where the run's kernel messages start; on a real machine as root the session also writes a
/// start marker into the kernel log (probe only reads).
fn kmsg_cursor(root: &probe::Root, root_user: bool) -> Cursor {
    let c = Kmsg::cursor(root);
    if root_user && root.is_host() {
        let _ = write_kmsg_marker(root, "boardbench: run started");
    }
    c
}

/// Writes `text` into the kernel log as a user-facility notice. Only into a character device:
/// a fixture tree's plain `dev/kmsg` file is never changed.
fn write_kmsg_marker(root: &probe::Root, text: &str) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::FileTypeExt;
    let kmsg = probe::runstate::kmsg::KMSG;
    let path = root.path(kmsg);
    let meta = std::fs::metadata(&path).map_err(|e| format!("{kmsg}: {e}"))?;
    if !meta.file_type().is_char_device() {
        return Err(format!("{kmsg}: not a character device, not written"));
    }
    // One write() is one record; "<5>" = notice (the facility stays "user").
    let line = format!("<5>{}\n", text.replace('\n', " "));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| format!("{kmsg}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(ExitStatus::Valid.code(), 0);
        assert_eq!(ExitStatus::Error.code(), 1);
        assert_eq!(ExitStatus::Untrusted.code(), 2);
        assert_eq!(ExitStatus::NeverIdle.code(), 3);
        assert_eq!(ExitStatus::Interrupted(libc::SIGINT).code(), 130);
        assert_eq!(ExitStatus::Interrupted(libc::SIGTERM).code(), 143);
    }

    #[test]
    fn a_fixture_kmsg_file_is_never_written() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("dev")).unwrap();
        std::fs::write(d.path().join("dev/kmsg"), "6,50,1,-;late\n").unwrap();
        let r = probe::Root::new(d.path());
        assert!(write_kmsg_marker(&r, "boardbench: run started").is_err());
        let empty = tempfile::tempdir().unwrap();
        assert!(write_kmsg_marker(&probe::Root::new(empty.path()), "x").is_err());
        assert_eq!(
            std::fs::read_to_string(d.path().join("dev/kmsg")).unwrap(),
            "6,50,1,-;late\n"
        );
    }
}
