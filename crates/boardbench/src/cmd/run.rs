//! `boardbench run`: the full assessment run — sbc-bench's default run (and `-c`, `-s`,
//! `MODE=extensive|unattended`), done right.
//!
//! Order of events: probe the machine → idle gate (say what is busy) → tune (performance
//! governors, devfreq, MaxKHz; all through the Restorer) → snapshot "before" + kmsg cursor →
//! phases (each monitored, timestamped) → snapshot "after" + kmsg window → restore → findings
//! (a pure function of the document) → log file (summary row as its very last line) → store →
//! short terminal summary. Exit code: 0 valid, 2 completed but not to be trusted, 3 the box never
//! became idle (unattended), 1 error.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use document::run::RunOptions;

use crate::cli::Globals;
use crate::run::progress::Progress;
use crate::session::lifecycle::{Record, SessionOptions, Signals};
use crate::session::signals::Stop;
use crate::session::{ExitStatus, Session};
use engine::benchmarks::Tools;
use engine::plan::{self, PlanOptions, Profile};
use engine::{BenchContext, Settings};
use tune::tuning;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The headline numbers in a few minutes (short tool runs; not comparable with sbc-bench).
    #[arg(long, conflicts_with_all = ["extensive", "profile", "fast"])]
    pub quick: bool,
    /// sbc-bench's figures in about a third of its time: its invocations, shorter repetition
    /// (same as --profile fast; see docs/run-profiles.md).
    #[arg(long, conflicts_with_all = ["extensive", "profile"])]
    pub fast: bool,
    /// Which tool invocations: sbc-bench (its exact ones), fast (the cells the figures read,
    /// 7-Zip rows repeated 1 s; comparable), quick (not comparable), extensive.
    #[arg(long, value_name = "NAME", value_parser = ["sbc-bench", "fast", "quick", "extensive"])]
    pub profile: Option<String>,
    /// sbc-bench's MODE=extensive: adds all-core OpenSSL, per-cluster 7-Zip, Stockfish, cpuminer.
    #[arg(long)]
    pub extensive: bool,
    /// Add the 5-minute cpuminer run (sbc-bench -c).
    #[arg(short = 'c', long)]
    pub cpuminer: bool,
    /// Add three Stockfish runs (sbc-bench -s).
    #[arg(short = 's', long)]
    pub stockfish: bool,
    /// No questions; give up when the box does not become idle (sbc-bench's MODE=unattended).
    #[arg(long)]
    pub unattended: bool,
    /// Skip OPPs above this clock and cap every policy to it (kHz; sbc-bench's MaxKHz).
    #[arg(long, env = "MaxKHz", value_name = "KHZ", hide_env = true)]
    pub max_khz: Option<u64>,
    /// Skip OPPs below this clock in the clock check (kHz; sbc-bench's MinKHz).
    #[arg(long, env = "MinKHz", value_name = "KHZ", hide_env = true)]
    pub min_khz: Option<u64>,
    /// Leave governors and clocks as they are (sbc-bench's NOTUNING=yes).
    #[arg(long)]
    pub no_tune: bool,
    #[command(flatten)]
    pub idle: crate::session::idle::IdleArgs,
    /// The log file (default: /var/log/boardbench.log as root, else in the user's state
    /// directory; /var/log/sbc-bench.log when started as sbc-bench).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    #[command(flatten)]
    pub out: crate::session::document_out::DocumentArgs,
    /// Only these phase kinds (clock, membw, memlat, openssl, sha256, 7zip-single, 7zip-multi,
    /// stockfish, cpuminer, clock-hot …), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    pub phases: Vec<String>,
    /// No progress line.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Install the missing tools the run needs with the distribution's package manager
    /// before it starts (root only; the command is shown first).
    #[arg(long)]
    pub install_tools: bool,
    /// Tests: the smallest possible built-in kernel work (numbers mean nothing).
    #[arg(long, hide = true)]
    pub tiny_kernels: bool,
    /// Tests: pause after each phase (milliseconds).
    #[arg(long, hide = true, default_value_t = 0)]
    pub pause_ms: u64,
    /// Set by the sbc-bench compatibility layer (log path, header).
    #[arg(long, hide = true)]
    pub as_sbc_bench: bool,
    /// When the run is done, share its log with a link as `boardbench share` does (redacted;
    /// never without this switch). A paste that fails does not change the run's exit code.
    #[arg(long)]
    pub share: bool,
    #[command(flatten)]
    pub paste: crate::cmd::share::PasteArgs,
}

/// sbc-bench's MODE variable: `unattended`, `extensive` (several words allowed).
fn mode_words() -> Vec<String> {
    std::env::var("MODE")
        .unwrap_or_default()
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Where the log goes.
pub fn log_path(args: &Args, root_user: bool) -> PathBuf {
    if let Some(p) = &args.log {
        return p.clone();
    }
    let name = if args.as_sbc_bench {
        "sbc-bench.log"
    } else {
        "boardbench.log"
    };
    if root_user {
        return PathBuf::from("/var/log").join(name);
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    state.join("boardbench").join(name)
}

/// Appends the log of one run: three blank lines after an earlier run (as sbc-bench), then the
/// text, whose last line is the summary row. A symlink at a default location is refused (a
/// root process must not follow a link planted in /var/log).
fn append_log(path: &Path, text: &str, explicit: bool) -> anyhow::Result<()> {
    use std::io::Write;
    if !explicit && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        anyhow::bail!("{} is a symlink: not writing the log there", path.display());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let earlier = std::fs::metadata(path)
        .map(|m| m.len() > 0)
        .unwrap_or(false);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    if earlier {
        f.write_all(b"\n\n\n")?;
    }
    f.write_all(text.as_bytes())?;
    Ok(())
}

/// The phase kinds a run has (`--phases` takes these).
const RUN_KINDS: &[&str] = {
    use document::run::kind::*;
    &[
        CLOCK,
        MEMBW,
        MEMLAT,
        OPENSSL,
        OPENSSL_PARALLEL,
        SHA256,
        SEVENZIP_SINGLE,
        SEVENZIP_MULTI,
        SEVENZIP_CLUSTER,
        STOCKFISH,
        CPUMINER,
        CLOCK_HOT,
    ]
};

/// Everything the command line and environment say, checked before the idle gate, tuning or
/// the first phase: a mistake is a usage error (exit 64) at once, not a surprise after the run.
fn check(args: &Args, modes: &[String]) -> anyhow::Result<()> {
    use crate::output::usage;
    for k in &args.phases {
        if !RUN_KINDS.contains(&k.trim()) {
            return usage(format!(
                "--phases: unknown phase kind {k:?} (kinds: {})",
                RUN_KINDS.join(", ")
            ));
        }
    }
    let extensive_asked = if args.extensive {
        Some("--extensive")
    } else if modes.iter().any(|m| m == "extensive") {
        Some("MODE=extensive")
    } else {
        None
    };
    let other_profile = if args.quick {
        Some("--quick".to_string())
    } else if args.fast {
        Some("--fast".to_string())
    } else {
        args.profile
            .as_deref()
            .filter(|p| *p != "extensive")
            .map(|p| format!("--profile {p}"))
    };
    if let (Some(e), Some(p)) = (extensive_asked, other_profile) {
        return usage(format!("{e} and {p} contradict each other: choose one"));
    }
    if let (Some(max), Some(min)) = (args.max_khz, args.min_khz)
        && min > max
    {
        return usage(format!(
            "--min-khz {min} is above --max-khz {max}: no OPP would be left"
        ));
    }
    if args.max_khz == Some(0) {
        return usage("--max-khz 0: not a clock");
    }
    if args.share {
        crate::cmd::share::check_url(&args.paste)?;
    }
    Ok(())
}

/// Whether the log can be appended to, found before the run (creating its directory, as the
/// write would; a file that did not exist is not left behind).
/// Checks the log before the run starts, leaving no file behind. An explicit `--log` is taken
/// as `-o` is: its directory must exist (only the default log's is created), and it must be a
/// file a log can be appended to — a regular file outside /proc and /sys, a FIFO, a terminal or
/// /dev/null, never another device (`/dev/full` passed and the log was lost with exit 0).
pub(crate) fn check_log(path: &Path, explicit: bool) -> anyhow::Result<()> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return crate::output::usage("--log: an empty file name");
    }
    if !explicit && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        anyhow::bail!("{shown} is a symlink: not writing the log there");
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return crate::output::usage(format!("--log {shown}: a directory")),
        Ok(m) if m.is_file() && on_kernel_fs(path) => {
            return crate::output::usage(format!(
                "--log {shown}: a kernel file (/proc, /sys), not a log"
            ));
        }
        Ok(m) if m.file_type().is_char_device() && !log_device(m.rdev()) => {
            return crate::output::usage(format!(
                "--log {shown}: a device that takes no log (a file, a FIFO, a terminal or \
                 /dev/null)"
            ));
        }
        Ok(m) if m.file_type().is_block_device() || m.file_type().is_socket() => {
            return crate::output::usage(format!("--log {shown}: not a file"));
        }
        Ok(_) => {}
        Err(_) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                if explicit && !dir.is_dir() {
                    return crate::output::usage(format!(
                        "--log {shown}: the directory {} does not exist",
                        dir.display()
                    ));
                }
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
        }
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write the log {shown}"))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Whether `path` is on procfs or sysfs.
fn on_kernel_fs(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    const PROC_SUPER_MAGIC: i64 = 0x9fa0;
    const SYSFS_MAGIC: i64 = 0x6265_6572;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: statfs fills a zeroed struct from a valid C string.
    unsafe {
        let mut st: libc::statfs = std::mem::zeroed();
        libc::statfs(c.as_ptr(), &mut st) == 0
            && matches!(st.f_type as i64, PROC_SUPER_MAGIC | SYSFS_MAGIC)
    }
}

/// Character devices a log may go to: /dev/null (1:3), /dev/tty (5:0), consoles and
/// terminals (4:*, 136–143: pseudo-terminals).
fn log_device(rdev: u64) -> bool {
    let (major, minor) = (libc::major(rdev), libc::minor(rdev));
    (major == 1 && minor == 3)
        || (major == 5 && minor <= 1)
        || major == 4
        || (136..=143).contains(&major)
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    let modes = mode_words();
    check(args, &modes)?;
    let extensive = args.extensive || modes.iter().any(|m| m == "extensive");
    let unattended = args.unattended || modes.iter().any(|m| m == "unattended");
    let no_tune = args.no_tune || std::env::var("NOTUNING").is_ok_and(|v| v == "yes");
    let profile = if args.quick {
        Profile::Quick
    } else if args.fast {
        Profile::Fast
    } else if let Some(p) = args.profile.as_deref().and_then(Profile::parse) {
        p
    } else if extensive {
        Profile::Extensive
    } else {
        Profile::Standard
    };
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // Signals are held: Ctrl-C, SIGTERM and SIGHUP end the running tool (and what it
    // started) at once and the phases after it, and the run still writes its log, document
    // and database row with what was measured (the `interrupted` finding), then restores and
    // exits 128 + signal.
    let probed = Session::probe(g.root(), Signals::Held);
    // After the signals are held: a thread the database client starts inherits the mask.
    let root_user = probed.root_user;
    let log = log_path(args, root_user);
    check_log(&log, args.log.is_some())?;
    // -o is never the log, nor the log the database (`--force` or not).
    let outputs = args.out.prepare_besides(&[&log])?;
    let may_write = probed.may_write();
    probed.warn_unless_root("governors stay as they are, no OPP walk, no kernel messages");
    // Once, before the idle gate: the phases a missing tool skips, and how to install it.
    crate::tools::before_run(
        crate::tools::run_needs(extensive, args.stockfish, args.cpuminer, &args.phases),
        &probed.root,
        args.install_tools,
        root_user,
    )?;
    let session = match probed.start(&SessionOptions {
        idle: args.idle.step(unattended, "benchmarking"),
        tune: Some(tuning::TuneOptions {
            governors: !no_tune && may_write,
            max_khz: args.max_khz.filter(|_| may_write),
            aspm: false,
        }),
        record: true,
        kmsg: true,
    }) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let (root, machine) = (&session.root, &session.machine);

    let settings = Settings {
        profile,
        max_khz: args.max_khz,
        min_khz: args.min_khz,
        opp_walk: may_write && !no_tune && !machine.policies.is_empty(),
        tiny: args.tiny_kernels,
        pause: Duration::from_millis(args.pause_ms),
    };
    let runner = adapters::tool::SystemRunner;
    let search_path = adapters::tool::SearchPath::from_env();
    let tools = Tools::find(
        &search_path,
        &runner,
        args.stockfish || extensive,
        args.cpuminer || extensive,
    );
    let ctx = BenchContext {
        root,
        machine,
        settings: &settings,
        restorer: &session.restorer,
        runner: &runner,
        search_path,
        tools,
        allowed: loops::affinity::allowed_cpus(),
    };
    let planned = plan::plan(
        machine,
        &PlanOptions {
            profile,
            stockfish: args.stockfish,
            cpuminer: args.cpuminer,
            only: args.phases.clone(),
        },
    );
    if planned.is_empty() {
        anyhow::bail!("no phase to run (check --phases)");
    }

    let mut progress = Progress::new(&planned, args.quiet);
    let n = planned.len();
    let stop = Stop::watch(
        session.held(),
        Some(
            "ending the run: the running tool is stopped, what was measured is kept, then everything is restored",
        ),
        Some(adapters::tool::end_running_tools),
    );
    let (phases, measurements) = crate::run::execute(&ctx, &planned, Some(&stop), &mut |i, p| {
        progress.starting(i, n, p)
    });
    progress.finish();
    let signal = stop.finish();
    let monitor = probe::sampler::SamplerConfig::from_machine(machine).layout;
    let closed = session.close();

    let doc = closed.document(Record {
        profile: profile.name().into(),
        comparability: profile.comparability(),
        options: RunOptions {
            stockfish: args.stockfish || extensive,
            cpuminer: args.cpuminer || extensive,
            unattended,
            tune: !no_tune && may_write,
            max_khz: args.max_khz,
            min_khz: args.min_khz,
            invoked_as: if args.as_sbc_bench {
                "sbc-bench".into()
            } else {
                "boardbench".into()
            },
            args: crate::session::recorded_args(),
        },
        monitor: Some(monitor),
        phases,
        measurements,
        device: args.out.device.clone(),
    });

    // Outputs: the store and the document first (a failing -o never loses the run), then the
    // log (summary row last) and the terminal. A log that could not be written is an error
    // (exit 1) once everything else is done.
    let saved = outputs.save(&doc);
    let logged = append_log(&log, &textout::log(&doc), args.log.is_some());
    if let Err(e) = &logged {
        eprintln!("boardbench: the log was not written: {e:#}");
    }
    saved?;
    let (reference, _) = resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir());
    print!(
        "{}",
        textout::terminal_summary_with(&doc, color, &reference)
    );
    if logged.is_err() {
        return Ok(ExitStatus::Error);
    }
    println!("Full log: {}", log.display());
    if args.share {
        share(args, g, &doc);
    }
    Ok(ExitStatus::of(signal, findings::trustworthy(&doc.findings)))
}

/// `--share`: the finished run's log to the paste service. Whatever happens is said in a line;
/// the run's exit code stays the run's (0 valid, 2 not to be trusted: what scripts read).
fn share(args: &Args, g: &Globals, doc: &document::ResultDocument) {
    let shared = resultsdb::Location::resolve(args.out.db.as_deref())
        .map_err(|e| anyhow::anyhow!("--db: {e}"))
        .and_then(|loc| {
            let state = std::env::var_os("BOARDBENCH_UPLOAD_STATE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from);
            let state = crate::cmd::share::state_path(state.as_deref(), &loc);
            let name = format!("run-{}", chrono::Utc::now().format("%Y%m%d-%H%M%S"));
            crate::cmd::share::share_document(doc, &name, &args.paste, false, &state, g)
        });
    if let Err(e) = shared {
        eprintln!("share: {e:#}; nothing shared");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        args: Args,
    }

    fn args(a: &[&str]) -> Args {
        T::parse_from(std::iter::once("run").chain(a.iter().copied())).args
    }

    #[test]
    fn mistakes_are_usage_errors_before_anything_starts() {
        let refused = |a: &[&str], modes: &[&str], says: &str| {
            let modes: Vec<String> = modes.iter().map(|m| m.to_string()).collect();
            let e = check(&args(a), &modes).unwrap_err();
            assert!(
                e.downcast_ref::<crate::output::Usage>().is_some(),
                "{a:?}: {e}"
            );
            assert!(e.to_string().contains(says), "{a:?}: {e}");
        };
        refused(
            &["--phases", "clock,membww"],
            &[],
            "unknown phase kind \"membww\"",
        );
        refused(&["--profile", "quick", "--extensive"], &[], "contradict");
        refused(&["--quick"], &["extensive"], "MODE=extensive and --quick");
        refused(
            &["--min-khz", "2000000", "--max-khz", "1000000"],
            &[],
            "above --max-khz",
        );
        let fine = |a: &[&str], modes: &[&str]| {
            let modes: Vec<String> = modes.iter().map(|m| m.to_string()).collect();
            check(&args(a), &modes).unwrap();
        };
        fine(&["--phases", "clock,membw,clock-hot"], &[]);
        fine(&["--profile", "extensive", "--extensive"], &["extensive"]);
        fine(&["--quick"], &["unattended"]);
    }

    #[test]
    fn the_log_is_checked_without_leaving_a_file() {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("b.log");
        check_log(&log, true).unwrap();
        assert!(!log.exists());
        assert!(check_log(tmp.path(), true).is_err());
        // The default log's directory is created; an explicit one is not (as -o).
        let log = tmp.path().join("sub/b.log");
        check_log(&log, false).unwrap();
        assert!(!log.exists() && log.parent().unwrap().is_dir());
    }

    /// Issue 47: `--log /dev/full` or `/proc/version` passed and the run ended with exit 0 and
    /// no log; `--log` in a missing directory created it while `-o` refused one.
    #[test]
    fn a_log_that_cannot_take_a_log_is_a_usage_error() {
        let tmp = tempfile::tempdir().unwrap();
        let usage = |p: &Path| {
            let e = check_log(p, true).unwrap_err();
            assert!(
                e.downcast_ref::<crate::output::Usage>().is_some(),
                "{}: {e}",
                p.display()
            );
            e.to_string()
        };
        assert!(usage(Path::new("/dev/full")).contains("a device"));
        assert!(usage(Path::new("/proc/version")).contains("kernel file"));
        let missing = tmp.path().join("no/such/dir/b.log");
        assert!(usage(&missing).contains("does not exist"));
        assert!(!tmp.path().join("no").exists());
        assert!(usage(Path::new("")).contains("empty"));
        check_log(Path::new("/dev/null"), true).unwrap();
    }

    #[test]
    fn log_locations() {
        assert_eq!(
            log_path(&args(&[]), true),
            PathBuf::from("/var/log/boardbench.log")
        );
        assert_eq!(
            log_path(&args(&["--as-sbc-bench"]), true),
            PathBuf::from("/var/log/sbc-bench.log")
        );
        assert_eq!(
            log_path(&args(&["--log", "/tmp/x"]), true),
            PathBuf::from("/tmp/x")
        );
        let user = log_path(&args(&[]), false);
        assert!(
            user.ends_with("boardbench/boardbench.log"),
            "{}",
            user.display()
        );
    }

    #[test]
    fn a_symlinked_default_log_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("elsewhere");
        let link = tmp.path().join("boardbench.log");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(append_log(&link, "x\n", false).is_err());
        assert!(!target.exists());
        append_log(&link, "x\n", true).unwrap();
        assert!(target.exists());
    }
}
