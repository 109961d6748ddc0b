//! A published guide as a reference column (`guide render … --reference published.rst`): the
//! `.. csv-table::` blocks of a guide in reStructuredText are read ([`parse_rst`]), matched to
//! the measured tables by title, and their value columns set beside the measured ones
//! ([`add`]): `"<board> (published): perf"`, then a ratio column `"<measured board> /
//! <board> (published): perf"` (measured ÷ published) where the units agree — the row names
//! (which carry the unit, "lat_pipe (us)") and the column names are the same, compared without
//! regard to case, backslash escapes or spacing (published guides write `(mb/s)` for `(MB/s)`).
//!
//! Published rows the run lacks are added (empty measured cells), so what was not measured
//! shows. Cells that are not comparable by construction get no ratio and a note under the
//! table; today the two quirks of TI's lmbench harness, each recognised from the published
//! table itself, not assumed:
//!
//! - bw_mem at 1–8 MB: the published cell's min or max is another operation's figure at the
//!   same size (the harness's result parser merged two operations into one cell), so the cell
//!   is no measurement of that operation alone;
//! - lat_tcp: a table without any bw_tcp row comes from a harness that started no TCP server, so
//!   its lat_tcp timed failing calls (boardbench starts its own server).
//!
//! Pure functions of the text: the caller reads the file.

use document::guide::GuideValue;

use super::{Cell, Column, ColumnKind, Guide, Row};

/// One `.. csv-table::` block of a published guide.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RefTable {
    /// The directive's title ("LMBench Benchmarks").
    pub title: String,
    /// The header row (`:header:`, or the last of `:header-rows:`), backslash escapes removed.
    pub header: Vec<String>,
    /// The rows, backslash escapes removed.
    pub rows: Vec<Vec<String>>,
}

/// Every `.. csv-table::` block with inline content (`:file:`/`:url:` tables are not read).
/// Malformed CSV docutils itself refuses (a quoted field never closed) is an error naming the
/// table and the line of its directive: `csv-table "LMBench Benchmarks" (line 12): …`.
pub fn parse_rst(text: &str) -> Result<Vec<RefTable>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(title) = line.trim_start().strip_prefix(".. csv-table::") else {
            i += 1;
            continue;
        };
        let base = indent(line);
        let at = i + 1;
        let mut table = RefTable {
            title: unescape(title.trim()),
            ..Default::default()
        };
        let mut options: Vec<(String, String)> = Vec::new();
        i += 1;
        // Options: `:name: value`, a value continued on more-indented lines.
        while i < lines.len() && !lines[i].trim().is_empty() && indent(lines[i]) > base {
            let l = lines[i].trim();
            match l.strip_prefix(':').and_then(|r| r.split_once(':')) {
                Some((name, value)) if l.starts_with(':') => {
                    options.push((name.trim().to_string(), value.trim().to_string()))
                }
                _ => {
                    if let Some(last) = options.last_mut() {
                        last.1.push(' ');
                        last.1.push_str(l);
                    }
                }
            }
            i += 1;
        }
        // Content: the indented block after the options.
        let mut content = String::new();
        while i < lines.len() && (lines[i].trim().is_empty() || indent(lines[i]) > base) {
            if !lines[i].trim().is_empty() {
                content.push_str(lines[i].trim());
                content.push('\n');
            }
            i += 1;
        }
        let option = |n: &str| {
            options
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
        };
        if option("file").is_some() || option("url").is_some() {
            continue;
        }
        let delim = match option("delim") {
            Some("tab") => '\t',
            Some("space") => ' ',
            Some(d) if d.chars().count() == 1 => d.chars().next().unwrap_or(','),
            _ => ',',
        };
        let title = table.title.replace('"', "'");
        let bad = |what: &str, e: String| format!("csv-table \"{title}\" (line {at}): {what}{e}");
        let mut rows = parse_csv(&content, delim).map_err(|e| bad("", e))?;
        if let Some(h) = option("header") {
            table.header = parse_csv(h, delim)
                .map_err(|e| bad(":header: ", e))?
                .into_iter()
                .next()
                .unwrap_or_default();
        }
        let header_rows: usize = option("header-rows")
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        if header_rows > 0 && rows.len() >= header_rows {
            let head: Vec<Vec<String>> = rows.drain(..header_rows).collect();
            if table.header.is_empty() {
                table.header = head.into_iter().last().unwrap_or_default();
            }
        }
        table.header = clean(&table.header);
        table.rows = rows.iter().map(|r| clean(r)).collect();
        out.push(table);
    }
    Ok(out)
}

/// docutils' csv-table reading: `delim`-separated, `"` quotes with `""` for a quote inside,
/// spaces after a delimiter skipped, one record per line (a quoted field may span lines). A
/// quoted field still open at the end is an error, as in docutils ("unexpected end of data").
fn parse_csv(s: &str, delim: char) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut was_quoted) = (false, false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                    // docutils reads strictly: a closing quote ends the field.
                    if let Some(&n) = chars.peek()
                        && n != delim
                        && n != '\n'
                    {
                        return Err(format!(
                            "a quoted field is not closed before its delimiter (it starts \"{}\", \
                             and the quote that ends it is followed by {n:?}, not by the delimiter: \
                             a quote missing or not doubled?)",
                            start_of(&field)
                        ));
                    }
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            c if c == delim => {
                row.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            '\n' => {
                row.push(std::mem::take(&mut field));
                was_quoted = false;
                if !(row.len() == 1 && row[0].is_empty()) {
                    rows.push(std::mem::take(&mut row));
                } else {
                    row.clear();
                }
            }
            ' ' if field.is_empty() && !was_quoted => {}
            c => field.push(c),
        }
    }
    if quoted {
        return Err(format!(
            "a quoted field is never closed (it starts \"{}\")",
            start_of(&field)
        ));
    }
    if !field.is_empty() || !row.is_empty() || was_quoted {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

/// The first 30 characters of a field, on one line, for an error message.
fn start_of(field: &str) -> String {
    field
        .chars()
        .take(30)
        .collect::<String>()
        .replace('\n', " ")
}

/// A row with every cell's escapes removed.
fn clean(r: &[String]) -> Vec<String> {
    r.iter().map(|c| unescape(c)).collect()
}

/// reStructuredText backslash escapes removed (`\*` → `*`; a backslash-space disappears).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(' ') | None => {}
                Some(n) => out.push(n),
            }
        } else {
            out.push(c);
        }
    }
    out.trim().to_string()
}

/// The form names are compared in: lower case, no backslashes, single spaces.
fn norm(s: &str) -> String {
    s.replace('\\', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A published cell as a figure: `4733.08` or `4733.08 (min 2024.29, max 7441.86)`.
pub fn parse_value(s: &str) -> Option<GuideValue> {
    let s = s.trim();
    let (v, rest) = match s.split_once('(') {
        Some((v, rest)) => (v.trim(), Some(rest.trim().strip_suffix(')')?)),
        None => (s, None),
    };
    let value: f64 = v.parse().ok().filter(|x: &f64| x.is_finite())?;
    let mut g = GuideValue::one(value);
    if let Some(rest) = rest {
        for part in rest.split(',') {
            let part = part.trim();
            if let Some(x) = part.strip_prefix("min") {
                g.min = Some(x.trim().parse().ok()?);
            } else if let Some(x) = part.strip_prefix("max") {
                g.max = Some(x.trim().parse().ok()?);
            } else {
                return None;
            }
        }
        g.samples = 0;
    }
    Some(g)
}

/// The published table's quirks: the rows whose figures do not compare, and why (one note per
/// kind).
fn quirks(title: &str, rows: &[Vec<String>]) -> (Vec<String>, Vec<String>) {
    let mut bad: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    if norm(title) != "lmbench benchmarks" {
        return (bad, notes);
    }
    // bw_mem-<op>-<N>mb → (op, N)
    let bw_mem = |key: &str| -> Option<(String, String)> {
        let k = norm(key);
        let rest = k.strip_prefix("bw_mem-")?;
        let (op, size) = rest.split_once('-')?;
        let size = size.split_whitespace().next()?.strip_suffix("mb")?;
        Some((op.to_string(), size.to_string()))
    };
    let numbers = |r: &Vec<String>| -> Vec<f64> {
        r.get(1)
            .and_then(|c| parse_value(c))
            .map(|v| {
                [Some(v.value), v.min, v.max]
                    .into_iter()
                    .flatten()
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut mixed = Vec::new();
    for r in rows {
        let Some((op, size)) = r.first().and_then(|k| bw_mem(k)) else {
            continue;
        };
        if !["1", "2", "4", "8"].contains(&size.as_str()) {
            continue;
        }
        let Some(v) = r.get(1).and_then(|c| parse_value(c)) else {
            continue;
        };
        let ends: Vec<f64> = [v.min, v.max].into_iter().flatten().collect();
        let other = rows.iter().any(|o| {
            o.first()
                .and_then(|k| bw_mem(k))
                .is_some_and(|(op2, s2)| op2 != op && s2 == size)
                && numbers(o)
                    .iter()
                    .any(|x| ends.iter().any(|e| (e - x).abs() < 0.006))
        });
        if other {
            mixed.push(r[0].clone());
        }
    }
    if !mixed.is_empty() {
        notes.push(format!(
            "published bw_mem at 1–8 MB not compared ({} cells: {}): each one's min or max is another operation's figure at the same size — the harness that made the guide merged two operations into one cell, so the figure is no measurement of that operation alone",
            mixed.len(),
            mixed.join(", ")
        ));
        bad.extend(mixed);
    }
    let has_bw_tcp = rows
        .iter()
        .any(|r| r.first().is_some_and(|k| norm(k).starts_with("bw_tcp")));
    let tcp: Vec<String> = rows
        .iter()
        .filter_map(|r| r.first())
        .filter(|k| {
            let k = norm(k);
            k.starts_with("lat_tcp") || k.starts_with("tcp_latency_using_localhost")
        })
        .cloned()
        .collect();
    if !has_bw_tcp && !tcp.is_empty() {
        notes.push(
            "published lat_tcp not compared: the table has no bw_tcp row, the mark of a harness that started no TCP server, so its lat_tcp timed failing calls (boardbench times round trips to its own server)"
                .into(),
        );
        bad.extend(tcp);
    }
    (bad.iter().map(|k| norm(k)).collect(), notes)
}

/// A published column in the merged table: its index in the published rows, its column, and
/// its ratio columns as (measured column, ratio column).
type Placed = (usize, usize, Vec<(usize, usize)>);

/// Sets the published tables beside the measured ones (see the module's description). `source`
/// names the file in the notes.
pub fn add(g: &mut Guide, tables: &[RefTable], source: &str) {
    let mut next_run = std::iter::once(&g.header)
        .chain(g.sections.iter().flat_map(|s| &s.tables))
        .flat_map(|t| &t.columns)
        .map(|c| c.run + 1)
        .max()
        .unwrap_or(0);
    // (published board, its run id) and (measured run, published board) → ratio run id.
    let mut ref_runs: Vec<(String, usize)> = Vec::new();
    let mut ratio_runs: Vec<(usize, String, usize)> = Vec::new();
    let mut used = vec![false; tables.len()];
    let mut compared = 0usize;
    for sec in &mut g.sections {
        for t in &mut sec.tables {
            let Some(pos) = tables.iter().position(|r| norm(&r.title) == norm(&t.title)) else {
                continue;
            };
            used[pos] = true;
            let rt = &tables[pos];
            let kc = 1 + t.key_headers.len();
            if rt.header.len() <= kc {
                continue;
            }
            let (bad, quirk_notes) = quirks(&rt.title, &rt.rows);
            // The published value columns: (index in the published row, board, column name).
            let measured_names: Vec<String> = t
                .columns
                .iter()
                .filter(|c| c.kind == ColumnKind::Measured)
                .map(|c| c.name.clone())
                .collect();
            let mut new_cols: Vec<(usize, Column, Vec<usize>)> = Vec::new();
            for (hi, h) in rt.header.iter().enumerate().skip(kc) {
                let nh = norm(h);
                let (board, name) = match measured_names
                    .iter()
                    .find(|n| nh.ends_with(&format!(": {}", norm(n))) || (nh == norm(n)))
                {
                    Some(n) => {
                        let cut = h.len().saturating_sub(n.len());
                        let board = h[..cut].trim_end().trim_end_matches(':').trim().to_string();
                        (board, n.clone())
                    }
                    None => match h.split_once(": ") {
                        Some((b, n)) => (b.trim().to_string(), n.trim().to_string()),
                        None => (String::new(), h.clone()),
                    },
                };
                let board = if board.is_empty() {
                    source.to_string()
                } else {
                    board
                };
                let run = match ref_runs.iter().find(|(b, _)| *b == board) {
                    Some((_, r)) => *r,
                    None => {
                        next_run += 1;
                        ref_runs.push((board.clone(), next_run));
                        next_run
                    }
                };
                let ref_col = Column {
                    run,
                    board: format!("{board} (published)"),
                    name: name.clone(),
                    kind: ColumnKind::Reference,
                };
                // The measured columns this one compares with: the same name.
                let with: Vec<usize> = t
                    .columns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.kind == ColumnKind::Measured && norm(&c.name) == norm(&name))
                    .map(|(i, _)| i)
                    .collect();
                new_cols.push((hi, ref_col, with));
            }
            // Append the columns: each published one, then its ratio columns.
            let mut placed: Vec<Placed> = Vec::new();
            for (hi, col, with) in new_cols {
                let board = col.board.clone();
                t.columns.push(col);
                let rc = t.columns.len() - 1;
                let mut ratios = Vec::new();
                for m in with {
                    let mcol = t.columns[m].clone();
                    let run = match ratio_runs
                        .iter()
                        .find(|(r, b, _)| *r == mcol.run && *b == board)
                    {
                        Some((_, _, x)) => *x,
                        None => {
                            next_run += 1;
                            ratio_runs.push((mcol.run, board.clone(), next_run));
                            next_run
                        }
                    };
                    t.columns.push(Column {
                        run,
                        board: format!("{} / {board}", mcol.board),
                        name: mcol.name.clone(),
                        kind: ColumnKind::Ratio,
                    });
                    ratios.push((m, t.columns.len() - 1));
                }
                placed.push((hi, rc, ratios));
            }
            let width = t.columns.len();
            for r in &mut t.rows {
                r.cells.resize(width, None);
            }
            for prow in &rt.rows {
                if prow.len() < kc {
                    continue;
                }
                let key = &prow[0];
                let keys: Vec<String> = prow[1..kc].to_vec();
                let at = match t.rows.iter().position(|r| {
                    norm(&r.key) == norm(key)
                        && r.keys.len() == keys.len()
                        && r.keys.iter().zip(&keys).all(|(a, b)| norm(a) == norm(b))
                }) {
                    Some(i) => i,
                    None => {
                        t.rows.push(Row {
                            key: key.clone(),
                            keys: keys.clone(),
                            cells: vec![None; width],
                        });
                        t.rows.len() - 1
                    }
                };
                let comparable = !bad.contains(&norm(key));
                for (hi, rc, ratios) in &placed {
                    let text = prow.get(*hi).map(|s| s.trim()).unwrap_or("");
                    if text.is_empty() {
                        continue;
                    }
                    let published = parse_value(text);
                    let row = &mut t.rows[at];
                    row.cells[*rc] = Some(match &published {
                        Some(v) => Cell::Value(v.clone()),
                        None => Cell::Text(text.to_string()),
                    });
                    for (m, ratio_col) in ratios {
                        if let (Some(Cell::Value(mv)), Some(pv), true) =
                            (&row.cells[*m], &published, comparable)
                            && pv.value != 0.0
                            && mv.value.is_finite()
                        {
                            row.cells[*ratio_col] = Some(Cell::Ratio(mv.value / pv.value));
                            compared += 1;
                        }
                    }
                }
            }
            for n in quirk_notes {
                t.notes.push(format!("{source}: {n}"));
            }
        }
    }
    // The header: the published boards as columns, said to be published (the "Measured" row
    // added where the measured columns left it out, having no date).
    if !ref_runs.is_empty() && !g.header.rows.iter().any(|r| r.key == "Measured") {
        let width = g.header.columns.len();
        g.header.rows.push(Row {
            key: "Measured".into(),
            keys: Vec::new(),
            cells: vec![None; width],
        });
    }
    for (board, run) in &ref_runs {
        g.header.columns.push(Column {
            run: *run,
            board: format!("{board} (published)"),
            name: String::new(),
            kind: ColumnKind::Reference,
        });
        for r in &mut g.header.rows {
            r.cells.push(match r.key.as_str() {
                "Board" => Some(Cell::Text(board.clone())),
                "Measured" => Some(Cell::Text(format!("published guide ({source})"))),
                _ => None,
            });
        }
    }
    g.notes.push(format!(
        "{source}: a published guide's figures, read from its tables, beside the measured ones; ratio = measured / published, given where the row and column names (and so the units) agree ({compared} cells); for times (us, ns) above 1 is slower, for rates (MB/s) faster"
    ));
    let unmatched: Vec<&str> = tables
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(t, _)| t.title.as_str())
        .collect();
    if !unmatched.is_empty() {
        g.notes.push(format!(
            "{source}: published tables not measured in these runs: {}",
            unmatched.join(", ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_tables_are_read_with_docutils_rules() {
        let text = "Heading\n-------\n\n.. csv-table:: A \\*Table\\*\n   :header: \"Benchmarks\",\"x: perf\"\n   :widths: 10, 10\n\n   \"a (us)\",\"1.00 (min 0.50, max 2.00)\"\n   \"b, c\", \"say \"\"hi\"\"\"\n\n   d,3\n\nParagraph.\n\n.. csv-table:: Two\n   :header-rows: 1\n\n   K,\"v: perf\"\n   k,4\n";
        let t = parse_rst(text).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].title, "A *Table*");
        assert_eq!(t[0].header, ["Benchmarks", "x: perf"]);
        assert_eq!(
            t[0].rows,
            vec![
                vec!["a (us)".to_string(), "1.00 (min 0.50, max 2.00)".into()],
                vec!["b, c".into(), "say \"hi\"".into()],
                vec!["d".into(), "3".into()],
            ]
        );
        assert_eq!(t[1].header, ["K", "v: perf"]);
        assert_eq!(t[1].rows, vec![vec!["k".to_string(), "4".into()]]);
    }

    #[test]
    fn an_unterminated_quoted_field_is_an_error_naming_the_table() {
        let text = "Intro\n\n.. csv-table:: Good\n   :header: \"K\",\"v\"\n\n   a,1\n\n\
                    .. csv-table:: LMBench Benchmarks\n   :header: \"Benchmarks\",\"x: perf\"\n\n   \
                    \"lat_pipe (us),4.00\n   \"lat_tcp (us)\",5.00\n\nAfter.\n";
        // The quote left open runs to the next one, and text follows that: docutils (strict
        // CSV) refuses it, and so does the reader, naming the table and its line.
        let e = parse_rst(text).unwrap_err();
        assert!(
            e.starts_with(
                "csv-table \"LMBench Benchmarks\" (line 8): a quoted field is not closed before \
                 its delimiter (it starts \"lat_pipe (us),4.00 \""
            ),
            "{e}"
        );
        let e = parse_rst(".. csv-table:: T\n\n   a,1\n   \"b,2\n").unwrap_err();
        assert_eq!(
            e,
            "csv-table \"T\" (line 1): a quoted field is never closed (it starts \"b,2 \")"
        );
        // In the header option too; a closed field that merely looks odd is fine.
        let e = parse_rst(".. csv-table:: T\n   :header: \"K,v\n\n   a,1\n").unwrap_err();
        assert!(
            e.contains("csv-table \"T\" (line 1): :header: a quoted field"),
            "{e}"
        );
        assert!(parse_rst(".. csv-table:: T\n\n   \"a \"\"x\"\"\",1\n").is_ok());
    }

    #[test]
    fn published_values_parse_in_the_guides_form() {
        let v = parse_value("4733.08 (min 2024.29, max 7441.86)").unwrap();
        assert_eq!(
            (v.value, v.min, v.max),
            (4733.08, Some(2024.29), Some(7441.86))
        );
        assert_eq!(parse_value(" 0.02 ").unwrap().value, 0.02);
        assert!(parse_value("n/a").is_none());
        assert!(parse_value("1 (avg 2)").is_none());
    }
}
