//! Judging a monitored window (the time a command ran, or until Ctrl-C): cpufreq statistics
//! before and after (throttling), the clocks the monitor saw, and devices whose state changed
//! (sbc-bench's "ATTENTION: status of PCIe and storage devices has changed").

use document::machine::MachineInfo;
use document::samples::{MonitorLayout, MonitorSample};
use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::Review;
use crate::util::finding;
use probe::cpufreq::policy_dir;

/// The kind of the window's highest-temperature finding, which `review` keeps even when it
/// leaves out the other sample drops.
pub const WINDOW_TEMPERATURE: &str = "window-temperature";

/// `stats/time_in_state` of one policy: (kHz, time in 10 ms units).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeInState {
    pub policy: u32,
    pub rows: Vec<(u64, u64)>,
}

/// Reads time_in_state of every policy that has statistics.
pub fn read_time_in_state(root: &Root, m: &MachineInfo) -> Vec<TimeInState> {
    m.policies
        .iter()
        .filter_map(|p| {
            let t = root
                .read(&format!(
                    "{}/stats/time_in_state",
                    policy_dir(root, p.policy)
                ))
                .ok()?;
            let rows = probe::cpufreq::parse_time_in_state(&t);
            (!rows.is_empty()).then_some(TimeInState {
                policy: p.policy,
                rows,
            })
        })
        .collect()
}

/// Throttling in the window: with the performance governor a policy should spend all its
/// time at its top clock (scaling_max_freq); time at lower clocks means something capped it
/// (thermal, power, firmware). `performance` says whether the governor was performance.
pub fn throttling(
    before: &[TimeInState],
    after: &[TimeInState],
    m: &MachineInfo,
    performance: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if after.is_empty() && !m.policies.is_empty() {
        out.push(finding(
            "no-cpufreq-stats",
            Severity::Info,
            "No cpufreq statistics: throttling can only be judged from the monitor's clocks",
            "without CONFIG_CPU_FREQ_STAT the kernel keeps no record of time per clock",
            vec!["stats/time_in_state missing".into()],
        ));
        return out;
    }
    for a in after {
        let Some(b) = before.iter().find(|b| b.policy == a.policy) else {
            continue;
        };
        let delta: Vec<(u64, u64)> = a
            .rows
            .iter()
            .map(|&(f, t)| {
                let t0 = b.rows.iter().find(|r| r.0 == f).map_or(0, |r| r.1);
                (f, t.saturating_sub(t0))
            })
            .collect();
        let total: u64 = delta.iter().map(|d| d.1).sum();
        if total == 0 {
            continue;
        }
        let p = m.policies.iter().find(|p| p.policy == a.policy);
        let top = p
            .and_then(|p| p.scaling_max_khz.or(p.cpuinfo_max_khz))
            .or_else(|| delta.iter().map(|d| d.0).max())
            .unwrap_or(0);
        // The highest listed clock not above the cap (the cap need not be an OPP).
        let top = delta
            .iter()
            .map(|d| d.0)
            .filter(|&f| f <= top)
            .max()
            .unwrap_or(top);
        let below: u64 = delta.iter().filter(|d| d.0 < top).map(|d| d.1).sum();
        let mut rows: Vec<String> = delta
            .iter()
            .filter(|d| d.1 > 0)
            .map(|d| {
                format!(
                    "{} MHz: {:.1} s ({:.1} %)",
                    d.0 / 1000,
                    d.1 as f64 / 100.0,
                    d.1 as f64 * 100.0 / total as f64
                )
            })
            .collect();
        rows.insert(
            0,
            format!("policy{} time_in_state delta over the window", a.policy),
        );
        if performance && below > 0 {
            let pct = below as f64 * 100.0 / total as f64;
            out.push(finding(
                "throttling",
                Severity::Warning,
                format!(
                    "policy{} ran below its top clock ({} MHz) for {pct:.1} % of the window",
                    a.policy,
                    top / 1000
                ),
                "with the performance governor the clock only drops when something caps it \
                 (thermal trip, power limit, firmware): the results of the window are lower \
                 than the hardware can do",
                rows,
            ));
        } else if !performance {
            out.push(finding(
                "clock-distribution",
                Severity::Info,
                format!(
                    "policy{} spent {:.1} % of the window below its top clock (governor not \
                     tuned)",
                    a.policy,
                    below as f64 * 100.0 / total as f64
                ),
                "without the performance governor lower clocks are the governor's choice, \
                 not necessarily throttling",
                rows,
            ));
        }
    }
    out
}

/// Clock drops the monitor saw: a cluster sampled below 95 % of its maximum while the
/// governor was performance.
pub fn sample_drops(layout: &MonitorLayout, samples: &[MonitorSample]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, c) in layout.clusters.iter().enumerate() {
        let Some(max) = c.max_khz.map(|k| (k / 1000) as u32) else {
            continue;
        };
        let seen: Vec<u32> = samples
            .iter()
            .filter_map(|s| s.clocks_mhz.get(i).copied().flatten())
            .collect();
        let Some(&min) = seen.iter().min() else {
            continue;
        };
        if (min as f64) < max as f64 * 0.95 {
            out.push(finding(
                "clock-drop-observed",
                Severity::Warning,
                format!(
                    "cpu{}'s cluster was sampled at {min} MHz, below its maximum of {max} MHz",
                    c.first_cpu
                ),
                "with the performance governor a lower clock means a cap (thermal, power, \
                 firmware) was active during the window",
                vec![format!(
                    "{} samples, lowest {min} MHz, highest {} MHz",
                    seen.len(),
                    seen.iter().max().copied().unwrap_or(0)
                )],
            ));
        }
    }
    if let Some(t) = samples
        .iter()
        .filter_map(|s| s.temp_c)
        .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))))
    {
        out.push(finding(
            WINDOW_TEMPERATURE,
            Severity::Info,
            format!("Highest temperature in the window: {t:.1}°C"),
            "compare with the thermal trip points: close to a passive trip the clocks fall",
            vec![],
        ));
    }
    out
}

/// Devices whose state changed between two reviews (links retrained, devices vanished or
/// appeared, USB devices renegotiated).
pub fn changes(before: &Review, after: &Review) -> Vec<Finding> {
    let mut ev = Vec::new();
    for b in &before.pcie {
        match after.pcie.iter().find(|a| a.address == b.address) {
            None => ev.push(format!("PCIe {} disappeared", b.address)),
            Some(a) if a.current != b.current => ev.push(format!(
                "PCIe {} link {} → {}",
                b.address,
                b.current.text(),
                a.current.text()
            )),
            _ => {}
        }
    }
    for a in &after.pcie {
        if !before.pcie.iter().any(|b| b.address == a.address) {
            ev.push(format!("PCIe {} appeared", a.address));
        }
    }
    for b in &before.usb {
        match after.usb.iter().find(|a| a.path == b.path) {
            None => ev.push(format!("USB {} disconnected", b.path)),
            Some(a) if a.speed_mbps != b.speed_mbps || a.vendor_id != b.vendor_id => {
                ev.push(format!(
                    "USB {} now {:?} Mbps (was {:?})",
                    b.path, a.speed_mbps, b.speed_mbps
                ))
            }
            _ => {}
        }
    }
    for a in &after.usb {
        if !before.usb.iter().any(|b| b.path == a.path) {
            ev.push(format!("USB {} connected", a.path));
        }
    }
    for b in &before.disks {
        if !after.disks.iter().any(|a| a.name == b.name) {
            ev.push(format!("disk {} disappeared", b.name));
        }
    }
    for a in &after.disks {
        if !before.disks.iter().any(|b| b.name == a.name) {
            ev.push(format!("disk {} appeared", a.name));
        }
    }
    if ev.is_empty() {
        return Vec::new();
    }
    vec![finding(
        "devices-changed",
        Severity::Warning,
        "ATTENTION: status of PCIe, USB or storage devices changed during the window",
        "a link that retrains or a device that disconnects under load points at power, \
         cabling or thermal problems, and the results of the window may include the outage",
        ev,
    )]
}
