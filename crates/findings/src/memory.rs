//! Memory pressure: swapping during the run (zram or disk), zswap stacked on zram, and the OOM
//! killer.

use document::imported::ImportedLog;
use document::machine::{SwapArea, SwapKind};
use document::{Finding, Severity};
use sbcimport::signals::Signals;

use crate::{RunCx, capped, finding, kinds};

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let mut out = Vec::new();
    let swapped = match (cx.before, cx.after) {
        (Some(b), Some(a)) => swapping(&b.swaps, &a.swaps),
        _ => None,
    };
    let did_swap = swapped.is_some();
    out.extend(swapped);
    out.extend(zswap_on_zram(cx, did_swap));
    out.extend(oom(cx));
    out
}

fn used(areas: &[SwapArea]) -> u64 {
    areas
        .iter()
        .filter_map(|a| a.used_kib)
        .fold(0u64, u64::saturating_add)
}

fn kind_name(k: SwapKind) -> &'static str {
    match k {
        SwapKind::Zram => "zram",
        SwapKind::File => "file",
        SwapKind::Partition => "partition",
        SwapKind::Unknown => "unknown",
    }
}

fn swapping(before: &[SwapArea], after: &[SwapArea]) -> Option<Finding> {
    let (b, a) = (used(before), used(after));
    if a <= b {
        return None;
    }
    let mut ev = vec![format!("swap used: {b} KiB before, {a} KiB after the run")];
    let mut grew_zram = false;
    let mut grew_disk: Vec<String> = Vec::new();
    for area in after {
        let was = before
            .iter()
            .find(|x| x.path == area.path)
            .and_then(|x| x.used_kib)
            .unwrap_or(0);
        let now = area.used_kib.unwrap_or(0);
        ev.push(format!(
            "{} ({}): {was} → {now} KiB",
            area.path,
            kind_name(area.kind)
        ));
        if now > was {
            if area.kind == SwapKind::Zram {
                grew_zram = true;
            } else {
                grew_disk.push(format!("{} ({})", area.path, kind_name(area.kind)));
            }
        }
    }
    let message = if grew_disk.is_empty() && grew_zram {
        "Swapping (zram) has occured invalidating benchmark scores.".to_string()
    } else if grew_disk.is_empty() {
        "Swapping has occured invalidating benchmark scores.".to_string()
    } else {
        format!(
            "Swapping to storage ({}) has occured invalidating benchmark scores.",
            grew_disk.join(", ")
        )
    };
    Some(finding(
        kinds::SWAPPING,
        Severity::Invalid,
        message,
        capped(ev, 12),
    ))
}

fn zswap_on_zram(cx: &RunCx, swapped: bool) -> Option<Finding> {
    let zswap = cx
        .after
        .and_then(|a| a.zswap.as_ref())
        .or_else(|| cx.before.and_then(|b| b.zswap.as_ref()))
        .or_else(|| cx.machine.and_then(|m| m.memory.zswap.as_ref()))?;
    if zswap.enabled != Some(true) {
        return None;
    }
    let zram_swap: Vec<&SwapArea> = cx
        .before
        .into_iter()
        .chain(cx.after)
        .flat_map(|s| s.swaps.iter())
        .chain(cx.machine.into_iter().flat_map(|m| m.memory.swaps.iter()))
        .filter(|s| s.kind == SwapKind::Zram)
        .collect();
    let first = zram_swap.first()?;
    let mut ev = vec![format!(
        "zswap enabled (compressor {}, zpool {})",
        zswap.compressor.as_deref().unwrap_or("?"),
        zswap.zpool.as_deref().unwrap_or("?")
    )];
    ev.push(format!("zram swap area: {}", first.path));
    let severity = if swapped {
        Severity::Warning
    } else {
        Severity::Info
    };
    Some(finding(
        kinds::ZSWAP_ON_ZRAM,
        severity,
        "Zswap configured on top of zram: pages are compressed twice, swap performance harmed.",
        ev,
    ))
}

/// kmsg lines that show the OOM killer at work.
fn is_oom_line(l: &str) -> bool {
    l.contains("oom-killer") || l.contains("Out of memory")
}

fn oom(cx: &RunCx) -> Option<Finding> {
    let delta = match (
        cx.before.and_then(|b| b.oom_kills),
        cx.after.and_then(|a| a.oom_kills),
    ) {
        (Some(b), Some(a)) => a.saturating_sub(b),
        _ => 0,
    };
    let lines: Vec<String> = cx
        .kmsg()
        .filter(|l| is_oom_line(l))
        .map(str::to_string)
        .collect();
    oom_finding(delta, lines, |ev| {
        if let (Some(b), Some(a)) = (
            cx.before.and_then(|b| b.oom_kills),
            cx.after.and_then(|a| a.oom_kills),
        ) {
            ev.insert(0, format!("/proc/vmstat oom_kill: {b} before, {a} after"));
        }
    })
}

fn oom_finding(
    delta: u64,
    lines: Vec<String>,
    add: impl FnOnce(&mut Vec<String>),
) -> Option<Finding> {
    let invocations = lines.iter().filter(|l| l.contains("oom-killer")).count() as u64;
    let n = delta.max(invocations);
    if n == 0 && lines.is_empty() {
        return None;
    }
    let mut ev = capped(lines, 10);
    add(&mut ev);
    let count = if n == 0 {
        "The OOM killer ran".to_string()
    } else {
        format!("{n} oom-killer invocation(s)")
    };
    Some(finding(
        kinds::OOM_KILL,
        Severity::Invalid,
        format!(
            "{count} during the run: the system was too low on RAM, a benchmark may have been killed."
        ),
        ev,
    ))
}

/// (device, used KiB) of the swapon lines of one block.
fn swapon_used(lines: &[String]) -> Vec<(String, u64)> {
    lines
        .iter()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let used = t.get(3)?.parse().ok()?;
            Some((t.first()?.to_string(), used))
        })
        .collect()
}

pub(crate) fn imported(log: &ImportedLog, s: &Signals) -> Vec<Finding> {
    let mut out = Vec::new();
    if let (true, Some(w), Some(info)) = (s.swapped(), &s.swap, &log.swap) {
        let before = swapon_used(&info.before);
        let mut ev = vec![format!(
            "swap used (swapon): {} KiB before, {} KiB after the run",
            w.used_kib_before, w.used_kib_after
        )];
        let mut grown: Vec<String> = Vec::new();
        for (dev, now) in swapon_used(&info.after) {
            let was = before.iter().find(|b| b.0 == dev).map_or(0, |b| b.1);
            ev.push(format!("{dev}: {was} → {now} KiB"));
            if now > was {
                grown.push(dev);
            }
        }
        let message = if !grown.is_empty() && grown.iter().all(|d| d.contains("zram")) {
            "Swapping (zram) has occured invalidating benchmark scores.".to_string()
        } else if grown.is_empty() {
            "Swapping has occured invalidating benchmark scores.".to_string()
        } else {
            format!(
                "Swapping to storage ({}) has occured invalidating benchmark scores.",
                grown
                    .iter()
                    .filter(|d| !d.contains("zram"))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        out.push(finding(
            kinds::SWAPPING,
            Severity::Invalid,
            message,
            capped(ev, 12),
        ));
    }
    if let Some(v) = log
        .validation
        .iter()
        .find(|v| v.starts_with("Zswap configured on top of zram"))
    {
        let severity = if s.swapped() {
            Severity::Warning
        } else {
            Severity::Info
        };
        out.push(finding(
            kinds::ZSWAP_ON_ZRAM,
            severity,
            "Zswap configured on top of zram: pages are compressed twice, swap performance harmed.",
            vec![v.clone()],
        ));
    }
    let lines: Vec<String> = log
        .kmsg
        .iter()
        .filter(|l| is_oom_line(l))
        .cloned()
        .collect();
    out.extend(oom_finding(0, lines, |_| {}));
    out
}
