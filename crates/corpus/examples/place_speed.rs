//! How long placing a run's six figures takes after the corpus is parsed (issue 24's budget:
//! < 10 ms at a run's end), how long the first parse takes, and a whole document's placement
//! (`place_run`: columns, comparability, an imported log's own row left out — the most work,
//! a copy of the corpus without that row — plus the two terminal lines). A benchmark, not a
//! test: `cargo run --release -p boardbench-corpus --example place_speed`.

use std::time::Instant;

use corpus::{ArchClass, Figure, corpus, place, place_run};

fn main() {
    let t = Instant::now();
    let c = corpus();
    let parse = t.elapsed();
    let rounds = 1000;
    let t = Instant::now();
    for _ in 0..rounds {
        for fig in Figure::ALL {
            std::hint::black_box(place(fig, 1000.0, Some("RK3588"), ArchClass::Arm));
        }
    }
    let per_run = t.elapsed() / rounds;
    println!(
        "{} rows parsed in {parse:?}; six placements (one run's end) in {per_run:?} (budget 10 ms)",
        c.entries.len()
    );
    let log = testsupport::sbc_bench_logs().join("1iZq.txt");
    if let Ok(bytes) = std::fs::read(&log)
        && let Ok(doc) = sbcimport::import_bytes(&bytes, "1iZq.txt")
    {
        let rounds = 200;
        let t = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(place_run(c, &doc).terminal_lines());
        }
        println!(
            "a whole imported document placed (its own row left out) with its terminal lines in {:?}",
            t.elapsed() / rounds
        );
    }
}
