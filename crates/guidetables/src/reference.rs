//! A published guide as a reference column (`guide render … --reference published.rst`): the
//! `.. csv-table::` blocks of a guide in reStructuredText are read ([`parse_rst`]), matched to
//! the measured tables by title, and their value columns set beside the measured ones
//! ([`add`]): `"<board> (published): perf"`, then a ratio column `"<measured board> /
//! <board> (published): perf"` (measured ÷ published) where the units agree — the row names
//! (which carry the unit, "lat_pipe (us)") and the column names are the same, compared without
//! regard to case, backslash escapes or spacing (published guides write `(mb/s)` for `(MB/s)`).
//!
//! Published rows the run lacks are added (empty measured cells), so what was not measured
//! shows. A ratio only between the same measurement: where the figures are not, the ratio cell
//! holds one word saying why ([`NoRatio`]) and a note under the table says what it means —
//! each recognised from the published table, its text or the row, not assumed:
//!
//! - `merged`: a bw_mem cell at 1–8 MB whose min or max is another operation's figure at the
//!   same size (TI's result parser merged two operations into one cell), or any cell whose min is
//!   0 and max is not (a failed operation averaged in);
//! - `count`: lat_fs's `(num_files)`;
//! - `rounded`: the published rounding alone moves the ratio by more than ±5 %
//!   ([`rounding_share`]);
//! - `port`: Dhrystone's DMIPS rows (boardbench's Rust port; its note says not comparable);
//! - `offload`: the guide's text says its crypto figures went through a hardware driver, the
//!   run's table is software (the run's own offload tables are matched to it instead);
//! - `no-server`: lat_tcp in a table without any bw_tcp row (a harness that started no TCP
//!   server, so its lat_tcp timed failing calls; boardbench starts its own server).
//!
//! Network tables titled by interface (`CPSW2g UDP Egress Throughput 0 loss`) match the
//! measured tables of the interface the run measured ([`interface_match`]).
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
    /// The guide's text between the previous table and this one (its headings and paragraphs,
    /// at most the last 1000 characters): what the guide says the figures were measured with
    /// (a crypto driver, an accelerator).
    pub context: String,
}

/// Every `.. csv-table::` block with inline content (`:file:`/`:url:` tables are not read).
/// Malformed CSV docutils itself refuses (a quoted field never closed) is an error naming the
/// table and the line of its directive: `csv-table "LMBench Benchmarks" (line 12): …`.
pub fn parse_rst(text: &str) -> Result<Vec<RefTable>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    let mut i = 0;
    let mut since = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(title) = line.trim_start().strip_prefix(".. csv-table::") else {
            i += 1;
            continue;
        };
        let base = indent(line);
        let at = i + 1;
        let text = lines[since..i].join(" ");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let cut = text
            .char_indices()
            .rev()
            .nth(999)
            .map(|(k, _)| k)
            .unwrap_or(0);
        let mut table = RefTable {
            title: unescape(title.trim()),
            context: text[cut..].to_string(),
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
        since = i;
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

/// Why a published cell gets no ratio: one word in the ratio cell ([`NoRatio::word`]), said in
/// full in a note under the table ([`NoRatio::why`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRatio {
    /// The published cell merged several operations (or a failed one) into one figure.
    Merged,
    /// A count (lat_fs's files created in its time budget), not a rate or a time.
    Count,
    /// The published rounding alone moves the ratio by more than [`ROUNDING_LIMIT`].
    Rounded,
    /// A row whose own note says it is a different program (boardbench's Dhrystone port).
    Port,
    /// The guide measured through a hardware crypto driver, the run in software.
    Offload,
    /// The guide's harness started no TCP server (its lat_tcp timed failing calls).
    NoServer,
}

impl NoRatio {
    pub const ALL: [NoRatio; 6] = [
        NoRatio::Merged,
        NoRatio::Count,
        NoRatio::Rounded,
        NoRatio::Port,
        NoRatio::Offload,
        NoRatio::NoServer,
    ];

    /// The word in the ratio cell.
    pub fn word(self) -> &'static str {
        match self {
            NoRatio::Merged => "merged",
            NoRatio::Count => "count",
            NoRatio::Rounded => "rounded",
            NoRatio::Port => "port",
            NoRatio::Offload => "offload",
            NoRatio::NoServer => "no-server",
        }
    }

    /// What the word means, for the note under the table.
    pub fn why(self) -> &'static str {
        match self {
            NoRatio::Merged => {
                "the published cell merged several operations into one figure (its min or max is another operation's figure, or 0 — a failed one), so it is no measurement of that operation alone"
            }
            NoRatio::Count => {
                "a count (lat_fs: the files created and deleted within its time budget), which depends on the budget and the file system, not a time or a rate of the same measurement"
            }
            NoRatio::Rounded => {
                "the guide printed the figure so coarsely (0.01 on a figure of 0.05) that its rounding alone moves the ratio by more than ±5 %, the accuracy boardbench's figures are held to"
            }
            NoRatio::Port => {
                "boardbench's own port of the program, which its section's note says is not comparable one-to-one with a C build"
            }
            NoRatio::Offload => {
                "the guide measured through a hardware crypto driver, the run in software on the CPU: two different things with one name"
            }
            NoRatio::NoServer => {
                "the table has no bw_tcp row, the mark of a harness that started no TCP server, so its lat_tcp timed failing calls (boardbench times round trips to its own server)"
            }
        }
    }
}

/// The accuracy a ratio is read against (boardbench's figures are held to ±5 % of the tools they
/// are named after): a published figure rounded more coarsely than this gives no ratio.
pub const ROUNDING_LIMIT: f64 = 0.05;

/// How far the published rounding alone can move a ratio: half a unit of the cell's last
/// printed digit over the figure (`0.05` → 0.1, `1500.00` → 3.3e-6; a figure printed as 0 →
/// infinity). None for a cell that is no plain decimal figure.
pub fn rounding_share(text: &str) -> Option<f64> {
    let v = text.split('(').next()?.trim();
    if v.contains(['e', 'E']) {
        return None;
    }
    let x: f64 = v.parse().ok().filter(|x: &f64| x.is_finite())?;
    let decimals = v.split_once('.').map(|(_, d)| d.len()).unwrap_or(0);
    let half = 0.5 * 10f64.powi(-(decimals.min(300) as i32));
    if x == 0.0 {
        return Some(f64::INFINITY);
    }
    Some(half / x.abs())
}

/// A row that counts (its unit in the last parentheses of its name: `lat_fs-0k (num_files)`).
fn is_count(key: &str) -> bool {
    let k = norm(key);
    let unit = k
        .rsplit_once('(')
        .map(|(_, u)| u.trim_end_matches(')').trim().to_string())
        .unwrap_or_default();
    ["num_files", "files", "count", "number"].contains(&unit.as_str())
}

/// Rows whose section's note says they are a different program (boardbench's ports): in
/// which table, with which name prefixes. Dhrystone 2.1 in Rust has no strcpy/strcmp builtins
/// of a C compiler, so its Dhrystones and DMIPS/MHz are not those of a C build; the measured
/// clock beside them (`cpu_clock`) is the same measurement and compares. Whetstone's port does
/// the same floating-point operations and calls the same C library's libm, and compares.
const PORTS: [(&str, &[&str]); 1] = [(
    "dhrystone benchmarks",
    &["dhrystone_per_mhz", "dhrystone_per_second"],
)];

fn is_port(title: &str, key: &str) -> bool {
    let (t, k) = (norm(title), norm(key));
    PORTS
        .iter()
        .any(|(pt, rows)| t == *pt && rows.iter().any(|r| k.starts_with(r)))
}

/// A published table the guide's own text says was measured through a hardware crypto driver or
/// accelerator (or titled so).
fn published_offload(rt: &RefTable) -> bool {
    let text = format!("{} {}", rt.title, rt.context).to_lowercase();
    [
        "crypto driver",
        "hardware accelerat",
        "crypto accelerat",
        "hardware crypto",
        "cryptodev",
        "af_alg",
        "afalg",
        "sa2ul",
        "sa3ul",
        "crypto engine",
        "offload",
    ]
    .iter()
    .any(|w| text.contains(w))
        || norm(&rt.title).contains("hardware")
}

/// A measured table of figures computed in software on the CPU: OpenSSL's default (no engine or
/// provider named in the title), IPsec's software table.
fn measured_software(title: &str) -> bool {
    let t = norm(title);
    (t.starts_with("openssl") && !t.contains("engine)") && !t.contains("provider)"))
        || t.starts_with("ipsec software")
}

/// A measured table of an offload (`"OpenSSL Performance (afalg engine)"`, `"… (NAME
/// provider)"`) whose base title is the published one.
fn offload_of(published: &str, measured: &str) -> bool {
    interface_suffix(measured).is_some_and(|(base, inside)| {
        norm(&base) == norm(published)
            && (inside.ends_with(" engine") || inside.ends_with(" provider"))
    })
}

/// The measured title without its interface suffix (`"UDP Egress Throughput 0 loss
/// (am65-cpsw-nuss, eth0)"` → its base and `"am65-cpsw-nuss, eth0"`).
fn interface_suffix(title: &str) -> Option<(String, String)> {
    let t = title.trim();
    let inner = t.strip_suffix(')')?;
    let (base, inside) = inner.rsplit_once(" (")?;
    Some((base.trim().to_string(), inside.trim().to_lowercase()))
}

/// The published network tables' titles name the interface first (`CPSW2g TCP Bidirectional
/// Throughput`); the measured ones put the driver and interface the run measured after
/// (`--interface`: `TCP Throughput (am65-cpsw-nuss, eth0)`). They match when the rest of the
/// published title is the measured base title (TI's TCP table is its bidirectional one) and the
/// published label's letters (`cpsw`) are in the measured driver or interface name.
fn interface_match(published: &str, measured: &str) -> bool {
    let Some((base, inside)) = interface_suffix(measured) else {
        return false;
    };
    let Some((label, rest)) = published.trim().split_once(' ') else {
        return false;
    };
    let letters: String = label
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_lowercase();
    if letters.len() < 3 || !inside.contains(&letters) {
        return false;
    }
    let (rest, base) = (norm(rest), norm(&base));
    rest == base || (rest == "tcp bidirectional throughput" && base == "tcp throughput")
}

/// A published title that starts with an interface label (the rest being one of the network
/// tables' names): said when it found no table, since only a run with `--interface` names one.
fn titled_by_interface(published: &str) -> bool {
    published
        .trim()
        .split_once(' ')
        .is_some_and(|(label, rest)| {
            label
                .chars()
                .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
                && label.chars().all(|c| c.is_ascii_alphanumeric())
                && {
                    let r = norm(rest);
                    r.starts_with("tcp ") || r.starts_with("udp ") || r == "latency"
                }
        })
}

/// The published table's quirks: the rows whose figures do not compare — (merged cells, rows of
/// a harness without a TCP server) — and why (one note per kind).
fn quirks(title: &str, rows: &[Vec<String>]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut bad: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    // Any table: a cell whose min is 0 and max is not merged a failed operation into its
    // figure ("15.00 (min 0.00, max 30.00)").
    let zero: Vec<String> = rows
        .iter()
        .filter(|r| {
            r.get(1..).unwrap_or_default().iter().any(|c| {
                parse_value(c).is_some_and(|v| v.min == Some(0.0) && v.max.is_some_and(|m| m > 0.0))
            })
        })
        .filter_map(|r| r.first().cloned())
        .collect();
    if !zero.is_empty() {
        notes.push(format!(
            "published cells with a min of 0 not compared ({}: {}): a figure of 0 is a failed operation, and the cell's figure the mean of it and a real one",
            zero.len(),
            zero.join(", ")
        ));
        bad.extend(zero);
    }
    if norm(title) != "lmbench benchmarks" {
        return (bad.iter().map(|k| norm(k)).collect(), Vec::new(), notes);
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
    let mut unserved = Vec::new();
    if !has_bw_tcp && !tcp.is_empty() {
        notes.push(
            "published lat_tcp not compared: the table has no bw_tcp row, the mark of a harness that started no TCP server, so its lat_tcp timed failing calls (boardbench times round trips to its own server)"
                .into(),
        );
        unserved.extend(tcp);
    }
    (
        bad.iter().map(|k| norm(k)).collect(),
        unserved.iter().map(|k| norm(k)).collect(),
        notes,
    )
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
            let Some(pos) = tables
                .iter()
                .position(|r| norm(&r.title) == norm(&t.title))
                .or_else(|| {
                    tables
                        .iter()
                        .position(|r| interface_match(&r.title, &t.title))
                })
                .or_else(|| {
                    // A guide's crypto-driver figures compare with the run's own offload table
                    // ("OpenSSL Performance (afalg engine)").
                    tables
                        .iter()
                        .position(|r| published_offload(r) && offload_of(&r.title, &t.title))
                })
            else {
                continue;
            };
            used[pos] = true;
            let rt = &tables[pos];
            let kc = 1 + t.key_headers.len();
            if rt.header.len() <= kc {
                continue;
            }
            let (bad, unserved, quirk_notes) = quirks(&rt.title, &rt.rows);
            let offload = published_offload(rt) && measured_software(&t.title);
            let mut why: Vec<(NoRatio, usize)> = Vec::new();
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
                let nk = norm(key);
                let row_reason = if bad.contains(&nk) {
                    Some(NoRatio::Merged)
                } else if unserved.contains(&nk) {
                    Some(NoRatio::NoServer)
                } else if is_port(&rt.title, key) {
                    Some(NoRatio::Port)
                } else if is_count(key) {
                    Some(NoRatio::Count)
                } else if offload {
                    Some(NoRatio::Offload)
                } else {
                    None
                };
                for (hi, rc, ratios) in &placed {
                    let text = prow.get(*hi).map(|s| s.trim()).unwrap_or("");
                    if text.is_empty() {
                        continue;
                    }
                    let published = parse_value(text);
                    let reason = row_reason.or_else(|| {
                        published
                            .as_ref()
                            .and_then(|_| rounding_share(text))
                            .filter(|&r| r > ROUNDING_LIMIT)
                            .map(|_| NoRatio::Rounded)
                    });
                    let row = &mut t.rows[at];
                    row.cells[*rc] = Some(match &published {
                        Some(v) => Cell::Value(v.clone()),
                        None => Cell::Text(text.to_string()),
                    });
                    for (m, ratio_col) in ratios {
                        let Some(Cell::Value(mv)) = &row.cells[*m] else {
                            continue;
                        };
                        let Some(pv) = &published else {
                            continue;
                        };
                        if let Some(r) = reason {
                            row.cells[*ratio_col] = Some(Cell::Text(r.word().into()));
                            match why.iter_mut().find(|(w, _)| *w == r) {
                                Some((_, n)) => *n += 1,
                                None => why.push((r, 1)),
                            }
                        } else if pv.value != 0.0 && mv.value.is_finite() {
                            row.cells[*ratio_col] = Some(Cell::Ratio(mv.value / pv.value));
                            compared += 1;
                        }
                    }
                }
            }
            for n in quirk_notes {
                t.notes.push(format!("{source}: {n}"));
            }
            if !why.is_empty() {
                why.sort_by_key(|(w, _)| NoRatio::ALL.iter().position(|a| a == w));
                t.notes.push(format!(
                    "{source}: no ratio where the ratio cell says why — {}",
                    why.iter()
                        .map(|(w, n)| format!("\"{}\" ({n}): {}", w.word(), w.why()))
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
            if norm(&rt.title) != norm(&t.title) && !offload_of(&rt.title, &t.title) {
                t.notes.push(format!(
                    "{source}: the published table \"{}\" is titled by its interface; matched to the interface this run measured",
                    rt.title
                ));
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
        "{source}: a published guide's figures, read from its tables, beside the measured ones; ratio = measured / published, given where the row and column names (and so the units) agree and the two figures are the same measurement ({compared} cells; a cell that is not says why in one word); for times (us, ns) above 1 is slower, for rates (MB/s) faster"
    ));
    let unmatched: Vec<&str> = tables
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(t, _)| t.title.as_str())
        .collect();
    if !unmatched.is_empty() {
        let by_iface: Vec<&str> = unmatched
            .iter()
            .copied()
            .filter(|t| titled_by_interface(t))
            .collect();
        g.notes.push(format!(
            "{source}: published tables not measured in these runs: {}{}",
            unmatched.join(", "),
            if by_iface.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} titled by an interface: they compare with a run of the network section on that interface, `--interface`, whose tables name its driver)",
                    by_iface.join(", ")
                )
            }
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Table;

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

    fn measured(title: &str, key_header: &str, cols: &[&str], rows: &[(&str, &[f64])]) -> Table {
        Table {
            title: title.into(),
            key_header: key_header.into(),
            key_headers: Vec::new(),
            columns: cols
                .iter()
                .map(|c| Column {
                    run: 0,
                    board: "mine".into(),
                    name: (*c).into(),
                    kind: ColumnKind::Measured,
                })
                .collect(),
            rows: rows
                .iter()
                .map(|(k, v)| Row {
                    key: (*k).into(),
                    keys: Vec::new(),
                    cells: v
                        .iter()
                        .map(|x| Some(Cell::Value(GuideValue::one(*x))))
                        .collect(),
                })
                .collect(),
            notes: Vec::new(),
        }
    }

    fn guide(tables: Vec<Table>) -> Guide {
        Guide {
            header: Table {
                title: String::new(),
                key_header: String::new(),
                key_headers: Vec::new(),
                columns: Vec::new(),
                rows: Vec::new(),
                notes: Vec::new(),
            },
            sections: vec![super::super::Section {
                name: "s".into(),
                title: "S".into(),
                tables,
                notes: Vec::new(),
            }],
            notes: Vec::new(),
        }
    }

    /// The ratio cell of (table, row), as text.
    fn ratio_cell(g: &Guide, table: &str, row: &str) -> String {
        let t = g.sections[0]
            .tables
            .iter()
            .find(|t| t.title == table)
            .unwrap_or_else(|| panic!("{table}"));
        let rc = t
            .columns
            .iter()
            .position(|c| c.kind == ColumnKind::Ratio)
            .unwrap_or_else(|| panic!("no ratio column in {table}"));
        let r = t
            .rows
            .iter()
            .find(|r| norm(&r.key) == norm(row))
            .unwrap_or_else(|| panic!("{row}"));
        super::super::cell_text(&r.cells[rc])
    }

    const PUBLISHED: &str = "\
LMBench
^^^^^^^

.. csv-table:: LMBench Benchmarks
   :header: \"Benchmarks\",\"evm: perf\"

   \"lat_fs-0k (num_files)\",\"120.00\"
   \"lat_ops-int-add (ns)\",\"0.01\"
   \"lat_syscall-null (us)\",\"0.05\"
   \"lat_pipe (us)\",\"10.00\"
   \"lat_sig-catch (us)\",\"15.00 (min 0.00, max 30.00)\"
   \"lat_sem (us)\",\"1.10\"

Dhrystone
^^^^^^^^^

.. csv-table:: Dhrystone Benchmarks
   :header: \"Benchmarks\",\"evm: perf\"

   \"cpu_clock (MHz)\",\"1400.00\"
   \"dhrystone_per_mhz (DMIPS/MHz)\",\"2.90\"

Crypto
------

The following are measured with the SA3UL crypto accelerator through the crypto driver.

.. csv-table:: OpenSSL Performance
   :header: \"Algorithm\",\"Buffer Size (in bytes)\",\"evm: throughput (KBytes/Sec)\"

   \"aes-128-cbc\",\"16\",\"1000.00\"

Ethernet
--------

.. csv-table:: CPSW2g UDP Egress Throughput 0 loss
   :header: \"Frame Size(bytes)\",\"evm: THROUGHPUT (Mbits/sec)\"

   \"1518\",\"950.00\"

.. csv-table:: CPSW2g TCP Bidirectional Throughput
   :header: \"Command Used\",\"evm: THROUGHPUT (Mbits/sec)\"

   \"netperf -H x -j -c -l 60 -t TCP_STREAM; netperf -H x -j -c -l 60 -t TCP_MAERTS\",\"1800.00\"
";

    fn with_published(tables: Vec<Table>) -> Guide {
        let mut g = guide(tables);
        add(&mut g, &parse_rst(PUBLISHED).unwrap(), "pub.rst");
        g
    }

    #[test]
    fn a_ratio_only_between_the_same_measurement_each_other_cell_says_why() {
        let lm = measured(
            "LMBench Benchmarks",
            "Benchmarks",
            &["perf"],
            &[
                ("lat_fs-0k (num_files)", &[100.0]),
                ("lat_ops-int-add (ns)", &[0.012]),
                ("lat_syscall-null (us)", &[0.046]),
                ("lat_pipe (us)", &[11.0]),
                ("lat_sig-catch (us)", &[1.2]),
                ("lat_sem (us)", &[1.21]),
            ],
        );
        let dh = measured(
            "Dhrystone Benchmarks",
            "Benchmarks",
            &["perf"],
            &[
                ("cpu_clock (MHz)", &[1386.0]),
                ("dhrystone_per_mhz (DMIPS/MHz)", &[3.1]),
            ],
        );
        let mut ssl = measured(
            "OpenSSL Performance",
            "Algorithm",
            &["throughput (KBytes/Sec)"],
            &[("aes-128-cbc", &[500.0])],
        );
        ssl.key_headers = vec!["Buffer Size (in bytes)".into()];
        ssl.rows[0].keys = vec!["16".into()];
        let mut hw = ssl.clone();
        hw.title = "OpenSSL Performance (afalg engine)".into();
        hw.rows[0].cells[0] = Some(Cell::Value(GuideValue::one(900.0)));
        let g = with_published(vec![lm, dh, ssl, hw]);
        let cell = |t: &str, r: &str| ratio_cell(&g, t, r);
        assert_eq!(cell("LMBench Benchmarks", "lat_fs-0k (num_files)"), "count");
        assert_eq!(
            cell("LMBench Benchmarks", "lat_ops-int-add (ns)"),
            "rounded"
        );
        assert_eq!(
            cell("LMBench Benchmarks", "lat_syscall-null (us)"),
            "rounded"
        );
        assert_eq!(cell("LMBench Benchmarks", "lat_pipe (us)"), "1.10");
        assert_eq!(cell("LMBench Benchmarks", "lat_sig-catch (us)"), "merged");
        // 1.10 printed to 0.01: ±0.45 % from the rounding, compared.
        assert_eq!(cell("LMBench Benchmarks", "lat_sem (us)"), "1.10");
        assert_eq!(cell("Dhrystone Benchmarks", "cpu_clock (MHz)"), "0.99");
        assert_eq!(
            cell("Dhrystone Benchmarks", "dhrystone_per_mhz (DMIPS/MHz)"),
            "port"
        );
        // The guide's crypto-driver figures: not against the software table, against the
        // run's own offload table.
        let t = |title: &str| {
            g.sections[0]
                .tables
                .iter()
                .find(|t| t.title == title)
                .unwrap()
        };
        let soft = t("OpenSSL Performance");
        let rc = soft
            .columns
            .iter()
            .position(|c| c.kind == ColumnKind::Ratio)
            .unwrap();
        assert_eq!(super::super::cell_text(&soft.rows[0].cells[rc]), "offload");
        let hw = t("OpenSSL Performance (afalg engine)");
        let rc = hw
            .columns
            .iter()
            .position(|c| c.kind == ColumnKind::Ratio)
            .unwrap();
        assert_eq!(super::super::cell_text(&hw.rows[0].cells[rc]), "0.90");
        // Each word explained once under its table.
        let lmt = t("LMBench Benchmarks");
        let why = lmt
            .notes
            .iter()
            .find(|n| n.contains("no ratio where the ratio cell says why"))
            .unwrap_or_else(|| panic!("{:?}", lmt.notes));
        for w in ["\"merged\" (1)", "\"count\" (1)", "\"rounded\" (2)"] {
            assert!(why.contains(w), "{why}");
        }
        assert!(
            lmt.notes
                .iter()
                .any(|n| n.contains("a min of 0 not compared"))
        );
    }

    #[test]
    fn network_tables_titled_by_interface_match_the_interface_the_run_measured() {
        let udp = |title: &str| {
            measured(
                title,
                "Frame Size(bytes)",
                &["THROUGHPUT (Mbits/sec)"],
                &[("1518", &[940.0])],
            )
        };
        let mut tcp = measured(
            "TCP Throughput (am65-cpsw-nuss, eth0)",
            "Command Used",
            &["THROUGHPUT (Mbits/sec)"],
            &[("iperf3 -t 60 --bidir (bidirectional)", &[1700.0])],
        );
        tcp.notes.clear();
        let g = with_published(vec![
            udp("UDP Egress Throughput 0 loss (am65-cpsw-nuss, eth0)"),
            tcp,
        ]);
        assert_eq!(
            ratio_cell(
                &g,
                "UDP Egress Throughput 0 loss (am65-cpsw-nuss, eth0)",
                "1518"
            ),
            "0.99"
        );
        let t = &g.sections[0].tables[0];
        assert!(
            t.notes
                .iter()
                .any(|n| n.contains("titled by its interface")),
            "{:?}",
            t.notes
        );
        // Matched: the TCP table is not listed as not measured (its rows differ: netperf's
        // command is added as a published row without a ratio).
        let unmatched = g.notes.iter().find(|n| n.contains("not measured")).unwrap();
        assert!(!unmatched.contains("CPSW2g"), "{unmatched}");
        // Another interface's run, or one without --interface, matches none, and says why.
        for title in [
            "UDP Egress Throughput 0 loss (stmmac, end0)",
            "UDP Egress Throughput 0 loss",
        ] {
            let g = with_published(vec![udp(title)]);
            let unmatched = g.notes.iter().find(|n| n.contains("not measured")).unwrap();
            assert!(
                unmatched.contains("CPSW2g UDP Egress Throughput 0 loss")
                    && unmatched.contains("titled by an interface"),
                "{unmatched}"
            );
        }
    }

    #[test]
    fn rounding_share_is_half_the_last_digit_over_the_figure() {
        assert!((rounding_share("0.05").unwrap() - 0.1).abs() < 1e-12);
        assert!((rounding_share("0.01").unwrap() - 0.5).abs() < 1e-12);
        assert!(rounding_share("1500.00 (min 1.00, max 2.00)").unwrap() < 1e-5);
        assert_eq!(rounding_share("0.00"), Some(f64::INFINITY));
        assert!((rounding_share("120").unwrap() - 0.5 / 120.0).abs() < 1e-12);
        assert_eq!(rounding_share("not run"), None);
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
