//! Malformed input never panics: arbitrary text, and recorded outputs cut, shuffled and
//! corrupted, go through every parser.

use crate::common;

use adapters::RunContext;
use adapters::{cpuminer, openssl, sevenzip, stockfish};
use proptest::prelude::*;

fn run_all_parsers(text: &str) {
    let ctx = RunContext::new();
    let _ = sevenzip::parse_version(text);
    for b in sevenzip::parse_all(text) {
        let _ = b.measurements(&ctx);
        let _ = b.estimated_mhz_1t();
    }
    if let Ok(s) = openssl::parse(text) {
        let _ = s.measurements(&ctx);
        let _ = s.sbc_bench_score("aes-256-cbc");
    }
    let _ = openssl::parse_version(text);
    for b in stockfish::parse_all(text) {
        let _ = b.measurements(&ctx);
        let _ = b.nnue_nets();
    }
    let _ = stockfish::parse_version(text);
    if let Ok(b) = cpuminer::parse(text) {
        let _ = b.measurements(&ctx);
        let _ = b.median_khs();
    }
    let _ = cpuminer::parse_version(text);
}

fn recorded_lines() -> Vec<String> {
    common::all_data()
        .iter()
        .flat_map(|t| t.lines().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

#[test]
fn every_recorded_output_goes_through_every_parser() {
    for text in common::all_data() {
        run_all_parsers(&text);
    }
}

proptest! {
    // PROPTEST_CASES (default 256) sets the number of cases: scripts/test raises it.
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        run_all_parsers(&text);
    }

    /// Tool output as bytes (a tool may print anything, including invalid UTF-8, which the
    /// runner replaces): the fuzz target for every tool-output parser.
    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        run_all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn table_like_text(text in "([0-9A-Za-z:|%.,k\\-]{0,12}[ \t]{0,3}){0,40}(\n([0-9A-Za-z:|%.,k\\-]{0,12}[ \t]{0,3}){0,20}){0,20}") {
        run_all_parsers(&text);
    }

    #[test]
    fn recorded_lines_recombined(picks in prop::collection::vec((any::<prop::sample::Index>(), 0usize..4, any::<u8>()), 0..80)) {
        let lines = recorded_lines();
        let mut text = String::new();
        for (idx, mode, byte) in picks {
            let line = idx.get(&lines);
            match mode {
                // Whole line.
                0 => text.push_str(line),
                // Cut at an arbitrary char boundary.
                1 => text.extend(line.chars().take(byte as usize % (line.len() + 1))),
                // One character replaced by a digit, sign or separator.
                2 => {
                    let pos = byte as usize % (line.chars().count() + 1);
                    let repl = ['9', '-', '|', ':', '%', 'k', ' ', '\u{1b}'][byte as usize % 8];
                    text.extend(line.chars().enumerate().map(|(i, c)| if i == pos { repl } else { c }));
                }
                // Huge numbers where numbers were.
                _ => text.push_str(&line.replace(|c: char| c.is_ascii_digit(), "9")),
            }
            text.push('\n');
        }
        run_all_parsers(&text);
    }
}
