//! Logs that stop early (a crashed board, a paste cut by a forum's size limit, a copy taken while
//! sbc-bench still ran). Such a log must never give a wrong figure, so its figures come only from
//! blocks sbc-bench finished.
//!
//! - A log has **reached its end** when it ends with sbc-bench's summary row, or when the system
//!   information block (the iostat header `Linux <release> (<host>) … (<n> CPU)`) follows the
//!   last benchmark result: every version writes that block after all benchmarks, and review
//!   mode and some newer versions write no summary row.
//! - A block is **finished** when the separator line (a run of `#`) that sbc-bench writes after
//!   it is present. In a log that did not reach its end, everything after the last separator is
//!   ignored for the headline figures.
//! - The last line is **incomplete** when the text does not end with a newline; it is dropped,
//!   except a summary row whose closing `|` is there (sbc-bench writes that row without one).

use crate::text::is_separator;

/// The lines of `text`, without an incomplete last line.
pub fn complete_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if !text.ends_with('\n')
        && lines
            .last()
            .is_some_and(|l| !(l.trim_start().starts_with('|') && l.trim_end().ends_with('|')))
    {
        lines.pop();
    }
    lines
}

/// Lines that hold benchmark results (tinymembench, 7-Zip, OpenSSL, cpuminer, Stockfish).
fn is_result_line(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with("standard mem")
        || t.starts_with("libc mem")
        || l.starts_with("Tot:")
        || l.starts_with("Total:")
        || l.starts_with("Total Scores")
        || l.starts_with("Compression:")
        || l.starts_with("aes-")
}

/// The iostat header sbc-bench prints with the system information.
fn is_iostat_header(l: &str) -> bool {
    l.starts_with("Linux ") && l.trim_end().ends_with("CPU)")
}

/// Whether the log reached sbc-bench's own end (see the module header).
pub fn reached_end(lines: &[&str], has_summary_row: bool) -> bool {
    let last_text = lines.iter().rev().find(|l| !l.trim().is_empty());
    if has_summary_row && last_text.is_some_and(|l| l.trim_start().starts_with('|')) {
        return true;
    }
    let last_result = lines.iter().rposition(|l| is_result_line(l));
    let last_iostat = lines.iter().rposition(|l| is_iostat_header(l));
    match (last_result, last_iostat) {
        (Some(r), Some(i)) => i > r,
        _ => false,
    }
}

/// The finished blocks of a log that did not reach its end: every line before the last
/// separator. Returns the number of lines kept.
pub fn finished_blocks(lines: &[&str]) -> usize {
    lines.iter().rposition(|l| is_separator(l)).unwrap_or(0)
}

/// A short name for the block a cut log stops in, from its first meaningful line.
pub fn unfinished_block_name(rest: &[&str]) -> Option<String> {
    let known: [(&str, &str); 9] = [
        ("tinymembench", "tinymembench"),
        ("Executing benchmark on cpu", "tinymembench"),
        ("Executing ramlat", "ramlat"),
        ("OpenSSL", "OpenSSL"),
        ("Executing benchmark twice", "OpenSSL"),
        ("Executing benchmark on each cluster", "OpenSSL"),
        ("7-Zip", "7-Zip"),
        ("cpuminer", "cpuminer"),
        ("Stockfish", "Stockfish"),
    ];
    for l in rest.iter().filter(|l| !l.trim().is_empty()).take(40) {
        if l.starts_with("Executing benchmark") && l.contains("threaded") {
            return Some("7-Zip".into());
        }
        if let Some((_, name)) = known.iter().find(|(k, _)| l.contains(k)) {
            return Some((*name).into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incomplete_last_line_is_dropped_but_not_a_results_row() {
        assert_eq!(complete_lines("a\nTotal: 3532,3527,35"), vec!["a"]);
        assert_eq!(complete_lines("a\nb\n"), vec!["a", "b"]);
        assert_eq!(complete_lines("a\n| x | 1 |"), vec!["a", "| x | 1 |"]);
        assert_eq!(complete_lines("a\n| x | 1"), vec!["a"]);
    }

    #[test]
    fn end_is_the_results_row_or_system_info_after_the_results() {
        let sep = "#".repeat(74);
        let ended = [
            "Tot: 1 2 3",
            "Total: 3",
            &sep,
            "Linux 6.1 (h) 01/01/26 _aarch64_ (4 CPU)",
        ];
        assert!(reached_end(&ended, false));
        let cut = ["Linux 6.1 (h) 01/01/26 _aarch64_ (4 CPU)", "Tot: 1 2 3"];
        assert!(!reached_end(&cut, false));
        assert!(reached_end(&["Tot: 1 2 3", "| a | b |"], true));
        assert_eq!(finished_blocks(&["a", &sep, "b"]), 1);
        assert_eq!(finished_blocks(&["a", "b"]), 0);
    }
}
