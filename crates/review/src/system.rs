//! The kernel command line, memory compression (zram/zswap, from the snapshot) and the
//! Raspberry Pi's firmware state (from the snapshot) and config.txt.

use std::collections::BTreeMap;

use document::machine::{MachineInfo, SwapKind};
use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, opt};

/// Raspberry Pi firmware configuration (config.txt, the lines that matter for performance).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RpiConfig {
    /// "/boot/firmware/config.txt" or "/boot/config.txt".
    pub path: String,
    /// key → value of the settings found (the last one wins, as in the firmware).
    pub settings: BTreeMap<String, String>,
}

/// Keys of config.txt that change performance.
const RPI_KEYS: &[&str] = &[
    "arm_freq",
    "arm_freq_min",
    "over_voltage",
    "over_voltage_delta",
    "force_turbo",
    "arm_boost",
    "core_freq",
    "gpu_freq",
    "sdram_freq",
    "temp_limit",
    "initial_turbo",
    "arm_64bit",
    "gpu_mem",
    "total_mem",
    "usb_max_current_enable",
    "dtparam=pciex1",
    "dtparam=pciex1_gen",
    "dtparam=sd_overclock",
];

/// Reads config.txt (Bookworm and later: /boot/firmware; before: /boot). Only lines outside
/// conditional sections other than [all]/[pi4]/[pi5] are taken at face value; the review
/// shows what is set, not which board filter applies.
pub fn read_rpi_config(root: &Root) -> Option<RpiConfig> {
    for path in ["/boot/firmware/config.txt", "/boot/config.txt"] {
        let Ok(text) = root.read(path) else { continue };
        let mut settings = BTreeMap::new();
        for line in text.lines() {
            let l = line.split('#').next().unwrap_or("").trim();
            let Some((k, v)) = l.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            if k == "dtparam" {
                // "dtparam=pciex1_gen=3" / "dtparam=pciex1"
                let (pk, pv) = v.split_once('=').unwrap_or((v, "on"));
                let key = format!("dtparam={pk}");
                if RPI_KEYS.contains(&key.as_str()) {
                    settings.insert(key, pv.to_string());
                }
            } else if RPI_KEYS.contains(&k) {
                settings.insert(k.to_string(), v.to_string());
            }
        }
        return Some(RpiConfig {
            path: path.to_string(),
            settings,
        });
    }
    None
}

pub fn read_cmdline(root: &Root) -> Option<String> {
    opt(root, "/proc/cmdline")
}

/// Findings about the command line.
pub fn cmdline_findings(cmdline: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let ev = |w: &str| vec![format!("/proc/cmdline: {w}")];
    for w in cmdline.split_whitespace() {
        let (k, v) = w.split_once('=').unwrap_or((w, ""));
        let f = match k {
            "maxcpus" | "nr_cpus" => Some(finding(
                "cmdline-cpus-limited",
                Severity::Warning,
                format!("The kernel is limited to {v} CPUs ({k}={v})"),
                "cores are missing from every multi-threaded result",
                ev(w),
            )),
            "mem" => Some(finding(
                "cmdline-mem-limited",
                Severity::Warning,
                format!("The kernel uses only {v} of memory (mem={v})"),
                "less RAM than installed: more swapping and smaller caches",
                ev(w),
            )),
            "isolcpus" | "nohz_full" => Some(finding(
                "cmdline-isolated-cpus",
                Severity::Info,
                format!("CPUs {v} are isolated ({k})"),
                "the scheduler keeps ordinary work off these CPUs: multi-threaded results \
                 without explicit pinning leave them idle",
                ev(w),
            )),
            "mitigations" if v == "off" => Some(finding(
                "cmdline-mitigations-off",
                Severity::Info,
                "CPU vulnerability mitigations are disabled (mitigations=off)",
                "faster syscalls and context switches than a default kernel; not comparable \
                 with stock results",
                ev(w),
            )),
            "cpufreq.default_governor" => Some(finding(
                "cmdline-default-governor",
                Severity::Info,
                format!("Default cpufreq governor set on the command line: {v}"),
                "decides the clock behaviour after boot",
                ev(w),
            )),
            "pcie_aspm" | "pcie_aspm.policy" => Some(finding(
                "cmdline-aspm",
                Severity::Info,
                format!("PCIe ASPM set on the command line ({w})"),
                "link power management trades latency for idle power",
                ev(w),
            )),
            "usb-storage.quirks" => Some(finding(
                "cmdline-usb-quirks",
                Severity::Info,
                format!("usb-storage quirks on the command line: {v}"),
                "flag u disables UAS for the listed bridges (Bulk-Only: slower random I/O)",
                ev(w),
            )),
            _ => None,
        };
        out.extend(f);
    }
    out
}

/// Findings about zram and zswap.
pub fn memory_findings(m: &MachineInfo) -> Vec<Finding> {
    let mut out = Vec::new();
    let mem = &m.memory;
    let zram_swap = mem.swaps.iter().any(|s| s.kind == SwapKind::Zram);
    let zswap_on = mem.zswap.as_ref().and_then(|z| z.enabled) == Some(true);
    if zram_swap && zswap_on {
        out.push(finding(
            "zswap-and-zram",
            Severity::Info,
            "zswap is enabled in front of zram swap",
            "pages are compressed twice (zswap, then zram) and zswap's pool competes with \
             zram for RAM: one of the two is enough",
            vec![format!(
                "zswap compressor {}, zram swap {}",
                mem.zswap
                    .as_ref()
                    .and_then(|z| z.compressor.clone())
                    .unwrap_or_default(),
                mem.swaps
                    .iter()
                    .filter(|s| s.kind == SwapKind::Zram)
                    .map(|s| s.path.clone())
                    .collect::<Vec<_>>()
                    .join(" ")
            )],
        ));
    }
    if mem.swaps.is_empty() {
        out.push(finding(
            "no-swap",
            Severity::Info,
            "No swap is configured",
            "a workload that exceeds RAM is killed by the OOM killer instead of slowing \
             down (zram costs little)",
            vec!["/proc/swaps is empty".into()],
        ));
    }
    for z in &mem.zram {
        if let (Some(o), Some(c)) = (z.orig_data_bytes, z.compr_data_bytes)
            && o > 0
            && c > 0
        {
            let ratio = o as f64 / c as f64;
            if ratio < 1.5 && o > 64 << 20 {
                out.push(finding(
                    "zram-ratio",
                    Severity::Info,
                    format!("{} compresses only {ratio:.1}:1", z.name),
                    "incompressible data in zram uses almost as much RAM as it frees",
                    vec![format!("orig {o} bytes, compressed {c} bytes")],
                ));
            }
        }
    }
    out
}

/// Findings about the Raspberry Pi firmware state and config.
pub fn rpi_findings(m: &MachineInfo, cfg: Option<&RpiConfig>) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(t) = m.rpi.as_ref().and_then(|r| r.throttled) {
        let raw = format!("vcgencmd get_throttled: throttled=0x{:x}", t.raw);
        if t.under_voltage_now || t.under_voltage_occurred {
            out.push(finding(
                "rpi-under-voltage",
                if t.under_voltage_now {
                    Severity::Invalid
                } else {
                    Severity::Warning
                },
                format!(
                    "Under-voltage {} (power supply or cable too weak)",
                    if t.under_voltage_now {
                        "right now"
                    } else {
                        "occurred since boot"
                    }
                ),
                "the firmware caps the clock while the voltage is low; USB devices may \
                 disconnect and SD cards corrupt",
                vec![raw.clone()],
            ));
        }
        if t.throttled_now
            || t.arm_freq_capped_now
            || t.soft_temp_limit_now
            || t.throttled_occurred
            || t.arm_freq_capped_occurred
            || t.soft_temp_limit_occurred
        {
            let now = t.throttled_now || t.arm_freq_capped_now || t.soft_temp_limit_now;
            out.push(finding(
                "rpi-throttled",
                Severity::Warning,
                format!(
                    "The firmware {} the ARM clock ({})",
                    if now { "is capping" } else { "has capped" },
                    [
                        (
                            t.arm_freq_capped_now || t.arm_freq_capped_occurred,
                            "frequency capped"
                        ),
                        (t.throttled_now || t.throttled_occurred, "throttled"),
                        (
                            t.soft_temp_limit_now || t.soft_temp_limit_occurred,
                            "soft temperature limit"
                        ),
                    ]
                    .iter()
                    .filter(|(b, _)| *b)
                    .map(|(_, s)| *s)
                    .collect::<Vec<_>>()
                    .join(", ")
                ),
                "the VideoCore firmware lowers clocks on its own, invisibly to cpufreq: the \
                 kernel's clock values are then fiction",
                vec![raw],
            ));
        }
    }
    if let (Some(arm), Some(max)) = (
        m.rpi.as_ref().and_then(|r| r.arm_clock_hz),
        m.policies.iter().filter_map(|p| p.cpuinfo_max_khz).max(),
    ) && arm / 1000 > max + max / 20
    {
        out.push(finding(
            "rpi-clock-above-cpufreq",
            Severity::Info,
            format!(
                "The firmware reports {} MHz, above cpufreq's maximum of {} MHz",
                arm / 1_000_000,
                max / 1000
            ),
            "the firmware, not the kernel, decides the real clock",
            vec![],
        ));
    }
    if let Some(c) = cfg {
        let s = &c.settings;
        let oc: Vec<String> = [
            "arm_freq",
            "over_voltage",
            "over_voltage_delta",
            "force_turbo",
            "core_freq",
            "gpu_freq",
            "sdram_freq",
        ]
        .iter()
        .filter_map(|k| s.get(*k).map(|v| format!("{k}={v}")))
        .collect();
        if !oc.is_empty() {
            out.push(finding(
                "rpi-overclock",
                Severity::Info,
                format!("config.txt changes clocks or voltages: {}", oc.join(", ")),
                "results of an overclocked Pi are not comparable with stock ones, and an \
                 unstable overclock corrupts data",
                vec![c.path.clone()],
            ));
        }
        if let Some(g) = s.get("dtparam=pciex1_gen") {
            out.push(finding(
                "rpi-pcie-gen",
                Severity::Info,
                format!("config.txt sets the PCIe link to Gen{g} (dtparam=pciex1_gen={g})"),
                "Gen3 doubles NVMe throughput on a Pi 5 but is not certified; link errors \
                 show up in dmesg",
                vec![c.path.clone()],
            ));
        }
        if let Some(t) = s.get("temp_limit") {
            out.push(finding(
                "rpi-temp-limit",
                Severity::Info,
                format!("config.txt sets the throttling temperature to {t}°C"),
                "the firmware throttles at this temperature instead of the default",
                vec![c.path.clone()],
            ));
        }
    }
    out
}

/// Background load at review time (sbc-bench's -r checks the machine is idle first): the
/// 1-minute load average against the online CPUs.
pub fn load_findings(root: &Root, m: &MachineInfo) -> Vec<Finding> {
    let Some(load1) = opt(root, "/proc/loadavg").and_then(|s| {
        s.split_whitespace()
            .next()
            .and_then(|v| v.parse::<f64>().ok())
    }) else {
        return Vec::new();
    };
    let cpus = m.cpus.online.len().max(1) as f64;
    if load1 < 0.5 * cpus {
        return Vec::new();
    }
    vec![finding(
        "background-load",
        Severity::Warning,
        format!(
            "The machine is busy: load average {load1:.2} on {} online CPUs",
            cpus as usize
        ),
        "other work competes with anything measured now: benchmark results will be low and \
         vary; find the cause (top, htop) before benchmarking",
        vec![format!("/proc/loadavg: {load1:.2}")],
    )]
}
