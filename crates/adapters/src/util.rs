//! Small text helpers shared by the parsers. All of them accept any input without panicking.

/// Removes ANSI escape sequences (cpuminer colours its log when it thinks it writes to a
/// terminal; logs copied from a terminal keep them) and carriage returns.
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ parameters… final byte in @..~ ; other escapes: ESC + one char.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
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
        assert_eq!(strip_ansi(s), "[2023-03-10 16:49:44] Total: 41.39 kH/s");
        assert_eq!(strip_ansi("\u{1b}"), "");
        assert_eq!(strip_ansi("a\u{1b}[31"), "a");
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
