//! Stockfish (15 from an sbc-bench log, Debian's 15.1 here) and cpuminer-multi (1.3.3, 1.3.7)
//! parsers on recorded outputs, and sbc-bench's "Total Scores" rule against the logs' own lists.

use crate::common;

use adapters::RunContext;
use adapters::{cpuminer, stockfish};
use common::data;

#[test]
fn stockfish_15_1_debian_bench() {
    let b = stockfish::parse(&data("stockfish-15.1-bench-16-1-8.txt")).unwrap();
    let v = b.version.as_ref().unwrap();
    assert_eq!(v.version, "15.1");
    assert!(!v.sbc_bench_version);
    // The default "mixed" bench alternates classical and NNUE evaluation.
    assert_eq!(
        b.evaluations,
        [
            "classical evaluation enabled",
            "NNUE evaluation using nn-ad9b42354671.nnue enabled"
        ]
    );
    assert_eq!(b.nnue_nets(), ["nn-ad9b42354671.nnue"]);
    assert!(!b.uses_sbc_bench_net());
    assert_eq!(b.positions, Some(48));
    assert_eq!(b.total_time_ms, Some(236));
    assert_eq!(b.nodes_searched, Some(259_759));
    assert_eq!(b.nodes_per_second, 1_100_673);
}

#[test]
fn stockfish_banner() {
    let v = stockfish::parse_version(&data("stockfish-15.1-banner.txt")).unwrap();
    assert_eq!(v.version, "15.1");
    assert_eq!(
        v.banner,
        "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)"
    );
    assert_eq!(v.label(), "Stockfish 15.1");
    assert!(stockfish::parse(&data("stockfish-15.1-banner.txt")).is_err());
}

#[test]
fn stockfish_15_three_runs_match_the_logs_total_scores() {
    // The log's own line: "Total Scores (nn-6877cd24400e.nnue): 5688180,5528916,6026748".
    let runs = stockfish::parse_all(&data("stockfish-15-4qpr-3runs.txt"));
    let nps: Vec<u64> = runs.iter().map(|b| b.nodes_per_second).collect();
    assert_eq!(nps, [5_688_180, 5_528_916, 6_026_748]);
    let ms: Vec<Option<u64>> = runs.iter().map(|b| b.total_time_ms).collect();
    assert_eq!(ms, [Some(241_055), Some(260_036), Some(240_397)]);
    assert_eq!(runs[0].nodes_searched, Some(1_371_164_413));
    assert!(runs.iter().all(|b| b.positions == Some(48)));
    // sbc-bench logged no banner.
    assert!(runs[0].version.is_none());
}

#[test]
fn stockfish_measurement_row() {
    let b = stockfish::parse(&data("stockfish-15.1-bench-16-1-8.txt")).unwrap();
    let rows = b.measurements(&RunContext::new().threads(1).variant("Stockfish 15.1"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].suite, "stockfish");
    assert_eq!(rows[0].test, stockfish::test_names::NODES_PER_SECOND);
    assert_eq!(rows[0].unit, "nodes/s");
    assert_eq!(rows[0].value, 1_100_673.0);
}

#[test]
fn cpuminer_1_3_7_score_is_the_logs_score() {
    let b = cpuminer::parse(&data("cpuminer-1.3.7-4qpr.txt")).unwrap();
    let v = b.version.as_ref().unwrap();
    assert_eq!(
        (v.program.as_str(), v.version.as_str()),
        ("cpuminer-multi", "1.3.7")
    );
    assert_eq!(b.threads, Some(8));
    assert_eq!(b.algorithm.as_deref(), Some("scrypt"));
    assert_eq!(b.samples_khs.len(), 61);
    assert_eq!(
        b.samples_khs[..2],
        [38.40, 39.71],
        "the two dropped warm-up samples"
    );
    assert_eq!(b.samples_khs.last(), Some(&41.34));
    let logged = b.logged_total_scores.as_ref().unwrap();
    assert_eq!(logged.len(), 48);
    assert_eq!(
        &b.total_scores, logged,
        "our rule reproduces sbc-bench's list"
    );
    assert_eq!(b.score_khs, Some(41.43), "Results.md: 41.43");
}

#[test]
fn cpuminer_wrapped_total_scores_list() {
    let b = cpuminer::parse(&data("cpuminer-1.3.7-Xd38a.txt")).unwrap();
    let logged = b.logged_total_scores.as_ref().unwrap();
    assert_eq!(
        logged.len(),
        39,
        "32 on the first line, 7 on the wrapped one"
    );
    assert_eq!(logged.last(), Some(&17.33));
    assert_eq!(&b.total_scores, logged);
    assert_eq!(b.score_khs, Some(18.74));
}

#[test]
fn cpuminer_1_3_3_samples_match_the_old_unfiltered_list() {
    // sbc-bench v0.4 sorted and de-duplicated *all* samples (no warm-up drop).
    let b = cpuminer::parse(&data("cpuminer-1.3.3-1iHB.txt")).unwrap();
    assert_eq!(b.version.as_ref().unwrap().version, "1.3.3");
    assert_eq!(b.threads, Some(4));
    let mut all = b.samples_khs.clone();
    all.sort_by(|a, b| b.total_cmp(a));
    all.dedup();
    assert_eq!(all, [3.81, 3.80, 3.79, 3.78]);
    assert_eq!(b.logged_total_scores.as_deref(), Some(&all[..]));
    // Today's rule on the same samples.
    assert_eq!(b.score_khs, cpuminer::sbc_bench_score(&b.samples_khs));
}

#[test]
fn cpuminer_measurement_rows() {
    let b = cpuminer::parse(&data("cpuminer-1.3.7-4qpr.txt")).unwrap();
    let rows = b.measurements(&RunContext::new().variant("cpuminer-multi 1.3.7"));
    let names: Vec<&str> = rows.iter().map(|m| m.test.as_str()).collect();
    assert_eq!(
        names,
        [
            cpuminer::test_names::TOTAL_SCORE,
            cpuminer::test_names::TOTAL_MEDIAN
        ]
    );
    assert!(rows.iter().all(|m| m.unit == "kH/s" && m.threads == 8));
    assert_eq!(rows[0].value, 41.43);
    let median = rows[1].value;
    assert!(b.total_scores.last().unwrap() <= &median && median <= b.total_scores[0]);
}

#[test]
fn cpuminer_without_samples_is_an_error() {
    let text = data("cpuminer-1.3.7-4qpr.txt");
    let head: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert!(cpuminer::parse(&head).is_err());
    assert_eq!(cpuminer::parse_version(&head).unwrap().version, "1.3.7");
}
