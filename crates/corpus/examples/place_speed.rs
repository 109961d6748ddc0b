//! How long placing a run's six figures takes after the corpus is parsed (issue 24's budget:
//! < 10 ms at a run's end), and how long the first parse takes. A benchmark, not a test:
//! `cargo run --release -p boardbench-corpus --example place_speed`.

use std::time::Instant;

use corpus::{ArchClass, Figure, corpus, place};

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
}
