//! `boardbench env`: a controlled environment for Geekbench or the Phoronix Test Suite
//! (sbc-bench -G / -P).
//!
//! Order: idle gate (`--no-idle-gate` skips it) → performance governors and devfreq (through
//! the Restorer) → snapshot "before" → the background monitor (phase `env-wait`) while
//! - the given command runs (`env --for geekbench -- geekbench6 --cpu`; stdin is /dev/null, its
//!   output is passed through and captured into the document's tool run), or
//! - without a command: until Ctrl-C, after printing what to run in another terminal
//!
//! → snapshot "after" → restore → a result document with the monitor series and the findings
//! (throttling, background activity … for exactly that window), `-o FILE`, stored unless
//! `--no-store`.
//!
//! `--for phoronix -- pts/openssl …` (what `sbc-bench -P pts/openssl` becomes): when the first
//! word after `--` is not a program, the words are test arguments and the command run is
//! `PTS_SILENT_MODE=1 phoronix-test-suite batch-run …`, as sbc-bench does.
//!
//! `--per-cluster` runs the command once pinned to each cluster's online CPUs (like
//! `taskset -c`; sbc-bench instead takes the other cores offline, so a suite that counts the
//! cores still starts one thread per core of the whole machine here), then once on all cores:
//! one `env-wait` phase per run, with its own monitor series, CPUs and tool run. A machine with
//! one cluster gets the all-core run only.
//!
//! Ctrl-C (SIGINT, SIGTERM, SIGHUP) still writes the document: see `session::signals`. With a
//! command, the signal also ends the command (its process group gets SIGTERM, then SIGKILL after
//! 5 s) and no further run starts. The result links Geekbench
//! prints are listed at the end (with sbc-bench's compare link), but unlike sbc-bench no score
//! page is scraped: the suite's own result is the score; this mode guarantees and records the
//! conditions.
//!
//! Exit code: 0 when the environment stayed valid (and the command succeeded); 2 when the
//! command failed or the findings say the window cannot be trusted (e.g. throttling, background
//! load); with a command, 128 + signal when interrupted (the document is written anyway);
//! without a command Ctrl-C is the normal end; 3 when the idle gate gave up (`--idle-timeout`);
//! 1 on error.

use std::time::{Duration, Instant};

use document::run::{PhaseStatus, RunOptions};
use probe::sampler::SamplerConfig;

use crate::cli::Globals;
use crate::session::child::{Echo, Running};
use crate::session::lifecycle::{Record, SessionOptions, Signals};
use crate::session::{ExitStatus, Session, phase, phase_recorder::PhaseRecorder, stamp};
use tune::tuning;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    Geekbench,
    Phoronix,
}

impl Suite {
    fn name(self) -> &'static str {
        match self {
            Suite::Geekbench => "Geekbench",
            Suite::Phoronix => "Phoronix Test Suite",
        }
    }

    fn profile(self) -> &'static str {
        match self {
            Suite::Geekbench => "env-geekbench",
            Suite::Phoronix => "env-phoronix",
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite to prepare for: geekbench (sbc-bench -G) or phoronix (-P).
    #[arg(long = "for", value_enum, value_name = "SUITE")]
    pub suite: Suite,
    /// Seconds between monitor samples.
    #[arg(long, default_value_t = 5.0, value_name = "SEC", value_parser = crate::values::interval)]
    pub interval: f64,
    /// Leave governors as they are.
    #[arg(long)]
    pub no_tune: bool,
    /// Run the command once pinned to each cluster (core type), then once on all cores, as
    /// sbc-bench runs Geekbench and PTS per core type; each run is its own phase. Needs a
    /// command.
    #[arg(long)]
    pub per_cluster: bool,
    #[command(flatten)]
    pub idle: crate::session::idle::IdleArgs,
    #[command(flatten)]
    pub out: crate::session::document_out::DocumentArgs,
    /// The command to run in the environment (for phoronix also just test arguments for
    /// `phoronix-test-suite batch-run`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Whether `word` names a program: a path to an executable, or an executable in one of `path`'s
/// directories (the one lookup rule, [`adapters::tool::SearchPath`]).
fn is_program(word: &str, path: &str) -> bool {
    adapters::tool::SearchPath::new(std::ffi::OsStr::new(path))
        .find_one(word)
        .is_some()
}

/// A command line and extra environment variables for it.
pub type Resolved = (Vec<String>, Vec<(String, String)>);

/// What to run: the program and its arguments (and extra environment).
pub fn resolve(suite: Suite, words: &[String], path: &str) -> Option<Resolved> {
    let first = words.first()?;
    if suite == Suite::Phoronix && !is_program(first, path) {
        let mut v = vec!["phoronix-test-suite".to_string(), "batch-run".to_string()];
        v.extend(words.iter().cloned());
        return Some((v, vec![("PTS_SILENT_MODE".into(), "1".into())]));
    }
    Some((words.to_vec(), Vec::new()))
}

/// What to tell the user when no command was given.
fn instructions(suite: Suite) -> String {
    match suite {
        Suite::Geekbench => {
            // sbc-bench uses Geekbench 5.5 on 32-bit ARM, 6 elsewhere.
            let gb = if std::env::consts::ARCH == "arm" {
                "geekbench5"
            } else {
                "geekbench6"
            };
            format!("run `{gb}` now (in another terminal)")
        }
        Suite::Phoronix => {
            "run `PTS_SILENT_MODE=1 phoronix-test-suite batch-run <tests>` now (in another \
             terminal; once: `phoronix-test-suite batch-setup`)"
                .into()
        }
    }
}

fn shell_words(v: &[String]) -> String {
    v.iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One run of the command: pinned to one cluster's online CPUs, or on all cores (unpinned).
struct Target {
    label: String,
    cluster: Option<usize>,
    cpus: Vec<u32>,
}

/// Each cluster with online CPUs (when asked and there is more than one), then all cores.
fn targets(m: &document::machine::MachineInfo, per_cluster: bool) -> Vec<Target> {
    let clusters: Vec<Target> = m
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let cpus = c.online_cpus();
            let range = textout::cpu_range(&cpus);
            Target {
                label: match c.core_label() {
                    Some(n) => format!("{range} ({n})"),
                    None => range,
                },
                cluster: Some(i),
                cpus,
            }
        })
        .filter(|t| !t.cpus.is_empty())
        .collect();
    let mut v = if per_cluster && clusters.len() > 1 {
        clusters
    } else {
        Vec::new()
    };
    v.push(Target {
        label: "all cores".into(),
        cluster: None,
        cpus: m.cpus.online.clone(),
    });
    v
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    anyhow::ensure!(
        args.interval > 0.0 && args.interval.is_finite(),
        "--interval must be positive"
    );
    anyhow::ensure!(
        !args.per_cluster || !args.command.is_empty(),
        "--per-cluster needs a command to run (env --per-cluster -- CMD …)"
    );
    let path = std::env::var("PATH").unwrap_or_default();
    let command = resolve(args.suite, &args.command, &path);
    // Signals are held first: Ctrl-C must still produce the document (and ends the idle wait).
    let probed = Session::probe(g.root(), Signals::Held);
    // After the signals are held: a thread the database client starts inherits the mask.
    let outputs = args.out.prepare()?;
    let tune = !args.no_tune && probed.may_write();
    if !args.no_tune {
        probed.warn_unless_root("governors stay as they are");
    }
    let session = match probed.start(&SessionOptions {
        idle: args.idle.step(false, "preparing"),
        tune: Some(tuning::TuneOptions {
            governors: tune,
            max_khz: None,
            aspm: false,
        }),
        record: true,
        kmsg: true,
    }) {
        Ok(s) => s,
        Err(status) => return Ok(status),
    };
    let (root, machine) = (&session.root, &session.machine);
    let cfg = SamplerConfig::from_machine(machine);
    if args.suite == Suite::Geekbench
        && session
            .before
            .as_ref()
            .and_then(|b| b.mem_available_kib)
            .is_some_and(|k| k < 1_200 * 1024)
    {
        eprintln!(
            "Warning: this machine is low on memory: Geekbench will likely be killed by the OOM killer."
        );
    }

    let tuned = if session.settings.is_empty() {
        "nothing to change".to_string()
    } else {
        format!("{} settings changed to performance", session.settings.len())
    };
    let t0 = Instant::now();
    let interval = Duration::from_secs_f64(args.interval);
    let mut signal = None;
    let mut failed = None;
    let mut phases = Vec::new();
    match &command {
        Some((words, envs)) => {
            let shown = shell_words(words);
            eprintln!("Environment ready ({tuned}); running {shown}");
            for t in targets(machine, args.per_cluster) {
                if signal.is_some() {
                    break;
                }
                let start = stamp::now();
                let monitor = PhaseRecorder::start(&cfg, root, interval);
                let mut c = std::process::Command::new(&words[0]);
                c.args(&words[1..]).envs(envs.iter().map(|(k, v)| (k, v)));
                if t.cluster.is_some() {
                    eprintln!("== {} on {}", args.suite.name(), t.label);
                    // A replayed fixture machine's CPUs are not this host's: recorded, not pinned.
                    if root.is_host() && !crate::session::child::pin(&mut c, &t.cpus) {
                        eprintln!("Warning: cannot pin to {}: running unpinned", t.label);
                    }
                }
                let mut r = Running::start(args.suite.name(), c, shown.clone(), Echo::AsIs)?;
                let end = r.supervise(Duration::ZERO, || {
                    signal = session.wait(Duration::from_millis(200));
                    signal.is_some()
                });
                let mut phase = phase::timed(
                    document::run::kind::ENV_WAIT,
                    format!(
                        "{} in a controlled environment: {shown}{}",
                        args.suite.name(),
                        t.cluster
                            .map(|_| format!(" (on {})", t.label))
                            .unwrap_or_default()
                    ),
                    &start,
                    args.interval,
                );
                phase.cluster = t.cluster;
                phase.cpus = t.cpus.clone();
                phase.threads = t.cpus.len().max(1) as u32;
                phase.samples = monitor.finish();
                if let Some(s) = signal {
                    phase.status = PhaseStatus::Failed;
                    phase.reason = Some(document::run::interrupted_reason(s));
                } else if !crate::session::child::succeeded(&end) {
                    let f = format!("{} ended: {end}", words[0]);
                    phase.status = PhaseStatus::Failed;
                    phase.reason = Some(f.clone());
                    failed.get_or_insert(f);
                }
                phase.tool_runs.push(r.finish(end));
                phases.push(phase);
            }
        }
        None => {
            let start = stamp::now();
            let monitor = PhaseRecorder::start(&cfg, root, interval);
            eprintln!(
                "Environment ready ({tuned}, monitor every {:.0} s): {}. Press Ctrl-C here when it has finished.",
                args.interval,
                instructions(args.suite)
            );
            while signal.is_none() {
                signal = session.wait(Duration::from_secs(1));
            }
            eprintln!();
            let mut phase = phase::timed(
                document::run::kind::ENV_WAIT,
                format!(
                    "{} in a controlled environment (until Ctrl-C)",
                    args.suite.name()
                ),
                &start,
                args.interval,
            );
            phase.cpus = machine.cpus.online.clone();
            phase.threads = machine.cpus.online.len().max(1) as u32;
            phase.samples = monitor.finish();
            phases.push(phase);
        }
    }
    let closed = session.close();
    let document = closed.document(Record {
        comparability: Vec::new(),
        profile: args.suite.profile().into(),
        options: RunOptions {
            tune,
            invoked_as: "boardbench".into(),
            args: crate::session::recorded_args(),
            ..RunOptions::default()
        },
        monitor: Some(cfg.layout.clone()),
        phases,
        device: args.out.device.clone(),
        ..Record::default()
    });
    outputs.save(&document)?;

    println!(
        "Controlled environment for {}: {:.0} s monitored, everything restored.",
        args.suite.name(),
        t0.elapsed().as_secs_f64()
    );
    if let Some(f) = &failed {
        println!("  {f}");
    }
    for f in &document.findings {
        println!("  {}", document::text::finding_line(f));
    }
    if args.suite == Suite::Geekbench {
        for l in geekbench_links(document.run.iter().flat_map(|r| &r.phases)) {
            println!("{l}");
        }
    }
    if let Some(o) = &args.out.output {
        println!("Result document: {}", o.display());
    }
    let valid = failed.is_none() && findings::trustworthy(&document.findings);
    // Without a command a signal is the normal end of the wait, not an interruption.
    Ok(ExitStatus::of(signal.filter(|_| command.is_some()), valid))
}

/// The result pages Geekbench printed (one per run, its "claim" links left out), and — as
/// sbc-bench does — the link comparing the last run (all cores) with the first.
fn geekbench_links<'a>(phases: impl Iterator<Item = &'a document::run::Phase>) -> Vec<String> {
    let mut found: Vec<(String, String)> = Vec::new();
    for p in phases {
        for tr in &p.tool_runs {
            for word in tr.output.split_whitespace() {
                let Some(rest) = word.strip_prefix("https://browser.geekbench.com/v") else {
                    continue;
                };
                // "6/cpu/1234567": a version, "cpu" and the result number, nothing more.
                let parts: Vec<&str> = rest.split('/').collect();
                let is_result = parts.len() == 3
                    && parts[0].chars().all(|c| c.is_ascii_digit())
                    && parts[1] == "cpu"
                    && !parts[2].is_empty()
                    && parts[2].chars().all(|c| c.is_ascii_digit());
                if is_result && !found.iter().any(|(_, u)| u == word) {
                    found.push((p.title.clone(), word.to_string()));
                }
            }
        }
    }
    let mut out = Vec::new();
    if found.is_empty() {
        return out;
    }
    out.push("Geekbench results:".to_string());
    for (title, url) in &found {
        out.push(format!("  {url}  ({title})"));
    }
    if let (Some((_, first)), Some((_, last))) = (found.first(), found.last())
        && found.len() > 1
    {
        let id = |u: &str| u.rsplit('/').next().unwrap_or_default().to_string();
        let base = &last[..last.len() - id(last).len()];
        out.push(format!(
            "  compare: {base}compare/{}?baseline={}",
            id(last),
            id(first)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geekbench_result_pages_and_the_comparison_link() {
        let run = |title: &str, id: &str| document::run::Phase {
            title: title.into(),
            tool_runs: vec![document::run::ToolRun {
                output: format!(
                    "Upload succeeded. Visit the following link and view your results online:\n\n  \
                     https://browser.geekbench.com/v6/cpu/{id}\n\nVisit the following link and add \
                     this result to your profile:\n\n  https://browser.geekbench.com/v6/cpu/{id}/claim?key=99\n"
                ),
                ..Default::default()
            }],
            ..Default::default()
        };
        let phases = [run("on cpu0-cpu3", "111"), run("all cores", "333")];
        assert_eq!(
            geekbench_links(phases.iter()),
            [
                "Geekbench results:",
                "  https://browser.geekbench.com/v6/cpu/111  (on cpu0-cpu3)",
                "  https://browser.geekbench.com/v6/cpu/333  (all cores)",
                "  compare: https://browser.geekbench.com/v6/cpu/compare/333?baseline=111",
            ]
        );
        assert_eq!(
            geekbench_links(phases[..1].iter()).len(),
            2,
            "no comparison of one run"
        );
        let offline = document::run::Phase::default();
        assert!(geekbench_links([offline].iter()).is_empty());
    }

    fn w(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn phoronix_test_names_become_a_batch_run() {
        let (cmd, env) = resolve(
            Suite::Phoronix,
            &w(&["pts/openssl", "pts/7zip"]),
            "/nonexistent",
        )
        .unwrap();
        assert_eq!(
            cmd,
            w(&[
                "phoronix-test-suite",
                "batch-run",
                "pts/openssl",
                "pts/7zip"
            ])
        );
        assert_eq!(env, vec![("PTS_SILENT_MODE".to_string(), "1".to_string())]);
    }

    #[test]
    fn a_program_runs_as_given() {
        let (cmd, env) =
            resolve(Suite::Phoronix, &w(&["sh", "-c", "true"]), "/bin:/usr/bin").unwrap();
        assert_eq!(cmd, w(&["sh", "-c", "true"]));
        assert!(env.is_empty());
        assert_eq!(
            resolve(Suite::Geekbench, &w(&["geekbench6"]), "")
                .unwrap()
                .0,
            w(&["geekbench6"])
        );
        assert_eq!(resolve(Suite::Geekbench, &[], "/bin"), None);
    }

    #[test]
    fn shown_commands_are_quoted_for_a_shell() {
        assert_eq!(
            shell_words(&w(&["sh", "-c", "cat /x y"])),
            "sh -c 'cat /x y'"
        );
        assert_eq!(shell_words(&w(&["it's"])), "'it'\\''s'");
    }
}
