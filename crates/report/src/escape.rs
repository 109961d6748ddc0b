//! Escaping of every string that comes from a document.
//!
//! Device names, tool output, findings and file names are user data: a board named
//! `<script>alert(1)</script>` must show as text. Everything that reaches the page from a
//! document goes through [`esc`], in element content and in attribute values alike (quotes are
//! escaped too, so the same function serves both).

/// HTML/SVG-escapes `s` for element content and double- or single-quoted attributes.
///
/// Control characters other than tab and newline are replaced by U+FFFD: they are not allowed in
/// XML (inline SVG) and would only hide text. One rule for every page: the guide's HTML tables
/// (rendered in `guidetables`, which the report builds on) escape with the same function.
pub use guidetables::html::esc;

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
