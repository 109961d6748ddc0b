//! CSV, written one way: every CSV boardbench writes — the guide's tables
//! (`guidetables::csv`), the results table (`resultsdb::table::table_csv`, `results table
//! --csv`, `--placement`, the service's `format=csv`) — is made of records passed to [`write`].
//!
//! Two steps for each field, in this order:
//! 1. our guard ([`guard`]): what a spreadsheet must not see as it is — bidirectional controls
//!    become U+FFFD, and text a spreadsheet would run as a formula gets a leading `'`;
//! 2. the `csv` crate's writer, with `QuoteStyle::Necessary`: RFC 4180 quoting — a field is
//!    quoted when it holds the delimiter, a quote, a CR or an LF, a quote inside is doubled —
//!    and `\n` after each record.
//!
//! reStructuredText's `.. csv-table::` blocks (`guidetables::rst`) are CSV too, read by docutils
//! with Python's csv module: [`quoted_record`] writes their records with the same crate — every
//! field quoted, a quote inside doubled — but without the guard, because docutils shows the text
//! of a page, it does not run formulas: a guard's `'` would be printed (`'-` for an empty cell).

/// A field made safe for a spreadsheet before it is quoted: bidirectional controls become
/// U+FFFD ([`crate::text::neutralise_bidi`]); text a spreadsheet would run as a formula (`=`,
/// `+`, `-`, `@`, tab or CR first, and not a finite number: `-12.5` stays a number) gets a
/// leading `'`.
pub fn guard(s: &str) -> String {
    let s = crate::text::neutralise_bidi(s);
    let number = s.parse::<f64>().is_ok_and(f64::is_finite);
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !number {
        format!("'{s}")
    } else {
        s
    }
}

/// Records as CSV text: every field through [`guard`], then the `csv` crate's writer (fields
/// quoted where RFC 4180 needs it, records ended by `\n`). Records need not have the same
/// length (the caller's tables do; a ragged one is written as it is, not refused).
pub fn write<R, F>(records: R) -> String
where
    R: IntoIterator,
    R::Item: IntoIterator<Item = F>,
    F: AsRef<str>,
{
    let mut w = writer(::csv::QuoteStyle::Necessary);
    for record in records {
        let fields: Vec<String> = record.into_iter().map(|f| guard(f.as_ref())).collect();
        // Writing into memory: the only errors the writer has are I/O errors and, with
        // `flexible`, none about record lengths.
        w.write_record(&fields)
            .expect("a CSV record is written to memory");
    }
    text(w)
}

/// The `csv` crate's writer into memory: `style` quoting, `\n` after each record, records of
/// any length.
fn writer(style: ::csv::QuoteStyle) -> ::csv::Writer<Vec<u8>> {
    ::csv::WriterBuilder::new()
        .quote_style(style)
        .terminator(::csv::Terminator::Any(b'\n'))
        .flexible(true)
        .from_writer(Vec::new())
}

/// What [`writer`] wrote.
fn text(w: ::csv::Writer<Vec<u8>>) -> String {
    let bytes = w
        .into_inner()
        .unwrap_or_else(|e| panic!("CSV in memory is flushed: {}", e.error()));
    // Every field was a `str`, and the writer adds ASCII only.
    String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8")
}

/// One record of a reStructuredText `.. csv-table::` block: every field quoted, a quote inside
/// doubled, fields joined by `,`, no line end — the dialect docutils reads (Python's csv:
/// delimiter `,`, quote char `"`, `doublequote`). No [`guard`]: the reader is docutils, which
/// prints the text, not a spreadsheet. The caller makes each field one line (a line break
/// would end the block's line).
pub fn quoted_record<I, F>(fields: I) -> String
where
    I: IntoIterator<Item = F>,
    F: AsRef<str>,
{
    let mut w = writer(::csv::QuoteStyle::Always);
    w.write_record(fields.into_iter().map(|f| f.as_ref().to_string()))
        .expect("a CSV record is written to memory");
    let mut line = text(w);
    if line.ends_with('\n') {
        line.pop();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One field as it appears in a record of two (a record of one empty field is written
    /// `""`, so that it is not an empty line).
    fn field(s: &str) -> String {
        let line = write([[s, "x"]]);
        line.strip_suffix(",x\n")
            .unwrap_or_else(|| panic!("{line:?}"))
            .to_string()
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(field("RK3588"), "RK3588");
        assert_eq!(field(""), "");
        assert_eq!(field("Debian 12, arm64"), "\"Debian 12, arm64\"");
        assert_eq!(field("8\" board"), "\"8\"\" board\"");
        assert_eq!(field("a\rb"), "\"a\rb\"");
        assert_eq!(field("a\nb"), "\"a\nb\"");
        assert_eq!(field("a b"), "a b");
        // Spaces are part of a field (RFC 4180); readers keep them without quotes.
        assert_eq!(field(" x "), " x ");
        assert_eq!(write([[""]]), "\"\"\n");
    }

    #[test]
    fn fields_cannot_run_as_formulas_or_reorder_text() {
        assert_eq!(field("=1+1"), "'=1+1");
        assert_eq!(field("+1 board"), "'+1 board");
        assert_eq!(field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(field("\tx"), "'\tx");
        assert_eq!(field("\rx"), "\"'\rx\"");
        assert_eq!(field("-cmd|' /C calc'!A0"), "'-cmd|' /C calc'!A0");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        // Numbers stay numbers, negative ones too; a non-finite "number" is text.
        assert_eq!(field("-12.5"), "-12.5");
        assert_eq!(field("+3"), "+3");
        assert_eq!(field("-1e3"), "-1e3");
        assert_eq!(field("-inf"), "'-inf");
        assert_eq!(field("Pi 5 \u{202e}B8 ledoM"), "Pi 5 \u{fffd}B8 ledoM");
    }

    #[test]
    fn records_end_with_a_line_feed_and_may_differ_in_length() {
        let rows: Vec<Vec<&str>> = vec![vec!["a", "b", "c"], vec!["1", ""], vec![]];
        assert_eq!(write(&rows), "a,b,c\n1,\n\"\"\n");
        assert_eq!(write(Vec::<Vec<String>>::new()), "");
    }

    #[test]
    fn what_is_written_reads_back_as_the_guarded_fields() {
        let fields = ["Pi\n5", "say \"hi\"", "a,b", "=x", "-2", "\r"];
        let text = write([fields]);
        let mut r = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let back: Vec<String> = r
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(String::from)
            .collect();
        assert_eq!(back, fields.map(guard));
    }

    #[test]
    fn a_quoted_record_quotes_every_field_and_guards_none() {
        assert_eq!(
            quoted_record(["Benchmarks", "rpi4: perf"]),
            "\"Benchmarks\",\"rpi4: perf\""
        );
        assert_eq!(quoted_record(["say \"hi\"", ""]), "\"say \"\"hi\"\"\",\"\"");
        // What a spreadsheet would run is shown as written: docutils prints it.
        assert_eq!(
            quoted_record(["-", "=1+1", "a,b"]),
            "\"-\",\"=1+1\",\"a,b\""
        );
        assert_eq!(quoted_record([""]), "\"\"");
    }
}
