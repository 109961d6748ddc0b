//! An HTML fragment with the tables (one column per run), every string escaped; the report
//! (`crates/report`) puts it into its page beside a bar chart per table. No scripts, no styles
//! of its own beyond the report's classes (`num` for right-aligned figures).

use super::{Cell, Guide, Row, Table, cell_text};

/// The tables of one section (or the header) as HTML.
pub fn table(t: &Table) -> String {
    let mut out = String::from("<table class=\"guide\"><thead><tr>");
    out.push_str(&format!("<th>{}</th>", esc(&t.key_header)));
    for h in &t.key_headers {
        out.push_str(&format!("<th>{}</th>", esc(h)));
    }
    for c in &t.columns {
        out.push_str(&format!("<th>{}</th>", esc(&c.header())));
    }
    out.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        out.push_str(&format!("<tr><th>{}</th>", esc(&r.key)));
        out.push_str(&row_cells(r));
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out.push_str(&table_notes(&t.notes));
    out
}

/// A row's data cells after its heading cell: the extra key columns, then one cell per column
/// (figures and ratios right-aligned).
pub fn row_cells(r: &Row) -> String {
    let mut out = String::new();
    for k in &r.keys {
        out.push_str(&format!("<td class=\"num\">{}</td>", esc(k)));
    }
    for c in &r.cells {
        let class = if matches!(c, Some(Cell::Value(_) | Cell::Ratio(_))) {
            " class=\"num\""
        } else {
            ""
        };
        out.push_str(&format!("<td{class}>{}</td>", esc(&cell_text(c))));
    }
    out
}

/// A table's own notes as the list under it (`guide-table-notes`), or nothing.
pub fn table_notes(notes: &[String]) -> String {
    if notes.is_empty() {
        return String::new();
    }
    let items: String = notes
        .iter()
        .map(|n| format!("<li>{}</li>", esc(n)))
        .collect();
    format!("<ul class=\"guide-table-notes\">{items}</ul>")
}

/// The notes (skipped, failed, interrupted sections; quick runs) as a list, or nothing.
pub fn notes(g: &Guide) -> String {
    if g.notes.is_empty() {
        return String::new();
    }
    let items: String = g
        .notes
        .iter()
        .map(|n| format!("<li>{}</li>", esc(n)))
        .collect();
    format!("<ul class=\"guide-notes\">{items}</ul>")
}

/// HTML-escapes text for element content and quoted attributes; control characters other than
/// tab and newline become U+FFFD (not allowed in inline SVG/XML), and so do bidirectional
/// controls (`document::text`: they would reorder what the reader sees). The report and the service
/// escape with this function too (`report::escape::esc`).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() || document::text::is_bidi_control(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_controls_and_bidirectional_controls() {
        assert_eq!(
            super::esc("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(super::esc("a\u{1b}[31mb\tc\n"), "a\u{fffd}[31mb\tc\n");
        // "Raspberry Pi 5 Model 8B" on screen without the rule.
        assert_eq!(
            super::esc("Raspberry Pi 5 \u{202e}B8 ledoM"),
            "Raspberry Pi 5 \u{fffd}B8 ledoM"
        );
    }
}
