//! LINPACK 100 (double precision), written in Rust from the published algorithm: the matrix
//! generator (LCG seed 1325, x ← 3125·x mod 65536, a = (x − 32768)/16384, b = row sums so the
//! solution is all ones), `dgefa` (LU factorisation with partial pivoting, column-oriented
//! daxpy) and `dgesl` (forward and back substitution), n = 100 in a column-major array with
//! leading dimension 200. Flops per solve = 2n³/3 + 2n². Every measurement ends with the
//! residual check: ‖A·x − b‖∞ / (n · normA · ‖x‖∞ · ε) must be O(1).
//!
//! Rust does not contract a·x + y into FMA (GCC does on AArch64 by default), and only the
//! rolled BLAS loops are used (the compiler unrolls and vectorises them itself).

use std::hint::black_box;
use std::time::{Duration, Instant};

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::repeat::{self, Plan};
use crate::{Context, pinning};

pub const N: usize = 100;
pub const LDA: usize = 200;
/// Above this the normalised residual means a wrong solution (LINPACK prints "a few units").
pub const RESIDUAL_LIMIT: f64 = 100.0;

/// Flops of one factor-and-solve of order n.
pub fn ops(n: usize) -> f64 {
    let n = n as f64;
    2.0 * n * n * n / 3.0 + 2.0 * n * n
}

/// A column-major matrix `a` (lda × n) and right-hand side `b`; returns normA (the largest
/// element, as LINPACK's matgen computes it).
pub fn matgen(a: &mut [f64], lda: usize, n: usize, b: &mut [f64]) -> f64 {
    let mut init: i64 = 1325;
    let mut norma = 0.0f64;
    for j in 0..n {
        for i in 0..n {
            init = 3125 * init % 65536;
            let v = (init as f64 - 32768.0) / 16384.0;
            a[lda * j + i] = v;
            norma = norma.max(v);
        }
    }
    b[..n].fill(0.0);
    for j in 0..n {
        for i in 0..n {
            b[i] += a[lda * j + i];
        }
    }
    norma
}

fn idamax(dx: &[f64]) -> usize {
    let mut best = 0;
    let mut max = f64::NEG_INFINITY;
    for (i, v) in dx.iter().enumerate() {
        if v.abs() > max {
            max = v.abs();
            best = i;
        }
    }
    best
}

fn daxpy(da: f64, dx: &[f64], dy: &mut [f64]) {
    if da == 0.0 {
        return;
    }
    for (y, x) in dy.iter_mut().zip(dx) {
        *y += da * *x;
    }
}

/// LU factorisation in place with partial pivoting; returns the pivots, or the index of a zero
/// pivot (singular matrix).
pub fn dgefa(a: &mut [f64], lda: usize, n: usize, ipvt: &mut [usize]) -> Result<(), usize> {
    let mut info = None;
    for k in 0..n.saturating_sub(1) {
        let col = lda * k;
        let l = idamax(&a[col + k..col + n]) + k;
        ipvt[k] = l;
        if a[col + l] == 0.0 {
            info = Some(k);
            continue;
        }
        if l != k {
            a.swap(col + l, col + k);
        }
        let t = -1.0 / a[col + k];
        for v in &mut a[col + k + 1..col + n] {
            *v *= t;
        }
        for j in k + 1..n {
            let cj = lda * j;
            let t = a[cj + l];
            if l != k {
                a[cj + l] = a[cj + k];
                a[cj + k] = t;
            }
            let (left, right) = a.split_at_mut(cj);
            daxpy(t, &left[col + k + 1..col + n], &mut right[k + 1..n]);
        }
    }
    ipvt[n - 1] = n - 1;
    if a[lda * (n - 1) + n - 1] == 0.0 {
        info = Some(n - 1);
    }
    match info {
        Some(k) => Err(k),
        None => Ok(()),
    }
}

/// Solves A·x = b with the factors of [`dgefa`]; `b` becomes x.
pub fn dgesl(a: &[f64], lda: usize, n: usize, ipvt: &[usize], b: &mut [f64]) {
    // Forward: L·y = b.
    for k in 0..n.saturating_sub(1) {
        let l = ipvt[k];
        let t = b[l];
        if l != k {
            b[l] = b[k];
            b[k] = t;
        }
        let col = lda * k;
        daxpy(t, &a[col + k + 1..col + n], &mut b[k + 1..n]);
    }
    // Backward: U·x = y.
    for kb in 0..n {
        let k = n - 1 - kb;
        let col = lda * k;
        b[k] /= a[col + k];
        let t = -b[k];
        let (head, _) = b.split_at_mut(k);
        daxpy(t, &a[col..col + k], head);
    }
}

/// The normalised residual ‖A·x − b‖∞ / (n · normA · ‖x‖∞ · ε) of `x` for the matrix
/// and right-hand side `matgen` makes, and the largest |x_i − 1|.
pub fn residual_of(x: &[f64], n: usize) -> (f64, f64) {
    let mut a = vec![0.0; LDA.max(n) * n];
    let lda = LDA.max(n);
    let mut b = vec![0.0; n];
    let norma = matgen(&mut a, lda, n, &mut b);
    residual(&a, lda, n, &b, x, norma)
}

/// The normalised residual of `x` for A (lda × n) and b, with normA given.
pub fn residual(a: &[f64], lda: usize, n: usize, b: &[f64], x: &[f64], norma: f64) -> (f64, f64) {
    let mut r: Vec<f64> = b[..n].iter().map(|v| -v).collect();
    for j in 0..n {
        daxpy(x[j], &a[lda * j..lda * j + n], &mut r);
    }
    let resid = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let normx = x[..n].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let err = x[..n].iter().fold(0.0f64, |m, v| m.max((v - 1.0).abs()));
    (resid / (n as f64 * norma * normx * f64::EPSILON), err)
}

/// Work space for repeated solves.
pub struct Solver {
    a: Vec<f64>,
    b: Vec<f64>,
    ipvt: Vec<usize>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver {
            a: vec![0.0; LDA * N],
            b: vec![0.0; N],
            ipvt: vec![0; N],
        }
    }
}

impl Solver {
    /// `reps` solves; returns the time spent in dgefa + dgesl (matgen is not timed, as in
    /// LINPACK) and the last solution.
    pub fn timed(&mut self, reps: u64) -> (Duration, &[f64]) {
        let mut t = Duration::ZERO;
        for _ in 0..reps {
            matgen(&mut self.a, LDA, N, &mut self.b);
            let s = Instant::now();
            let ok = dgefa(black_box(&mut self.a), LDA, N, &mut self.ipvt).is_ok();
            dgesl(&self.a, LDA, N, &self.ipvt, black_box(&mut self.b));
            t += s.elapsed();
            black_box(ok);
        }
        (t, &self.b)
    }
}

/// The section: LINPACK 100 Kflops pinned to one core, with the residual check.
pub fn section(ctx: &Context) -> Outcome {
    let (cpu, _) = pinning::single_thread_cpu(ctx);
    let plan = Plan::for_context(ctx, Duration::from_secs(50));
    let cancel = || ctx.cancelled();
    let ((samples, check), pin_note) = pinning::on_cpu(cpu, || {
        let mut solver = Solver::default();
        let mut check = None;
        let s = repeat::measure(plan, &cancel, |n| {
            let (t, x) = solver.timed(n);
            check = Some(residual_of(x, N));
            t
        });
        (s, check)
    });
    let kflops: Vec<f64> = samples.rates.iter().map(|r| r * ops(N) / 1000.0).collect();
    let mut out = Outcome::default();
    let mut table = GuideTable::perf("Linpack Benchmarks", "Benchmarks");
    let v = GuideValue::from_samples(&kflops);
    table.push("linpack (Kflops)", v.clone());
    out.tables.push(table);
    if let (Some(v), Some((resid, err))) = (v, check) {
        out.notes.push(format!(
            "LINPACK 100 (n = {N}, lda = {LDA}, double precision) in Rust, pinned to CPU {cpu}: {} solves per sample, {} samples, dgefa + dgesl timed with a monotonic clock (matgen untimed); {:.1} MFLOPS; normalised residual {resid:.2}, max |x−1| = {err:.1e}. No FMA contraction (GCC contracts on AArch64).",
            samples.iterations,
            v.samples,
            v.value / 1000.0
        ));
        if resid.is_nan() || resid >= RESIDUAL_LIMIT {
            out.failed = Some(format!(
                "residual check failed: normalised residual {resid:.3e} (limit {RESIDUAL_LIMIT})"
            ));
        }
    }
    out.notes.extend(pin_note);
    out
}
