//! What happened around the run: the kernel messages of its window ("dmesg output while running
//! the benchmarks:", as sbc-bench) and the machine state before and after — swap use per
//! device, zram, zswap, online CPUs, OOM kills, Raspberry Pi throttling bits, x86 throttle
//! counters, powercap limits, temperature.

use std::fmt::Write;

use document::ResultDocument;
use document::run::StateSnapshot;

use crate::machine::{swap_area, zram, zswap};
use crate::text::{kib, one_line, span};

pub fn kmsg(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let mut out = String::from("dmesg output while running the benchmarks:\n\n");
    match &run.kmsg {
        None => out.push_str("(kernel messages were not recorded)\n"),
        Some(k) => {
            for l in &k.lines {
                let _ = writeln!(out, "[{:>12.6}] {}", l.seconds, one_line(&l.text));
            }
            if k.lines.is_empty() {
                let _ = writeln!(out, "(none, read from {})", one_line(&k.source));
            }
            if let Some(n) = &k.note {
                let _ = writeln!(out, "Note: {}", one_line(n));
            }
        }
    }
    Some(out)
}

fn swap_total(s: &StateSnapshot) -> Option<u64> {
    s.swaps.iter().map(|a| a.used_kib).sum()
}

fn swap_lines(out: &mut String, when: &str, s: &StateSnapshot) {
    if s.swaps.is_empty() {
        let _ = writeln!(out, "Swap {when} the run: none configured");
        return;
    }
    let total = swap_total(s).map_or_else(|| "?".into(), kib);
    let _ = writeln!(out, "Swap {when} the run: {total} used");
    for a in &s.swaps {
        let _ = writeln!(out, "  {}", swap_area(a));
    }
    for z in &s.zram {
        let _ = writeln!(out, "  zram: {}", zram(z));
    }
}

pub fn state(doc: &ResultDocument) -> Option<String> {
    let run = doc.run.as_ref()?;
    let (b, a) = (run.before.as_ref(), run.after.as_ref());
    if b.is_none() && a.is_none() {
        return Some("Machine state before/after the run: not recorded.\n".into());
    }
    let mut out = String::new();
    if let Some(b) = b {
        swap_lines(&mut out, "before", b);
    }
    if let Some(a) = a {
        swap_lines(&mut out, "after", a);
    }
    if let Some(z) = a
        .and_then(|a| a.zswap.as_ref())
        .or(b.and_then(|b| b.zswap.as_ref()))
    {
        let _ = writeln!(out, "Zswap: {}", zswap(z));
    }
    out.push('\n');
    let pair = |f: &dyn Fn(&StateSnapshot) -> Option<String>| -> Option<String> {
        let x = b.and_then(f);
        let y = a.and_then(f);
        (x.is_some() || y.is_some()).then(|| {
            format!(
                "before {}, after {}",
                x.unwrap_or_else(|| "?".into()),
                y.unwrap_or_else(|| "?".into())
            )
        })
    };
    let mut row = |label: &str, v: Option<String>| {
        if let Some(v) = v {
            let _ = writeln!(out, "{label:<18}{v}");
        }
    };
    row(
        "Online CPUs:",
        pair(&|s| (!s.online_cpus.is_empty()).then(|| span(&s.online_cpus))),
    );
    row("Available memory:", pair(&|s| s.mem_available_kib.map(kib)));
    row("OOM kills:", pair(&|s| s.oom_kills.map(|k| k.to_string())));
    row(
        "Temperature:",
        pair(&|s| {
            s.temp_c
                .filter(|t| t.is_finite())
                .map(|t| format!("{t:.1}°C"))
        }),
    );
    row(
        "RPi get_throttled:",
        pair(&|s| s.rpi_throttled.map(|t| format!("0x{t:x}"))),
    );
    row(
        "Thermal throttle:",
        pair(&|s| {
            (!s.thermal_throttle.is_empty()).then(|| {
                let core: u64 = s
                    .thermal_throttle
                    .iter()
                    .filter_map(|t| t.core_throttle_count)
                    .sum();
                let pkg: u64 = s
                    .thermal_throttle
                    .iter()
                    .filter_map(|t| t.package_throttle_count)
                    .max()
                    .unwrap_or(0);
                format!("{core} core / {pkg} package events")
            })
        }),
    );
    if let Some(s) = a.or(b) {
        for z in &s.powercap {
            let limits: Vec<String> = z
                .constraints
                .iter()
                .filter_map(|c| {
                    let w = c.power_limit_uw? as f64 / 1e6;
                    Some(format!("{} {w:.1} W", one_line(&c.name)))
                })
                .collect();
            let enabled = match z.enabled {
                Some(true) => "enabled",
                Some(false) => "disabled",
                None => "state unknown",
            };
            row(
                "Powercap:",
                Some(format!(
                    "{} {enabled}: {}",
                    one_line(&z.name),
                    limits.join(", ")
                )),
            );
        }
        for p in &s.policies {
            if let Some(g) = &p.governor {
                row(
                    &format!("policy{} gov:", p.policy),
                    Some(format!("{} (at the end of the run)", one_line(g))),
                );
            }
        }
    }
    Some(out)
}
