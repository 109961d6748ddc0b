//! The review as text: findings first (most severe first, each with why it matters and its
//! evidence), then what was read, section by section.

use std::fmt::Write;

use document::{Finding, Severity};

use crate::Review;
use crate::util::human_bytes;

/// One finding as every text renderer lists it ([`document::text::finding_line`]), indented, and
/// its evidence lines.
pub fn push_finding(out: &mut String, f: &Finding) {
    let _ = writeln!(out, "  {}", document::text::finding_line(f));
    for e in document::text::evidence_lines(f) {
        let _ = writeln!(out, "{e}");
    }
}

pub fn render(r: &Review) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Review of {}",
        r.device.as_deref().unwrap_or("this machine")
    );
    let _ = writeln!(o);
    let n = |s: Severity| r.findings.iter().filter(|f| f.severity == s).count();
    let _ = writeln!(
        o,
        "Findings ({} invalid, {} warnings, {} info):",
        n(Severity::Invalid),
        n(Severity::Warning),
        n(Severity::Info)
    );
    if r.findings.is_empty() {
        let _ = writeln!(o, "  none");
    }
    for f in &r.findings {
        push_finding(&mut o, f);
    }

    let _ = writeln!(o, "\nGovernors:");
    if r.governors.is_empty() {
        let _ = writeln!(o, "  no cpufreq");
    }
    for g in &r.governors {
        let _ = write!(
            o,
            "  policy{} ({}): {}",
            g.policy,
            g.cpus
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(","),
            g.governor.as_deref().unwrap_or("?")
        );
        if let Some(t) = &g.tunables {
            let kv: Vec<String> = t.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = write!(o, " [{}]", kv.join(" "));
        }
        let _ = writeln!(o);
    }

    if !r.pcie.is_empty() || r.aspm_policy.is_some() {
        let _ = writeln!(
            o,
            "\nPCIe devices (ASPM policy: {}):",
            r.aspm_policy.as_ref().map_or("?", |a| a.selected.as_str())
        );
        // Functions without a link of their own (host bridges, SMBus, on-chip devices) are
        // left out: there is nothing to compare.
        for d in r
            .pcie
            .iter()
            .filter(|d| !d.is_bridge() && d.current.gts.is_some())
        {
            let _ = writeln!(
                o,
                "  {} {}: {} (capable {}{}){}{}",
                d.address,
                d.name.as_deref().unwrap_or(&d.kind),
                d.current.text(),
                d.capable.text(),
                d.upstream_capable
                    .map_or(String::new(), |u| format!(", port {}", u.text())),
                d.driver
                    .as_deref()
                    .map_or(String::new(), |x| format!(", driver {x}")),
                if d.aspm.is_empty() {
                    String::new()
                } else {
                    format!(", ASPM {}", d.aspm.join(" "))
                }
            );
        }
    }

    if !r.usb.is_empty() {
        let _ = writeln!(o, "\nUSB devices:");
        for d in &r.usb {
            let _ = writeln!(
                o,
                "  {} {:04x}:{:04x} {}{}: {} Mbps{}{}",
                d.path,
                d.vendor_id.unwrap_or(0),
                d.product_id.unwrap_or(0),
                d.bridge.as_ref().map_or_else(
                    || d.product.clone().unwrap_or_default(),
                    |b| format!("{} ({} bridge)", b.name, b.target)
                ),
                d.usb_version
                    .as_deref()
                    .map_or(String::new(), |v| format!(", USB {v}")),
                d.speed_mbps.map_or("?".into(), |s| s.to_string()),
                d.capable_mbps
                    .map_or(String::new(), |c| format!(" (capable {c} Mbps)")),
                d.storage_driver
                    .as_deref()
                    .map_or(String::new(), |x| format!(", {x}"))
            );
        }
    }

    if !r.disks.is_empty() {
        let _ = writeln!(o, "\nStorage:");
        for d in &r.disks {
            let _ = writeln!(
                o,
                "  {}: {}{}{}, scheduler {}",
                d.name,
                d.kind(),
                d.size_bytes
                    .map_or(String::new(), |b| format!(" {}", human_bytes(b))),
                d.model
                    .as_deref()
                    .map_or(String::new(), |m| format!(" \"{m}\"")),
                d.scheduler.as_deref().unwrap_or("?")
            );
        }
        for m in &r.mounts {
            let _ = writeln!(
                o,
                "  {} on {} ({}, {})",
                m.device,
                m.mountpoint,
                m.fstype,
                m.options.join(",")
            );
        }
    }
    let _ = writeln!(o, "\nSwap:");
    if r.swap.is_empty() {
        let _ = writeln!(o, "  none");
    }
    for s in &r.swap {
        let _ = writeln!(
            o,
            "  {} on {}",
            s.path,
            s.disk_kind.as_deref().or(s.disk.as_deref()).unwrap_or("?")
        );
    }

    if !r.mmc.is_empty() {
        let _ = writeln!(o, "\nSD/eMMC:");
        for c in &r.mmc {
            let _ = writeln!(
                o,
                "  {} {}: {} {} ({}), date {}{}",
                c.card,
                c.card_type.as_deref().unwrap_or("?"),
                c.manufacturer.as_deref().unwrap_or("unknown manufacturer"),
                c.name.as_deref().unwrap_or("?"),
                c.block_bytes
                    .or(c.csd_bytes)
                    .map_or("?".into(), human_bytes),
                c.date.as_deref().unwrap_or("?"),
                c.counterfeit
                    .map_or(String::new(), |v| format!(", {v:?} counterfeit"))
            );
        }
    }

    if !r.thermal.zones.is_empty() || !r.thermal.cooling.is_empty() {
        let _ = writeln!(o, "\nThermal:");
        for z in &r.thermal.zones {
            let trips: Vec<String> = z
                .trips
                .iter()
                .map(|t| format!("{} {:.0}°C", t.kind, t.temp_c))
                .collect();
            let _ = writeln!(
                o,
                "  {} {}: {}{}",
                z.zone,
                z.name,
                z.temp_c.map_or("?".into(), |t| format!("{t:.1}°C")),
                if trips.is_empty() {
                    String::new()
                } else {
                    format!(", trips: {}", trips.join(", "))
                }
            );
        }
        for c in &r.thermal.cooling {
            let _ = writeln!(
                o,
                "  {} {}: state {}/{}",
                c.device,
                c.kind,
                c.cur_state.map_or("?".into(), |v| v.to_string()),
                c.max_state.map_or("?".into(), |v| v.to_string())
            );
        }
    }
    if let Some(c) = &r.rpi_config {
        let _ = writeln!(o, "\nRaspberry Pi {}:", c.path);
        for (k, v) in &c.settings {
            let _ = writeln!(o, "  {k}={v}");
        }
    }
    if let Some(c) = &r.cmdline {
        let _ = writeln!(o, "\nKernel command line:\n  {c}");
    }
    o
}
