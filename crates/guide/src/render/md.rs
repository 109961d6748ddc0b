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

fn table(out: &mut String, t: &Table) {
    let mut header = vec![text(&t.key_header)];
    header.extend(t.columns.iter().map(|c| text(&c.header())));
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    let mut align = vec![":---".to_string()];
    align.extend(t.columns.iter().map(|_| "---:".to_string()));
    out.push_str(&format!("| {} |\n", align.join(" | ")));
    for r in &t.rows {
        let mut cells = vec![text(&r.key)];
        cells.extend(r.cells.iter().map(|c| text(&cell_text(c))));
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
}

/// One line, with what Markdown would read as markup escaped (pipes end a cell).
fn text(s: &str) -> String {
    let one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(one.len());
    for c in one.chars() {
        if "\\|*_`<>[]#".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
