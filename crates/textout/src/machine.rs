//! `boardbench info`'s report of a machine snapshot ([`MachineInfo`]): what the machine is, as
//! sbc-bench prints it when monitoring starts, and more — SoC and CPU, device, kernel and
//! userland, the CPU topology table, caches, the chosen temperature source and why, memory and
//! swap, virtualisation, and the notes of everything that could not be read. With a foreign
//! cpuinfo (`--cpuinfo-file`) the CPU line and a core-type table describe the file's
//! processors, and the topology below is said to be this machine's.
//!
//! A pure function of the snapshot, so fixture trees pin it (`crates/boardbench/tests/
//! info_snapshots.rs`). The log's system block (`logfile::system`) is the sbc-bench-shaped
//! summary of the same snapshot; the two share one CPU topology table ([`topology_table`]:
//! sbc-bench's PrintCPUTopology heading and columns) and one memory block ([`memory_rows`]:
//! memory, swap areas, zram devices, zswap — also the log's before/after lines), each laid out
//! in its own label column.

use std::fmt::Write as _;

use document::machine::{
    Cache, Cluster, MachineInfo, Memory, OppSource, Policy, SensorKind, SwapArea, SwapKind,
    ThermalSensor, Throttled, Zram, Zswap,
};

use crate::text::{kib, one_line, span};

/// The text report.
pub fn render(m: &MachineInfo) -> String {
    let mut o = String::new();
    identity(&mut o, m);
    o.push('\n');
    foreign_processors(&mut o, m);
    topology(&mut o, m);
    caches(&mut o, m);
    o.push('\n');
    thermal(&mut o, m);
    o.push('\n');
    memory(&mut o, m);
    rpi(&mut o, m);
    if !m.notes.is_empty() {
        let _ = writeln!(o, "\nNotes (values that could not be read):");
        for n in &m.notes {
            let _ = writeln!(o, "  {}: {}", n.path, n.reason);
        }
    }
    o
}

fn line(o: &mut String, key: &str, value: impl std::fmt::Display) {
    let _ = writeln!(o, "{:<11} {value}", format!("{key}:"));
}

fn identity(o: &mut String, m: &MachineInfo) {
    let id = &m.identity;
    let dmi_model = match (&id.dmi.sys_vendor, &id.dmi.product_name) {
        (Some(v), Some(p)) => Some(match &id.dmi.product_version {
            Some(ver) if ver != p && !ver.is_empty() => format!("{v} {p} ({ver})"),
            _ => format!("{v} {p}"),
        }),
        (Some(v), None) => Some(v.clone()),
        (None, Some(p)) => Some(p.clone()),
        (None, None) => None,
    };
    match headline::device::device_name_with_source(m) {
        Some((name, source)) => line(o, "Device", format!("{name} ({})", source.label())),
        None => line(o, "Device", "unknown"),
    }
    if let Some(d) = dmi_model {
        line(o, "DMI", d);
    }
    if let Some(b) = &id.dmi.board_name {
        let vendor = id.dmi.board_vendor.as_deref().unwrap_or("");
        line(o, "Board", format!("{vendor} {b}").trim());
    }
    match &id.soc {
        Some(s) => line(o, "SoC guess", format!("{} ({})", s.name, s.why)),
        None => line(o, "SoC guess", no_soc_guess(m)),
    }
    line(o, "CPU", core_counts(m));
    if let Some(dt) = id.device_tree.as_ref().filter(|d| !d.compatible.is_empty()) {
        line(o, "DT compat", dt.compatible.join(" "));
    }
    let k = &id.kernel;
    let kernel = [k.ostype.as_deref(), k.release.as_deref(), k.arch.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let kernel = match &k.version {
        Some(v) => format!("{kernel} ({v})"),
        None => kernel,
    };
    line(
        o,
        "Kernel",
        if kernel.is_empty() {
            "unknown".into()
        } else {
            kernel
        },
    );
    match &id.userland {
        Some(u) => {
            let mut s = u.arch.clone().unwrap_or_else(|| "unknown".into());
            if let (Some(bits), Some(bin)) = (u.bits, &u.binary) {
                let _ = write!(s, " ({bits}-bit, from {bin})");
            }
            if !u.dpkg_architectures.is_empty() {
                let _ = write!(s, ", dpkg: {}", u.dpkg_architectures.join(" "));
            }
            if u.mixed {
                s.push_str(", 32-bit userland on a 64-bit kernel");
            }
            line(o, "Userland", s);
        }
        None => line(o, "Userland", "unknown"),
    }
    match id
        .distro
        .as_ref()
        .and_then(|d| d.pretty_name.clone().or(d.name.clone()))
    {
        Some(d) => line(o, "Distro", d),
        None => line(o, "Distro", "unknown"),
    }
    match &id.virtualization {
        Some(v) => line(
            o,
            "Virtual",
            format!("{} ({})", virtualization(v), v.evidence.join("; ")),
        ),
        None => line(o, "Virtual", "none detected"),
    }
}

/// Without a guess, what the core types are ("unknown: 4× Cortex-A55 + 4× Cortex-A76"): they
/// fit several SoCs or none the table knows. x86 and unnamed cores give "none".
fn no_soc_guess(m: &MachineInfo) -> String {
    if m.cpuinfo.family.as_deref() == Some("x86") {
        return "none".into();
    }
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for name in m
        .cpuinfo
        .processors
        .iter()
        .filter_map(|p| p.core_name.as_deref())
    {
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => groups.push((name, 1)),
        }
    }
    if groups.is_empty() {
        return "none".into();
    }
    let set = groups
        .iter()
        .map(|(n, k)| format!("{k}× {n}"))
        .collect::<Vec<_>>()
        .join(" + ");
    format!("unknown: {set} (core types alone do not single out a SoC)")
}

/// The hypervisor and the container, each named: "kvm guest", "kvm guest in a docker
/// container", "docker container", "guest of an unknown hypervisor".
fn virtualization(v: &document::machine::Virtualization) -> String {
    let guest = match v.kind.as_str() {
        "container" => None,
        "vm" => Some("guest of an unknown hypervisor".to_string()),
        k => Some(format!("{k} guest")),
    };
    match (guest, v.container.as_deref()) {
        (Some(g), Some(c)) => format!("{g} in a {c} container"),
        (Some(g), None) => g,
        (None, Some(c)) => format!("{c} container"),
        (None, None) => "container".into(),
    }
}

/// With a foreign cpuinfo, the file's processors: counted per core type as sbc-bench counts
/// them ("4× Cortex-A53 / r0p4, 4× Cortex-A73 / r0p2"), in the order they first appear.
fn file_core_counts(m: &MachineInfo) -> String {
    let c = &m.cpuinfo;
    let n = c.processors.len();
    let count = match n {
        0 => "no processors".to_string(),
        1 => "1 processor".to_string(),
        n => format!("{n} processors"),
    };
    // The MIDR joined with '&' (HiSilicon vendor kernels): the core types, not who has them.
    if c.processors.iter().all(|p| p.core_name.is_none()) && c.shared_cores.len() > 1 {
        let shared: Vec<String> = c
            .shared_cores
            .iter()
            .map(|s| match (&s.core_name, &s.stepping) {
                (Some(n), Some(st)) => format!("{n} / {st}"),
                (Some(n), None) => n.clone(),
                (None, _) => "unknown core".into(),
            })
            .collect();
        return format!(
            "{count}: {} (which processor has which is unknown)",
            shared.join(" + ")
        );
    }
    let mut parts: Vec<(String, usize)> = Vec::new();
    for p in &c.processors {
        let label = processor_label(p);
        match parts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => parts.push((label, 1)),
        }
    }
    if parts.is_empty() {
        return format!("unknown ({count} in the file)");
    }
    let list = parts
        .iter()
        .map(|(l, n)| format!("{n}× {l}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{count}: {list}")
}

/// "Cortex-A76 / r4p0", else the model name, else "unknown core".
fn processor_label(p: &document::cpu::Processor) -> String {
    p.core_label()
        .or_else(|| p.model_name.clone())
        .unwrap_or_else(|| "unknown core".into())
}

/// The core-type table of a foreign cpuinfo's processors, and what the rest describes.
fn foreign_processors(o: &mut String, m: &MachineInfo) {
    let Some(file) = &m.cpuinfo.foreign_file else {
        return;
    };
    let _ = writeln!(o, "Processors in {file} (core types from the file)");
    let _ = writeln!(o, " CPU   core type");
    for p in &m.cpuinfo.processors {
        let _ = writeln!(o, "{:>4}   {}", p.index, processor_label(p));
    }
    if let Some(note) = &m.cpuinfo.midr_note {
        let _ = writeln!(o, "Note: {note}.");
    }
    let _ = writeln!(
        o,
        "The file is not this machine's /proc/cpuinfo: the topology, cpufreq, caches and \
         temperatures below are this machine's, not the file's machine's (which are absent).\n"
    );
}

/// "4× Cortex-A55 / r2p0, 4× Cortex-A76 / r4p0".
fn core_counts(m: &MachineInfo) -> String {
    if m.cpuinfo.foreign_file.is_some() {
        return file_core_counts(m);
    }
    let mut parts: Vec<(String, usize)> = Vec::new();
    for c in &m.clusters {
        let label = c.core_label().unwrap_or_else(|| {
            if c.online_cpus().is_empty() {
                "offline".into()
            } else {
                "unknown core".into()
            }
        });
        match parts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += c.cpus.len(),
            None => parts.push((label, c.cpus.len())),
        }
    }
    if parts.is_empty() {
        return "unknown".into();
    }
    parts
        .iter()
        .map(|(l, n)| format!("{n}× {l}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mhz(khz: Option<u64>) -> String {
    khz.map_or("-".into(), |k| ((k + 500) / 1000).to_string())
}

/// "0-3,6" from a CPU list ("-" when empty).
fn cpu_range(cpus: &[u32]) -> String {
    span(cpus)
}

/// sbc-bench's PrintCPUTopology table (` CPU    cluster  policy   speed  speed   core type`,
/// clocks in MHz truncated as its shell arithmetic does): the one CPU table of `info` and the
/// log. The core type is the CPU's own label (with its hybrid kind on x86 hybrids), else its
/// cluster's; an offline CPU is marked.
pub(crate) fn topology_table(out: &mut String, m: &MachineInfo) {
    out.push_str("CPU sysfs topology (clusters, cpufreq members, clockspeeds)\n");
    out.push_str("                 cpufreq   min    max\n");
    out.push_str(" CPU    cluster  policy   speed  speed   core type\n");
    if m.topology.is_empty() {
        out.push_str("  (no topology read)\n");
    }
    for t in &m.topology {
        let policy = t
            .policy
            .and_then(|p| m.policies.iter().find(|x| x.policy == p));
        let dash = || "-".to_string();
        let mhz = |k: Option<u64>| k.map_or_else(dash, |k| (k / 1000).to_string());
        let label = t
            .core_label
            .clone()
            .or_else(|| t.cluster.and_then(|c| m.clusters.get(c)?.core_label()))
            .map(|l| one_line(&l))
            .unwrap_or_else(dash);
        let label = match (&t.hybrid, t.core_label.is_some()) {
            (Some(h), true) => format!("{label} / {}", one_line(h)),
            _ => label,
        };
        let offline = if t.online { "" } else { " (offline)" };
        let _ = writeln!(
            out,
            "{:>3}{:>9}{:>9}{:>9}{:>8}   {label}{offline}",
            t.cpu,
            t.cluster.map_or_else(dash, |c| c.to_string()),
            t.policy.map_or_else(dash, |p| p.to_string()),
            mhz(policy.and_then(|p| p.cpuinfo_min_khz)),
            mhz(policy.and_then(|p| p.cpuinfo_max_khz)),
        );
    }
}

/// The topology table, then `info`'s cpufreq summary: drivers, and per cluster its governor
/// now, its OPPs and the governors it offers; devfreq devices.
fn topology(o: &mut String, m: &MachineInfo) {
    topology_table(o, m);
    let policy = |n: Option<u32>| n.and_then(|n| m.policies.iter().find(|p| p.policy == n));
    if m.policies.is_empty() {
        let _ = writeln!(o, "No cpufreq support.");
        // What the device tree states instead (the nominal clock of a board without cpufreq).
        for c in &m.clusters {
            if let (Some(khz), Some(first), Some(last)) =
                (c.dt_max_khz, c.cpus.first(), c.cpus.last())
            {
                let _ = writeln!(
                    o,
                    "Device tree: cpu{first}-cpu{last} up to {} MHz ({})",
                    khz / 1000,
                    one_line(c.dt_clock_from.as_deref().unwrap_or("device tree"))
                );
            }
        }
    } else {
        let mut drivers: Vec<&str> = m
            .policies
            .iter()
            .filter_map(|p| p.driver.as_deref())
            .collect();
        drivers.dedup();
        let mut s = format!(
            "cpufreq: {} {} ({})",
            m.policies.len(),
            if m.policies.len() == 1 {
                "policy"
            } else {
                "policies"
            },
            if drivers.is_empty() {
                "driver unknown".into()
            } else {
                drivers.join(", ")
            }
        );
        if let Some(b) = m.cpufreq.boost {
            let _ = write!(s, ", boost {}", if b { "on" } else { "off" });
        }
        if let Some(st) = &m.cpufreq.intel_pstate_status {
            let _ = write!(s, ", intel_pstate {st}");
        }
        if let Some(nt) = m.cpufreq.intel_no_turbo {
            let _ = write!(s, ", turbo {}", if nt { "off" } else { "on" });
        }
        if let Some(st) = &m.cpufreq.amd_pstate_status {
            let _ = write!(s, ", amd_pstate {st}");
        }
        let _ = writeln!(o, "{s}");
        for (i, c) in m.clusters.iter().enumerate() {
            if let Some(p) = policy(c.policy) {
                let what = if c.online_cpus().is_empty() {
                    format!("policy{} inactive, all its CPUs are offline", p.policy)
                } else {
                    match &p.governor {
                        Some(g) => format!("governor {g}, {}", opps(p)),
                        None => opps(p),
                    }
                };
                let _ = writeln!(o, "  cluster {i} (cpu{}): {what}", cpu_range(&c.cpus));
            }
        }
    }
    devfreq(o, m);
}

/// "devfreq: dmc dmc_ondemand 528-2112 MHz, fb000000.gpu simple_ondemand 300-1000 MHz".
fn devfreq(o: &mut String, m: &MachineInfo) {
    for d in &m.devfreq {
        let mhz =
            |hz: Option<u64>| hz.map_or("?".into(), |h| ((h + 500_000) / 1_000_000).to_string());
        let _ = writeln!(
            o,
            "devfreq {}: governor {}, {}-{} MHz",
            d.name,
            d.governor.as_deref().unwrap_or("?"),
            mhz(d.min_hz),
            mhz(d.max_hz)
        );
    }
}

fn opps(p: &Policy) -> String {
    let list = |v: &[u64]| {
        v.iter()
            .map(|k| mhz(Some(*k)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let src = match p.opp_source {
        OppSource::Available => "",
        OppSource::TimeInState => " (from stats/time_in_state)",
        OppSource::MinMax => " (min/max only)",
        OppSource::None => "",
    };
    let mut s = if p.frequencies_khz.is_empty() {
        "no operating points known".to_string()
    } else {
        format!("OPPs {} MHz{src}", list(&p.frequencies_khz))
    };
    if !p.boost_khz.is_empty() {
        let _ = write!(s, ", boost {} MHz", list(&p.boost_khz));
    }
    if !p.available_governors.is_empty() {
        let _ = write!(s, "; governors: {}", p.available_governors.join(" "));
    }
    s
}

fn cache_name(c: &Cache) -> String {
    let suffix = match c.kind.as_str() {
        "Data" => "d",
        "Instruction" => "i",
        _ => "",
    };
    format!("L{}{suffix}", c.level)
}

fn caches(o: &mut String, m: &MachineInfo) {
    let with: Vec<(usize, &Cluster)> = m
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.caches.is_empty())
        .collect();
    if with.is_empty() {
        return;
    }
    let _ = writeln!(o, "Caches:");
    for (i, c) in with {
        let list = c
            .caches
            .iter()
            .map(|k| {
                let mut s = format!("{} {}", cache_name(k), k.size_kib.map_or("?".into(), kib));
                if k.shared_cpus.len() > 1 {
                    let _ = write!(s, " (cpu{})", cpu_range(&k.shared_cpus));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(o, "  cluster {i} (cpu{}): {list}", cpu_range(&c.cpus));
    }
}

fn temp(t: Option<f64>) -> String {
    t.map_or("n/a".into(), |t| format!("{t:.1}°C"))
}

fn thermal(o: &mut String, m: &MachineInfo) {
    let reading = |path: &str| m.thermal_sensors.iter().find(|s| s.path == path);
    match &m.thermal_source {
        Some(t) => {
            let _ = writeln!(
                o,
                "Thermal source: {} ({}, {})",
                t.path,
                t.name,
                temp(reading(&t.path).and_then(|s| s.temp_c))
            );
            let _ = writeln!(o, "  why: {}", t.why);
        }
        None => {
            let _ = writeln!(
                o,
                "Thermal source: none ({})",
                if m.thermal_sensors.is_empty() {
                    "no thermal zone or hwmon temperature found"
                } else {
                    "no eligible sensor with a plausible reading"
                }
            );
        }
    }
    if m.thermal_sensors.is_empty() {
        return;
    }
    let _ = writeln!(o, "Sensors (ranked):");
    for s in &m.thermal_sensors {
        let _ = writeln!(
            o,
            "  {:<28} {:>8}  {:<6} {}",
            sensor_name(s),
            temp(s.temp_c),
            s.tier.map_or("-".into(), |t| format!("tier {t}")),
            s.path
        );
    }
}

fn sensor_name(s: &ThermalSensor) -> String {
    let kind = match s.kind {
        SensorKind::Zone => "zone",
        SensorKind::Hwmon => "hwmon",
    };
    match &s.label {
        Some(l) => format!("{kind} {} {l}", s.name),
        None => format!("{kind} {}", s.name),
    }
}

fn memory(o: &mut String, m: &MachineInfo) {
    for (label, value) in memory_rows(&m.memory) {
        line(o, label, value);
    }
}

/// The memory block of `info` and the log, as (label, value) rows that each lays out in its
/// own column: memory, every swap area, every zram device, zswap (with a warning when it sits
/// on top of zram swap).
pub(crate) fn memory_rows(mem: &Memory) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    let total = match (mem.total_kib, mem.available_kib) {
        (Some(t), Some(a)) => format!("{} total, {} available", kib(t), kib(a)),
        (Some(t), None) => format!("{} total", kib(t)),
        _ => "unknown".into(),
    };
    rows.push(("Memory", total));
    if mem.swaps.is_empty() {
        rows.push(("Swap", "none configured".into()));
    }
    for s in &mem.swaps {
        rows.push(("Swap", swap_area(s)));
    }
    for z in &mem.zram {
        rows.push(("zram", zram(z)));
    }
    if let Some(z) = &mem.zswap {
        let mut v = zswap(z);
        if z.enabled == Some(true) && mem.swaps.iter().any(|s| s.kind == SwapKind::Zram) {
            v.push_str(" — WARNING: zswap on top of zram harms performance when swapping");
        }
        rows.push(("zswap", v));
    }
    rows
}

/// "/swapfile (file) 8.0 GiB, 0 KiB used, priority -2".
pub(crate) fn swap_area(s: &SwapArea) -> String {
    let kind = match s.kind {
        SwapKind::Zram => "zram",
        SwapKind::File => "file",
        SwapKind::Partition => "partition",
        SwapKind::Unknown => "unknown kind",
    };
    let size = s.size_kib.map_or_else(|| "size ?".into(), kib);
    let used = s
        .used_kib
        .map_or_else(|| "? used".into(), |u| format!("{} used", kib(u)));
    let prio = s
        .priority
        .map(|p| format!(", priority {p}"))
        .unwrap_or_default();
    one_line(&format!("{} ({kind}) {size}, {used}{prio}", s.path))
}

pub(crate) fn zram(z: &Zram) -> String {
    let mut parts = vec![one_line(&z.name)];
    if let Some(a) = &z.algorithm {
        parts.push(one_line(a));
    }
    if let Some(d) = z.disksize_bytes {
        parts.push(format!("disk {}", kib(d / 1024)));
    }
    if let (Some(o), Some(c)) = (z.orig_data_bytes, z.compr_data_bytes) {
        parts.push(format!(
            "{} data compressed to {}",
            kib(o / 1024),
            kib(c / 1024)
        ));
    }
    parts.join(", ")
}

pub(crate) fn zswap(z: &Zswap) -> String {
    let state = match z.enabled {
        Some(true) => "enabled",
        Some(false) => "disabled",
        None => "state unknown",
    };
    let algo = match (&z.compressor, &z.zpool) {
        (Some(c), Some(p)) => format!(" ({}/{})", one_line(c), one_line(p)),
        (Some(c), None) => format!(" ({})", one_line(c)),
        _ => String::new(),
    };
    let pool = z
        .max_pool_percent
        .map(|p| format!(", max pool {p}%"))
        .unwrap_or_default();
    format!("{state}{algo}{pool}")
}

fn rpi(o: &mut String, m: &MachineInfo) {
    let Some(r) = &m.rpi else {
        return;
    };
    let mut s = String::new();
    if let Some(hz) = r.arm_clock_hz {
        let _ = write!(s, "arm {} MHz", (hz + 500_000) / 1_000_000);
    }
    if let Some(v) = r.core_volts {
        if !s.is_empty() {
            s.push_str(", ");
        }
        let _ = write!(s, "core {v:.4} V");
    }
    line(
        o,
        "RPi fw",
        if s.is_empty() {
            "no readings".into()
        } else {
            s
        },
    );
    if let Some(t) = &r.throttled {
        let names = throttled_names(t);
        line(
            o,
            "Throttled",
            format!(
                "0x{:x}{}{}",
                t.raw,
                if names.is_empty() { "" } else { ": " },
                if names.is_empty() {
                    " (nothing)".into()
                } else {
                    names.join(", ")
                }
            ),
        );
    }
}

/// Names of the set bits of the firmware's throttled flags, for display ("under-voltage now",
/// "throttling occurred").
pub fn throttled_names(t: &Throttled) -> Vec<&'static str> {
    [
        (t.under_voltage_now, "under-voltage now"),
        (t.arm_freq_capped_now, "arm frequency capped now"),
        (t.throttled_now, "throttled now"),
        (t.soft_temp_limit_now, "soft temperature limit now"),
        (t.under_voltage_occurred, "under-voltage occurred"),
        (t.arm_freq_capped_occurred, "arm frequency capping occurred"),
        (t.throttled_occurred, "throttling occurred"),
        (
            t.soft_temp_limit_occurred,
            "soft temperature limit occurred",
        ),
    ]
    .into_iter()
    .filter_map(|(b, n)| b.then_some(n))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_sizes() {
        assert_eq!(cpu_range(&[0, 1, 2, 3, 6, 8, 9]), "0-3,6,8-9");
        assert_eq!(cpu_range(&[]), "-");
        assert_eq!(kib(3072), "3 MiB");
        assert_eq!(kib(1280), "1.2 MiB");
        assert_eq!(kib(16145796), "15.4 GiB");
        assert_eq!(kib(48), "48 KiB");
    }

    #[test]
    fn throttled_flags_are_named() {
        let t = Throttled {
            raw: 0x50005,
            under_voltage_now: true,
            throttled_now: true,
            under_voltage_occurred: true,
            throttled_occurred: true,
            ..Throttled::default()
        };
        assert_eq!(
            throttled_names(&t),
            [
                "under-voltage now",
                "throttled now",
                "under-voltage occurred",
                "throttling occurred"
            ]
        );
    }

    #[test]
    fn a_board_without_cpufreq_shows_the_device_trees_clock() {
        let m = MachineInfo {
            clusters: vec![document::machine::Cluster {
                cpus: vec![0, 1, 2, 3],
                dt_max_khz: Some(1_400_000),
                dt_clock_from: Some("operating-points-v2 /opp-table".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        let s = render(&m);
        assert!(
            s.contains(
                "No cpufreq support.\nDevice tree: cpu0-cpu3 up to 1400 MHz (operating-points-v2 /opp-table)\n"
            ),
            "{s}"
        );
    }

    #[test]
    fn an_empty_snapshot_renders() {
        let s = render(&MachineInfo::default());
        assert!(s.contains("No cpufreq support."));
        assert!(s.contains("Thermal source: none"));
    }
}
