//! The Results.md table of stored runs: sorting, cells and its Markdown and CSV forms — shared
//! by `boardbench results table` and the results service, so both print the same table.

use std::cmp::Ordering;

use headline::Figure;

use crate::TableRow;
use crate::marks::{self, Marks};

/// Integers without decimals, others with two (kH/s, fractions).
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

pub fn opt_number(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), number)
}

/// The sortable columns of `results table`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Id,
    Device,
    Clockspeed,
    Kernel,
    Distro,
    ZipMulti,
    ZipSingle,
    Aes,
    Memcpy,
    Memset,
    Khs,
}

impl Column {
    pub const NAMES: &[&str] = &[
        "id",
        "device",
        "clockspeed",
        "kernel",
        "distro",
        "7zip-multi",
        "7zip-single",
        "aes",
        "memcpy",
        "memset",
        "khs",
    ];

    pub fn parse(s: &str) -> Option<Column> {
        let s = s.to_ascii_lowercase().replace(['_', ' '], "-");
        Some(match s.as_str() {
            "id" => Column::Id,
            "device" => Column::Device,
            "clockspeed" | "clock" => Column::Clockspeed,
            "kernel" => Column::Kernel,
            "distro" => Column::Distro,
            "7zip-multi" | "7-zip-multi" | "zip-multi" | "multi" => Column::ZipMulti,
            "7zip-single" | "7-zip-single" | "zip-single" | "single" => Column::ZipSingle,
            "aes" => Column::Aes,
            "memcpy" => Column::Memcpy,
            "memset" => Column::Memset,
            "khs" | "kh/s" => Column::Khs,
            _ => return None,
        })
    }
}

/// Sorts by one column; missing values ("-") always last. Clockspeed sorts by its first number,
/// kernel by version numbers (5.10 after 5.4).
pub fn sort_rows(rows: &mut [TableRow], col: Column, desc: bool) {
    fn num_cmp(a: Option<f64>, b: Option<f64>, desc: bool) -> Ordering {
        match (a, b) {
            (Some(x), Some(y)) => {
                let o = x.total_cmp(&y);
                if desc { o.reverse() } else { o }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
    fn text_cmp(a: &Option<String>, b: &Option<String>, desc: bool) -> Ordering {
        match (a, b) {
            (Some(x), Some(y)) => {
                let o = x.to_lowercase().cmp(&y.to_lowercase());
                if desc { o.reverse() } else { o }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
    fn version_key(s: &Option<String>) -> Option<Vec<u64>> {
        let s = s.as_deref()?;
        let head: String = s
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let v: Vec<u64> = head.split('.').filter_map(|p| p.parse().ok()).collect();
        (!v.is_empty()).then_some(v)
    }
    fn first_number(s: &Option<String>) -> Option<f64> {
        let s = s.as_deref()?;
        let digits: String = s
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    }
    rows.sort_by(|a, b| {
        let o = match col {
            Column::Id => num_cmp(Some(a.id as f64), Some(b.id as f64), desc),
            Column::Device => text_cmp(&a.device, &b.device, desc),
            Column::Distro => text_cmp(&a.distro, &b.distro, desc),
            Column::Clockspeed => num_cmp(
                first_number(&a.clockspeed),
                first_number(&b.clockspeed),
                desc,
            ),
            Column::Kernel => match (version_key(&a.kernel), version_key(&b.kernel)) {
                (Some(x), Some(y)) => {
                    let o = x.cmp(&y);
                    if desc { o.reverse() } else { o }
                }
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
            Column::ZipMulti => num_cmp(a.zip_multi, b.zip_multi, desc),
            Column::ZipSingle => num_cmp(a.zip_single, b.zip_single, desc),
            Column::Aes => num_cmp(a.aes, b.aes, desc),
            Column::Memcpy => num_cmp(a.memcpy, b.memcpy, desc),
            Column::Memset => num_cmp(a.memset, b.memset, desc),
            Column::Khs => num_cmp(a.khs, b.khs, desc),
        };
        o.then(a.id.cmp(&b.id))
    });
}

pub fn khs_cell(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// The cells of one row: device, clockspeed, kernel, distro and the six numbers; a number
/// not measured the way sbc-bench measures it says which profile made it (`5600 (quick)`), and
/// a run that was cut short says so after its device (`Rock 5B (interrupted)`).
pub fn cells(r: &TableRow, marks: &Marks) -> [String; 10] {
    let t = |s: &Option<String>| s.clone().unwrap_or_else(|| "-".to_string());
    // The figures and kernel as the run's own summary row shows them (sbc-bench's rounding).
    let h = headline::rounding::results_cells(&headline::Headline {
        zip_multi: r.zip_multi,
        zip_single: r.zip_single,
        aes: r.aes,
        memcpy: r.memcpy,
        memset: r.memset,
        khs: r.khs,
    });
    let kernel = r.kernel.as_deref().map(headline::rounding::kernel_cell);
    let m = |figure: Figure, cell: String| {
        if cell == "-" {
            cell
        } else {
            cell + &marks::mark(marks, r.id, figure)
        }
    };
    let mut device = t(&r.device);
    if r.interrupted {
        device.push_str(document::run::CUT_SHORT_MARK);
    }
    [
        device,
        t(&r.clockspeed),
        t(&kernel),
        t(&r.distro),
        m(Figure::ZipMulti, opt_number(h.zip_multi)),
        m(Figure::ZipSingle, opt_number(h.zip_single)),
        m(Figure::Aes, opt_number(h.aes)),
        m(Figure::Memcpy, opt_number(h.memcpy)),
        m(Figure::Memset, opt_number(h.memset)),
        m(Figure::Khs, khs_cell(h.khs)),
    ]
}

pub const HEADERS: [&str; 10] = [
    "Device",
    "Clockspeed",
    "Kernel",
    "Distro",
    "7-zip multi",
    "7-zip single",
    "AES",
    "memcpy",
    "memset",
    "kH/s",
];

/// The sort key of each column of [`HEADERS`], in order: [`Column::NAMES`] without `id` (the
/// service's table links its headers to them).
pub fn header_keys() -> &'static [&'static str] {
    &Column::NAMES[1..]
}

/// Results.md's table layout (text columns left-aligned, numbers right-aligned).
pub fn table_markdown(rows: &[TableRow], marks: &Marks) -> String {
    let mut s = String::with_capacity(rows.len() * 120 + 200);
    s.push_str("| ");
    s.push_str(&HEADERS.join(" | "));
    s.push_str(
        " |\n| :--- | ----: | :--- | :--- | ----: | ----: | ----: | ----: | ----: | ----: |\n",
    );
    for r in rows {
        let c = cells(r, marks).map(|x| md_cell(&x));
        s.push_str("| ");
        s.push_str(&c.join(" | "));
        s.push_str(" |\n");
    }
    s
}

/// One Markdown table cell: a `|` is escaped, a line break becomes a space (a row stays one
/// line), `<`, `>` and `&` are entities (no raw HTML reaches the page that renders it), and
/// bidirectional controls are U+FFFD.
pub fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\r' | '\n' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if c.is_control() || document::text::is_bidi_control(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The results table as CSV records, the heading first: the run id first; missing values are
/// empty fields; the numbers stay numbers; the last column names the figures not measured the
/// way sbc-bench measures them. `results table --placement` adds its columns to each record
/// before they are written.
pub fn table_csv_records(rows: &[TableRow], marks: &Marks) -> Vec<Vec<String>> {
    let mut head = vec!["id".to_string()];
    head.extend(HEADERS.map(String::from));
    head.push("not comparable with sbc-bench".into());
    let mut records = vec![head];
    for r in rows {
        let mut record = vec![r.id.to_string()];
        record.extend(cells(r, &Marks::new()).map(|x| if x == "-" { String::new() } else { x }));
        record.push(marks::describe(marks, r.id));
        records.push(record);
    }
    records
}

/// The results table as CSV ([`table_csv_records`] written by `document::csv::write`, the one
/// writer of every CSV: no formulas — a leading `'` where a spreadsheet would run one, numbers
/// kept —, bidirectional controls as U+FFFD, RFC 4180 quoting).
pub fn table_csv(rows: &[TableRow], marks: &Marks) -> String {
    document::csv::write(table_csv_records(rows, marks))
}

/// The table as JSON rows: every column of [`TableRow`], and `comparability` on the runs whose
/// figures are not comparable with sbc-bench's.
pub fn table_json(rows: &[TableRow], marks: &Marks) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or_default();
            if let Some(flags) = marks.get(&r.id) {
                v["comparability"] = serde_json::to_value(flags).unwrap_or_default();
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_has_its_sort_key() {
        assert_eq!(header_keys().len(), HEADERS.len());
        for (k, h) in header_keys().iter().zip(HEADERS) {
            let c = Column::parse(k).unwrap_or_else(|| panic!("{k}"));
            assert_ne!(c, Column::Id, "{h}");
        }
    }

    fn row(id: i64, kernel: &str, multi: Option<f64>) -> TableRow {
        TableRow {
            id,
            device: Some(format!("dev{id}")),
            clockspeed: None,
            kernel: Some(kernel.into()),
            distro: None,
            zip_multi: multi,
            zip_single: None,
            aes: None,
            memcpy: None,
            memset: None,
            khs: None,
            soc: None,
            started: None,
            uploader: None,
            worst: None,
            interrupted: false,
        }
    }

    #[test]
    fn hostile_names_cannot_split_rows_inject_html_formulas_or_reorder_text() {
        let mut r = row(1, "6.1", Some(3.0));
        r.device = Some("Pi\n| x | <script>alert(1)</script> \u{202e}B8 ledoM".into());
        r.distro = Some("=HYPERLINK(\"http://evil\",\"x\")".into());
        let md = table_markdown(std::slice::from_ref(&r), &Marks::new());
        let body: Vec<&str> = md.lines().skip(2).collect();
        assert_eq!(body.len(), 1, "{md}");
        assert!(
            !md.contains("<script>") && md.contains("&lt;script&gt;"),
            "{md}"
        );
        assert!(!md.contains('\u{202e}') && md.contains("\\| x \\|"), "{md}");
        let csv = table_csv(std::slice::from_ref(&r), &Marks::new());
        assert!(csv.contains("\"'=HYPERLINK("), "{csv}");
        assert!(!csv.contains('\u{202e}'), "{csv}");
        // A line break stays inside its quoted field: still one record.
        r.device = Some("Pi\r\n5".into());
        let csv = table_csv(std::slice::from_ref(&r), &Marks::new());
        assert!(csv.contains("\n1,\"Pi\r\n5\","), "{csv}");
    }

    #[test]
    fn kernel_sorts_by_version_and_missing_numbers_last() {
        let mut rows = vec![
            row(1, "5.10", Some(3.0)),
            row(2, "5.4", None),
            row(3, "6.1", Some(9.0)),
        ];
        sort_rows(&mut rows, Column::Kernel, false);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [2, 1, 3]);
        sort_rows(&mut rows, Column::ZipMulti, true);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [3, 1, 2]);
    }

    #[test]
    fn csv_quotes_commas() {
        let mut r = row(7, "6.1", Some(1.0));
        r.distro = Some("Debian 12, arm64".into());
        let csv = table_csv(&[r], &Marks::new());
        assert!(csv.lines().nth(1).unwrap().contains("\"Debian 12, arm64\""));
    }

    #[test]
    fn quick_runs_are_marked_in_the_table() {
        let mut marks = Marks::new();
        marks.insert(7, marks::flags_of_text(r#"{"run": {"profile": "quick"}}"#));
        let rows = [row(7, "6.1", Some(5600.0)), row(8, "6.1", Some(5210.0))];
        let md = table_markdown(&rows, &marks);
        assert!(md.contains("| 5600 (quick) |"), "{md}");
        assert!(md.contains("| 5210 |"), "{md}");
        let csv = table_csv(&rows, &marks);
        let line7 = csv.lines().nth(1).unwrap();
        assert!(line7.contains(",5600,"), "{csv}");
        assert!(
            line7.ends_with(",\"quick: 7-zip multi, 7-zip single, AES, memcpy, memset, kH/s\""),
            "{csv}"
        );
        assert!(csv.lines().nth(2).unwrap().ends_with(','), "{csv}");
    }
}
