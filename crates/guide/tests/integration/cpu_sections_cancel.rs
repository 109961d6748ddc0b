//! Ctrl-C before or during a CPU section: it returns at once with what it has (no rows, or rows
//! without values) and does not call that a failure.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use guide::{Context, registry};

fn cancelled_context() -> Context {
    Context {
        root: probe::Root::new("/"),
        machine: Default::default(),
        quick: true,
        cpus: vec![0],
        cluster_leads: vec![0],
        clock_mhz: vec![Some(1000.0)],
        workdir: std::env::temp_dir(),
        storage_dir: None,
        peer: None,
        network: Default::default(),
        cancel: Arc::new(AtomicBool::new(true)),
    }
}

#[test]
fn cancelled_cpu_sections_return_at_once() {
    let ctx = cancelled_context();
    for name in ["dhrystone", "whetstone", "linpack", "stream"] {
        let def = registry::find(name).unwrap();
        let t = Instant::now();
        let out = (def.run)(&ctx);
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{name} took {:?}",
            t.elapsed()
        );
        assert_eq!(out.failed, None, "{name}");
        assert_eq!(out.skipped, None, "{name}");
        for table in &out.tables {
            for row in &table.rows {
                if row.key != "cpu_clock (MHz)" {
                    assert!(row.cells.iter().all(|c| c.is_none()), "{name}: {row:?}");
                }
            }
        }
    }
}

#[test]
fn the_cpu_sections_are_registered_in_the_guides_order() {
    let names: Vec<&str> = registry::all().iter().map(|s| s.name).collect();
    let mine = [
        "dhrystone",
        "whetstone",
        "linpack",
        "nbench",
        "stream",
        "coremark",
        "coremark-pro",
        "openssl",
    ];
    let pos: Vec<usize> = mine
        .iter()
        .map(|m| {
            names
                .iter()
                .position(|n| n == m)
                .unwrap_or_else(|| panic!("{m}"))
        })
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{names:?}");
    assert!(registry::find("stream").unwrap().quick);
    assert!(!registry::find("nbench").unwrap().quick);
    assert_eq!(
        registry::find("openssl").unwrap().title,
        "OpenSSL Performance"
    );
}
