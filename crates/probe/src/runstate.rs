//! The machine's state before and after a run: what the findings compare to tell whether the
//! numbers can be trusted (throttling in `time_in_state`, swapping, OOM kills, cores taken
//! offline, Raspberry Pi under-voltage, x86 throttle counters, power limits).
//!
//! A snapshot reads only what changes during a run or what a finding needs as evidence; the
//! static description of the machine is [`MachineInfo`] (taken once). Everything reads through
//! a [`Root`], and a value that cannot be read is absent (its reason goes to the [`Notes`] of
//! [`snapshot_noted`]); nothing here panics on bad input.
//!
//! Submodules: [`kmsg`] (the kernel messages of the run's window), [`procs`] (what keeps the
//! box busy, for the idle gate), [`rpi_config`] (config.txt), [`x86`] (thermal_throttle
//! counters and powercap zones).

pub mod kmsg;
pub mod procs;
pub mod rpi_config;
pub mod x86;

use document::machine::{MachineInfo, Policy};
use document::run::{DevfreqState, OppTime, PolicyState, StateSnapshot};

use crate::cpufreq::parse_time_in_state;
use crate::topology::CPU_DIR;
use crate::{Absent, Notes, Root, identity, memory, rpi, thermal};

pub use kmsg::{Cursor, Kmsg};
pub use procs::{ProcTimes, load1, ticks_per_second, top};

/// Reads the state of the machine now. `taken_iso` and `unix_ms` are the caller's clock (the
/// run stamps every instant the same way), stored as given.
pub fn snapshot(
    root: &Root,
    machine: &MachineInfo,
    taken_iso: String,
    unix_ms: u64,
) -> StateSnapshot {
    snapshot_noted(root, machine, taken_iso, unix_ms).0
}

/// [`snapshot`] with the reasons of absent values (files that exist but are unreadable,
/// empty or garbage; optional files that are simply missing are not noted).
pub fn snapshot_noted(
    root: &Root,
    machine: &MachineInfo,
    taken_iso: String,
    unix_ms: u64,
) -> (StateSnapshot, Notes) {
    let mut notes = Notes::default();
    let online_cpus = notes
        .keep(root.read_cpu_list(&format!("{CPU_DIR}/online")))
        .unwrap_or_default();
    let policies = machine
        .policies
        .iter()
        .map(|p| read_policy_state(root, &mut notes, p))
        .collect();
    let devfreq = read_devfreq_states(root, &mut notes);
    // memory::read also reads zram and zswap; its MemTotal note is about the static machine.
    let mem = memory::read(root, &mut notes);
    let oom_kills = read_oom_kills(root, &mut notes);

    let is_rpi = identity::is_raspberry_pi(machine.identity.device_tree.as_ref());
    let rpi_throttled = is_rpi
        .then(|| notes.keep(rpi::VcGenCmd::for_root(root).throttled()))
        .flatten()
        .map(|t| t.raw);
    let rpi_config = is_rpi.then(|| rpi_config::read(root, &mut notes)).flatten();

    let temp_c = machine.thermal_source.as_ref().and_then(|s| {
        notes
            .keep(root.read_i64(&s.path))
            .map(thermal::millideg_to_c)
    });

    let snap = StateSnapshot {
        taken: taken_iso,
        unix_ms,
        online_cpus,
        policies,
        devfreq,
        swaps: mem.swaps,
        zram: mem.zram,
        zswap: mem.zswap,
        mem_available_kib: mem.available_kib,
        oom_kills,
        rpi_throttled,
        rpi_config,
        thermal_throttle: x86::read_thermal_throttle(root, &mut notes),
        powercap: x86::read_powercap(root, &mut notes),
        temp_c,
    };
    (snap, notes)
}

/// The changing part of one policy: governor, limits, current clock and statistics.
pub fn read_policy_state(root: &Root, notes: &mut Notes, p: &Policy) -> PolicyState {
    let base = crate::cpufreq::policy_dir(root, p.policy);
    let f = |name: &str| format!("{base}/{name}");
    let num = |notes: &mut Notes, name: &str| notes.keep_optional(root.read_u64(&f(name)));
    // scaling_cur_freq is world-readable; cpuinfo_cur_freq (the hardware's answer) is root-only
    // and missing on many drivers, so it is only the fallback.
    let cur_khz = num(notes, "scaling_cur_freq").or_else(|| num(notes, "cpuinfo_cur_freq"));
    PolicyState {
        policy: p.policy,
        cpus: p.related_cpus.clone(),
        governor: notes.keep_optional(root.read_value(&f("scaling_governor"))),
        scaling_min_khz: num(notes, "scaling_min_freq"),
        scaling_max_khz: num(notes, "scaling_max_freq"),
        cpuinfo_max_khz: num(notes, "cpuinfo_max_freq"),
        cur_khz,
        time_in_state: notes
            .keep_optional(root.read(&f("stats/time_in_state")))
            .map(|t| time_in_state(&t))
            .unwrap_or_default(),
        total_trans: num(notes, "stats/total_trans"),
    }
}

/// `stats/time_in_state` rows as seconds per OPP. The kernel counts in USER_HZ ticks, which
/// the ABI fixes at 100 per second whatever the kernel's HZ (so 10 ms units everywhere).
pub fn time_in_state(text: &str) -> Vec<OppTime> {
    parse_time_in_state(text)
        .into_iter()
        .map(|(khz, ticks)| OppTime {
            khz,
            seconds: ticks as f64 / 100.0,
        })
        .collect()
}

/// Governor and current clock of every devfreq device, in name order.
pub fn read_devfreq_states(root: &Root, notes: &mut Notes) -> Vec<DevfreqState> {
    let base = "/sys/class/devfreq";
    root.list_dir(base)
        .unwrap_or_default()
        .into_iter()
        .map(|name| {
            let f = |n: &str| format!("{base}/{name}/{n}");
            DevfreqState {
                governor: notes.keep_optional(root.read_value(&f("governor"))),
                cur_hz: notes.keep_optional(root.read_u64(&f("cur_freq"))),
                name,
            }
        })
        .collect()
}

/// `oom_kill` of /proc/vmstat: processes the OOM killer ended since boot (kernel ≥ 4.13;
/// older kernels lack the line, which is absent without a note).
pub fn read_oom_kills(root: &Root, notes: &mut Notes) -> Option<u64> {
    let text = notes.keep(root.read("/proc/vmstat"))?;
    match parse_vmstat_field(&text, "oom_kill") {
        Some(Ok(v)) => Some(v),
        Some(Err(bad)) => {
            notes.push(Absent {
                path: "/proc/vmstat".into(),
                reason: format!("oom_kill is not a number: {bad:?}"),
            });
            None
        }
        None => None,
    }
}

/// The value of `name` in /proc/vmstat (`name value` lines): `None` without the line,
/// `Err(text)` when its value is not a number.
pub fn parse_vmstat_field(text: &str, name: &str) -> Option<Result<u64, String>> {
    text.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        (w.next()? == name).then(|| {
            let v = w.next().unwrap_or("");
            v.parse()
                .map_err(|_| crate::root::truncate(v, 40).to_string())
        })
    })
}
