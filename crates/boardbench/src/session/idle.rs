//! The idle gate: benchmark only an idle box. The run starts when the 1-minute load is below
//! 0.1, or when the total CPU use stayed below 2.5 % for 30 s (sbc-bench's documented rule;
//! its code reads the %sys column instead, docs/sbc-bench-compat.md — fixed here).
//!
//! sbc-bench users complain the gate is opaque, so while waiting it says *what* is busy: the
//! busiest processes over the last window. Unattended runs give up after a time limit instead
//! of waiting forever — and never benchmark a busy box silently.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use document::run::{IdleGate, ProcessUse};

use crate::session::ExitStatus;
use crate::session::lifecycle::IdleStep;
use crate::session::signals::Held;

/// Thresholds and timing of the gate.
#[derive(Debug, Clone)]
pub struct IdleOptions {
    pub load_below: f64,
    /// Percent of all CPUs.
    pub cpu_below: f64,
    pub window: Duration,
    /// How often CPU use is sampled while waiting.
    pub step: Duration,
    /// Give up after this long (unattended); `None` waits until idle or Ctrl-C.
    pub timeout: Option<Duration>,
}

impl Default for IdleOptions {
    fn default() -> Self {
        IdleOptions {
            load_below: 0.1,
            cpu_below: 2.5,
            window: Duration::from_secs(30),
            step: Duration::from_secs(5),
            timeout: None,
        }
    }
}

/// Where the gate learns what is busy (the real machine, or a fixture in tests).
pub trait BusySource {
    fn load1(&mut self) -> Option<f64>;
    /// CPU use (percent of all CPUs) since the previous call; `None` the first time.
    fn cpu_pct(&mut self) -> Option<f64>;
    /// The busiest processes since the previous call, busiest first.
    fn top_processes(&mut self, n: usize) -> Vec<ProcessUse>;
}

/// Pure decision on the readings so far: `Some(reason)` once the box counts as idle.
pub fn decide(
    load1: Option<f64>,
    window: &[f64],
    needed: usize,
    o: &IdleOptions,
) -> Option<String> {
    if let Some(l) = load1.filter(|&l| l < o.load_below) {
        return Some(format!("1-minute load {l:.2} < {:.2}", o.load_below));
    }
    if needed > 0 && window.len() >= needed {
        let recent = &window[window.len() - needed..];
        let avg = recent.iter().sum::<f64>() / recent.len() as f64;
        if avg < o.cpu_below {
            return Some(format!(
                "CPU use {avg:.1} % < {:.1} % over the last {:.0} s",
                o.cpu_below,
                o.window.as_secs_f64()
            ));
        }
    }
    None
}

/// One line for the user while waiting.
pub fn busy_line(load1: Option<f64>, cpu: Option<f64>, top: &[ProcessUse]) -> String {
    let load = load1.map_or("n/a".to_string(), |l| format!("{l:.2}"));
    let cpu = cpu.map_or("n/a".to_string(), |c| format!("{c:.1} %"));
    let mut s = format!("Too busy for benchmarking: load {load}, CPU {cpu}");
    if !top.is_empty() {
        let names: Vec<String> = top
            .iter()
            .map(|p| format!("{} [{}] {:.0} %", p.command, p.pid, p.cpu_pct))
            .collect();
        s.push_str("; busiest: ");
        s.push_str(&names.join(", "));
    }
    s
}

/// Said once, when the gate first finds the box busy (also without a terminal: a log of an
/// unattended run shows it): what it waits for and every way out of the wait.
pub fn way_out(o: &IdleOptions) -> String {
    let give_up = match o.timeout {
        Some(t) => format!(
            "gives up after {:.0} s (exit code 3; --idle-timeout SEC changes it)",
            t.as_secs_f64()
        ),
        None => "waits until idle; --idle-timeout SEC or --unattended (600 s) gives up \
                 with exit code 3"
            .to_string(),
    };
    format!(
        "Waiting for an idle box (1-minute load below {}, or CPU use below {} % for {:.0} s). \
         It {give_up}; --no-idle-gate starts at once. Ctrl-C is safe: nothing has been changed yet.",
        o.load_below,
        o.cpu_below,
        o.window.as_secs_f64()
    )
}

/// Waits until idle (or the timeout). `say` gets a status line at every step while busy;
/// `sleep` waits between steps and returns the signal that ended it early: `Err(signal)` then.
pub fn wait(
    src: &mut dyn BusySource,
    o: &IdleOptions,
    say: &mut dyn FnMut(&str),
    sleep: &mut dyn FnMut(Duration) -> Option<i32>,
) -> Result<IdleGate, i32> {
    let t0 = Instant::now();
    let needed =
        ((o.window.as_secs_f64() / o.step.as_secs_f64().max(0.001)).ceil() as usize).max(1);
    let mut window: VecDeque<f64> = VecDeque::new();
    let mut top: Vec<ProcessUse> = Vec::new();
    let mut said_way_out = false;
    src.cpu_pct();
    src.top_processes(0);
    loop {
        let load1 = src.load1();
        let w: Vec<f64> = window.iter().copied().collect();
        let cpu_avg = (!w.is_empty()).then(|| w.iter().sum::<f64>() / w.len() as f64);
        let gate = |passed: bool, reason: String, top: Vec<ProcessUse>| IdleGate {
            passed,
            waited_s: t0.elapsed().as_secs_f64(),
            load1_below: o.load_below,
            cpu_pct_below: o.cpu_below,
            window_s: o.window.as_secs_f64(),
            load1,
            cpu_pct: cpu_avg,
            reason,
            top_processes: top,
        };
        if let Some(reason) = decide(load1, &w, needed, o) {
            return Ok(gate(true, reason, top));
        }
        if let Some(limit) = o.timeout
            && t0.elapsed() >= limit
        {
            let reason = format!(
                "still busy after {:.0} s (load {}, CPU {})",
                limit.as_secs_f64(),
                load1.map_or("n/a".into(), |l| format!("{l:.2}")),
                cpu_avg.map_or("n/a".into(), |c| format!("{c:.1} %"))
            );
            return Ok(gate(false, reason, top));
        }
        if let Some(sig) = sleep(o.step) {
            return Err(sig);
        }
        if let Some(c) = src.cpu_pct() {
            window.push_back(c);
            while window.len() > needed {
                window.pop_front();
            }
        }
        top = src.top_processes(5);
        if !said_way_out {
            say(&way_out(o));
            said_way_out = true;
        }
        say(&busy_line(src.load1(), window.back().copied(), &top));
    }
}

/// The machine as seen through a root: /proc/loadavg, /proc/stat and /proc/<pid>/stat.
pub struct RootBusy {
    root: probe::Root,
    last_stat: Option<probe::stat::CpuTimes>,
    procs: Option<(probe::runstate::ProcTimes, Instant)>,
}

impl RootBusy {
    pub fn new(root: &probe::Root) -> Self {
        RootBusy {
            root: root.clone(),
            last_stat: None,
            procs: None,
        }
    }
}

impl BusySource for RootBusy {
    fn load1(&mut self) -> Option<f64> {
        probe::runstate::load1(&self.root)
    }

    fn cpu_pct(&mut self) -> Option<f64> {
        let t = self.root.read("/proc/stat").ok()?;
        let now = probe::stat::parse_cpu_times(t.as_bytes())?;
        let prev = self.last_stat.replace(now)?;
        now.states_since(&prev).map(|s| s.cpu)
    }

    fn top_processes(&mut self, n: usize) -> Vec<ProcessUse> {
        let now = probe::runstate::ProcTimes::read(&self.root);
        let t = Instant::now();
        match self.procs.replace((now.clone(), t)) {
            Some((before, t0)) if n > 0 => probe::runstate::top(
                &before,
                &now,
                t.duration_since(t0).as_secs_f64(),
                probe::runstate::ticks_per_second(),
                n,
            ),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(src: &mut dyn BusySource, o: &IdleOptions, say: &mut dyn FnMut(&str)) -> IdleGate {
        let mut sleep = |d| {
            std::thread::sleep(d);
            None
        };
        super::wait(src, o, say, &mut sleep).unwrap()
    }

    #[test]
    fn a_signal_ends_the_wait() {
        let mut src = Fake {
            load: 1.5,
            cpu: vec![60.0],
        };
        let r = super::wait(&mut src, &o(), &mut |_| {}, &mut |_| Some(libc::SIGINT));
        assert_eq!(r.unwrap_err(), libc::SIGINT);
    }

    fn o() -> IdleOptions {
        IdleOptions {
            step: Duration::from_millis(1),
            window: Duration::from_millis(3),
            timeout: Some(Duration::from_millis(50)),
            ..IdleOptions::default()
        }
    }

    struct Fake {
        load: f64,
        cpu: Vec<f64>,
    }

    impl BusySource for Fake {
        fn load1(&mut self) -> Option<f64> {
            Some(self.load)
        }
        fn cpu_pct(&mut self) -> Option<f64> {
            if self.cpu.len() > 1 {
                Some(self.cpu.remove(0))
            } else {
                self.cpu.first().copied()
            }
        }
        fn top_processes(&mut self, n: usize) -> Vec<ProcessUse> {
            let p = ProcessUse {
                pid: 42,
                command: "stress-ng".into(),
                cpu_pct: 99.0,
            };
            if n > 0 { vec![p] } else { vec![] }
        }
    }

    #[test]
    fn low_load_passes_at_once() {
        let g = wait(
            &mut Fake {
                load: 0.02,
                cpu: vec![50.0],
            },
            &o(),
            &mut |_| {},
        );
        assert!(g.passed);
        assert!(g.reason.contains("load 0.02"));
    }

    #[test]
    fn quiet_cpu_passes_despite_high_load_after_a_full_window() {
        let g = wait(
            &mut Fake {
                load: 1.5,
                cpu: vec![0.5, 1.0, 0.7, 0.4],
            },
            &o(),
            &mut |_| {},
        );
        assert!(g.passed, "{}", g.reason);
        assert!(g.reason.contains("CPU use"));
    }

    #[test]
    fn a_busy_box_gives_up_and_names_the_culprit() {
        let mut lines = Vec::new();
        let g = wait(
            &mut Fake {
                load: 1.5,
                cpu: vec![60.0],
            },
            &o(),
            &mut |l| lines.push(l.to_string()),
        );
        assert!(!g.passed);
        assert!(g.reason.starts_with("still busy"));
        // The way out is said once, before the first busy line.
        let hints: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("Waiting for an idle box"))
            .collect();
        assert_eq!(hints.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("Waiting for an idle box"), "{lines:?}");
        for way in ["--no-idle-gate", "Ctrl-C is safe", "exit code 3"] {
            assert!(hints[0].contains(way), "{way}: {}", hints[0]);
        }
        assert_eq!(g.top_processes[0].command, "stress-ng");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("busiest: stress-ng [42] 99 %"))
        );
    }

    #[test]
    fn the_way_out_names_the_timeout_or_how_to_set_one() {
        let waits = way_out(&IdleOptions {
            timeout: None,
            ..IdleOptions::default()
        });
        assert!(
            waits.contains("--idle-timeout SEC or --unattended"),
            "{waits}"
        );
        let gives_up = way_out(&IdleOptions {
            timeout: Some(Duration::from_secs(600)),
            ..IdleOptions::default()
        });
        assert!(
            gives_up.contains("gives up after 600 s (exit code 3"),
            "{gives_up}"
        );
    }

    #[test]
    fn the_window_average_decides_not_a_single_quiet_sample() {
        let o = IdleOptions {
            window: Duration::from_secs(30),
            step: Duration::from_secs(5),
            ..IdleOptions::default()
        };
        assert_eq!(decide(Some(0.5), &[0.1, 0.1], 6, &o), None);
        assert!(decide(Some(0.5), &[9.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], 6, &o).is_some());
        assert_eq!(
            decide(Some(0.5), &[0.1, 0.1, 0.1, 0.1, 0.1, 20.0], 6, &o),
            None
        );
    }
}

/// The idle-gate options every benchmarking command shares (`run`, `env`, `review`).
/// Negative numbers reach the value check (and are refused there) instead of being taken for
/// options.
#[derive(Debug, Clone, clap::Args)]
pub struct IdleArgs {
    /// Start at once, without waiting for an idle box (the findings still see the load).
    #[arg(long)]
    pub no_idle_gate: bool,
    /// Idle when the 1-minute load is below this …
    #[arg(long, default_value_t = 0.1, value_name = "LOAD", allow_negative_numbers = true,
          value_parser = crate::values::non_negative)]
    pub idle_load: f64,
    /// … or total CPU use (percent of all CPUs) stays below this for --idle-window seconds.
    #[arg(long, default_value_t = 2.5, value_name = "PERCENT", allow_negative_numbers = true,
          value_parser = crate::values::percent)]
    pub idle_cpu: f64,
    #[arg(long, default_value_t = 30.0, value_name = "SEC", allow_negative_numbers = true,
          value_parser = crate::values::seconds)]
    pub idle_window: f64,
    /// Give up waiting after this many seconds (exit code 3). Unattended runs give up after
    /// 600 s unless told otherwise; interactive ones wait until idle or Ctrl-C.
    #[arg(long, value_name = "SEC", allow_negative_numbers = true,
          value_parser = crate::values::seconds)]
    pub idle_timeout: Option<f64>,
    /// Seconds between idle checks.
    #[arg(long, default_value_t = 5.0, value_name = "SEC", hide = true,
          allow_negative_numbers = true, value_parser = crate::values::seconds)]
    pub idle_step: f64,
}

/// How long an unattended run waits for an idle box by default.
pub const UNATTENDED_TIMEOUT_S: f64 = 600.0;

impl IdleArgs {
    pub fn options(&self, unattended: bool) -> IdleOptions {
        let timeout = self
            .idle_timeout
            .or(unattended.then_some(UNATTENDED_TIMEOUT_S))
            .map(|t| Duration::from_secs_f64(t.max(0.0)));
        IdleOptions {
            load_below: self.idle_load,
            cpu_below: self.idle_cpu,
            window: Duration::from_secs_f64(self.idle_window.max(0.0)),
            step: Duration::from_secs_f64(self.idle_step.max(0.01)),
            timeout,
        }
    }

    /// The session's idle step (none with `--no-idle-gate`); `doing` is what the refusal says
    /// the mode was about to do.
    pub fn step<'a>(&self, unattended: bool, doing: &'a str) -> Option<IdleStep<'a>> {
        (!self.no_idle_gate).then(|| IdleStep {
            options: self.options(unattended),
            doing,
        })
    }
}

/// Runs the gate, printing what is busy on stderr. With held signals a signal ends the wait.
/// `Err` is how the mode ends instead of starting.
pub fn gate(
    o: &IdleOptions,
    root: &probe::Root,
    doing: &str,
    held: Option<&Held>,
) -> Result<Option<IdleGate>, ExitStatus> {
    // A tree without /proc/loadavg and /proc/stat (a fixture of sysfs only) can never be
    // seen idle: waiting would be forever.
    if probe::runstate::load1(root).is_none() && root.read("/proc/stat").is_err() {
        eprintln!("Note: no load or CPU readings (/proc/loadavg, /proc/stat): idle gate skipped.");
        return Ok(None);
    }
    let mut sleep = |d| match held {
        Some(h) => h.wait(d),
        None => {
            std::thread::sleep(d);
            None
        }
    };
    let gate = wait(
        &mut RootBusy::new(root),
        o,
        &mut |l| eprintln!("{l}"),
        &mut sleep,
    )
    .map_err(ExitStatus::Interrupted)?;
    if gate.passed {
        return Ok(Some(gate));
    }
    eprintln!("boardbench: not {doing} a busy box: {}", gate.reason);
    for p in &gate.top_processes {
        eprintln!("  {:>6.1} %  {} [{}]", p.cpu_pct, p.command, p.pid);
    }
    Err(ExitStatus::NeverIdle)
}
