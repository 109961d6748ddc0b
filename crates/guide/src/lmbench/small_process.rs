//! lat_proc's fork, exec and shell rows measured from a small, freshly started process.
//!
//! What `fork` costs is mostly the copy of the forking process's page tables for its private,
//! written memory. lmbench forks from its own small `lat_proc`; the guide's measuring child
//! (`isolate`) is a copy of the guide's whole process — heap, thread stacks, buffers of earlier
//! rows — so the same fork cost it 1.6–1.95× lmbench's (exec 1.2–1.3×: an exec starts with a
//! fork). Dropping mappings in a forked copy is not safe (glibc's fork handlers touch the
//! allocator everywhere), so the binary that hosts the guide re-executes itself instead: with
//! [`ARG`] as its first argument it does nothing but this measurement, before parsing its command
//! line, and reports on standard output. A binary enables that with [`serve_or_enable`] as the
//! first statement of `main`; without it (library tests) the rows are measured from the measuring
//! child as before and the section's note says which.
//!
//! Protocol: `PROGRAM ARG KIND PARAMS`, KIND `fork|exec|shell`, PARAMS the harness's settings as
//! JSON ([`Params`]); the report is `isolate`'s one JSON document on standard output, exit 0. A
//! cancel (Ctrl-C in the guide) ends the small process and its process group (it and the
//! processes it forked) by the one kill rule (`adapters::process`), so nothing is left.

use std::ffi::OsString;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use adapters::process::Group;
use document::guide::GuideValue;
use serde::{Deserialize, Serialize};

use super::isolate;
use super::lat_ctx;
use super::lat_proc::{self, Kind};
use super::timing::{Error, Result, Timing};

/// How long a cancelled small process gets to end after SIGTERM (it only forks and waits).
const GRACE: Duration = Duration::from_millis(500);

/// The first argument that makes a binary the small measuring process.
pub const ARG: &str = "__boardbench-lmbench-small-process";

/// Set by [`serve_or_enable`]: this program can be re-executed as the small process.
static ENABLED: AtomicBool = AtomicBool::new(false);
/// Where this program is, looked up the first time the small process is started.
static PROGRAM: OnceLock<Option<PathBuf>> = OnceLock::new();

/// The harness's settings the small process needs (it does not calibrate again).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Params {
    pub enough_us: f64,
    pub timer_overhead_us: f64,
    pub loop_overhead_us: f64,
    pub tries: usize,
    pub floor_scale: f64,
    pub enough_cap_us: Option<f64>,
}

impl Params {
    pub fn of(t: &Timing) -> Params {
        Params {
            enough_us: t.enough_us,
            timer_overhead_us: t.timer_overhead_us,
            loop_overhead_us: t.loop_overhead_us,
            tries: t.tries,
            floor_scale: t.floor_scale,
            enough_cap_us: t.enough_cap_us,
        }
    }

    pub fn timing(&self) -> Timing {
        let mut t = Timing::with_enough(self.enough_us);
        t.timer_overhead_us = self.timer_overhead_us;
        t.loop_overhead_us = self.loop_overhead_us;
        t.tries = self.tries.max(1);
        t.floor_scale = self.floor_scale;
        t.enough_cap_us = self.enough_cap_us;
        t
    }
}

fn kind_word(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Fork => Some("fork"),
        Kind::Exec => Some("exec"),
        Kind::Shell => Some("shell"),
        Kind::Procedure => None,
    }
}

fn kind_of(word: &str) -> Option<Kind> {
    match word {
        "fork" => Some(Kind::Fork),
        "exec" => Some(Kind::Exec),
        "shell" => Some(Kind::Shell),
        _ => None,
    }
}

/// The first statement of a `main` that hosts the guide: with [`ARG`] first, runs the
/// measurement and returns the exit code for `main` to exit with; otherwise records that this
/// program can be re-executed for it and returns None.
pub fn serve_or_enable(argv: &[OsString]) -> Option<i32> {
    if argv.get(1).is_some_and(|a| a == ARG) {
        let args: Vec<String> = argv[2..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let (code, out) = serve(&args);
        use std::io::Write;
        let _ = if code == 0 {
            std::io::stdout().write_all(out.as_bytes())
        } else {
            std::io::stderr().write_all(out.as_bytes())
        };
        return Some(code);
    }
    // Only a flag: the program's path is looked up when a guide needs it, not at every start.
    ENABLED.store(true, Ordering::Relaxed);
    None
}

/// The small process's work: `args` are KIND and PARAMS; returns the exit code and the report
/// (standard output) or a usage message (exit 64, standard error).
pub fn serve(args: &[String]) -> (i32, String) {
    let usage =
        format!("usage: boardbench {ARG} fork|exec|shell|ctx-PROCS-KIB PARAMS-JSON (internal)\n");
    let word = args.first().map(String::as_str).unwrap_or("");
    let (kind, ring) = (kind_of(word), ring_of(word));
    let Some(params) = args
        .get(1)
        .and_then(|p| serde_json::from_str::<Params>(p).ok())
    else {
        return (64, usage);
    };
    if args.len() != 2 || !params.enough_us.is_finite() || params.enough_us <= 0.0 {
        return (64, usage);
    }
    match (kind, ring) {
        (Some(kind), _) => (
            0,
            isolate::encode(&lat_proc::measure(&params.timing(), kind)),
        ),
        (None, Some((procs, kib))) => (
            0,
            isolate::encode(&lat_ctx::measure(&params.timing(), procs, kib)),
        ),
        (None, None) => (64, usage),
    }
}

/// `ctx-P-S`: lat_ctx's ring of P (2–64) processes with S KiB (≤ 64 MiB) each.
fn ring_of(word: &str) -> Option<(usize, usize)> {
    let mut it = word.strip_prefix("ctx-")?.splitn(2, '-');
    let procs: usize = it.next()?.parse().ok()?;
    let kib: usize = it.next()?.parse().ok()?;
    ((2..=64).contains(&procs) && kib <= 64 * 1024).then_some((procs, kib))
}

/// Whether this process can start the small process (a binary called [`serve_or_enable`]).
pub fn available() -> bool {
    program().is_some()
}

fn program() -> Option<&'static PathBuf> {
    if !ENABLED.load(Ordering::Relaxed) {
        return None;
    }
    PROGRAM
        .get_or_init(|| std::env::current_exe().ok())
        .as_ref()
}

/// Measures `kind` in a freshly started small process; None when this program cannot host one
/// (the caller then measures it in the measuring child).
pub fn measure(t: &Timing, kind: Kind) -> Option<Result<GuideValue>> {
    run(t, kind_word(kind)?)
}

/// lat_ctx's ring (per-switch figure, overhead subtracted) forked from a small, freshly started
/// process, as lmbench forks its ring from its small lat_ctx; None as [`measure`].
pub fn ring(t: &Timing, procs: usize, kib: usize) -> Option<Result<(GuideValue, f64)>> {
    run(t, &format!("ctx-{procs}-{kib}"))
}

fn run<T: serde::de::DeserializeOwned>(t: &Timing, word: &str) -> Option<Result<T>> {
    let program = program()?;
    if t.cancelled() {
        return Some(Err(Error::Cancelled));
    }
    let params = serde_json::to_string(&Params::of(t)).unwrap_or_default();
    let mut cmd = Command::new(program);
    cmd.arg(ARG)
        .arg(word)
        .arg(params)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = match Group::spawn(&mut cmd) {
        Ok(c) => c,
        Err(e) => {
            return Some(Err(Error::Failed(format!(
                "cannot start {} for lmbench's {word}: {e}",
                program.display()
            ))));
        }
    };
    let Some(mut stdout) = child.take_stdout() else {
        let _ = child.stop(GRACE);
        return None;
    };
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    // A cancel (Ctrl-C) ends it by the one kill rule; its forks are in its group and end too.
    let ended = child.supervise(Duration::from_millis(20), GRACE, || t.cancelled());
    child.end_leftovers();
    let report = reader.join().unwrap_or_default();
    let status = match ended {
        Ok((_, true)) => return Some(Err(Error::Cancelled)),
        Ok((e, false)) => Some(e.status),
        Err(_) => None,
    };
    if report.trim().is_empty() {
        return Some(Err(Error::Failed(format!(
            "the small process for {word} ended without a report ({})",
            status.map_or("unknown status".to_string(), |s| s.to_string())
        ))));
    }
    Some(isolate::decode(&report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_carry_the_harness_settings() {
        let mut t = Timing::with_enough(1234.0);
        t.timer_overhead_us = 0.05;
        t.loop_overhead_us = 0.001;
        t.tries = 5;
        t.floor_scale = 0.1;
        t.enough_cap_us = Some(20_000.0);
        let p = Params::of(&t);
        let back: Params = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        let u = back.timing();
        assert_eq!(u.enough_us, 1234.0);
        assert_eq!(u.tries, 5);
        assert_eq!(u.enough_cap_us, Some(20_000.0));
        assert_eq!(u.loop_overhead_us, 0.001);
    }

    #[test]
    fn bad_requests_are_usage_errors() {
        let good = serde_json::to_string(&Params::of(&Timing::with_enough(100.0))).unwrap();
        for args in [
            vec![],
            vec!["fork".to_string()],
            vec!["procedure".to_string(), good.clone()],
            vec!["fork".to_string(), "{".to_string()],
            vec!["fork".to_string(), good.replace("100.0", "-1.0")],
            vec!["fork".to_string(), good.clone(), "extra".to_string()],
        ] {
            let (code, out) = serve(&args);
            assert_eq!(code, 64, "{args:?}");
            assert!(out.contains("usage"), "{out}");
        }
    }

    #[test]
    fn the_small_process_reports_a_fork_figure() {
        if testsupport::host_only() {
            return; // forks under qemu-user run again from an emulated parent
        }
        let p = serde_json::to_string(&Params::of(&Timing::with_enough(2000.0))).unwrap();
        let (code, out) = serve(&["fork".to_string(), p]);
        assert_eq!(code, 0);
        let v: GuideValue = isolate::decode(&out).expect("a figure");
        assert!(v.value > 0.0, "{v:?}");
    }

    #[test]
    fn ring_words_name_processes_and_kib() {
        assert_eq!(ring_of("ctx-2-128"), Some((2, 128)));
        assert_eq!(ring_of("ctx-16-0"), Some((16, 0)));
        for bad in [
            "ctx-1-128",
            "ctx-65-1",
            "ctx-2",
            "ctx-2-x",
            "ctx--1-4",
            "fork",
            "ctx-2-65537",
        ] {
            assert_eq!(ring_of(bad), None, "{bad}");
        }
        let good = serde_json::to_string(&Params::of(&Timing::with_enough(100.0))).unwrap();
        assert_eq!(serve(&["ctx-1-4".to_string(), good]).0, 64);
    }

    #[test]
    fn the_small_process_reports_a_ring_figure_and_its_overhead() {
        if testsupport::host_only() {
            return; // forks under qemu-user run again from an emulated parent
        }
        let p = serde_json::to_string(&Params::of(&Timing::with_enough(2000.0))).unwrap();
        let (code, out) = serve(&["ctx-2-16".to_string(), p]);
        assert_eq!(code, 0);
        let (v, overhead): (GuideValue, f64) = isolate::decode(&out).expect("a figure");
        assert!(v.value >= 0.0 && overhead > 0.0, "{v:?} {overhead}");
    }

    #[test]
    fn without_a_host_binary_nothing_is_started() {
        // The test binary never calls serve_or_enable.
        assert!(!available());
        assert!(measure(&Timing::with_enough(100.0), Kind::Fork).is_none());
        assert!(ring(&Timing::with_enough(100.0), 2, 128).is_none());
    }
}
