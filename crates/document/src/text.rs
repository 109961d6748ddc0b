//! Rules every renderer applies to text that came from outside (a device name, a kernel
//! string, an uploader's tag): what may not reach a reader as it is, whatever the format
//! (bidirectional controls, ANSI escapes, control characters and line breaks where one line is
//! due); sizes with binary units, which the kernels' messages share with the renderers; and
//! the one line a finding is listed as, which the text renderers and `review` (a reader that
//! must not depend on a renderer) share. CSV has its own module, [`crate::csv`].

use crate::{Finding, Severity};

/// Unicode's bidirectional controls (embeddings, overrides, isolates and marks). Left in a name
/// they reorder what a reader sees — `Raspberry Pi 5 \u{202e}B8 ledoM` displays as
/// "Raspberry Pi 5 Model 8B" — so every renderer shows each as U+FFFD instead.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `s` with every bidirectional control replaced by U+FFFD.
pub fn neutralise_bidi(s: &str) -> String {
    s.chars()
        .map(|c| if is_bidi_control(c) { '\u{fffd}' } else { c })
        .collect()
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

/// The one rule for a value from a document that goes to a terminal as one field (`import`'s
/// lines, `results list`, `results show`): [`one_line`] (ANSI escapes removed, control
/// characters and line breaks made spaces — a tab cannot split a tab-separated line) and every
/// bidirectional control shown as U+FFFD, so a name can neither colour, move the cursor of,
/// nor reorder what the reader sees.
pub fn terminal_text(s: &str) -> String {
    neutralise_bidi(&one_line(s))
}

/// A finding on one line, as every text renderer lists it — the run's terminal summary, the
/// log, `thermal`, `env`, `graph`, `guide` and `review`: `[warning] kind: message` (the
/// severity's [`severity_word`], then the kind and the message each made one line). The caller
/// indents it (and the log adds its list bullet); the evidence follows as
/// [`evidence_lines`]. HTML lists findings with the same parts in its own markup.
pub fn finding_line(f: &Finding) -> String {
    finding_line_tagged(f, |_, tag| tag.to_string())
}

/// [`finding_line`] with its `[warning]` tag passed through `tag` (the terminal summary paints
/// it by severity).
pub fn finding_line_tagged(f: &Finding, tag: impl FnOnce(Severity, &str) -> String) -> String {
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
pub fn evidence_lines(f: &Finding) -> impl Iterator<Item = String> + '_ {
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

/// A size in bytes with a binary unit: "512 KiB", "32 MiB", "1.5 MiB" (one decimal unless
/// whole). The one rule of the kernels' messages and the text renderers.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if v.fract() == 0.0 {
        format!("{} {}", v as u64, UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47: an imported device name with ANSI colour or U+202E reached the terminal raw.
    #[test]
    fn terminal_text_cannot_colour_move_or_reorder() {
        assert_eq!(
            terminal_text("\u{1b}[31mRed\u{1b}[0m Pi\t5\r\n\u{202e}B8 ledoM\u{7}\u{9b}2J"),
            "Red Pi 5 \u{fffd}B8 ledoM 2J"
        );
        assert_eq!(terminal_text("Radxa ROCK 5B"), "Radxa ROCK 5B");
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
    }

    #[test]
    fn a_finding_reads_as_every_command_lists_it() {
        let f = |severity| Finding {
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

    #[test]
    fn sizes_with_binary_units() {
        assert_eq!(super::format_bytes(512 << 10), "512 KiB");
        assert_eq!(super::format_bytes(32 << 20), "32 MiB");
        assert_eq!(super::format_bytes(3 << 19), "1.5 MiB");
        assert_eq!(super::format_bytes(100), "100 B");
    }

    #[test]
    fn an_override_cannot_reorder_a_name() {
        let shown = super::neutralise_bidi("Raspberry Pi 5 \u{202e}B8 ledoM");
        assert_eq!(shown, "Raspberry Pi 5 \u{fffd}B8 ledoM");
        assert_eq!(super::neutralise_bidi("Radxa ROCK 5B"), "Radxa ROCK 5B");
        assert!(
            super::neutralise_bidi("\u{2066}\u{2069}\u{200f}")
                .chars()
                .all(|c| c == '\u{fffd}')
        );
    }
}
