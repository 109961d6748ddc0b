//! Two tiny sections for testing the command and its renderers without the real methods'
//! minutes: `stub-spin` times a short integer loop (a one-row table with its range), and
//! `stub-wait` adds one row per 100 ms until it is cancelled or its budget ends — for the
//! Ctrl-C tests, which must see a section interrupted with what it measured so far. The command
//! offers them only behind a hidden switch (`guide --test-sections`); they are not part of any
//! guide.

use std::time::{Duration, Instant};

use document::guide::{GuideTable, GuideValue};

use crate::Context;
use crate::registry::{Outcome, SectionDef};

pub fn sections() -> Vec<SectionDef> {
    vec![
        SectionDef {
            name: "stub-spin",
            title: "Stub Spin Benchmarks",
            quick: true,
            default: false,
            run: spin,
        },
        SectionDef {
            name: "stub-wait",
            title: "Stub Wait Benchmarks",
            quick: true,
            default: false,
            run: wait,
        },
    ]
}

fn spin(ctx: &Context) -> Outcome {
    let mut samples = Vec::new();
    for _ in 0..5 {
        if ctx.cancelled() {
            break;
        }
        let t = Instant::now();
        let mut x: u64 = 1;
        for i in 0..100_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        std::hint::black_box(x);
        samples.push(t.elapsed().as_secs_f64() * 1e9 / 100_000.0);
    }
    let mut t = GuideTable::perf("Stub Spin Benchmarks", "Benchmarks");
    t.push("spin-mul-add (ns)", GuideValue::from_samples(&samples));
    Outcome {
        tables: vec![t],
        notes: vec!["a test section: 100000 dependent multiply-adds, 5 times".into()],
        ..Default::default()
    }
}

fn wait(ctx: &Context) -> Outcome {
    let mut t = GuideTable::perf("Stub Wait Benchmarks", "Benchmarks");
    let budget = ctx.budget(Duration::from_secs(60));
    let t0 = Instant::now();
    let mut i = 0;
    while t0.elapsed() < budget {
        let s = Instant::now();
        if !ctx.pause(Duration::from_millis(100)) {
            break;
        }
        i += 1;
        t.push(
            format!("step-{i} (ms)"),
            Some(GuideValue::one(s.elapsed().as_secs_f64() * 1e3)),
        );
    }
    Outcome {
        tables: vec![t],
        ..Default::default()
    }
}
