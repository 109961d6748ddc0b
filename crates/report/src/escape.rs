//! Escaping of every string that comes from a document.
//!
//! Device names, tool output, findings and file names are user data: a board named
//! `<script>alert(1)</script>` must show as text. Everything that reaches the page from a
//! document goes through [`esc`], in element content and in attribute values alike (quotes are
//! escaped too, so the same function serves both).

/// HTML/SVG-escapes `s` for element content and double- or single-quoted attributes.
///
/// Control characters other than tab and newline are replaced by U+FFFD: they are not allowed in
/// XML (inline SVG) and would only hide text.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn markup_and_quotes_become_entities() {
        assert_eq!(
            esc(r#"<script>alert("x&y")</script>'"#),
            "&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;&#39;"
        );
    }

    #[test]
    fn control_characters_are_replaced() {
        assert_eq!(esc("a\u{0}b\u{1b}[0m\tc\n"), "a\u{FFFD}b\u{FFFD}[0m\tc\n");
    }
}
