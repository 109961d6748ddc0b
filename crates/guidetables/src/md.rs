//! Markdown (GitHub/CommonMark pipe tables): a heading per section, a table per guide table with
//! one column per run, for wikis, forum posts and merge requests.

use super::{Guide, Table, cell_text};

pub fn render(g: &Guide, title: &str) -> String {
    let mut out = format!("# {}\n\n", text(title));
    out.push_str(&format!("## {}\n\n", text(&g.header.title)));
    table(&mut out, &g.header);
    for s in &g.sections {
        if s.tables.is_empty() {
            continue;
        }
        out.push_str(&format!("## {}\n\n", text(&s.title)));
        for t in &s.tables {
            if t.title != s.title {
                out.push_str(&format!("### {}\n\n", text(&t.title)));
            }
            table(&mut out, t);
        }
    }
    if !g.notes.is_empty() {
        out.push_str("## Notes\n\n");
        for n in &g.notes {
            out.push_str(&format!("- {}\n", text(n)));
        }
        out.push('\n');
    }
    out
}

/// One table (and its notes) as Markdown.
pub fn table_text(t: &Table) -> String {
    let mut out = String::new();
    table(&mut out, t);
    out
}

fn table(out: &mut String, t: &Table) {
    let mut header = vec![text(&t.key_header)];
    header.extend(t.key_headers.iter().map(|h| text(h)));
    header.extend(t.columns.iter().map(|c| text(&c.header())));
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    let mut align = vec![":---".to_string()];
    align.extend(t.key_headers.iter().map(|_| "---:".to_string()));
    // Figures right-aligned; the header table's text left.
    align.extend(
        t.columns
            .iter()
            .map(|c| if c.name.is_empty() { ":---" } else { "---:" }.to_string()),
    );
    out.push_str(&format!("| {} |\n", align.join(" | ")));
    for r in &t.rows {
        let mut cells = vec![text(&r.key)];
        cells.extend(r.keys.iter().map(|k| text(k)));
        cells.extend(r.cells.iter().map(|c| text(&cell_text(c))));
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
    for n in &t.notes {
        out.push_str(&format!("- {}\n", text(n)));
    }
    if !t.notes.is_empty() {
        out.push('\n');
    }
}

/// One line (`document::text::one_line`, the rule of every renderer: ANSI escapes and control
/// characters go, white space collapses), with what Markdown would read as markup escaped
/// (pipes end a cell); an underscore only at a word's edge (`lat_pipe` stays as written,
/// intraword underscores are no emphasis).
fn text(s: &str) -> String {
    let one = document::text::one_line(s);
    let chars: Vec<char> = one.chars().collect();
    let mut out = String::with_capacity(one.len());
    for (i, &c) in chars.iter().enumerate() {
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let edge = !(word(i.checked_sub(1)) && word(Some(i + 1)));
        if "\\|*`<>[]#".contains(c) || (c == '_' && edge) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_is_escaped_intraword_underscores_are_not() {
        assert_eq!(
            super::text("lat_pipe (us) | _x_ *y*"),
            "lat_pipe (us) \\| \\_x\\_ \\*y\\*"
        );
        // One line by the shared rule: a line break, an escape and a control character go.
        assert_eq!(super::text("rock\n5b\u{1b}[1m\u{7}"), "rock 5b");
    }
}
