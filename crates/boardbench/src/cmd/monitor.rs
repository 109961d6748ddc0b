//! `boardbench monitor` (sbc-bench's `-m [interval]`): a live view of clocks, load, CPU states
//! and temperature, one line per interval, until Ctrl-C or `--count` samples.
//!
//! The sampling itself is `probe::monitor::Sampler` (the same one a benchmark run records with);
//! this module only decides the layout from the machine, sleeps, and prints.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use model::machine::MachineInfo;
use probe::monitor::{MonitorConfig, Sampler, Ticker, sleep_until};

use crate::cli::Globals;
use crate::monitor_view;

/// sbc-bench re-prints the column header every 15 lines on a terminal (its SPACING).
const HEADER_EVERY: u32 = 15;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seconds between samples (fractions allowed, e.g. 0.5).
    #[arg(short, long, default_value = "5", value_name = "SECONDS", value_parser = parse_interval)]
    pub interval: f64,
    /// Stop after N samples (default: run until Ctrl-C).
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// Print JSON Lines (one object per sample) instead of the text view.
    #[arg(long)]
    pub json: bool,
}

fn parse_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    // Below 10 ms the kernel's tick-based /proc/stat counters cannot show anything.
    if !(0.01..=86_400.0).contains(&v) {
        return Err(format!(
            "interval must be between 0.01 and 86400 seconds, not {s}"
        ));
    }
    Ok(v)
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    let machine = machine_info(&root);
    let config = MonitorConfig::from_machine(&machine);

    // Ctrl-C and SIGTERM set the flag; the sleep notices it within one slice.
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("installing signal handler")?;
    }
    if root.is_host() {
        // Like sbc-bench's monitor: never compete with what is being observed.
        // SAFETY: setpriority only changes this process's nice value.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }

    let mut sampler = Sampler::start(&config, &root);
    if config.layout.raspberry_pi {
        sampler = with_rpi_firmware(sampler);
    }
    let layout = sampler.layout().clone();

    let stdout = std::io::stdout();
    let tty = stdout.is_terminal();
    let mut out = stdout.lock();
    let tz = chrono::Local;
    let header = monitor_view::header(&layout);
    let result: std::io::Result<()> = (|| {
        if !args.json {
            if tty {
                write!(out, "{}", monitor_view::hardware_header(&machine, &layout))?;
                writeln!(out)?;
            }
            writeln!(out, "{header}")?;
            out.flush()?;
        }
        let mut ticker = Ticker::new(Instant::now(), Duration::from_secs_f64(args.interval));
        let mut line = String::with_capacity(128);
        let mut since_header = 0u32;
        let mut n = 0u64;
        while args.count.is_none_or(|c| n < c) {
            if !sleep_until(ticker.next_deadline(), &stop) {
                break;
            }
            let s = sampler.sample();
            n += 1;
            if args.json {
                writeln!(out, "{}", monitor_view::json_line(&layout, &s, &tz))?;
            } else {
                if tty && since_header == HEADER_EVERY {
                    writeln!(out, "{header}")?;
                    since_header = 0;
                }
                line.clear();
                monitor_view::push_line(&mut line, &layout, &s, &tz);
                writeln!(out, "{line}")?;
                since_header += 1;
            }
            out.flush()?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok(0),
        // The reader went away (`| head`): a normal end for a stream.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(e).context("writing the monitor output"),
    }
}

/// The machine as far as the monitor needs it: clusters (with cpufreq policies and maximum
/// clocks), the thermal source and the Raspberry Pi identification.
///
/// FALLBACK until `probe::snapshot::take` lands: one cluster per cpufreq policy, read directly;
/// no thermal source, no core names. Replace the body with `probe::snapshot::take(root)`.
fn machine_info(root: &probe::Root) -> MachineInfo {
    let mut m = MachineInfo::default();
    const CPUFREQ: &str = "/sys/devices/system/cpu/cpufreq";
    for name in root.list_dir(CPUFREQ).unwrap_or_default() {
        let Some(p) = name
            .strip_prefix("policy")
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let dir = format!("{CPUFREQ}/{name}");
        let cpus: Vec<u32> = root
            .read_value(&format!("{dir}/related_cpus"))
            .or_else(|_| root.read_value(&format!("{dir}/affected_cpus")))
            .map(|s| {
                s.split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect()
            })
            .unwrap_or_else(|_| vec![p]);
        let max_khz = root.read_u64(&format!("{dir}/cpuinfo_max_freq")).ok();
        // Per-CPU policies (x86, many servers) with the same maximum are one cluster.
        if let Some(c) = m
            .clusters
            .last_mut()
            .filter(|c| max_khz.is_some() && c.max_khz == max_khz)
        {
            c.cpus.extend(cpus);
            continue;
        }
        m.clusters.push(model::machine::Cluster {
            cpus,
            policy: Some(p),
            min_khz: root.read_u64(&format!("{dir}/cpuinfo_min_freq")).ok(),
            max_khz,
            ..Default::default()
        });
    }
    // The Raspberry Pi test reads /proc/cpuinfo's Model line, which the snapshot will parse.
    if let Ok(text) = root.read("/proc/cpuinfo") {
        m.cpuinfo.model = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("Model")
                    .map(|r| r.trim_start_matches([' ', '\t', ':']))
            })
            .map(|s| s.trim().to_string());
    }
    m
}

/// Attaches the vcgencmd readings (real clock, VCore) to the sampler.
///
/// TODO: wire `probe::rpi` (the vcgencmd adapter) once it lands; until then the fake/real view
/// shows the real clock and VCore as absent.
fn with_rpi_firmware(sampler: Sampler) -> Sampler {
    sampler
}
