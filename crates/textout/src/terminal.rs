//! The short summary printed at the end of a run: memory, 7-Zip, AES, SHA-256, the clock of
//! each cluster, the findings one per line — and `Check the log for details.` only when a
//! finding says the numbers are not to be trusted (scripts grep for 'Check the log').
//!
//! `color` false means no ANSI escape at all (the caller passes false for `NO_COLOR` or when
//! stdout is not a terminal).

use std::fmt::Write;

use document::run::{Phase, kind};
use document::text::finding_line_tagged;
use document::{Measurement, ResultDocument, Severity};

use crate::results_row::results_row_cells;
use crate::text::{cluster_label, one_line};

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\u{1b}[{code}m{s}\u{1b}[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn severity(&self, sev: Severity, s: &str) -> String {
        match sev {
            Severity::Info => s.to_string(),
            Severity::Warning => self.wrap("33", s),
            Severity::Invalid => self.wrap("1;31", s),
        }
    }
}

fn phase_label(doc: &ResultDocument, p: &Phase) -> String {
    p.cluster
        .and_then(|i| cluster_label(doc.machine.as_ref()?, i))
        .or_else(|| p.cpus.first().map(|c| format!("cpu{c}")))
        .unwrap_or_else(|| one_line(&p.title))
}

fn rows_of<'a>(
    doc: &'a ResultDocument,
    p: &'a Phase,
) -> impl Iterator<Item = &'a Measurement> + 'a {
    p.measurements
        .iter()
        .filter_map(|&i| doc.measurements.get(i))
}

/// The summary with the run placed in the built-in corpus.
pub fn terminal_summary(doc: &ResultDocument, color: bool) -> String {
    terminal_summary_with(doc, color, corpus::corpus())
}

/// The summary with the run placed in `reference` (the corpus in use: the built-in one or the
/// one `boardbench corpus update` stored): two lines before the findings.
pub fn terminal_summary_with(
    doc: &ResultDocument,
    color: bool,
    reference: &corpus::Corpus,
) -> String {
    let paint = Paint { on: color };
    let mut out = String::new();
    let cells = results_row_cells(doc);
    let phases: &[Phase] = doc.run.as_ref().map_or(&[], |r| r.phases.as_slice());

    // A quick run's figures never pass for sbc-bench's: say so before them.
    let flags = headline::comparability::of_document(doc);
    let bad = headline::comparability::not_comparable(&flags);
    if let Some(first) = bad.first() {
        let figures: Vec<&str> = headline::Figure::ALL
            .iter()
            .filter(|f| bad.iter().any(|b| b.figure == f.name()))
            .map(|f| f.column())
            .collect();
        let _ = writeln!(
            out,
            "{} figures of this {} run are not comparable with sbc-bench's: {}",
            paint.bold("Note:"),
            first.profile,
            figures.join(", ")
        );
    }

    // Memory: the headline pair per cluster.
    let mem: Vec<String> = phases
        .iter()
        .filter_map(|p| {
            let m = p.membw.as_ref()?;
            let best = |name: &str| {
                m.tests
                    .iter()
                    .find(|t| t.name == name)
                    .map_or_else(|| "-".to_string(), |t| format!("{:.0}", t.best_mb_s))
            };
            Some(format!(
                "  {}: memcpy {} MB/s, memset {} MB/s",
                phase_label(doc, p),
                best("libc memcpy copy"),
                best("libc memset fill")
            ))
        })
        .collect();
    if !mem.is_empty() {
        let _ = writeln!(out, "{}", paint.bold("Memory performance:"));
        for l in mem {
            let _ = writeln!(out, "{l}");
        }
    }

    // 7-Zip: the headline (average of the all-core runs, best single-threaded cluster) and runs.
    let runs: Vec<String> = phases
        .iter()
        .filter(|p| p.kind == kind::SEVENZIP_MULTI)
        .filter_map(|p| rows_of(doc, p).find(|m| m.suite == "7zip" && m.test == "total rating"))
        .map(|m| format!("{:.0}", m.value))
        .collect();
    if cells.zip_multi.is_some() || cells.zip_single.is_some() || !runs.is_empty() {
        let n = |v: Option<u64>| v.map_or_else(|| "-".into(), |v| v.to_string());
        let runs = if runs.is_empty() {
            String::new()
        } else {
            format!(" (runs: {})", runs.join(", "))
        };
        let _ = writeln!(
            out,
            "{} multi-threaded {}{runs}, single-threaded {}",
            paint.bold("7-Zip:"),
            n(cells.zip_multi),
            n(cells.zip_single)
        );
    }
    if let Some(a) = cells.aes {
        let _ = writeln!(
            out,
            "{} {a} k (1000 bytes/s, aes-256-cbc, 16 KiB blocks)",
            paint.bold("AES:")
        );
    }
    if let Some(k) = cells.khs {
        let _ = writeln!(out, "{} {k:.2} kH/s", paint.bold("cpuminer:"));
    }

    // SHA-256 per cluster: the fast (hardware) result when there is one.
    let sha: Vec<String> = phases
        .iter()
        .filter_map(|p| {
            let s = p.sha256.as_ref()?;
            let r = s.fast.as_ref().unwrap_or(&s.reference);
            Some(format!(
                "{} {:.2} MH/s ({})",
                phase_label(doc, p),
                r.mhs,
                r.backend.label()
            ))
        })
        .collect();
    if !sha.is_empty() {
        let _ = writeln!(out, "{} {}", paint.bold("SHA-256:"), sha.join(", "));
    }

    // Clock per cluster: the top OPP, measured at the start and again when hot.
    let clock: Vec<String> = phases
        .iter()
        .filter(|p| p.kind == kind::CLOCK)
        .filter_map(|p| {
            let top = p.clock.iter().max_by_key(|r| r.opp_khz.unwrap_or(0))?;
            let opp = top
                .opp_khz
                .map(|k| format!("{} MHz OPP, ", k / 1000))
                .unwrap_or_default();
            let hot = phases
                .iter()
                .filter(|h| h.kind == kind::CLOCK_HOT && h.cluster == p.cluster && h.cpus == p.cpus)
                .find_map(|h| h.clock.first())
                .map(|r| format!(", {:.0} MHz when hot", r.mhz))
                .unwrap_or_default();
            Some(format!(
                "  {}: {opp}measured {:.0} MHz{hot}",
                phase_label(doc, p),
                top.mhz
            ))
        })
        .collect();
    if !clock.is_empty() {
        let _ = writeln!(out, "{}", paint.bold("Clock:"));
        for l in clock {
            let _ = writeln!(out, "{l}");
        }
    }

    let placed = corpus::terminal_lines(&corpus::shown(reference, doc));
    if let Some((first, rest)) = placed.split_first() {
        let _ = writeln!(out, "{} {first}", paint.bold("Placement:"));
        for l in rest {
            let _ = writeln!(out, "  {l}");
        }
    }

    let _ = writeln!(out, "{}", paint.bold("Findings:"));
    if doc.findings.is_empty() {
        out.push_str("  none\n");
    }
    for f in &doc.findings {
        let line = finding_line_tagged(f, |s, tag| paint.severity(s, tag));
        let _ = writeln!(out, "  {line}");
    }
    if doc.findings.iter().any(|f| f.severity == Severity::Invalid) {
        let _ = writeln!(
            out,
            "{}",
            paint.severity(Severity::Invalid, "Check the log for details.")
        );
    }
    out
}
