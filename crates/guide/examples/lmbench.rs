//! Runs the lmbench section on this machine and prints its rows, notes and run time — to check
//! the section's time budget (`--quick` ≈ 60 s, full ≈ 8 min on a 2-vCPU machine) and to read
//! the figures without the guide command: `cargo run --release -p boardbench-guide --example
//! lmbench [-- --quick]`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if std::env::args().any(|a| a == "--calibrate") {
        // Only the ENOUGH calibration, five times (to compare with lmbench's `enough`).
        for _ in 0..5 {
            let t0 = Instant::now();
            let c = guide::lmbench::timing::calibrate(1_000_000.0);
            println!(
                "ENOUGH {:.0} µs ({}) in {:.2} s",
                c.enough_us,
                c.describe(),
                t0.elapsed().as_secs_f64()
            );
        }
        return;
    }
    let root = probe::Root::host();
    let machine = probe::snapshot::take(&root);
    let workdir = std::env::temp_dir().join(format!("bb-lmbench-example-{}", std::process::id()));
    let ctx = guide::Context {
        root,
        machine,
        quick,
        cpus: Vec::new(),
        cluster_leads: Vec::new(),
        clock_mhz: Vec::new(),
        workdir: workdir.clone(),
        storage_dir: None,
        peer: None,
        network: Default::default(),
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let t0 = Instant::now();
    let out = guide::lmbench::run(&ctx);
    let secs = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&workdir);
    for table in &out.tables {
        println!("{} ({} rows)", table.title, table.rows.len());
        for row in &table.rows {
            match &row.cells[0] {
                Some(v) => println!(
                    "  {:<48} {:>12.4}  (min {:.4}, max {:.4}, n {}, spread {:.1}%)",
                    row.key,
                    v.value,
                    v.min.unwrap_or(v.value),
                    v.max.unwrap_or(v.value),
                    v.samples,
                    v.range_pct.unwrap_or(0.0)
                ),
                None => println!("  {:<48} -", row.key),
            }
        }
    }
    for n in &out.notes {
        println!("note: {n}");
    }
    if let Some(f) = &out.failed {
        println!("failed: {f}");
    }
    println!(
        "took {secs:.1} s ({})",
        if quick { "quick" } else { "full" }
    );
}
