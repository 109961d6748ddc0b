//! Small helpers for reading log lines: numbers with units, separators, lists.

/// The 74-`#` separator between sbc-bench's blocks (any run of 20+ `#` counts).
pub fn is_separator(line: &str) -> bool {
    line.len() >= 20 && line.bytes().all(|b| b == b'#')
}

/// Leading number of `s` ("1922.6 MB/s" → 1922.6, "659603.46k" → 659603.46).
pub fn leading_f64(s: &str) -> Option<f64> {
    let s = s.trim_start();
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && (c == '-' || c == '+'))))
        .map_or(s.len(), |(i, _)| i);
    let v: f64 = s[..end].parse().ok()?;
    v.is_finite().then_some(v)
}

/// A comma-separated list of numbers ("5421,5483,5460"); empty items are skipped.
pub fn number_list(s: &str) -> Vec<f64> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .filter_map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect()
}

/// The text inside the last pair of parentheses at the end of `s`, and what precedes it.
pub fn split_trailing_parens(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_end();
    let inner = s.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    Some((s[..open].trim_end(), &inner[open + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(leading_f64("  1922.6 MB/s (1.0%)"), Some(1922.6));
        assert_eq!(leading_f64("659603.46k"), Some(659603.46));
        assert_eq!(leading_f64("k"), None);
        assert_eq!(number_list("8.61,8.60,,8.59"), vec![8.61, 8.6, 8.59]);
        assert_eq!(
            split_trailing_parens("aes-256-cbc 1k (Cortex-A53)"),
            Some(("aes-256-cbc 1k", "Cortex-A53"))
        );
        assert!(is_separator(&"#".repeat(74)));
        assert!(!is_separator("# comment"));
    }
}
