//! Small text helpers shared by the parsers. All of them accept any input without panicking.

/// Tool output made plain text to parse: ANSI escape sequences removed by the one rule of every
/// crate, `document::text::strip_ansi` (cpuminer colours its log when it thinks it writes to a
/// terminal; logs copied from a terminal keep them), then carriage returns dropped (the parsers'
/// own step: a log saved with CR LF, a progress line ending in CR).
pub fn plain_text(s: &str) -> String {
    document::text::strip_ansi(s).replace('\r', "")
}

/// Whitespace-separated fields that parse as unsigned integers, stopping at the first field
/// that does not (so a trailing note does not count).
pub fn leading_u64s(s: &str) -> Vec<u64> {
    s.split_whitespace()
        .map_while(|f| f.parse::<u64>().ok())
        .collect()
}

/// The text after `prefix` when the trimmed line starts with it.
pub fn after<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    line.trim_start().strip_prefix(prefix)
}

/// Parses "1,234,567" or "1234567" as an integer.
pub fn parse_grouped_u64(s: &str) -> Option<u64> {
    let digits: String = s.trim().chars().filter(|c| *c != ',').collect();
    if digits.is_empty() {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_sequences_and_cr_are_removed() {
        let s = "\u{1b}[01;37m[2023-03-10 16:49:44]\u{1b}[0m Total: 41.39 kH/s\r";
        assert_eq!(plain_text(s), "[2023-03-10 16:49:44] Total: 41.39 kH/s");
        assert_eq!(plain_text("\u{1b}"), "");
        assert_eq!(plain_text("a\u{1b}[31"), "a");
    }

    /// Where this module's own ANSI remover (before the one rule in `document::text`) differed:
    /// it took an OSC sequence (`ESC ] … BEL`, a terminal title) for a two-character escape and
    /// kept its text in the line. The shared rule wins — the title is not the tool's output.
    #[test]
    fn an_osc_title_goes_whole() {
        assert_eq!(
            plain_text("\u{1b}]0;cpuminer-multi\u{7}Total: 4.1 kH/s\r\n"),
            "Total: 4.1 kH/s\n"
        );
    }

    #[test]
    fn leading_numbers_stop_at_text() {
        assert_eq!(leading_u64s(" 100  4399 4398 x 5"), vec![100, 4399, 4398]);
        assert!(leading_u64s("- - 3").is_empty());
    }

    #[test]
    fn grouped_numbers() {
        assert_eq!(parse_grouped_u64(" 1,060,685 "), Some(1_060_685));
        assert_eq!(parse_grouped_u64("12a"), None);
        assert_eq!(parse_grouped_u64(""), None);
    }
}
