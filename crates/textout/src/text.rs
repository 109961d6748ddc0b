//! Small formatting helpers shared by the renderers.

use chrono::{DateTime, FixedOffset};
use document::cpus::CpuList;
use document::machine::MachineInfo;
use document::{ResultDocument, Severity};

/// sbc-bench's block separator: a line of 74 `#`.
pub const SEPARATOR: &str =
    "##########################################################################";

/// "0-3", "4", "0,2,4", "0-3,6": a CPU list as the kernel writes it; "-" when empty.
pub fn span(cpus: &[u32]) -> String {
    CpuList::new(cpus).to_string()
}

/// "cpu0-cpu3", "cpu4": the form of sbc-bench's clock check headings ([`CpuList::heading`]).
pub fn cpu_range(cpus: &[u32]) -> String {
    CpuList::new(cpus).heading()
}

/// Removes ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL`, and two-character
/// escapes): tool output (cpuminer colours its lines) and names must not colour the log.
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('[') => {
                for d in it.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(d) = it.next() {
                    if d == '\u{7}' {
                        break;
                    }
                    if d == '\u{1b}' {
                        it.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Multi-line tool output made fit for a log: ANSI removed, carriage returns turned into line
/// ends (progress lines), other control characters dropped, trailing blanks and blank lines cut.
pub fn clean_block(s: &str) -> String {
    let s = strip_ansi(s).replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<String> = s
        .lines()
        .map(|l| {
            l.chars()
                .filter(|c| *c == '\t' || !c.is_control())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    let mut text = lines.join("\n");
    let trimmed = text.trim_end().len();
    text.truncate(trimmed);
    // Leading blank lines too: the block's heading already has a blank line after it.
    text.trim_start_matches('\n').to_string()
}

/// A value that must stay on one line (names, messages, table cells): ANSI and control
/// characters removed, runs of white space collapsed.
pub fn one_line(s: &str) -> String {
    strip_ansi(s)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The remark next to a single figure measured while another task used the measured CPU
/// (`disturbed` in the document).
pub const DISTURBED_REMARK: &str = "disturbed: another task used the measured CPU";

/// "7 of 15 rows disturbed" — one line for a table instead of a remark on each row; `None`
/// when nothing was disturbed.
pub fn disturbed_note(disturbed: usize, total: usize, what: &str) -> Option<String> {
    (disturbed > 0).then(|| {
        format!("{disturbed} of {total} {what} disturbed (another task used the measured CPU)")
    })
}

/// A spread (sample standard deviation, percent) is shown only above this: below it the
/// figure is as steady as a measurement gets. One rule for every figure of every renderer.
pub const SPREAD_SHOWN_PCT: f64 = 0.1;

/// The spread when it is worth showing ([`SPREAD_SHOWN_PCT`]).
pub fn shown_spread(spread_pct: Option<f64>) -> Option<f64> {
    spread_pct.filter(|s| s.is_finite() && *s > SPREAD_SHOWN_PCT)
}

/// A finding on one line, as every text renderer lists it — the run's terminal summary, the
/// log, `thermal`, `env`, `graph`, `guide` and `review`: `[warning] kind: message` (the
/// severity's [`severity_word`], then the kind and the message each made one line). The caller
/// indents it (and the log adds its list bullet); the evidence follows as
/// [`evidence_lines`]. HTML lists findings with the same parts in its own markup.
pub fn finding_line(f: &document::Finding) -> String {
    finding_line_tagged(f, |_, tag| tag.to_string())
}

/// [`finding_line`] with its `[warning]` tag passed through `tag` (the terminal summary paints
/// it by severity).
pub fn finding_line_tagged(
    f: &document::Finding,
    tag: impl FnOnce(Severity, &str) -> String,
) -> String {
    let t = format!("[{}]", severity_word(f.severity));
    format!(
        "{} {}: {}",
        tag(f.severity, &t),
        one_line(&f.kind),
        one_line(&f.message)
    )
}

/// A finding's evidence as the log and `review` list it under the finding: one line each,
/// indented by six spaces.
pub fn evidence_lines(f: &document::Finding) -> impl Iterator<Item = String> + '_ {
    f.evidence.iter().map(|e| format!("      {}", one_line(e)))
}

/// How a severity reads in the log and on the terminal.
pub fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Invalid => "INVALID",
    }
}

/// KiB as a human size: "512 KiB", "3 MiB", "1.2 MiB", "15.4 GiB" — the one size rule of
/// every renderer ([`document::text::format_bytes`], a decimal only when the size is not whole),
/// fed KiB; zero reads "0 KiB".
pub fn kib(k: u64) -> String {
    if k == 0 {
        return "0 KiB".into();
    }
    document::text::format_bytes(k.saturating_mul(1024))
}

/// Seconds as awk prints `x/100` of a time_in_state value: "2083.27", "7.5", "0".
pub fn seconds(s: f64) -> String {
    if !s.is_finite() {
        return "?".into();
    }
    let t = format!("{s:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t.is_empty() || t == "-" || t == "-0" {
        "0".into()
    } else {
        t.to_string()
    }
}

/// The time zone the run's wall-clock times are shown in: the offset of the recorded ISO
/// timestamps (so the log shows the run machine's local time, whatever machine renders it).
pub fn offset_of(doc: &ResultDocument) -> FixedOffset {
    let utc = FixedOffset::east_opt(0).expect("zero offset is valid");
    let candidates = doc.started.iter().chain(
        doc.run
            .iter()
            .flat_map(|r| r.phases.iter().map(|p| &p.started)),
    );
    for iso in candidates {
        if let Ok(t) = DateTime::parse_from_rfc3339(iso) {
            return *t.offset();
        }
    }
    utc
}

/// [`one_line`], or `None` when nothing printable is left (a value made of control characters
/// only).
pub fn one_line_or_none(s: &str) -> Option<String> {
    Some(one_line(s)).filter(|s| !s.is_empty())
}

/// "cpu4 (Cortex-A76)": the label of a cluster (first online CPU and core name).
pub fn cluster_label(m: &MachineInfo, index: usize) -> Option<String> {
    let c = m.clusters.get(index)?;
    let first = c
        .online_cpus()
        .first()
        .copied()
        .or(c.cpus.first().copied())?;
    Some(match &c.core_name {
        Some(n) => format!("cpu{first} ({})", one_line(n)),
        None => format!("cpu{first}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(span(&[3, 0, 1, 2, 6]), "0-3,6");
        assert_eq!(span(&[]), "-");
        assert_eq!(cpu_range(&[0, 1, 2, 3]), "cpu0-cpu3");
        assert_eq!(cpu_range(&[4]), "cpu4");
        assert_eq!(cpu_range(&[0, 2, 4]), "cpu0,2,4");
        assert_eq!(
            cpu_range(&[u32::MAX - 1, u32::MAX]),
            format!("cpu{}-cpu{}", u32::MAX - 1, u32::MAX)
        );
    }

    #[test]
    fn ansi_and_control_characters_go() {
        assert_eq!(
            strip_ansi("\u{1b}[1;32maccepted\u{1b}[0m ok"),
            "accepted ok"
        );
        assert_eq!(strip_ansi("a\u{1b}]0;title\u{7}b"), "ab");
        assert_eq!(strip_ansi("cut\u{1b}["), "cut");
        assert_eq!(one_line(" a\n b\t\u{1b}[31mc "), "a b c");
        assert_eq!(clean_block("\n\nx\r\ny\rz  \n\n"), "x\ny\nz");
    }

    #[test]
    fn tables_say_disturbance_once_and_spread_only_above_a_tenth_of_a_percent() {
        assert_eq!(disturbed_note(0, 15, "rows"), None);
        assert_eq!(
            disturbed_note(7, 15, "rows").unwrap(),
            "7 of 15 rows disturbed (another task used the measured CPU)"
        );
        assert_eq!(shown_spread(Some(0.4)), Some(0.4));
        assert_eq!(shown_spread(Some(0.1)), None);
        assert_eq!(shown_spread(Some(f64::NAN)), None);
        assert_eq!(shown_spread(None), None);
    }

    #[test]
    fn sizes_and_seconds() {
        assert_eq!(kib(0), "0 KiB");
        assert_eq!(kib(48), "48 KiB");
        assert_eq!(kib(3072), "3 MiB");
        assert_eq!(kib(1280), "1.2 MiB");
        assert_eq!(kib(8 * 1024 * 1024), "8 GiB");
        assert_eq!(kib(16_145_796), "15.4 GiB");
        assert_eq!(seconds(2083.27), "2083.27");
        assert_eq!(seconds(7.5), "7.5");
        assert_eq!(seconds(0.0), "0");
        assert_eq!(seconds(12.0), "12");
    }

    #[test]
    fn one_line_or_none_drops_what_is_not_printable() {
        assert_eq!(
            one_line_or_none(" Radxa\tROCK  5B\n").as_deref(),
            Some("Radxa ROCK 5B")
        );
        assert_eq!(one_line_or_none("\u{1b}[0m\r\n"), None);
    }

    #[test]
    fn a_finding_reads_as_every_command_lists_it() {
        let f = |severity| document::Finding {
            kind: "throttling".into(),
            severity,
            message: "cpu4\nthrottled".into(),
            evidence: vec!["time_in_state:\t12 s".into()],
        };
        assert_eq!(
            finding_line(&f(Severity::Info)),
            "[info] throttling: cpu4 throttled"
        );
        assert_eq!(
            finding_line(&f(Severity::Warning)),
            "[warning] throttling: cpu4 throttled"
        );
        assert_eq!(
            finding_line(&f(Severity::Invalid)),
            "[INVALID] throttling: cpu4 throttled"
        );
        assert_eq!(
            finding_line_tagged(&f(Severity::Warning), |s, t| format!("<{s:?}>{t}")),
            "<Warning>[warning] throttling: cpu4 throttled"
        );
        assert_eq!(
            evidence_lines(&f(Severity::Info)).collect::<Vec<_>>(),
            ["      time_in_state: 12 s"]
        );
    }
}
