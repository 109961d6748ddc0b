//! Whetstone, double precision, written in Rust from the published algorithm (H.J. Curnow and
//! B.A. Wichmann's modules in Painter's C conversion): modules 2, 3, 4, 6, 7, 8, 9 and 11 with
//! the loop counts 12, 14, 345, 210, 32, 899, 616 and 93 × LOOP (modules 1 and 10 have count
//! 0; 5 and 12 do not exist). One pass with LOOP = 10 is 10^6 Whetstone instructions, so
//! KIPS = 100 · LOOP / seconds and the guides' `whetstone (MIPS)` = KIPS / 1000 — i.e. MWIPS.
//! Timed with a monotonic clock in fractional seconds (the C program's `time()` counts whole
//! seconds). sin/cos/atan/exp/log/sqrt come from the platform's libm, which dominates
//! modules 7 and 11.

use std::hint::black_box;
use std::time::{Duration, Instant};

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::repeat::{self, Plan};
use crate::{Context, pinning};

const T: f64 = 0.499975;
const T1: f64 = 0.50025;
const T2: f64 = 2.0;

/// What the modules leave behind (the values Painter's program prints), for the self-test.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// E1[1..=4] after module 3.
    pub module3: [f64; 4],
    /// J after module 4.
    pub module4_j: i64,
    /// J, K, L and E1[1..=4] after module 6.
    pub module6: (i64, i64, i64),
    /// X, Y after module 7.
    pub module7: (f64, f64),
    /// Z after module 8.
    pub module8_z: f64,
    /// E1[1..=3] after module 9.
    pub module9: [f64; 3],
    /// X after module 11.
    pub module11_x: f64,
}

/// One run of all modules with the given LOOP (II = 1).
pub fn run(loop_count: u64) -> Results {
    let l = black_box(loop_count);
    let (n2, n3, n4, n6, n7, n8, n9, n11) = (
        12 * l,
        14 * l,
        345 * l,
        210 * l,
        32 * l,
        899 * l,
        616 * l,
        93 * l,
    );
    let mut e1 = [0.0f64; 5];
    // Module 2: array elements.
    e1[1] = 1.0;
    e1[2] = -1.0;
    e1[3] = -1.0;
    e1[4] = -1.0;
    for _ in 0..n2 {
        e1[1] = (e1[1] + e1[2] + e1[3] - e1[4]) * T;
        e1[2] = (e1[1] + e1[2] - e1[3] + e1[4]) * T;
        e1[3] = (e1[1] - e1[2] + e1[3] + e1[4]) * T;
        e1[4] = (-e1[1] + e1[2] + e1[3] + e1[4]) * T;
    }
    // Module 3: array as parameter.
    for _ in 0..n3 {
        pa(black_box(&mut e1));
    }
    let module3 = [e1[1], e1[2], e1[3], e1[4]];
    // Module 4: conditional jumps.
    let mut j: i64 = 1;
    for _ in 0..n4 {
        j = if j == 1 { 2 } else { 3 };
        j = if j > 2 { 0 } else { 1 };
        j = if j < 1 { 1 } else { 0 };
        j = black_box(j);
    }
    let module4_j = j;
    // Module 6: integer arithmetic.
    let (mut j, mut k, mut ll): (i64, i64, i64) = (1, 2, 3);
    for _ in 0..n6 {
        j = j * (k - j) * (ll - k);
        k = ll * k - (ll - j) * k;
        ll = (ll - k) * (k + j);
        e1[(ll - 1) as usize] = (j + k + ll) as f64;
        e1[(k - 1) as usize] = (j * k * ll) as f64;
        j = black_box(j);
    }
    let module6 = (j, k, ll);
    // Module 7: trigonometric functions.
    let (mut x, mut y) = (0.5f64, 0.5f64);
    for _ in 0..n7 {
        x = T * (T2 * x.sin() * x.cos() / ((x + y).cos() + (x - y).cos() - 1.0)).atan();
        y = T * (T2 * y.sin() * y.cos() / ((x + y).cos() + (x - y).cos() - 1.0)).atan();
    }
    let module7 = (x, y);
    // Module 8: procedure calls.
    let (x, y) = (1.0f64, 1.0f64);
    let mut z = 1.0f64;
    for _ in 0..n8 {
        p3(black_box(x), black_box(y), &mut z);
    }
    let module8_z = z;
    // Module 9: array references.
    let (j, k, ll) = (1usize, 2usize, 3usize);
    e1[1] = 1.0;
    e1[2] = 2.0;
    e1[3] = 3.0;
    for _ in 0..n9 {
        p0(black_box(&mut e1), j, k, ll);
    }
    let module9 = [e1[1], e1[2], e1[3]];
    // Module 11: standard functions.
    let mut x = 0.75f64;
    for _ in 0..n11 {
        x = (black_box(x).ln() / T1).exp().sqrt();
    }
    black_box(Results {
        module3,
        module4_j,
        module6,
        module7,
        module8_z,
        module9,
        module11_x: x,
    })
}

#[inline(never)]
fn pa(e: &mut [f64; 5]) {
    for _ in 0..6 {
        e[1] = (e[1] + e[2] + e[3] - e[4]) * T;
        e[2] = (e[1] + e[2] - e[3] + e[4]) * T;
        e[3] = (e[1] - e[2] + e[3] + e[4]) * T;
        e[4] = (-e[1] + e[2] + e[3] + e[4]) / T2;
    }
}

#[inline(never)]
fn p3(x: f64, y: f64, z: &mut f64) {
    let x1 = T * (x + y);
    let y1 = T * (x1 + y);
    *z = (x1 + y1) / T2;
}

#[inline(never)]
fn p0(e1: &mut [f64; 5], j: usize, k: usize, l: usize) {
    e1[j] = e1[k];
    e1[k] = e1[l];
    e1[l] = e1[j];
}

/// Whetstone MIPS (= MWIPS) of `loops` LOOP-units done in `seconds`: 100 · LOOP / s / 1000.
pub fn mips(loops: f64, seconds: f64) -> f64 {
    100.0 * loops / seconds / 1000.0
}

/// Checks the values every correct run must leave: the integer modules' fixed points, module
/// 9's rotation, and finite floating-point modules. Returns the mismatches.
pub fn self_check(r: &Results, loop_count: u64) -> Vec<String> {
    let mut bad = Vec::new();
    let want_j4 = if (345 * loop_count) % 2 == 1 { 0 } else { 1 };
    if r.module4_j != want_j4 {
        bad.push(format!(
            "module 4: J = {}, should be {want_j4}",
            r.module4_j
        ));
    }
    if r.module6 != (1, 2, 3) {
        bad.push(format!(
            "module 6: J, K, L = {:?}, should be (1, 2, 3)",
            r.module6
        ));
    }
    // P0 rotates (E1[1], E1[2], E1[3]) = (1, 2, 3) into (2, 3, 2), then alternates with (3, 2, 3).
    let want9 = if (616 * loop_count) % 2 == 1 {
        [2.0, 3.0, 2.0]
    } else {
        [3.0, 2.0, 3.0]
    };
    if loop_count > 0 && r.module9 != want9 {
        bad.push(format!("module 9: {:?}, should be {want9:?}", r.module9));
    }
    let want_z = {
        let x1 = T * 2.0;
        (x1 + T * (x1 + 1.0)) / T2
    };
    if loop_count > 0 && r.module8_z != want_z {
        bad.push(format!("module 8: Z = {}, should be {want_z}", r.module8_z));
    }
    let floats = [
        r.module3[0],
        r.module3[1],
        r.module3[2],
        r.module3[3],
        r.module7.0,
        r.module7.1,
        r.module11_x,
    ];
    if floats.iter().any(|v| !v.is_finite()) {
        bad.push(format!("non-finite result: {floats:?}"));
    }
    bad
}

/// The section: Whetstone MIPS pinned to one core.
pub fn section(ctx: &Context) -> Outcome {
    let (cpu, _) = pinning::single_thread_cpu(ctx);
    let plan = Plan::for_context(ctx, Duration::from_secs(50));
    let cancel = || ctx.cancelled();
    let ((samples, bad), pin_note) = pinning::on_cpu(cpu, || {
        let mut bad = Vec::new();
        let s = repeat::measure(plan, &cancel, |n| {
            let t = Instant::now();
            let r = run(n);
            let e = t.elapsed();
            if bad.is_empty() {
                bad = self_check(&r, n);
            }
            e
        });
        (s, bad)
    });
    // rates are LOOP-units per second.
    let mips_samples: Vec<f64> = samples.rates.iter().map(|r| mips(*r, 1.0)).collect();
    let mut out = Outcome::default();
    let mut table = GuideTable::perf("Whetstone Benchmarks", "Benchmarks");
    let v = GuideValue::from_samples(&mips_samples);
    table.push("whetstone (MIPS)", v.clone());
    out.tables.push(table);
    if let Some(v) = v {
        out.notes.push(format!(
            "Whetstone (double precision, Painter's module set) in Rust, pinned to CPU {cpu}: LOOP = {} per sample, {} samples; MIPS = 100·LOOP/s/1000 (MWIPS) with a monotonic clock. libm's sin/cos/atan/exp/log/sqrt weigh heavily, and this port calls the same C library's libm a C build does: beside a published guide (`guide render --reference`) its row compares, within what the two compilers make of the same floating-point loops.",
            samples.iterations, v.samples
        ));
    }
    out.notes.extend(pin_note);
    if !bad.is_empty() {
        out.failed = Some(format!("self-check failed: {}", bad.join("; ")));
    }
    out
}
