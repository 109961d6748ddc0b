//! The phases as they ran, one block each (consecutive clock checks share one block, as in
//! sbc-bench): the tool runs with their command, version and raw output, the built-in kernels'
//! tables, and the figures the phase produced.

use std::fmt::Write;

use document::measure::membw::MembwResult;
use document::measure::memlat::MemlatResult;
use document::measure::sha256::{Sha256Report, Sha256Result};
use document::run::{Phase, PhaseStatus, ToolRun, kind};
use document::text::format_bytes;
use document::{Measurement, ResultDocument};

use super::clock_check;
use crate::health_lines;
use crate::text::{clean_block, offset_of, one_line, shown_spread, span};

pub fn render(doc: &ResultDocument) -> Vec<String> {
    let Some(run) = &doc.run else {
        return Vec::new();
    };
    let phases = &run.phases;
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < phases.len() {
        let k = phases[i].kind.as_str();
        // The run of consecutive phases of the same kind that share one block.
        let mut j = i + 1;
        if k == kind::CLOCK || k == kind::CLOCK_HOT || k == kind::SEVENZIP_MULTI {
            while j < phases.len() && phases[j].kind == k {
                j += 1;
            }
        }
        let group = &phases[i..j];
        blocks.push(match k {
            kind::CLOCK => clock_group(doc, group),
            kind::CLOCK_HOT => hot_clock_group(doc, i, group),
            kind::SEVENZIP_MULTI => sevenzip_multi_group(doc, group),
            _ => phase_block(doc, &phases[i]),
        });
        i = j;
    }
    blocks
}

fn clock_group(doc: &ResultDocument, group: &[Phase]) -> String {
    group
        .iter()
        .map(|p| clock_check::block(doc, p))
        .collect::<Vec<_>>()
        .join("\n")
}

/// sbc-bench's re-check under load: the last monitor line of the phase before (the hardest
/// one, the SoC still hot), then the clock check blocks.
fn hot_clock_group(doc: &ResultDocument, first_index: usize, group: &[Phase]) -> String {
    let mut out = String::from(
        "Testing maximum cpufreq again, still under full load. System health now:\n\n",
    );
    let run = doc.run.as_ref();
    let last_sample = run.and_then(|r| {
        r.phases[..first_index]
            .iter()
            .rev()
            .find_map(|p| p.samples.last())
    });
    if let (Some(layout), Some(s)) = (run.and_then(|r| r.monitor.as_ref()), last_sample) {
        let tz = offset_of(doc);
        let _ = writeln!(out, "{}", health_lines::header(layout));
        let _ = writeln!(out, "{}\n", health_lines::line(layout, s, &tz));
    }
    out.push_str(&clock_group(doc, group));
    out
}

/// The three all-core 7-Zip runs, then sbc-bench's `Compression:` / `Decompression:` /
/// `Total:` lists (the ratings the headline averages).
fn sevenzip_multi_group(doc: &ResultDocument, group: &[Phase]) -> String {
    let mut out: Vec<String> = group.iter().map(|p| phase_block(doc, p)).collect();
    let list = |test: &str| -> Option<String> {
        let v: Vec<String> = group
            .iter()
            .filter_map(|p| {
                rows_of(doc, p)
                    .find(|m| m.suite == "7zip" && m.test == test)
                    .map(|m| format!("{:.0}", m.value))
            })
            .collect();
        (!v.is_empty()).then(|| v.join(","))
    };
    let mut totals = String::new();
    for (label, test) in [
        ("Compression", "compress rating"),
        ("Decompression", "decompress rating"),
        ("Total", "total rating"),
    ] {
        if let Some(l) = list(test) {
            let _ = writeln!(totals, "{label}: {l}");
        }
    }
    if !totals.is_empty() {
        out.push(totals);
    }
    out.join("\n")
}

fn rows_of<'a>(
    doc: &'a ResultDocument,
    p: &'a Phase,
) -> impl Iterator<Item = &'a Measurement> + 'a {
    p.measurements
        .iter()
        .filter_map(|&i| doc.measurements.get(i))
}

fn phase_block(doc: &ResultDocument, p: &Phase) -> String {
    let mut out = format!("Executing {}:\n\n", one_line(&p.title));
    match p.status {
        PhaseStatus::Done => {}
        PhaseStatus::Skipped => {
            let _ = writeln!(
                out,
                "Skipped: {}",
                one_line(p.reason.as_deref().unwrap_or("no reason given"))
            );
        }
        PhaseStatus::Failed => {
            let _ = writeln!(
                out,
                "Failed: {}",
                one_line(p.reason.as_deref().unwrap_or("no reason given"))
            );
        }
    }
    if p.status == PhaseStatus::Done
        && let Some(r) = &p.reason
    {
        let _ = writeln!(out, "Note: {}", one_line(r));
    }
    if !p.clock.is_empty() {
        for r in &p.clock {
            let _ = writeln!(out, "{}", clock_check::row(r));
        }
        out.push('\n');
    }
    if let Some(m) = &p.membw {
        membw(&mut out, m);
    }
    if let Some(m) = &p.memlat {
        memlat(&mut out, m);
    }
    if let Some(s) = &p.sha256 {
        sha256(&mut out, s);
    }
    for t in &p.tool_runs {
        tool_run(&mut out, t);
    }
    let rows: Vec<&Measurement> = rows_of(doc, p).collect();
    if !rows.is_empty() {
        out.push_str("Figures:\n");
        for m in rows {
            let _ = writeln!(out, "  {}", figure(m));
        }
    }
    out
}

/// "7zip total rating: 2306 MIPS (1 thread, cpu4, 7-Zip 16.02, ±0.4 %)".
fn figure(m: &Measurement) -> String {
    let mut extra = vec![format!(
        "{} thread{}",
        m.threads,
        if m.threads == 1 { "" } else { "s" }
    )];
    if !m.cpus.is_empty() {
        extra.push(format!("cpu {}", span(&m.cpus)));
    }
    if let Some(v) = &m.variant {
        extra.push(one_line(v));
    }
    if let Some(s) = m.spread_pct.filter(|s| s.is_finite()) {
        extra.push(format!("±{s:.1} %"));
    }
    let value = if m.value.fract() == 0.0 || m.value.abs() >= 1000.0 {
        format!("{:.0}", m.value)
    } else if m.value.abs() >= 10.0 {
        format!("{:.2}", m.value)
    } else {
        format!("{:.3}", m.value)
    };
    one_line(&format!(
        "{} {}: {value} {} ({})",
        m.suite,
        m.test,
        m.unit,
        extra.join(", ")
    ))
}

fn tool_run(out: &mut String, t: &ToolRun) {
    // "7-Zip 16.02", "OpenSSL 3.0.15" (a version that already names the tool is not repeated).
    let tool = one_line(&t.tool);
    let name = match t.version.as_deref().map(one_line).filter(|v| !v.is_empty()) {
        Some(v) if v.to_lowercase().starts_with(&tool.to_lowercase()) => v,
        Some(v) => format!("{tool} {v}"),
        None => tool,
    };
    let _ = writeln!(
        out,
        "{name}: {} ({}, {:.1} s)",
        one_line(&t.command),
        one_line(&t.end),
        t.wall_s
    );
    if t.comparable_with_sbc_bench == Some(false) {
        let _ = writeln!(
            out,
            "Note: {name} scores do not compare with sbc-bench's results (only 7-Zip up to 16.02 does)."
        );
    }
    let text = clean_block(&t.output);
    if !text.is_empty() {
        out.push('\n');
        out.push_str(&text);
        out.push('\n');
    }
    out.push('\n');
}

/// tinymembench's layout: ` libc memcpy copy        :   5110.2 MB/s (3, 0.4%)`.
fn membw(out: &mut String, m: &MembwResult) {
    let _ = writeln!(
        out,
        "Memory bandwidth on cpu {} ({} mode, 2 × {} buffers), 1 MB = 1000000 bytes:\n",
        span(&m.cpus),
        one_line(&m.mode),
        crate::text::kib(m.buffer_bytes / 1024)
    );
    for t in &m.tests {
        let spread = match shown_spread(t.spread_pct) {
            Some(s) => format!(" ({}, {s:.1}%)", t.samples_mb_s.len()),
            None => format!(" ({})", t.samples_mb_s.len()),
        };
        let _ = writeln!(
            out,
            " {:<48}: {:>8.1} MB/s{spread}",
            one_line(&t.name),
            t.best_mb_s
        );
    }
    for a in &m.aggregate {
        let _ = writeln!(
            out,
            " {:<48}: {:>8.1} MB/s (all of cpu {})",
            one_line(&a.name),
            a.total_mb_s,
            span(&a.cpus)
        );
    }
    for (label, best) in [
        ("copy", &m.best_copy),
        ("fill", &m.best_fill),
        ("read", &m.best_read),
    ] {
        if let Some(b) = best {
            let _ = writeln!(out, "Fastest {label}: {}", one_line(b));
        }
    }
    out.push('\n');
}

/// ramlat's label of a ladder row ("4k", "3M"), as sbc-bench's logs print the table; every
/// other size is [`format_bytes`].
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{}M", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{}k", bytes >> 10)
    } else {
        format!("{bytes}")
    }
}

/// ramlat's table (ns per step with 1, 2, 4, 8 chains) and the cache levels found.
fn memlat(out: &mut String, m: &MemlatResult) {
    if let Some(c) = &m.chain {
        let _ = write!(
            out,
            "Memory latency on cpu {}, ns per step with",
            span(&m.cpus)
        );
        let cols: Vec<String> = c.chains.iter().map(|n| n.to_string()).collect();
        let _ = writeln!(out, " {} parallel chains:\n", cols.join("/"));
        let _ = write!(out, "{:>9}", "size");
        for n in &c.chains {
            let _ = write!(out, "{:>8}", format!("{n}x"));
        }
        out.push('\n');
        for r in &c.rows {
            let _ = write!(out, "{:>8}:", size(r.size_bytes));
            for v in &r.ns_per_step {
                let _ = write!(out, "{v:>8.1}");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    for t in &m.random {
        let what = match t.huge_pages {
            Some(true) => "with MADV_HUGEPAGE",
            Some(false) => "with MADV_NOHUGEPAGE",
            None => "without page advice",
        };
        let _ = writeln!(
            out,
            "Random reads {what} (extra ns over L1, single / dual):\n"
        );
        for r in &t.rows {
            let _ = writeln!(
                out,
                "{:>8}: {:>8.1} ns / {:>8.1} ns",
                size(r.size_bytes),
                r.single_ns,
                r.dual_ns
            );
        }
        out.push('\n');
    }
    if let Some(c) = &m.caches {
        for l in &c.levels {
            let adv = l
                .advertised_bytes
                .map(|a| format!(", advertised {}", format_bytes(a)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "Cache level {}: {:.1} ns up to {}{adv}",
                l.level,
                l.latency_ns,
                format_bytes(l.effective_bytes)
            );
        }
        if let Some(b) = c.beyond_ns {
            let _ = writeln!(out, "Beyond the caches: {b:.1} ns");
        }
        for f in &c.flags {
            let _ = writeln!(out, "Note: {}", one_line(f));
        }
        out.push('\n');
    }
}

fn sha256_row(out: &mut String, r: &Sha256Result) {
    let per = r
        .mhs_per_100mhz
        .map(|v| format!(", {v:.3} MH/s per 100 MHz"))
        .unwrap_or_default();
    let cph = r
        .cycles_per_hash
        .map(|v| format!(", {v:.0} cycles/hash"))
        .unwrap_or_default();
    let verified = if r.verified {
        ""
    } else {
        " (digest NOT verified)"
    };
    let _ = writeln!(
        out,
        "{} ({}): {:.3} MH/s{per}{cph}{verified}",
        one_line(&r.role),
        r.backend.label(),
        r.mhs
    );
}

fn sha256(out: &mut String, s: &Sha256Report) {
    let cpu = s.cpu.map(|c| format!(" on cpu{c}")).unwrap_or_default();
    let _ = writeln!(
        out,
        "Recursive SHA-256{cpu}, {} iterations:\n",
        s.iterations
    );
    if let Some(f) = &s.fast {
        sha256_row(out, f);
    }
    sha256_row(out, &s.reference);
    if let Some(c) = s.clock_mhz {
        let src = s.clock_source.as_deref().unwrap_or("?");
        let _ = writeln!(out, "Clock used: {c:.0} MHz ({})", one_line(src));
    }
    out.push('\n');
}
