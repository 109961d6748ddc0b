//! The first block: the header line (`boardbench <version> <device> [mode words] (<RFC 2822
//! date>)`), what the machine is (distribution, kernel, device, SoC, CPU topology table like
//! sbc-bench's PrintCPUTopology, memory and swap — the table and the memory rows are `info`'s
//! too, `crate::machine`) and how the run was set up (profile, idle gate, the settings changed
//! for it).

use std::fmt::Write;

use chrono::DateTime;
use document::ResultDocument;
use document::machine::{MachineInfo, Memory};
use document::run::RunRecord;

use crate::text::{one_line, one_line_or_none, span};

pub fn render(doc: &ResultDocument) -> String {
    let mut out = header_line(doc);
    out.push_str("\n\n");
    if let Some(m) = &doc.machine {
        machine(&mut out, m);
    } else if let Some(i) = &doc.imported {
        let _ = writeln!(
            out,
            "Imported from the sbc-bench log {} ({}).",
            one_line(&i.source),
            i.era
        );
    } else {
        out.push_str("No machine snapshot recorded.\n");
    }
    if let Some(r) = &doc.run {
        out.push('\n');
        run_setup(&mut out, r);
    }
    out
}

/// `boardbench 0.1.0 Radxa ROCK 5B extensive unattended (Mon, 23 Nov 2026 12:14:55 +0100)`.
fn header_line(doc: &ResultDocument) -> String {
    let mut words = vec![one_line(&doc.producer)];
    if let Some(d) = headline::device::of_document(doc).and_then(|d| one_line_or_none(&d)) {
        words.push(d);
    }
    if let Some(r) = &doc.run {
        // sbc-bench's mode words; its default run ("sbc-bench", formerly "standard") has none.
        if !r.profile.is_empty() && r.profile != "standard" && r.profile != "sbc-bench" {
            words.push(one_line(&r.profile));
        }
        if r.options.unattended {
            words.push("unattended".into());
        }
        if !r.options.tune {
            words.push("NOTUNING".into());
        }
    }
    let date = doc
        .started
        .as_deref()
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.to_rfc2822())
        .or_else(|| doc.imported.as_ref()?.date.clone())
        .unwrap_or_else(|| "date unknown".into());
    format!("{} ({})", words.join(" "), one_line(&date))
}

fn machine(out: &mut String, m: &MachineInfo) {
    let id = &m.identity;
    let mut row = |label: &str, value: String| {
        let _ = writeln!(out, "{label:<11}{}", one_line(&value));
    };
    if let Some(model) = id.device_tree.as_ref().and_then(|d| d.model.clone()) {
        row("Device:", model);
    } else if let Some(p) = &id.dmi.product_name {
        let vendor = id.dmi.sys_vendor.as_deref().unwrap_or("");
        row("Device:", format!("{vendor} {p}"));
    }
    if let Some(soc) = &id.soc {
        row("SoC guess:", format!("{} ({})", soc.name, soc.why));
    }
    if let Some(d) = &id.distro {
        let name = d
            .pretty_name
            .clone()
            .or_else(|| d.name.clone())
            .unwrap_or_else(|| "unknown".into());
        row("Distro:", name);
    }
    let k = &id.kernel;
    if let Some(rel) = &k.release {
        let arch = k
            .arch
            .as_deref()
            .map(|a| format!(" {a}"))
            .unwrap_or_default();
        let ver = k
            .version
            .as_deref()
            .map(|v| format!(" ({v})"))
            .unwrap_or_default();
        row("Kernel:", format!("{rel}{arch}{ver}"));
    }
    if let Some(u) = &id.userland
        && let Some(a) = &u.arch
    {
        let bits = u.bits.map(|b| format!(" ({b}-bit)")).unwrap_or_default();
        let mixed = if u.mixed { ", on a 64-bit kernel" } else { "" };
        row("Userland:", format!("{a}{bits}{mixed}"));
    }
    if let Some(v) = &id.virtualization {
        row(
            "Virtual:",
            format!("{} ({})", v.kind, v.evidence.join(", ")),
        );
    }
    memory(out, &m.memory);
    if let Some(t) = &m.thermal_source {
        let _ = writeln!(
            out,
            "{:<11}{} ({})",
            "Thermal:",
            one_line(&t.path),
            one_line(&t.name)
        );
    }
    out.push('\n');
    crate::machine::topology_table(out, m);
}

fn memory(out: &mut String, mem: &Memory) {
    for (label, value) in crate::machine::memory_rows(mem) {
        let _ = writeln!(out, "{:<11}{value}", format!("{label}:"));
    }
}

fn run_setup(out: &mut String, r: &RunRecord) {
    let o = &r.options;
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut line = format!(
        "profile {}, cpuminer {}, stockfish {}, unattended {}, performance tuning {}",
        if r.profile.is_empty() {
            "?"
        } else {
            &r.profile
        },
        yes(o.cpuminer),
        yes(o.stockfish),
        yes(o.unattended),
        yes(o.tune),
    );
    if let Some(k) = o.max_khz {
        let _ = write!(line, ", MaxKHz {k}");
    }
    if let Some(k) = o.min_khz {
        let _ = write!(line, ", MinKHz {k}");
    }
    let _ = writeln!(out, "Run:       {}", one_line(&line));
    if !o.args.is_empty() {
        let name = if o.invoked_as.is_empty() {
            "boardbench"
        } else {
            &o.invoked_as
        };
        let _ = writeln!(
            out,
            "Command:   {}",
            one_line(&format!("{name} {}", o.args.join(" ")))
        );
    }
    match &r.idle_gate {
        Some(g) => {
            let verdict = if g.passed { "passed" } else { "not passed" };
            let _ = writeln!(
                out,
                "Idle gate: {verdict} after {:.0} s ({})",
                g.waited_s,
                one_line(&g.reason)
            );
            for p in g.top_processes.iter().take(5) {
                let _ = writeln!(
                    out,
                    "           {:>6.1}% {} (pid {})",
                    p.cpu_pct,
                    one_line(&p.command),
                    p.pid
                );
            }
        }
        None => out.push_str("Idle gate: skipped\n"),
    }
    if !r.settings.is_empty() {
        out.push_str("\nChanged for the run (and restored afterwards):\n");
        for s in &r.settings {
            let after = match &s.after {
                Some(a) if a == &s.before => "restored".to_string(),
                Some(a) => format!("NOT restored, now {}", one_line(a)),
                None => "could not be read back".to_string(),
            };
            let _ = writeln!(
                out,
                "  {}: {} -> {} ({after})",
                one_line(&s.path),
                one_line(&s.before),
                one_line(&s.set)
            );
        }
    }
    let online: Vec<u32> = r
        .before
        .as_ref()
        .map(|b| b.online_cpus.clone())
        .unwrap_or_default();
    if !online.is_empty() {
        let _ = writeln!(out, "\nOnline CPUs at the start: {}", span(&online));
    }
}
