//! `boardbench monitor` (sbc-bench's `-m [interval]`): a live view of clocks, load, CPU states
//! and temperature, one line per interval, until Ctrl-C or `--count` samples.
//!
//! The sampling itself is `probe::sampler::Sampler` (the same one a benchmark run records with);
//! this module only decides the layout from the machine, sleeps, and prints.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use anyhow::Context;
use probe::sampler::{Sampler, SamplerConfig, sample_every};

use crate::cli::Globals;
use crate::live_view;
use crate::session::lifecycle::{SessionOptions, Signals};
use crate::session::signals::{Stop, give_up_reads};
use crate::session::{ExitStatus, Session};

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
    /// Serve the monitor as Prometheus metrics on this address (e.g. 127.0.0.1:9101) instead
    /// of printing; the machine is read only when scraped.
    #[arg(long, value_name = "ADDR:PORT", conflicts_with_all = ["json", "count"])]
    pub listen: Option<std::net::SocketAddr>,
}

/// Seconds between samples (also `review --interval`).
/// The sampling interval (`crate::values::interval`: 0.01 s to a day).
pub(crate) fn parse_interval(s: &str) -> Result<f64, String> {
    crate::values::interval(s)
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    if let Some(addr) = args.listen {
        return super::monitor_listen::serve(addr, g);
    }
    let root = g.root();
    if root.is_host() {
        // Like sbc-bench's monitor: never compete with what is being observed. First, before
        // any thread starts: Linux keeps a nice value per thread, and the probe's reader
        // threads (started by the snapshot) inherit it from this one.
        // SAFETY: setpriority only changes the nice value of this thread (and of the threads
        // it starts).
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
    // The session's lifecycle, as every mode: signals held before any thread exists, then the
    // machine. Ctrl-C, SIGTERM and SIGHUP end the sampling within one slice (the session's
    // Stop); they also give up the probe's reads, so a read hanging in a driver does not hold
    // the end up, and a second signal ends the process even if something else is stuck. The
    // monitor changes nothing, so its session has no idle gate, tuning or record. The exit
    // code says which signal ended it (128 + N, as every mode): a script that stops the
    // monitor with SIGTERM sees 143, Ctrl-C gives 130.
    let probed = Session::probe(root, Signals::Held);
    let session = match probed.start(&SessionOptions::default()) {
        Ok(s) => s,
        Err(status) => return Ok(status.code()),
    };
    let (root, machine) = (&session.root, &session.machine);
    let config = SamplerConfig::from_machine(machine);
    let stop = Stop::watch(session.held(), None, Some(give_up_reads)).exit_on_second_signal();

    let mut sampler = sampler_for(&config, root);
    let layout = sampler.layout().clone();

    let stdout = std::io::stdout();
    let tty = stdout.is_terminal();
    let mut out = stdout.lock();
    let tz = chrono::Local;
    let header = live_view::header(&layout);
    let result: std::io::Result<()> = (|| {
        if !args.json {
            if tty {
                write!(out, "{}", live_view::hardware_header(machine, &layout))?;
                writeln!(out)?;
            }
            writeln!(out, "{header}")?;
            out.flush()?;
        }
        let mut line = String::with_capacity(128);
        let mut spacing = live_view::HeaderSpacing::new(tty);
        let interval = Duration::from_secs_f64(args.interval);
        sample_every(&mut sampler, interval, args.count, &stop.cancel, |s| {
            if args.json {
                writeln!(out, "{}", live_view::json_line(&layout, &s, &tz))?;
            } else {
                if spacing.before_line() {
                    writeln!(out, "{header}")?;
                }
                line.clear();
                live_view::push_line(&mut line, &layout, &s, &tz);
                writeln!(out, "{line}")?;
            }
            out.flush()
        })?;
        Ok(())
    })();
    let signal = stop.finish();
    drop(out);
    session.close();
    // A closed pipe (`| head`) ends quietly by the rule in output.rs.
    result.context("writing the monitor output")?;
    Ok(ExitStatus::of(signal, true).code())
}

/// A sampler for this machine, with the Raspberry Pi firmware readings when it has them (the
/// live view and every background monitor of a run use the same).
pub fn sampler_for(config: &SamplerConfig, root: &probe::Root) -> Sampler {
    crate::session::phase_recorder::sampler(config, root)
}

#[cfg(test)]
mod tests {
    use super::parse_interval;

    #[test]
    fn intervals() {
        assert_eq!(parse_interval("0.2"), Ok(0.2));
        assert!(
            parse_interval("0").is_err(),
            "below 10 ms /proc/stat shows nothing"
        );
        assert!(parse_interval("x").is_err());
    }
}
