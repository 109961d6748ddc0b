//! reStructuredText: a `.. csv-table::` block per table with `:header: "Benchmarks","<board>:
//! perf"`, as the published guides write them, ready to paste into Sphinx documentation. Each
//! section gets a heading; the header table ("Evaluation Modules") comes first, the notes
//! (skipped or interrupted sections, quick runs) last.

use document::text::one_line;

use super::{Cell, Guide, Table, cell_text, cell_text_2};

/// The whole guide as one reStructuredText document.
pub fn render(g: &Guide, title: &str) -> String {
    let mut out = String::new();
    heading(&mut out, title, '=');
    heading(&mut out, &g.header.title, '-');
    csv_table(&mut out, &g.header, false);
    for s in &g.sections {
        if s.tables.is_empty() {
            continue;
        }
        heading(&mut out, &s.title, '-');
        for t in &s.tables {
            csv_table(&mut out, t, false);
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

/// A `.. csv-table::` block and the table's notes under it. boardbench's layout indents by four
/// and gives `:widths:`; the TI layout (`ti`) indents by three, has no `:widths:` and shows every
/// figure with two decimals.
fn csv_table(out: &mut String, t: &Table, ti: bool) {
    let (indent, cell): (&str, fn(&Option<Cell>) -> String) = if ti {
        ("   ", cell_text_2)
    } else {
        ("    ", cell_text)
    };
    out.push_str(&format!(".. csv-table:: {}\n", inline(&one_line(&t.title))));
    let header = record(
        std::iter::once(t.key_header.clone())
            .chain(t.key_headers.iter().cloned())
            .chain(t.columns.iter().map(|c| c.header())),
    );
    let width = t.key_headers.len() + t.columns.len() + 1;
    out.push_str(&format!("{indent}:header: {header}\n"));
    if !ti {
        out.push_str(&format!(
            "{indent}:widths: {}\n",
            vec!["10"; width].join(", ")
        ));
    }
    out.push('\n');
    for r in &t.rows {
        let cells = record(
            std::iter::once(r.key.clone())
                .chain(r.keys.iter().cloned())
                .chain(r.cells.iter().map(cell)),
        );
        out.push_str(&format!("{indent}{cells}\n"));
    }
    if t.rows.is_empty() {
        // A csv-table needs content: one empty row keeps the table (and its header) valid.
        let empty = record(vec![String::new(); width]);
        out.push_str(&format!("{indent}{empty}\n"));
    }
    out.push('\n');
    for n in &t.notes {
        out.push_str(&format!("- {}\n", inline(&one_line(n))));
    }
    if !t.notes.is_empty() {
        out.push('\n');
    }
}

/// One line of a csv-table: each field made one line and its inline markup escaped, then
/// written by the one CSV home, `document::csv::quoted_record` (every field quoted, inner
/// quotes doubled: the dialect docutils' csv-table reads; no spreadsheet guard).
fn record(fields: impl IntoIterator<Item = String>) -> String {
    document::csv::quoted_record(fields.into_iter().map(|f| inline(&one_line(&f))))
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

/// The published TI guides' layout (`--style ti`): the title over- and underlined with `=`, an
/// "Evaluation Modules" grid table (name, description), the sections grouped under headings
/// underlined with `-` ("System Benchmarks" …) with one sub-heading per section underlined with
/// `^`, `.. csv-table::` blocks indented by three spaces without `:widths:`, every figure with
/// two decimals, and under each table what a reader needs to repeat it: the notes on its
/// figures, the section's conditions and the command. What the documents cannot know (the DDR
/// type and data rate, the boot medium) is said, not guessed.
pub fn render_ti(g: &Guide, title: &str) -> String {
    let mut out = String::new();
    let t = inline(&one_line(title));
    let bar = "=".repeat(t.chars().count() + 2);
    out.push_str(&format!("{bar}\n {t}\n{bar}\n\n"));
    // The boot media the console logs showed (`guide console`: "Boot time MMCSD").
    let mut media: Vec<&str> = g
        .sections
        .iter()
        .filter(|s| s.name == "boot-console")
        .flat_map(|s| &s.tables)
        .filter_map(|t| t.title.strip_prefix("Boot time "))
        .collect();
    media.dedup();
    evaluation_modules(&mut out, &g.header, &media);
    let mut group: Option<&str> = None;
    for s in &g.sections {
        if s.tables.is_empty() {
            continue;
        }
        let gr = ti_group(&s.name);
        if group != Some(gr) {
            heading(&mut out, gr, '-');
            group = Some(gr);
        }
        let sub = s
            .title
            .strip_suffix(" Benchmarks")
            .unwrap_or(&s.title)
            .to_string();
        heading(&mut out, &sub, '^');
        for t in &s.tables {
            csv_table(&mut out, t, true);
        }
        if !s.notes.is_empty() {
            out.push_str("Test conditions:\n\n");
            for n in &s.notes {
                out.push_str(&format!("- {}\n", inline(&one_line(n))));
            }
            out.push('\n');
        }
        out.push_str("Command used:\n\n::\n\n");
        out.push_str(&format!("   {}\n\n", ti_command(g, &s.name)));
    }
    let general: Vec<&String> = g
        .notes
        .iter()
        .filter(|n| !g.sections.iter().any(|s| s.notes.contains(n)))
        .collect();
    if !general.is_empty() {
        heading(&mut out, "Notes", '-');
        for n in general {
            out.push_str(&format!("- {}\n", inline(&one_line(n))));
        }
        out.push('\n');
    }
    out
}

/// The seed's grouping of its tables under top-level headings.
fn ti_group(section: &str) -> &'static str {
    match section {
        "storage" | "uboot-storage" => "Storage",
        "network" => "Ethernet",
        "boot" | "boot-console" => "Boot Time",
        "audio" => "Audio",
        "openssl" | "kcrypto" | "ipsec" => "Crypto",
        _ => "System Benchmarks",
    }
}

/// The command that measures a section again (the options a section needs as placeholders).
fn ti_command(g: &Guide, section: &str) -> String {
    let quick = g
        .notes
        .iter()
        .any(|n| n.contains("a quick guide (--quick)"));
    if matches!(section, "boot-console" | "uboot-storage") {
        // Measured from a lab's console logs, not on the board.
        return "boardbench guide console LOG... --device BOARD".into();
    }
    let mut cmd = format!(
        "boardbench guide{} --sections {section}",
        if quick { " --quick" } else { "" }
    );
    match section {
        "storage" => cmd.push_str(" --storage DIR"),
        "network" => cmd.push_str(" --peer HOST"),
        _ => {}
    }
    cmd
}

/// The "Evaluation Modules" grid: one line per board with what the documents know of it, and a
/// sentence on what they cannot know.
fn evaluation_modules(out: &mut String, h: &Table, boot_media: &[&str]) {
    let text = |key: &str, col: usize| -> Option<String> {
        h.rows
            .iter()
            .find(|r| r.key == key)
            .and_then(|r| r.cells.get(col))
            .and_then(|c| match c {
                Some(Cell::Text(t)) if !t.is_empty() => Some(t.clone()),
                _ => None,
            })
    };
    let mut lines: Vec<(String, String)> = Vec::new();
    for (i, c) in h.columns.iter().enumerate() {
        if c.kind == super::ColumnKind::Reference {
            let what = text("Measured", i).unwrap_or_else(|| "published guide".into());
            lines.push((
                inline(&one_line(&c.board)),
                inline(&format!("{what}: see that guide's own Evaluation Modules")),
            ));
            continue;
        }
        let mut parts: Vec<String> = Vec::new();
        if let Some(b) = text("Board", i).filter(|b| *b != c.board) {
            parts.push(b);
        }
        if let Some(s) = text("SoC", i) {
            parts.push(s);
        }
        if let Some(x) = text(super::NOMINAL_KEY, i) {
            parts.push(format!("CPU {x}"));
        }
        if let Some(x) = text("CPU clock (measured, MHz)", i) {
            parts.push(format!("measured {x} MHz"));
        }
        if let Some(x) = text("Memory", i) {
            parts.push(format!("{x} RAM"));
        }
        if let Some(x) = text(super::DRAM_KEY, i) {
            parts.push(format!("DRAM {x}"));
        }
        if let Some(x) = text("Memory controller (devfreq max)", i) {
            parts.push(format!("memory controller {x}"));
        }
        for (k, what) in [
            ("Kernel", "kernel "),
            ("Distribution", ""),
            ("Measured", "measured "),
            ("Runs", "runs: "),
        ] {
            if let Some(x) = text(k, i) {
                parts.push(format!("{what}{x}"));
            }
        }
        if parts.is_empty() {
            // Documents of `guide console` (captures without a date) know nothing else.
            parts.push("nothing recorded of the board itself (console logs only)".into());
        }
        let desc = inline(&one_line(&parts.join(", ")));
        lines.push((inline(&one_line(&c.board)), desc));
    }
    let w0 = lines
        .iter()
        .map(|(n, _)| n.chars().count())
        .chain(std::iter::once(4))
        .max()
        .unwrap_or(4);
    let w1 = lines
        .iter()
        .map(|(_, d)| d.chars().count())
        .chain(std::iter::once(11))
        .max()
        .unwrap_or(11);
    let rule = |c: char| {
        format!(
            "+{}+{}+\n",
            c.to_string().repeat(w0 + 2),
            c.to_string().repeat(w1 + 2)
        )
    };
    let line = |a: &str, b: &str| {
        format!(
            "| {a}{} | {b}{} |\n",
            " ".repeat(w0 - a.chars().count()),
            " ".repeat(w1 - b.chars().count())
        )
    };
    out.push_str(&rule('-'));
    out.push_str(&line("Name", "Description"));
    out.push_str(&rule('='));
    for (n, d) in &lines {
        out.push_str(&line(n, d));
        out.push_str(&rule('-'));
    }
    out.push_str("\nTable: Evaluation Modules\n\n");
    let has_dram = (0..h.columns.len()).any(|i| text(super::DRAM_KEY, i).is_some());
    if has_dram {
        out.push_str(
            "The DRAM type and data rate are as the board's SMBIOS memory devices, the kernel's \
             EDAC, the device tree's JEDEC memory nodes or the memory controller's devfreq state \
             them (a devfreq rate is the highest frequency the controller's driver offers, \
             converted by what that driver's frequency means: twice the DRAM clock for \
             Rockchip's and Allwinner's dmc, the transfer rate itself for Allwinner's MBUS); \
             what a board states in none of them, take from its documentation.\n\n",
        );
        if !boot_media.is_empty() {
            out.push_str(&format!(
                "Boot medium: {}, as the console logs of the Boot Time tables show it.\n\n",
                inline(&boot_media.join(", "))
            ));
        }
    } else if boot_media.is_empty() {
        out.push_str(
            "The DDR type and data rate and the boot medium are not recorded in the result documents \
             (the boards state no SMBIOS memory device, no EDAC DIMM, no JEDEC memory node in the \
             device tree and no DRAM controller's devfreq of a known driver, as many boards do \
             not); take them from the board's documentation. The memory controller's clock is \
             listed where the kernel scales it (devfreq).\n\n",
        );
    } else {
        out.push_str(&format!(
            "The DDR type and data rate are not recorded in the result documents (the boards state \
             no SMBIOS memory device, no EDAC DIMM, no JEDEC memory node in the device tree and no \
             DRAM controller's devfreq of a known driver, as many boards do not); take them from \
             the board's documentation. Boot medium: {}, as the console logs of the Boot Time \
             tables show it. The memory controller's clock is listed where the kernel scales it \
             (devfreq).\n\n",
            inline(&boot_media.join(", "))
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(inline("a*b `c` d|e"), "a\\*b \\`c\\` d\\|e");
        assert_eq!(inline("lat_ops-int_ x_"), "lat_ops-int\\_ x\\_");
        assert_eq!(record(["say \"hi\"".into()]), "\"say \"\"hi\"\"\"");
        assert_eq!(record(["a*b".into(), "".into()]), "\"a\\*b\",\"\"");
    }

    /// Text is made one line by `document::text::one_line`, the rule of every renderer. It
    /// replaced this module's own copy, which only collapsed white space: an ANSI escape or a
    /// control character in a board name now goes too, as in the text renderers (docutils
    /// would print the escape's bytes, or refuse a control character).
    #[test]
    fn cells_are_one_line_without_escapes_or_controls() {
        assert_eq!(
            record(["rock\n 5b\u{1b}[31m red\u{7}".into()]),
            "\"rock 5b red\""
        );
    }
}
