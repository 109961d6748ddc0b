//! Runs the CPU sections end to end with `--quick` budgets on this machine and prints their
//! tables: a development check (`cargo test -p boardbench-guide --test integration cpu_sections_smoke:: --
//! --ignored --nocapture`), ignored by default because it takes about a minute.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use guide::{Context, registry};

fn context() -> Context {
    let n = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1) as u32;
    Context {
        root: probe::Root::new("/"),
        machine: Default::default(),
        quick: true,
        cpus: (0..n).collect(),
        cluster_leads: vec![0],
        clock_mhz: vec![None],
        workdir: std::env::temp_dir(),
        storage_dir: None,
        peer: None,
        network: Default::default(),
        cancel: Arc::new(AtomicBool::new(false)),
    }
}

#[test]
#[ignore]
fn quick_cpu_sections() {
    let ctx = context();
    for name in std::env::var("SECTIONS")
        .unwrap_or_else(|_| {
            "dhrystone,whetstone,linpack,stream,coremark,nbench,coremark-pro,openssl".into()
        })
        .split(',')
    {
        let def = registry::find(name).unwrap_or_else(|| panic!("no section {name}"));
        let t = std::time::Instant::now();
        let out = (def.run)(&ctx);
        println!(
            "== {name} ({:.1} s): skipped {:?} failed {:?} tool {:?}",
            t.elapsed().as_secs_f64(),
            out.skipped,
            out.failed,
            out.tool
        );
        for table in &out.tables {
            println!(
                "  {} [{} | {:?}]",
                table.title, table.key_header, table.columns
            );
            for r in &table.rows {
                let cells: Vec<String> = r
                    .cells
                    .iter()
                    .map(|c| match c {
                        Some(v) => format!(
                            "{:.2} (min {:?}, max {:?}, n {}, spread {:?})",
                            v.value, v.min, v.max, v.samples, v.range_pct
                        ),
                        None => "-".into(),
                    })
                    .collect();
                println!("    {}: {}", r.key, cells.join(" | "));
            }
        }
        for n in &out.notes {
            println!("  note: {n}");
        }
        assert!(out.failed.is_none(), "{name}: {:?}", out.failed);
    }
}
