//! `boardbench guide`: the board performance guide — system micro-benchmarks, STREAM, Linpack,
//! Whetstone, Dhrystone, the OpenSSL table … as the tables vendors publish, one controlled run;
//! and `boardbench guide render RUN…` to print the tables of one or more runs side by side.
//!
//! Order of events, the same lifecycle as `run`: signals held → probe → idle gate → performance
//! governors (through the Restorer) → snapshot "before" → the clock of each cluster's first CPU
//! (the header's measured clocks; Dhrystone's DMIPS/MHz) → each section as a phase with its own
//! background monitor → snapshot "after" → restore → the document (kind: a run whose profile is
//! `guide`/`guide-quick`, with the `guide` part holding the tables) → `-o FILE`, the results
//! database. Ctrl-C/SIGTERM/SIGHUP set the sections' cancel flag: the current section returns
//! what it measured (status interrupted), no further section starts, the document is written
//! and stored, everything restored, exit 128 + signal. Exit 2 when a section failed or the
//! findings (busy, throttled …) say not to trust the figures.

mod console;
mod render;
mod select;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use document::guide::{GuideRecord, GuideSection, SectionStatus};
use document::run::{PhaseStatus, RunOptions};
use probe::sampler::SamplerConfig;

use crate::cli::Globals;
use crate::session::lifecycle::{Record, SessionOptions, Signals};
use crate::session::signals::{Held, Stop};
use crate::session::{ExitStatus, Session, phase, phase_recorder::PhaseRecorder, stamp};
use tune::tuning;

/// Phase kinds of a guide: `guide-<section>` per section, after the `clock` check.
pub const PHASE_PREFIX: &str = "guide-";

/// How often the background monitor samples during a section.
const MONITOR_INTERVAL: Duration = Duration::from_secs(5);

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub render: Option<Sub>,
    /// Shorter budgets and fewer sizes (a few minutes); every figure is rough and says so.
    #[arg(long)]
    pub quick: bool,
    /// Only these sections, comma-separated (lmbench, dhrystone, whetstone, linpack, nbench,
    /// stream, coremark, coremark-pro, multibench, openssl, storage, network, boot, kcrypto, ipsec, audio;
    /// `all` for every one).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub sections: Vec<String>,
    /// The CPUs the guide may use ("0-3,6"; default: all online).
    #[arg(long, value_name = "LIST")]
    pub cpus: Option<String>,
    /// A directory on the storage device to measure (the storage section writes its file there).
    #[arg(long, value_name = "DIR")]
    pub storage: Option<std::path::PathBuf>,
    /// The other end of the network section (a host running `boardbench guide peer`).
    #[arg(long, value_name = "HOST")]
    pub peer: Option<String>,
    /// The interface the network section measures: the client binds to its address, the
    /// tables' titles name it and its driver, the notes give its link speed, MTU and offloads.
    #[arg(long, value_name = "IFACE")]
    pub interface: Option<String>,
    /// The network section's TCP test and each UDP trial last this long (1–60 s; default 10 s
    /// and 5 s, a fifth with --quick).
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=60))]
    pub net_time: Option<u64>,
    /// The ipsec section measures ESP through a tunnel to --peer over the real link (the peer
    /// runs `boardbench guide peer --ipsec THIS-BOARD`; root on both) instead of between two
    /// network namespaces on the board. Fixed SPIs and lab-only keys derived from the row names:
    /// a benchmark, not security. --net-time sets the time per algorithm.
    #[arg(long, requires = "peer")]
    pub ipsec_peer: bool,
    /// Leave governors and clocks as they are.
    #[arg(long)]
    pub no_tune: bool,
    #[command(flatten)]
    pub idle: crate::session::idle::IdleArgs,
    #[command(flatten)]
    pub out: crate::session::document_out::DocumentArgs,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Tests: offer the tiny test sections (stub-spin, stub-wait).
    #[arg(long, hide = true)]
    pub test_sections: bool,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Print the guide tables of one or more runs side by side (one column per run).
    Render(render::Args),
    /// The other end of `guide --peer HOST` (for a lab PC): an iperf3 server until Ctrl-C;
    /// with --ipsec BOARD_IP also the peer's side of the ipsec section's tunnel.
    Peer(PeerArgs),
    /// A guide document from serial console logs (a LAVA job's, a capture): boot time per
    /// boot medium and setup over every boot in them, U-Boot's raw/FAT transfer rates.
    Console(console::Args),
}

#[derive(Debug, clap::Args)]
pub struct PeerArgs {
    /// The port to listen on (the board's `--peer HOST:PORT`).
    #[arg(long, default_value_t = guide::network::DEFAULT_PORT)]
    pub port: u16,
    /// Listen only on this address.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<String>,
    /// Also the peer's side of `guide --ipsec-peer` (root): ESP tunnel-mode states and policies
    /// with the board at BOARD_IP (its IPv4 address on the link) for every algorithm row at once,
    /// each row on its own iperf3 server at PORT+1 … PORT+5 and only for that TCP traffic, SPIs
    /// 0xbb00RR01 (from the board) and 0xbb00RR02 (to it), RR = the row's number. The keys are
    /// lab-only, derived from the row names: a benchmark, not security. Everything it adds is
    /// removed when it ends (Ctrl-C, SIGTERM, SIGHUP, an error or a panic).
    #[arg(long, value_name = "BOARD_IP")]
    pub ipsec: Option<String>,
}

/// `guide peer`: iperf3's server, its version said first so the board's document and the lab
/// PC's terminal name the same tool; Ctrl-C, SIGTERM or SIGHUP ends it (exit 0). The signals
/// are the session's ([`Held`], [`Stop`]): held before any thread or child exists, taken by the
/// watcher, which cancels the server (the one child runner ends it).
fn peer(a: &PeerArgs) -> anyhow::Result<i32> {
    let stop = Stop::watch(Some(Held::block()), None, None);
    // The tunnel's guard lives until the server ends; its Drop removes every state and policy
    // (also when unwinding from a panic).
    let tunnel = match a.ipsec.as_deref() {
        None => None,
        Some(board) => match guide::ipsec::link::peer(board, a.port) {
            Ok(t) => Some(t),
            Err(e) => {
                stop.finish();
                anyhow::bail!("guide peer --ipsec: {e}");
            }
        },
    };
    for line in tunnel.iter().flat_map(|t| t.describe()) {
        eprintln!("boardbench guide peer: {line}");
    }
    let version =
        guide::network::peer_version().unwrap_or_else(|| "iperf3 (version unknown)".into());
    eprintln!(
        "boardbench guide peer: {version} listening on {}:{} — Ctrl-C ends it",
        a.bind.as_deref().unwrap_or("*"),
        a.port
    );
    let served = guide::network::peer(a.port, a.bind.as_deref(), &stop.cancel);
    if let Some(t) = tunnel {
        drop(t);
        eprintln!("boardbench guide peer: ipsec: the states, policies and row servers are removed");
    }
    stop.finish();
    served.map_err(anyhow::Error::msg)?;
    Ok(0)
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    match &args.render {
        Some(Sub::Render(r)) => render::run(r),
        Some(Sub::Peer(p)) => peer(p),
        Some(Sub::Console(c)) => console::run(c),
        None => measure(args, g).map(ExitStatus::code),
    }
}

fn measure(args: &Args, g: &Globals) -> anyhow::Result<ExitStatus> {
    let mut all = guide::registry::all();
    if args.test_sections {
        all.extend(guide::stub::sections());
    }
    let chosen = select::sections(all, &args.sections, args.quick)
        .map_err(|e| crate::output::Usage(format!("--sections: {e:#}")))?;
    // Signals first: Ctrl-C must still produce the document (and ends the idle wait).
    let probed = Session::probe(g.root(), Signals::Held);
    // After the signals are held: a thread the database client starts inherits the mask.
    let outputs = args.out.prepare()?;
    let cpus = select::cpus(args.cpus.as_deref(), &probed.machine.cpus.online)?;
    let tune = !args.no_tune && probed.may_write();
    if !args.no_tune {
        probed.warn_unless_root("governors stay as they are");
    }
    let session = match probed.start(&SessionOptions {
        idle: args.idle.step(false, "benchmarking"),
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
    let stop = Stop::watch(
        session.held(),
        (!args.quiet).then_some(
            "guide: ending the current section (its figures so far are kept), then restoring",
        ),
        None,
    );
    let (root, machine) = (&session.root, &session.machine);
    let cfg = SamplerConfig::from_machine(machine);
    let leads = select::cluster_leads(machine, &cpus);
    let mut phases = Vec::new();

    // The clock of each cluster first: the header's measured clocks, DMIPS/MHz.
    let mut clock_mhz = vec![None; leads.len()];
    if root.is_host() && !stop.cancel.load(Ordering::Relaxed) {
        let start = stamp::now();
        let mut readings = Vec::new();
        for (i, &cpu) in leads.iter().enumerate() {
            let policy = machine
                .clusters
                .iter()
                .find(|c| c.cpus.contains(&cpu))
                .and_then(|c| c.policy);
            let target = measure::clock_reading::Target {
                cpu,
                policy,
                opp_khz: None,
            };
            if let Ok(r) = measure::clock_reading::reading(
                target,
                &measure::clock_reading::ReadingOptions::samples(3),
            ) {
                clock_mhz[i] = Some(r.mhz);
                readings.push(r);
            }
        }
        let mut p = phase::timed(
            document::run::kind::CLOCK,
            "Measured CPU clock per cluster".into(),
            &start,
            0.0,
        );
        p.clock = readings;
        p.cpus = leads.clone();
        phases.push(p);
    }

    let workdir = scratch_dir()?;
    let ctx = guide::Context {
        root: root.clone(),
        machine: machine.clone(),
        quick: args.quick,
        cpus,
        cluster_leads: leads,
        clock_mhz,
        workdir: workdir.clone(),
        storage_dir: args.storage.clone(),
        peer: args.peer.clone(),
        network: guide::network::NetSettings {
            interface: args.interface.clone(),
            trial: args.net_time.map(Duration::from_secs),
            ipsec_peer: args.ipsec_peer,
        },
        cancel: stop.cancel.clone(),
    };
    let mut sections = Vec::new();
    let mut failed = false;
    let mut broken: Option<String> = None;
    let n = chosen.len();
    for (i, def) in chosen.iter().enumerate() {
        if ctx.cancelled() || broken.is_some() {
            sections.push(GuideSection {
                name: def.name.into(),
                title: def.title.into(),
                status: SectionStatus::Skipped,
                reason: Some(match &broken {
                    Some(b) => format!("not run: {b}"),
                    None => "not run: the guide was interrupted".into(),
                }),
                ..GuideSection::default()
            });
            continue;
        }
        if !args.quiet {
            eprintln!("guide: [{}/{n}] {} …", i + 1, def.title);
        }
        let start = stamp::now();
        let t0 = Instant::now();
        let monitor = PhaseRecorder::start(&cfg, root, MONITOR_INTERVAL);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (def.run)(&ctx)));
        let samples = monitor.finish();
        let duration_s = t0.elapsed().as_secs_f64();
        let mut p = phase::timed(
            &format!("{PHASE_PREFIX}{}", def.name),
            def.title.to_string(),
            &start,
            MONITOR_INTERVAL.as_secs_f64(),
        );
        p.cpus = ctx.cpus.clone();
        p.threads = if single_threaded(def.name) {
            1
        } else {
            ctx.cpus.len().max(1) as u32
        };
        p.samples = samples;
        let mut s = GuideSection {
            name: def.name.into(),
            title: def.title.into(),
            started: Some(start.iso.clone()),
            duration_s,
            ..GuideSection::default()
        };
        match outcome {
            Ok(o) => {
                s.tables = o.tables;
                s.notes = o.notes;
                s.tool = o.tool;
                if let Some(r) = o.skipped {
                    s.status = SectionStatus::Skipped;
                    s.reason = Some(r);
                } else if let Some(r) = o.failed {
                    s.status = SectionStatus::Failed;
                    s.reason = Some(r);
                } else if ctx.cancelled() {
                    s.status = SectionStatus::Interrupted;
                    s.reason = stop.signal().map(document::run::interrupted_reason);
                }
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into());
                s.status = SectionStatus::Failed;
                s.reason = Some(format!("the section panicked: {msg}"));
                // The panic hook has restored the tuning already: later figures would not be
                // comparable.
                broken = Some(format!(
                    "{} panicked and the settings were restored",
                    def.name
                ));
            }
        }
        match s.status {
            SectionStatus::Failed => {
                failed = true;
                p.status = PhaseStatus::Failed;
                p.reason = s.reason.clone();
            }
            SectionStatus::Skipped => {
                p.status = PhaseStatus::Skipped;
                p.reason = s.reason.clone();
            }
            SectionStatus::Interrupted => {
                p.status = PhaseStatus::Failed;
                p.reason = s.reason.clone();
            }
            SectionStatus::Done => {}
        }
        if !args.quiet {
            eprintln!(
                "guide: [{}/{n}] {} {} in {:.1} s{}",
                i + 1,
                def.title,
                status_word(s.status),
                duration_s,
                s.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            );
        }
        phases.push(p);
        sections.push(s);
    }
    let _ = std::fs::remove_dir_all(&workdir);
    let signal = stop.finish();
    let closed = session.close();
    let mut doc = closed.document(Record {
        profile: if args.quick { "guide-quick" } else { "guide" }.into(),
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
    doc.guide = Some(GuideRecord {
        quick: args.quick,
        sections,
        build: Some(guide::build_info()),
    });
    // Finished again with the guide record attached (the rules leave guide sections of several
    // processes out of the %sys check).
    crate::finishing::finish(&mut doc);
    outputs.save(&doc)?;
    print_summary(&doc, args);
    Ok(ExitStatus::of(
        signal,
        !failed && findings::trustworthy(&doc.findings),
    ))
}

/// Sections whose work is one thread at a time (per cluster in turn): the findings hold their
/// windows to the single-threaded %cpu rule (anything else busy invalidates them). The others
/// (lmbench's multi-process costs, STREAM and OpenSSL on all cores, I/O) are recorded with the
/// CPUs they may use, so their own parallel work is not taken for background activity; their
/// windows are still checked for %system, throttling, swapping and kernel messages.
fn single_threaded(section: &str) -> bool {
    matches!(
        section,
        "dhrystone" | "whetstone" | "linpack" | "stub-spin" | "stub-wait"
    )
}

fn status_word(s: SectionStatus) -> &'static str {
    match s {
        SectionStatus::Done => "done",
        SectionStatus::Skipped => "skipped",
        SectionStatus::Failed => "failed",
        SectionStatus::Interrupted => "interrupted",
    }
}

/// What the terminal gets: each section's status and time, the findings, where the document is.
fn print_summary(doc: &document::ResultDocument, args: &Args) {
    let Some(g) = &doc.guide else { return };
    println!(
        "Performance guide{} of {}:",
        if g.quick { " (quick)" } else { "" },
        doc.device.as_deref().unwrap_or("this machine")
    );
    for s in &g.sections {
        let rows: usize = s.tables.iter().map(|t| t.rows.len()).sum();
        println!(
            "  {:<28} {:<11} {:>7.1} s  {rows} figures{}",
            s.title,
            status_word(s.status),
            s.duration_s,
            s.reason
                .as_deref()
                .map(|r| format!("  ({r})"))
                .unwrap_or_default()
        );
    }
    for f in &doc.findings {
        println!("  {}", document::text::finding_line(f));
    }
    if let Some(o) = &args.out.output {
        println!("Result document: {}", o.display());
        println!(
            "Tables: boardbench guide render {} --format rst",
            o.display()
        );
    } else if !args.out.no_store {
        println!(
            "Stored in the results database; tables: boardbench guide render RUN-ID --format rst"
        );
    }
}

/// A directory of the guide's own for the sections' scratch files.
fn scratch_dir() -> anyhow::Result<std::path::PathBuf> {
    use anyhow::Context;
    let base = std::env::temp_dir();
    for i in 0..100u32 {
        let d = base.join(format!("boardbench-guide-{}-{i}", std::process::id()));
        match std::fs::create_dir(&d) {
            Ok(()) => return Ok(d),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e).with_context(|| format!("creating {}", d.display()));
            }
        }
    }
    anyhow::bail!("cannot create a scratch directory in {}", base.display())
}
