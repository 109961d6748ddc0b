//! reStructuredText: a `.. csv-table::` block per table with `:header: "Benchmarks","<board>:
//! perf"`, as the published guides write them, ready to paste into Sphinx documentation. Each
//! section gets a heading; the header table ("Evaluation Modules") comes first, the notes
//! (skipped or interrupted sections, quick runs) last.

use super::{Guide, Table, cell_text};

/// The whole guide as one reStructuredText document.
pub fn render(g: &Guide, title: &str) -> String {
    let mut out = String::new();
    heading(&mut out, title, '=');
    heading(&mut out, &g.header.title, '-');
    table(&mut out, &g.header);
    for s in &g.sections {
        if s.tables.is_empty() {
            continue;
        }
        heading(&mut out, &s.title, '-');
        for t in &s.tables {
            table(&mut out, t);
        }
    }
    if !g.notes.is_empty() {
        heading(&mut out, "Notes", '-');
        for n in &g.notes {
            out.push_str(&format!("- {}\n", inline(n)));
        }
        out.push('\n');
    }
    out
}

fn heading(out: &mut String, text: &str, ch: char) {
    let text = inline(&one_line(text));
    let width = text.chars().count().max(1);
    out.push_str(&text);
    out.push('\n');
    out.extend(std::iter::repeat_n(ch, width));
    out.push_str("\n\n");
}

fn table(out: &mut String, t: &Table) {
    out.push_str(&format!(".. csv-table:: {}\n", inline(&one_line(&t.title))));
    let mut header = vec![quoted(&t.key_header)];
    header.extend(t.key_headers.iter().map(|h| quoted(h)));
    header.extend(t.columns.iter().map(|c| quoted(&c.header())));
    out.push_str(&format!("    :header: {}\n", header.join(",")));
    out.push_str(&format!(
        "    :widths: {}\n\n",
        vec!["10"; header.len()].join(", ")
    ));
    for r in &t.rows {
        let mut cells = vec![quoted(&r.key)];
        cells.extend(r.keys.iter().map(|k| quoted(k)));
        cells.extend(r.cells.iter().map(|c| quoted(&cell_text(c))));
        out.push_str(&format!("    {}\n", cells.join(",")));
    }
    if t.rows.is_empty() {
        // A csv-table needs content: one empty row keeps the table (and its header) valid.
        let empty = vec!["\"\""; header.len()].join(",");
        out.push_str(&format!("    {empty}\n"));
    }
    out.push('\n');
}

/// A CSV field of the table: quoted, inner quotes doubled (docutils' csv-table default).
fn quoted(s: &str) -> String {
    format!("\"{}\"", inline(&one_line(s)).replace('"', "\"\""))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Backslash-escapes what reStructuredText would read as inline markup: emphasis stars,
/// backquotes, substitution bars, and a trailing underscore (a reference), so row names and
/// board names print as written.
fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let ends_word = next.is_none_or(|n| n.is_whitespace() || ",.;:)]\"'".contains(n));
        match c {
            '\\' | '*' | '`' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '_' if ends_word => out.push_str("\\_"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(inline("a*b `c` d|e"), "a\\*b \\`c\\` d\\|e");
        assert_eq!(inline("lat_ops-int_ x_"), "lat_ops-int\\_ x\\_");
        assert_eq!(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
