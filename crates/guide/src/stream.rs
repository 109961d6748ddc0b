//! STREAM (rev 5.10's method) in Rust: three arrays a, b, c of f64, each at least 4× the
//! last-level cache (and at least STREAM's default 10^7 elements); kernels Copy c=a, Scale
//! b=3c, Add c=a+b, Triad a=b+3c, each timed separately, NTIMES passes with the first one
//! discarded; rate = bytes / best time with STREAM's byte counting (Copy, Scale 16 bytes per
//! element, Add, Triad 24; write-allocate traffic not counted), MB = 10^6 bytes. After the
//! passes the arrays are validated against the scalar recurrence (mean relative error ≤ 1e-13).
//!
//! Two figures: one thread pinned to one core (what the guides publish), and one pinned thread
//! per allowed CPU, each owning and first-touching its slice of the arrays (STREAM's OpenMP
//! static schedule), all threads starting each kernel together at a barrier.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::{Context, pinning};

pub const SCALAR: f64 = 3.0;
/// STREAM's default array length.
pub const DEFAULT_ELEMENTS: usize = 10_000_000;
/// The kernels in STREAM's order, with their row names.
pub const KERNELS: [&str; 4] = ["copy", "scale", "add", "triad"];
/// Bytes moved per element by each kernel.
pub const BYTES_PER_ELEMENT: [f64; 4] = [16.0, 16.0, 24.0, 24.0];
/// STREAM's validation bound for doubles.
pub const EPSILON: f64 = 1e-13;

/// One slice of the three arrays, initialised as STREAM does (a=1, b=2, c=0, then a = 2a).
pub struct Arrays {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
}

impl Arrays {
    pub fn new(n: usize) -> Arrays {
        let mut a = vec![1.0; n];
        let b = vec![2.0; n];
        let c = vec![0.0; n];
        for v in &mut a {
            *v *= 2.0;
        }
        Arrays { a, b, c }
    }

    /// Runs kernel `k` (0..4) over the slice.
    pub fn kernel(&mut self, k: usize) {
        let (a, b, c) = (&mut self.a, &mut self.b, &mut self.c);
        match k {
            0 => copy(a, c),
            1 => scale(c, b),
            2 => add(a, b, c),
            _ => triad(b, c, a),
        }
    }
}

#[inline(never)]
fn copy(a: &[f64], c: &mut [f64]) {
    for (c, a) in c.iter_mut().zip(a) {
        *c = *a;
    }
    std::hint::black_box(c);
}

#[inline(never)]
fn scale(c: &[f64], b: &mut [f64]) {
    for (b, c) in b.iter_mut().zip(c) {
        *b = SCALAR * *c;
    }
    std::hint::black_box(b);
}

#[inline(never)]
fn add(a: &[f64], b: &[f64], c: &mut [f64]) {
    for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
        *c = *a + *b;
    }
    std::hint::black_box(c);
}

#[inline(never)]
fn triad(b: &[f64], c: &[f64], a: &mut [f64]) {
    for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
        *a = *b + SCALAR * *c;
    }
    std::hint::black_box(a);
}

/// The values every element must have after `ntimes` passes (STREAM's scalar replay).
pub fn expected(ntimes: usize) -> (f64, f64, f64) {
    let (mut a, mut b, mut c) = (1.0f64, 2.0f64, 0.0f64);
    a *= 2.0;
    for _ in 0..ntimes {
        c = a;
        b = SCALAR * c;
        c = a + b;
        a = b + SCALAR * c;
    }
    (a, b, c)
}

/// STREAM's check: for each array the mean absolute error relative to the expected value must
/// not exceed [`EPSILON`]. `Err` names the failing arrays and how many elements are off.
pub fn validate(slices: &[&Arrays], ntimes: usize) -> Result<(), String> {
    let (ea, eb, ec) = expected(ntimes);
    let mut bad = Vec::new();
    for (name, want, get) in [
        ("a", ea, (|s: &Arrays| &s.a) as fn(&Arrays) -> &Vec<f64>),
        ("b", eb, |s: &Arrays| &s.b),
        ("c", ec, |s: &Arrays| &s.c),
    ] {
        let mut sum = 0.0;
        let mut n = 0usize;
        let mut off = 0usize;
        for s in slices {
            for v in get(s) {
                let e = (v - want).abs();
                sum += e;
                n += 1;
                if e / want.abs() > EPSILON {
                    off += 1;
                }
            }
        }
        let avg = if n == 0 { 0.0 } else { sum / n as f64 };
        if avg / want.abs() > EPSILON {
            bad.push(format!(
                "array {name}: mean relative error {:.3e} > {EPSILON:e}, {off} of {n} elements off",
                avg / want.abs()
            ));
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("; "))
    }
}

/// The times of every kernel in every pass.
#[derive(Debug, Clone, Default)]
pub struct Times {
    /// `times[k][pass]` in seconds.
    pub times: [Vec<f64>; 4],
    /// Elements in all slices together.
    pub elements: usize,
}

impl Times {
    /// The rates (MB/s) of kernel `k` for every pass but the first.
    pub fn rates(&self, k: usize) -> Vec<f64> {
        let bytes = BYTES_PER_ELEMENT[k] * self.elements as f64;
        self.times[k]
            .iter()
            .skip(1)
            .map(|t| 1e-6 * bytes / t.max(1e-9))
            .collect()
    }

    /// STREAM's "Best Rate": bytes / minimum time over passes 2..NTIMES, with the range of the
    /// per-pass rates.
    pub fn best(&self, k: usize) -> Option<GuideValue> {
        let rates = self.rates(k);
        let mut v = GuideValue::from_samples(&rates)?;
        v.value = rates.iter().copied().fold(f64::MIN, f64::max);
        Some(v)
    }
}

/// Runs `ntimes` passes on one thread over arrays of `n` elements (the caller pins the thread).
pub fn run_single(
    n: usize,
    ntimes: usize,
    cancelled: &dyn Fn() -> bool,
) -> (Times, Result<(), String>) {
    let mut arr = Arrays::new(n);
    let mut times = Times {
        elements: n,
        ..Default::default()
    };
    let mut done = 0;
    for _ in 0..ntimes {
        if cancelled() {
            break;
        }
        for (k, t) in times.times.iter_mut().enumerate() {
            let s = Instant::now();
            arr.kernel(k);
            t.push(s.elapsed().as_secs_f64());
        }
        done += 1;
    }
    let check = validate(&[&arr], done);
    (times, check)
}

/// Runs `ntimes` passes with one thread per CPU of `cpus`, each pinned and owning `n / cpus`
/// elements, all starting each kernel at one barrier. The workers time themselves (the calling
/// thread only waits: a coordinating thread would compete with them for the CPUs): each notes
/// when it started and finished its slice, and the kernel's time is the span from the earliest
/// start to the latest end — so a worker the scheduler woke late cannot make it look shorter.
pub fn run_threads(
    n: usize,
    ntimes: usize,
    cpus: &[u32],
    cancelled: &(dyn Fn() -> bool + Sync),
) -> (Times, Result<(), String>, Vec<String>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let threads = cpus.len().max(1);
    let per = n.div_ceil(threads);
    let barrier = Arc::new(Barrier::new(threads));
    let stop = AtomicBool::new(false);
    let mut notes = Vec::new();
    let mut times = Times {
        elements: per * threads,
        ..Default::default()
    };
    let mut done = usize::MAX;
    let mut spans: Vec<[Vec<(Instant, Instant)>; 4]> = Vec::new();
    let slices: Vec<Arrays> = std::thread::scope(|s| {
        let handles: Vec<_> = cpus
            .iter()
            .enumerate()
            .map(|(i, &cpu)| {
                let barrier = barrier.clone();
                let stop = &stop;
                s.spawn(move || {
                    let pinned = pinning::pin_current_thread(cpu).err();
                    let mut arr = Arrays::new(per);
                    let mut own: [Vec<(Instant, Instant)>; 4] = Default::default();
                    let mut passes = 0;
                    for _ in 0..ntimes {
                        if i == 0 && cancelled() {
                            stop.store(true, Ordering::SeqCst);
                        }
                        barrier.wait();
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                        for (k, t) in own.iter_mut().enumerate() {
                            barrier.wait();
                            let start = Instant::now();
                            arr.kernel(k);
                            t.push((start, Instant::now()));
                            barrier.wait();
                        }
                        passes += 1;
                    }
                    let note = pinned.map(|e| format!("CPU {cpu}: not pinned: {e}"));
                    (arr, own, passes, note)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                let (arr, own, passes, note) = h.join().expect("stream thread panicked");
                spans.push(own);
                done = done.min(passes);
                notes.extend(note);
                arr
            })
            .collect()
    });
    if done == usize::MAX {
        done = 0;
    }
    for (k, t) in times.times.iter_mut().enumerate() {
        for pass in 0..done {
            let first = spans.iter().map(|w| w[k][pass].0).min();
            let last = spans.iter().map(|w| w[k][pass].1).max();
            if let (Some(a), Some(b)) = (first, last) {
                t.push((b - a).as_secs_f64());
            }
        }
    }
    let refs: Vec<&Arrays> = slices.iter().collect();
    let check = validate(&refs, done);
    (times, check, notes)
}

/// Elements per array: at least 4× the last-level cache in bytes / 8 and STREAM's default,
/// but no more than a sixth of the available memory over all three arrays.
pub fn elements_for(llc_bytes: Option<u64>, available_bytes: Option<u64>) -> usize {
    let want = llc_bytes
        .map(|l| (4 * l / 8) as usize)
        .unwrap_or(0)
        .max(DEFAULT_ELEMENTS);
    match available_bytes {
        Some(av) => want.min((av / 6 / 3 / 8) as usize).max(100_000),
        None => want,
    }
}

fn table(title: &str, t: &Times) -> GuideTable {
    let mut table = GuideTable::perf(title, "Benchmarks");
    // The guides sort the rows alphabetically: add, copy, scale, triad.
    for k in [2, 0, 1, 3] {
        table.push(format!("{} (MB/s)", KERNELS[k]), t.best(k));
    }
    table
}

/// The section: single thread pinned, then one pinned thread per allowed CPU.
pub fn section(ctx: &Context) -> Outcome {
    if ctx.cancelled() {
        return Outcome::default();
    }
    let n = elements_for(
        ctx.llc_bytes(),
        ctx.machine.memory.available_kib.map(|k| k * 1024),
    );
    let ntimes = if ctx.quick { 10 } else { 50 };
    let budget = ctx.budget(Duration::from_secs(60));
    let start = Instant::now();
    let cancel = || ctx.cancelled();
    let mut out = Outcome::default();
    let (cpu, _) = pinning::single_thread_cpu(ctx);
    let ((t1, check1), pin_note) = pinning::on_cpu(cpu, || run_single(n, ntimes, &cancel));
    out.notes.extend(pin_note);
    out.tables.push(table("Stream Benchmarks", &t1));
    let mut failed = Vec::new();
    if let Err(e) = check1 {
        failed.push(format!("single thread: {e}"));
    }
    let cpus: Vec<u32> = if ctx.cpus.is_empty() {
        vec![cpu]
    } else {
        ctx.cpus.clone()
    };
    let mut threads_note = String::new();
    if !ctx.cancelled() && start.elapsed() < budget {
        let (tn, checkn, notes) = run_threads(n, ntimes, &cpus, &cancel);
        out.notes.extend(notes);
        out.tables
            .push(table("Stream Benchmarks (one thread per core)", &tn));
        if let Err(e) = checkn {
            failed.push(format!("{} threads: {e}", cpus.len()));
        }
        threads_note = format!(
            "; the second table runs {} pinned threads (CPUs {:?}) on slices of the same total size",
            cpus.len(),
            cpus
        );
    }
    out.notes.push(format!(
        "STREAM method in Rust: 3 arrays of {n} f64 ({:.1} MiB each), {ntimes} passes, first discarded, Best Rate (MB = 10^6 B, STREAM byte counting); single thread pinned to CPU {cpu}{threads_note}. Plain loops, no non-temporal stores; solutions validated. Which STREAM build these figures stand beside: stream.c as its own Makefile builds it (gcc -O2 -fopenmp) — what a vendor's guide prints, built by its distribution's toolchain at -O2; the same source at -O3 reads up to 20 % higher on one machine, so a published STREAM figure compares only with the build it came from (docs/guide.md, \"Which build a reference stands for\").",
        n as f64 * 8.0 / 1048576.0
    ));
    if !failed.is_empty() {
        out.failed = Some(format!("validation failed: {}", failed.join("; ")));
    }
    out
}
