//! The board binary's patterns run on `regex-lite` (issue 23: a fraction of `regex`'s size, no
//! Unicode tables). The two crates differ only where Unicode does: `\d`, `\s`, `\w`, `\b` and
//! `(?i)` are ASCII in regex-lite. These helpers show, on real text, that a pattern finds the
//! same matches and the same capture groups with both.

use std::path::PathBuf;

/// The shared sbc-bench logs (`/work/shared/fixtures/sbc-bench-logs`, beside the repository):
/// real tool output and system information of 150-odd boards.
pub fn sbc_bench_logs() -> Vec<(String, String)> {
    let dir = crate::crates_dir().join("../../shared/fixtures/sbc-bench-logs");
    texts_in(&dir)
}

/// Every `.txt`/`.log` file of `dir` (name, text; lossily decoded), sorted by name.
pub fn texts_in(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "log"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// Every match of `re` in `hay` with the spans of all its groups.
type Found = Vec<Vec<Option<(usize, usize)>>>;

fn with_regex(re: &regex::Regex, hay: &str) -> Found {
    re.captures_iter(hay)
        .map(|c| {
            (0..c.len())
                .map(|i| c.get(i).map(|m| (m.start(), m.end())))
                .collect()
        })
        .collect()
}

fn with_lite(re: &regex_lite::Regex, hay: &str) -> Found {
    re.captures_iter(hay)
        .map(|c| {
            (0..c.len())
                .map(|i| c.get(i).map(|m| (m.start(), m.end())))
                .collect()
        })
        .collect()
}

/// Asserts that `pattern` finds the same matches, with the same groups, under regex and
/// regex-lite in each haystack; returns how many matches there were in all (a caller asserts
/// that its pattern matched something, so the comparison is not vacuous).
pub fn same_captures(pattern: &str, haystacks: &[(String, String)]) -> usize {
    let full = regex::Regex::new(pattern).unwrap_or_else(|e| panic!("regex {pattern}: {e}"));
    let lite =
        regex_lite::Regex::new(pattern).unwrap_or_else(|e| panic!("regex-lite {pattern}: {e}"));
    let mut n = 0;
    for (name, hay) in haystacks {
        let (a, b) = (with_regex(&full, hay), with_lite(&lite, hay));
        assert_eq!(
            a, b,
            "{pattern} differs between regex and regex-lite in {name}"
        );
        n += a.len();
    }
    n
}

/// The lines of `texts` as haystacks of their own (patterns anchored with `^`/`$` and applied
/// line by line, as the tool parsers do).
pub fn lines_of(texts: &[(String, String)]) -> Vec<(String, String)> {
    texts
        .iter()
        .flat_map(|(name, text)| {
            text.lines()
                .enumerate()
                .map(move |(i, l)| (format!("{name}:{}", i + 1), l.to_string()))
        })
        .collect()
}
