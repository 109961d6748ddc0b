//! What keeps the box busy: CPU time per process from /proc/<pid>/stat, for the idle gate
//! (sbc-bench only says "waiting"; users want to know for what).
//!
//! Two readings and the time between them give each process's CPU use over the window. A pid
//! that was reused in between (another start time) counts as a new process, and processes
//! that ended in the window are left out: they are no longer what keeps the box busy.

use std::collections::BTreeMap;

use document::run::ProcessUse;

use crate::Root;

/// No more processes than this are read (pid_max is at most 4 Mi, real systems have
/// hundreds); a corrupted tree cannot make a reading take minutes.
const MAX_PROCS: usize = 100_000;

/// CPU time of one process at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcTime {
    pub pid: u32,
    /// `comm`: the executable name the kernel keeps (at most 15 bytes; may contain spaces and
    /// parentheses).
    pub comm: String,
    /// utime + stime in clock ticks (all threads of the process).
    pub ticks: u64,
    /// Start time after boot in clock ticks: tells a reused pid from the same process.
    pub start: u64,
}

/// One reading of every process.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcTimes {
    pub by_pid: BTreeMap<u32, ProcTime>,
}

impl ProcTimes {
    /// Reads every /proc/<pid>/stat. Processes that end while being read, and unparsable
    /// files, are skipped.
    pub fn read(root: &Root) -> ProcTimes {
        let by_pid = root
            .list_dir("/proc")
            .unwrap_or_default()
            .iter()
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .take(MAX_PROCS)
            .filter_map(|n| parse_stat(&root.read(&format!("/proc/{n}/stat")).ok()?))
            .map(|p| (p.pid, p))
            .collect();
        ProcTimes { by_pid }
    }
}

/// Parses `/proc/<pid>/stat`: `pid (comm) state ppid … utime stime … starttime …`. The comm
/// may contain anything, ")" and spaces included, so the fields after it are found from the
/// *last* ")".
pub fn parse_stat(text: &str) -> Option<ProcTime> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    if close < open {
        return None;
    }
    let pid = text[..open].trim().parse().ok()?;
    let comm = text[open + 1..close].to_string();
    // Fields from 3 (state) on; utime, stime are fields 14 and 15, starttime field 22.
    let rest: Vec<&str> = text[close + 1..].split_whitespace().collect();
    let num = |i: usize| rest.get(i)?.parse::<u64>().ok();
    Some(ProcTime {
        pid,
        comm,
        ticks: num(11)?.checked_add(num(12)?)?,
        start: num(19)?,
    })
}

/// The `n` busiest processes between two readings, busiest first (ties by pid). Processes
/// that used no CPU in the window are left out. `elapsed_s` is the time between the readings,
/// `ticks_per_s` the clock tick rate ([`ticks_per_second`]).
pub fn top(
    before: &ProcTimes,
    after: &ProcTimes,
    elapsed_s: f64,
    ticks_per_s: u64,
    n: usize,
) -> Vec<ProcessUse> {
    if !(elapsed_s.is_finite() && elapsed_s > 0.0 && ticks_per_s > 0) {
        return Vec::new();
    }
    let mut v: Vec<(u64, &ProcTime)> = after
        .by_pid
        .values()
        .filter_map(|a| {
            let used = match before.by_pid.get(&a.pid) {
                // A counter going backwards is not the same process either.
                Some(b) if b.start == a.start && b.ticks <= a.ticks => a.ticks - b.ticks,
                // Started in the window (or a reused pid): all its time is the window's.
                _ => a.ticks,
            };
            (used > 0).then_some((used, a))
        })
        .collect();
    v.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.pid.cmp(&y.1.pid)));
    v.into_iter()
        .take(n)
        .map(|(used, p)| ProcessUse {
            pid: p.pid,
            command: p.comm.clone(),
            cpu_pct: used as f64 / ticks_per_s as f64 / elapsed_s * 100.0,
        })
        .collect()
}

/// The 1-minute load average of /proc/loadavg.
pub fn load1(root: &Root) -> Option<f64> {
    let t = root.read("/proc/loadavg").ok()?;
    crate::stat::parse_load1(t.as_bytes())
}

/// Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux architecture, but
/// asked rather than assumed).
pub fn ticks_per_second() -> u64 {
    // SAFETY: sysconf only reads a configuration value.
    let v = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(v).ok().filter(|&t| t > 0).unwrap_or(100)
}
