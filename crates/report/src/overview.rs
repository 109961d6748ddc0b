//! The summary at the top: what machine, which software, the headline numbers, how the run went
//! (phases) or where the imported log came from. Identity columns come from
//! `headline::columns`, the rule the results database indexes by, so the report names a run
//! exactly as `results list` does.

use std::fmt::Write;

use document::ResultDocument;
use document::run::PhaseStatus;

use crate::chart::compare;
use crate::escape::esc;
use crate::svg;

/// The identity columns of a document.
pub fn columns(doc: &ResultDocument) -> headline::columns::RunColumns {
    headline::columns::columns(doc)
}

fn fact(out: &mut String, name: &str, value: Option<&str>) {
    if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
        let _ = write!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(name), esc(v));
    }
}

fn cpus(list: &[u32]) -> String {
    document::cpus::CpuList::new(list).to_string()
}

/// The summary section.
pub fn render(doc: &ResultDocument) -> String {
    let c = columns(doc);
    let mut out = String::from("<section id=\"summary\"><h2>Summary</h2><table class=\"facts\">");
    fact(&mut out, "Device", c.device.as_deref());
    fact(&mut out, "SoC", c.soc.as_deref());
    if let Some(m) = &doc.machine {
        for (i, cl) in m.clusters.iter().enumerate() {
            let mut s = format!("cpu{}", cpus(&cl.cpus));
            if let Some(n) = &cl.core_name {
                let _ = write!(s, " {n}");
            }
            if let Some(k) = cl.max_khz {
                let _ = write!(s, ", up to {} MHz", k / 1000);
            }
            fact(&mut out, &format!("Cluster {i}"), Some(&s));
        }
    }
    if let Some(log) = &doc.imported
        && !log.core_types.is_empty()
    {
        fact(&mut out, "Core types", Some(&log.core_types.join(", ")));
    }
    fact(&mut out, "Measured clock", c.clockspeed.as_deref());
    fact(&mut out, "Architecture", c.arch.as_deref());
    fact(&mut out, "Kernel", c.kernel.as_deref());
    if let Some(k) = doc.run.as_ref().and_then(|r| r.kernel.as_ref()) {
        let who = [k.origin.as_deref(), k.maintainer.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
        let status = if who.is_empty() {
            format!("{} (as of {})", k.verdict, k.judged_on)
        } else {
            format!("{who}: {} (as of {})", k.verdict, k.judged_on)
        };
        fact(&mut out, "Kernel status", Some(&status));
    }
    fact(&mut out, "Distribution", c.distro.as_deref());
    fact(&mut out, "Started", c.started.as_deref());
    fact(&mut out, "Finished", doc.finished.as_deref());
    if let Some(run) = &doc.run {
        let profile = format!(
            "{} profile, {} s{}",
            if run.profile.is_empty() {
                "unknown"
            } else {
                &run.profile
            },
            svg::num(run.duration_s),
            if run.options.tune {
                ", governors set to performance"
            } else {
                ""
            }
        );
        fact(&mut out, "Run", Some(&profile));
    }
    if let Some(log) = &doc.imported {
        let mut s = format!("sbc-bench log {}", log.source);
        if let Some(v) = &log.sbc_bench_version {
            let _ = write!(s, " ({v})");
        }
        fact(&mut out, "Imported from", Some(&s));
        fact(&mut out, "Log date", log.date.as_deref());
    }
    fact(&mut out, "Producer", c.producer.as_deref());
    out.push_str("</table>");

    out.push_str("<h3>Headline numbers</h3><table class=\"headline\"><tr>");
    let h = compare::headline(doc);
    let figs = compare::figures(&h);
    for (name, unit, _) in &figs {
        let _ = write!(
            out,
            "<th>{} <span class=\"dim\">{}</span></th>",
            esc(name),
            esc(unit)
        );
    }
    out.push_str("</tr><tr>");
    // A figure not measured the way sbc-bench measures it says so, as in the results table.
    let flags = headline::comparability::of_document(doc);
    let mut marked = false;
    for ((_, _, v), figure) in figs.iter().zip(headline::Figure::ALL) {
        let mark = match v {
            Some(_) => headline::comparability::mark(&flags, figure),
            None => String::new(),
        };
        marked |= !mark.is_empty();
        let _ = write!(
            out,
            "<td class=\"num\">{}{}</td>",
            v.map(svg::num).unwrap_or_else(|| "–".into()),
            esc(&mark)
        );
    }
    out.push_str("</tr></table>");
    if marked {
        out.push_str(
            "<p class=\"dim\">Figures marked (quick) or (fast) were not measured the way \
             sbc-bench measures them: compare them with runs of the same profile only.</p>",
        );
    }

    if let Some(run) = &doc.run
        && !run.phases.is_empty()
    {
        out.push_str("<h3>Phases</h3><table class=\"phases\"><tr><th>#</th><th>phase</th><th>status</th><th>seconds</th><th>samples</th></tr>");
        for (i, p) in run.phases.iter().enumerate() {
            let status = match p.status {
                PhaseStatus::Done => "done".to_string(),
                PhaseStatus::Skipped => format!("skipped: {}", p.reason.as_deref().unwrap_or("")),
                PhaseStatus::Failed => format!("failed: {}", p.reason.as_deref().unwrap_or("")),
            };
            let secs = p.finished_unix_ms.saturating_sub(p.started_unix_ms) as f64 / 1000.0;
            let title = if p.title.is_empty() {
                &p.kind
            } else {
                &p.title
            };
            let _ = write!(
                out,
                "<tr><td class=\"num\">{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                i + 1,
                esc(title),
                esc(status.trim_end_matches(": ")),
                svg::num(secs),
                p.samples.len()
            );
        }
        out.push_str("</table>");
    }
    if let Some(log) = &doc.imported
        && !log.problems.is_empty()
    {
        out.push_str("<h3>Import problems</h3><ul>");
        for p in &log.problems {
            let _ = write!(out, "<li>{}</li>", esc(p));
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>");
    out
}

/// The findings section (most severe first).
pub fn findings(doc: &ResultDocument) -> String {
    let mut out = String::from("<section id=\"findings\"><h2>Findings</h2>");
    if doc.findings.is_empty() && doc.analysis.is_none() {
        // Stored before every document was finished (or written by another tool): nobody looked.
        out.push_str("<p class=\"dim\">Findings not computed: this document was never analysed (<code>boardbench results reanalyse</code> analyses stored runs).</p>");
    } else if doc.findings.is_empty() {
        out.push_str("<p class=\"dim\">No findings: nothing the analysis looks for was seen.</p>");
    } else {
        let mut f: Vec<_> = doc.findings.iter().collect();
        f.sort_by_key(|x| std::cmp::Reverse(x.severity));
        out.push_str("<ul class=\"findings\">");
        for x in f {
            let sev = match x.severity {
                document::Severity::Info => "info",
                document::Severity::Warning => "warning",
                document::Severity::Invalid => "invalid",
            };
            let _ = write!(
                out,
                "<li class=\"sev-{sev}\"><span class=\"badge\">{sev}</span>{} <span class=\"dim\">({})</span>",
                esc(&x.message),
                esc(&x.kind)
            );
            if !x.evidence.is_empty() {
                out.push_str("<ul class=\"evidence\">");
                for e in &x.evidence {
                    let _ = write!(out, "<li><code>{}</code></li>", esc(e));
                }
                out.push_str("</ul>");
            }
            out.push_str("</li>");
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>");
    out
}

/// Longest tool output kept in the page per tool run (the document keeps all of it).
const OUTPUT_LIMIT: usize = 16 * 1024;

/// The tail end of `s` cut to about `limit` bytes at a character boundary, with a note.
fn clip(s: &str, limit: usize) -> String {
    if s.len() <= limit {
        return s.to_string();
    }
    let mut cut = limit;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}\n… ({} more bytes in the result document)",
        &s[..cut],
        s.len() - cut
    )
}

/// What a run recorded beyond its figures: the idle gate, the settings it changed, the tool
/// runs with their output and the kernel messages of its window. Collapsed, as text.
pub fn run_details(doc: &ResultDocument) -> String {
    let Some(run) = &doc.run else {
        return String::new();
    };
    let mut out = String::from("<section id=\"details\"><h2>Run details</h2>");
    if let Some(g) = &run.idle_gate {
        let _ = write!(
            out,
            "<p>Idle gate: {} — {}.</p>",
            if g.passed { "passed" } else { "not passed" },
            esc(&g.reason)
        );
        if !g.top_processes.is_empty() {
            out.push_str("<details><summary>Busiest processes while waiting</summary><ul>");
            for p in &g.top_processes {
                let _ = write!(
                    out,
                    "<li>{} (pid {}): {} % of a CPU</li>",
                    esc(&p.command),
                    p.pid,
                    svg::num(p.cpu_pct)
                );
            }
            out.push_str("</ul></details>");
        }
    }
    if !run.settings.is_empty() {
        out.push_str("<details><summary>Settings changed for the run (and restored)</summary><table><tr><th>file</th><th>before</th><th>set</th><th>after</th></tr>");
        for s in &run.settings {
            let _ = write!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&s.path),
                esc(&s.before),
                esc(&s.set),
                esc(s.after.as_deref().unwrap_or("(unreadable)"))
            );
        }
        out.push_str("</table></details>");
    }
    let runs: Vec<_> = run
        .phases
        .iter()
        .flat_map(|p| p.tool_runs.iter().map(move |t| (p, t)))
        .collect();
    if !runs.is_empty() {
        out.push_str("<h3>Tool runs</h3>");
        for (p, t) in runs {
            let _ = write!(
                out,
                "<details><summary>{}: {} {} — {}, {} s</summary><pre>$ {}\n{}</pre></details>",
                esc(&p.title),
                esc(&t.tool),
                esc(t.version.as_deref().unwrap_or("")),
                esc(&t.end),
                svg::num(t.wall_s),
                esc(&t.command),
                esc(&clip(&t.output, OUTPUT_LIMIT))
            );
        }
    }
    if let Some(k) = &run.kmsg {
        let _ = write!(
            out,
            "<details><summary>Kernel messages during the run ({} lines, from {})</summary>",
            k.lines.len(),
            esc(&k.source)
        );
        if let Some(n) = &k.note {
            let _ = write!(out, "<p class=\"dim\">{}</p>", esc(n));
        }
        if !k.lines.is_empty() {
            out.push_str("<pre>");
            for l in &k.lines {
                let _ = writeln!(out, "[{:>12.6}] {}", l.seconds, esc(&l.text));
            }
            out.push_str("</pre>");
        }
        out.push_str("</details>");
    }
    out.push_str("</section>");
    out
}
