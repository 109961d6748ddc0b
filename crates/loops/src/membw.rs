//! Memory bandwidth by tinymembench's method.
//!
//! - Buffers: source and destination of 32 MiB each, carved from one mapping, each on a 1 MiB
//!   boundary plus a distinct 128-byte-granular offset so they never alias in cache sets or
//!   4 KiB-alias each other; pre-faulted by filling them with 0xCC.
//! - A sample: one untimed warm-up call over the whole buffer, then a batch of calls timed with
//!   CLOCK_MONOTONIC; MB/s = bytes × calls / seconds / 10^6 (a copy counts each byte once).
//!   tinymembench doubles the batch from one call until it lasts ≥ 0.5 s for every sample
//!   ([`Config::full`]); the quick mode ([`Config::quick`]) finds the batch size once and reuses
//!   it for shorter batches. Samples during which the thread lost the CPU are measured again.
//! - Repeats: best sample reported, with the spread; early stop once the spread is low.
//! - The headline figures (`libc memcpy copy`, `libc memset fill`: sbc-bench's memcpy and
//!   memset, which place a board among its published results) are measured exactly as
//!   sbc-bench's tinymembench measures them ([`Config::headline_tinymembench`],
//!   [`measure_as_tinymembench`]): every sample one batch doubled from a single call and timed
//!   from its first call until ≥ 0.5 s have passed (all the calls over all the time), 2 samples
//!   and a third unless their standard deviation is below 0.1 % (`-b 2 -B 3`), the best one,
//!   no sample measured again. The quick mode's short batches with disturbed samples retried,
//!   best of up to 10, read 4–15 % above tinymembench on a shared guest (docs/accuracy.md,
//!   issue 49): a method difference, not the memory.
//! - Routines: the platform libc's memcpy/memset (sbc-bench's headline figures, named as in its
//!   database), scalar loops, and per-architecture variants ([`available_variants`]).
//! - Aggregate: one pinned thread per CPU with its own buffers, started together.

use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};

use document::measure::membw::{BwAggregate, BwKind, BwTest, MembwResult};

use crate::affinity::pin_current_thread;
use crate::stats;
use crate::timing::{now_ns, time};

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "arm")]
mod arm;
pub mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// The routine behind a variant, by kind.
#[derive(Clone, Copy)]
pub enum Routine {
    Copy(unsafe fn(*mut u8, *const u8, usize)),
    Fill(unsafe fn(*mut u8, u8, usize)),
    /// Returns the XOR of all 8-byte words (see [`portable::read_tail`]) so loads stay live.
    Read(unsafe fn(*const u8, usize) -> u64),
}

/// One measurable routine.
#[derive(Clone, Copy)]
pub struct Variant {
    pub name: &'static str,
    /// sbc-bench's "memcpy"/"memset" figures.
    pub headline: bool,
    pub routine: Routine,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({:?})", self.name)
    }
}

impl Variant {
    pub fn kind(&self) -> BwKind {
        match self.routine {
            Routine::Copy(_) => BwKind::Copy,
            Routine::Fill(_) => BwKind::Fill,
            Routine::Read(_) => BwKind::Read,
        }
    }

    /// Copies `src` into `dst` (same length) with this routine; `None` if it is no copy.
    pub fn copy(&self, dst: &mut [u8], src: &[u8]) -> Option<()> {
        assert_eq!(dst.len(), src.len(), "copy of unequal lengths");
        match self.routine {
            // SAFETY: two distinct slices of the same length.
            Routine::Copy(f) => unsafe { f(dst.as_mut_ptr(), src.as_ptr(), src.len()) },
            _ => return None,
        }
        Some(())
    }

    /// Fills `dst` with `val`; `None` if this is no fill.
    pub fn fill(&self, dst: &mut [u8], val: u8) -> Option<()> {
        match self.routine {
            // SAFETY: a valid slice.
            Routine::Fill(f) => unsafe { f(dst.as_mut_ptr(), val, dst.len()) },
            _ => return None,
        }
        Some(())
    }

    /// Reads `src`; `None` if this is no read.
    pub fn read(&self, src: &[u8]) -> Option<u64> {
        match self.routine {
            // SAFETY: a valid slice.
            Routine::Read(f) => Some(unsafe { f(src.as_ptr(), src.len()) }),
            _ => None,
        }
    }
}

/// The reference value of a read of `src` (what every read variant must return).
pub fn read_reference(src: &[u8]) -> u64 {
    // SAFETY: a valid slice.
    unsafe { portable::read_tail(src.as_ptr(), src.len()) }
}

/// The names of libc's copy and fill as sbc-bench's database knows them (their home is the
/// document, which renderers read).
pub use document::measure::membw::{LIBC_MEMCPY, LIBC_MEMSET};

/// Every routine this CPU can run: libc, scalar, then the architecture's own (runtime-detected).
pub fn available_variants() -> Vec<Variant> {
    use Routine::*;
    let v = |name, headline, routine| Variant {
        name,
        headline,
        routine,
    };
    #[allow(unused_mut)]
    let mut out = vec![
        v(LIBC_MEMCPY, true, Copy(portable::libc_memcpy)),
        v(LIBC_MEMSET, true, Fill(portable::libc_memset)),
        v("scalar copy (64-bit)", false, Copy(portable::scalar_copy)),
        v("scalar fill (64-bit)", false, Fill(portable::scalar_fill)),
        v("scalar read (64-bit)", false, Read(portable::scalar_read)),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        out.extend([
            v("rep movsb copy", false, Copy(x86_64::rep_movsb_copy)),
            v("rep stosb fill", false, Fill(x86_64::rep_stosb_fill)),
            v("SSE2 copy", false, Copy(x86_64::sse2_copy)),
            v("SSE2 nontemporal copy", false, Copy(x86_64::sse2_nt_copy)),
            v("SSE2 fill", false, Fill(x86_64::sse2_fill)),
            v("SSE2 nontemporal fill", false, Fill(x86_64::sse2_nt_fill)),
            v("SSE2 read", false, Read(x86_64::sse2_read)),
        ]);
        if x86_64::has_avx2() {
            out.extend([
                v("AVX2 copy", false, Copy(x86_64::avx2_copy)),
                v("AVX2 nontemporal copy", false, Copy(x86_64::avx2_nt_copy)),
                v("AVX2 fill", false, Fill(x86_64::avx2_fill)),
                v("AVX2 nontemporal fill", false, Fill(x86_64::avx2_nt_fill)),
                v("AVX2 read", false, Read(x86_64::avx2_read)),
            ]);
        }
    }
    #[cfg(target_arch = "aarch64")]
    out.extend([
        v("NEON ldp/stp copy", false, Copy(aarch64::neon_copy)),
        v(
            "NEON ldp/stnp nontemporal copy",
            false,
            Copy(aarch64::neon_nt_copy),
        ),
        v("NEON stp fill", false, Fill(aarch64::neon_fill)),
        v(
            "NEON stnp nontemporal fill",
            false,
            Fill(aarch64::neon_nt_fill),
        ),
        v("NEON ldp read", false, Read(aarch64::neon_read)),
    ]);
    #[cfg(target_arch = "arm")]
    if arm::has_neon() {
        out.extend([
            v("NEON vld1/vst1 copy", false, Copy(arm::neon_copy)),
            v("NEON vst1 fill", false, Fill(arm::neon_fill)),
            v("NEON vld1 read", false, Read(arm::neon_read)),
        ]);
    }
    out
}

/// Picks variants by name (exact, case-insensitive); an unknown name is refused with the list.
pub fn select_variants(names: &[String]) -> Result<Vec<Variant>, String> {
    let all = available_variants();
    let mut out = Vec::new();
    for n in names {
        match all.iter().find(|v| v.name.eq_ignore_ascii_case(n.trim())) {
            Some(v) => out.push(*v),
            None => {
                let list: Vec<&str> = all.iter().map(|v| v.name).collect();
                return Err(format!(
                    "unknown membw variant {n:?} (available here: {})",
                    list.join(", ")
                ));
            }
        }
    }
    Ok(out)
}

/// How long and how often to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Bytes of each of the source and destination buffers.
    pub buffer_bytes: usize,
    /// A sample's batch lasts at least this long.
    pub batch_ns: u64,
    /// Re-find the batch size by doubling from one call for every sample (tinymembench).
    pub double_every_sample: bool,
    pub min_samples: u32,
    pub max_samples: u32,
    /// Stop after `min_samples` once the sample standard deviation is below this (% of mean).
    pub stop_spread_pct: f64,
    /// Aggregate: duration of one sample and number of samples.
    pub aggregate_ns: u64,
    pub aggregate_samples: u32,
    /// The headline variants (libc memcpy/memset) by tinymembench's method as sbc-bench runs it
    /// ([`measure_as_tinymembench`]), whatever the other settings say for the rest.
    pub headline_tinymembench: bool,
}

/// sbc-bench's tinymembench options `-b 2 -B 3`: at least 2 samples, at most 3.
pub const TINYMEMBENCH_MIN_SAMPLES: u32 = 2;
pub const TINYMEMBENCH_MAX_SAMPLES: u32 = 3;
/// tinymembench's batch: doubled until it has lasted this long.
pub const TINYMEMBENCH_BATCH_NS: u64 = 500_000_000;

/// 32 MiB, as tinymembench.
pub const DEFAULT_BUFFER_BYTES: usize = 32 << 20;

impl Config {
    /// Short batches (≥ 25 ms, about 15 calls of a 32 MiB copy) with the batch size found once,
    /// 3–10 samples, stop at < 1 % spread. Short batches give a busy machine more chances to
    /// leave one sample undisturbed; the best sample is what is reported.
    pub fn quick() -> Self {
        Config {
            buffer_bytes: DEFAULT_BUFFER_BYTES,
            batch_ns: 25_000_000,
            double_every_sample: false,
            min_samples: 3,
            max_samples: 10,
            stop_spread_pct: 1.0,
            aggregate_ns: 200_000_000,
            aggregate_samples: 3,
            headline_tinymembench: true,
        }
    }

    /// tinymembench's own: ≥ 0.5 s doubling batches, 3–10 samples, stop at stddev < 0.1 %.
    pub fn full() -> Self {
        Config {
            buffer_bytes: DEFAULT_BUFFER_BYTES,
            batch_ns: 500_000_000,
            double_every_sample: true,
            min_samples: 3,
            max_samples: 10,
            stop_spread_pct: 0.1,
            aggregate_ns: 500_000_000,
            aggregate_samples: 5,
            headline_tinymembench: true,
        }
    }

    /// Refuses settings that cannot measure anything.
    pub fn validate(&self) -> Result<(), String> {
        if self.buffer_bytes < 4096 {
            return Err(format!(
                "buffer size {} B is too small (at least 4 KiB)",
                self.buffer_bytes
            ));
        }
        // Two buffers plus padding must fit the address space (1 GiB each on 32-bit systems).
        let limit: u64 = if usize::BITS == 32 { 1 << 30 } else { 1 << 34 };
        if self.buffer_bytes as u64 > limit {
            return Err(format!(
                "buffer size {} B is too large (at most {} MiB here)",
                self.buffer_bytes,
                limit >> 20
            ));
        }
        if self.min_samples == 0 || self.max_samples == 0 || self.aggregate_samples == 0 {
            return Err("the number of samples must be at least 1".into());
        }
        if self.min_samples > self.max_samples {
            return Err(format!(
                "minimum samples {} exceed maximum {}",
                self.min_samples, self.max_samples
            ));
        }
        if self.batch_ns == 0 || self.aggregate_ns == 0 {
            return Err("the batch duration must be positive".into());
        }
        Ok(())
    }
}

/// Source and destination buffers in one anonymous mapping (see the module comment).
pub struct Buffers {
    base: *mut u8,
    map_len: usize,
    pub src: *mut u8,
    pub dst: *mut u8,
    pub len: usize,
}

const MIB: usize = 1 << 20;

impl Buffers {
    /// Maps, places and pre-faults the buffers.
    pub fn new(len: usize) -> Result<Self, String> {
        // Layout: [align slack 1 MiB][src: len + 1 MiB][dst: len + 1 MiB]; each buffer starts
        // on a 1 MiB boundary plus its own offset (tinymembench's patterns masked to bits 7…19).
        let slot = len.div_ceil(MIB) * MIB + MIB;
        let map_len = 2 * slot + MIB;
        // SAFETY: anonymous private mapping, checked below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(format!(
                "cannot map {} MiB for the buffers: {}",
                map_len / MIB,
                std::io::Error::last_os_error()
            ));
        }
        let base = base.cast::<u8>();
        let aligned = (base as usize).div_ceil(MIB) * MIB;
        let off = |pattern: usize| pattern & 0x000F_FF80;
        let src = (aligned + off(0xAAAA_AAAA)) as *mut u8;
        let dst = (aligned + slot + off(0x5555_5555)) as *mut u8;
        // SAFETY: both lie inside the mapping (offset < 1 MiB, slot ≥ len + 1 MiB).
        unsafe {
            // Pre-fault every page (and give the reads known contents).
            libc::memset(src.cast(), 0xCC, len);
            libc::memset(dst.cast(), 0xCC, len);
        }
        Ok(Buffers {
            base,
            map_len,
            src,
            dst,
            len,
        })
    }

    /// One call of the routine over the whole buffers.
    #[inline]
    pub fn call(&self, v: &Variant) {
        // SAFETY: src and dst are valid for len bytes and do not overlap.
        unsafe {
            match v.routine {
                Routine::Copy(f) => f(self.dst, self.src, self.len),
                Routine::Fill(f) => f(self.dst, 0xCC, self.len),
                Routine::Read(f) => {
                    std::hint::black_box(f(self.src, self.len));
                }
            }
        }
    }
}

impl Drop for Buffers {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`.
        unsafe { libc::munmap(self.base.cast(), self.map_len) };
    }
}

/// Descheduling tolerance: a sample that lost more than this fraction of its wall time to other
/// tasks is measured again, at most [`MAX_RETRIES`] times per test (on a busy machine every
/// sample is disturbed; retrying each would only multiply the run time).
const DESCHEDULE_TOLERANCE: f64 = 0.02;
const MAX_RETRIES: u32 = 3;

/// Times `calls` calls; returns (MB/s, descheduled).
fn timed_batch(b: &Buffers, v: &Variant, calls: u64) -> (f64, u64, bool) {
    let (_, iv) = time(|| {
        for _ in 0..calls {
            b.call(v);
        }
    });
    let mb_s = mb_per_s(b.len as u64 * calls, iv.wall_ns);
    (mb_s, iv.wall_ns, iv.was_descheduled(DESCHEDULE_TOLERANCE))
}

fn mb_per_s(bytes: u64, ns: u64) -> f64 {
    // bytes / ns × 10^9 / 10^6
    bytes as f64 * 1e3 / ns.max(1) as f64
}

/// Doubles the batch from one call until it lasts at least `batch_ns`; returns the calls and
/// the MB/s of that last batch.
fn doubling_batch(b: &Buffers, v: &Variant, batch_ns: u64) -> (u64, f64, bool) {
    let mut calls = 1u64;
    loop {
        let (mb_s, ns, desched) = timed_batch(b, v, calls);
        if ns >= batch_ns || calls >= 1 << 40 {
            return (calls, mb_s, desched);
        }
        calls *= 2;
    }
}

/// One variant as tinymembench's `bandwidth_bench_helper` measures it with sbc-bench's `-b 2
/// -B 3`: per sample one untimed call, then from one timestamp batches of 1, 2, 4 … calls
/// until ≥ 0.5 s have passed since it, MB/s = bytes × all the calls / all that time; samples
/// until 2 are done and their standard deviation is below 0.1 % of the best, at most 3; the
/// best reported. Nothing is measured again: a sample another task disturbed counts, as in
/// tinymembench (marked `disturbed`).
pub fn measure_as_tinymembench(b: &Buffers, v: &Variant) -> BwTest {
    let mut samples = Vec::new();
    let mut calls = 0u64;
    let mut disturbed = false;
    while samples.len() < TINYMEMBENCH_MAX_SAMPLES as usize {
        b.call(v);
        let (count, iv) = time(|| {
            let t1 = now_ns();
            let (mut count, mut inner) = (0u64, 1u64);
            loop {
                count += inner;
                for _ in 0..inner {
                    b.call(v);
                }
                inner = inner.saturating_mul(2);
                if now_ns() - t1 >= TINYMEMBENCH_BATCH_NS || count >= 1 << 40 {
                    return count;
                }
            }
        });
        disturbed |= iv.was_descheduled(DESCHEDULE_TOLERANCE);
        calls = count;
        samples.push(mb_per_s(b.len as u64 * count, iv.wall_ns));
        let best = stats::max(&samples).unwrap_or(0.0);
        if samples.len() >= TINYMEMBENCH_MIN_SAMPLES as usize
            && stats::stddev_pct(&samples)
                .is_some_and(|s| s * stats::mean(&samples).unwrap_or(best) < best * 0.1)
        {
            break;
        }
    }
    test_of(v, samples, calls, 0, disturbed)
}

/// Measures one variant on the calling thread (which the caller has pinned).
pub fn measure(b: &Buffers, v: &Variant, cfg: &Config) -> BwTest {
    if v.headline && cfg.headline_tinymembench {
        return measure_as_tinymembench(b, v);
    }
    let mut samples = Vec::new();
    let mut retries = 0u32;
    let mut calls = 0u64;
    while samples.len() < cfg.max_samples as usize {
        let mb_s = loop {
            b.call(v); // warm-up: caches, TLB and the routine's code
            let (mb_s, desched) = if cfg.double_every_sample || calls == 0 {
                let (c, mb_s, d) = doubling_batch(b, v, cfg.batch_ns);
                calls = c;
                (mb_s, d)
            } else {
                let (mb_s, _, d) = timed_batch(b, v, calls);
                (mb_s, d)
            };
            if !desched || retries >= MAX_RETRIES {
                break mb_s;
            }
            retries += 1;
        };
        samples.push(mb_s);
        if samples.len() >= cfg.min_samples as usize
            && stats::stddev_pct(&samples).is_some_and(|s| s < cfg.stop_spread_pct)
        {
            break;
        }
    }
    test_of(v, samples, calls, retries, retries > 0)
}

/// The result of one variant from its samples (either method).
fn test_of(v: &Variant, samples: Vec<f64>, calls: u64, retries: u32, disturbed: bool) -> BwTest {
    BwTest {
        name: v.name.to_string(),
        kind: v.kind(),
        headline: v.headline,
        best_mb_s: stats::max(&samples).unwrap_or(0.0),
        median_mb_s: stats::median(&samples).unwrap_or(0.0),
        spread_pct: stats::stddev_pct(&samples),
        samples_mb_s: samples,
        calls_per_sample: calls,
        descheduled_retries: retries,
        disturbed,
    }
}

/// Runs `f` on a new thread pinned to `cpus` (the caller's own affinity stays untouched, so
/// later threads may still use every CPU).
pub fn on_pinned_thread<R: Send>(
    cpus: &[u32],
    f: impl FnOnce() -> Result<R, String> + Send,
) -> Result<R, String> {
    std::thread::scope(|s| {
        s.spawn(|| {
            pin_current_thread(cpus).map_err(|e| e.0)?;
            f()
        })
        .join()
        .unwrap_or_else(|_| Err("measuring thread panicked".into()))
    })
}

/// Measures every variant in order on one thread pinned to `cpus`.
pub fn measure_single(
    cpus: &[u32],
    variants: &[Variant],
    cfg: &Config,
) -> Result<Vec<BwTest>, String> {
    cfg.validate()?;
    on_pinned_thread(cpus, || {
        let b = Buffers::new(cfg.buffer_bytes)?;
        Ok(variants.iter().map(|v| measure(&b, v, cfg)).collect())
    })
}

/// Runs `v` on every CPU of `cpus` at once: one thread each, pinned, with its own buffers
/// (allocated and pre-faulted by that thread, so they are local to it), released together by a
/// barrier. Each sample, every thread calls the routine until `cfg.aggregate_ns` has passed since
/// the common start; its bandwidth is its bytes over its own elapsed time (the intervals differ
/// only by the last call's overshoot), and the sample's total is the sum over threads.
pub fn measure_aggregate(cpus: &[u32], v: &Variant, cfg: &Config) -> Result<BwAggregate, String> {
    cfg.validate()?;
    if cpus.is_empty() {
        return Err("empty CPU list for the aggregate".into());
    }
    let n = cpus.len();
    let barrier = Barrier::new(n);
    let failed = AtomicBool::new(false);
    let samples = cfg.aggregate_samples as usize;
    let per_thread: Vec<Result<Vec<f64>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = cpus
            .iter()
            .map(|&cpu| {
                let (barrier, failed) = (&barrier, &failed);
                s.spawn(move || {
                    let setup = pin_current_thread(&[cpu])
                        .map_err(|e| e.0)
                        .and_then(|_| Buffers::new(cfg.buffer_bytes));
                    if setup.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    // Every thread reaches every barrier, even after a failure elsewhere.
                    barrier.wait();
                    let b = match setup {
                        Ok(b) if !failed.load(Ordering::SeqCst) => b,
                        Ok(_) => return Ok(Vec::new()),
                        Err(e) => return Err(e),
                    };
                    b.call(v);
                    let mut out = Vec::with_capacity(samples);
                    for _ in 0..samples {
                        barrier.wait();
                        let t0 = now_ns();
                        let mut calls = 0u64;
                        let mut t = t0;
                        while t - t0 < cfg.aggregate_ns {
                            b.call(v);
                            calls += 1;
                            t = now_ns();
                        }
                        out.push(mb_per_s(b.len as u64 * calls, t - t0));
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("aggregate thread panicked".into()))
            })
            .collect()
    });
    let mut rows = Vec::with_capacity(n);
    for r in per_thread {
        rows.push(r?);
    }
    if rows.iter().any(|r| r.len() != samples) {
        return Err("an aggregate thread could not start".into());
    }
    let totals: Vec<f64> = (0..samples)
        .map(|i| rows.iter().map(|r| r[i]).sum())
        .collect();
    let best = (0..samples)
        .max_by(|&a, &b| totals[a].total_cmp(&totals[b]))
        .unwrap_or(0);
    Ok(BwAggregate {
        name: v.name.to_string(),
        kind: v.kind(),
        cpus: cpus.to_vec(),
        per_thread_mb_s: rows.iter().map(|r| r[best]).collect(),
        total_mb_s: totals[best],
        spread_pct: stats::stddev_pct(&totals),
        samples_mb_s: totals,
    })
}

/// Name of the fastest test of a kind.
pub fn best_of(tests: &[BwTest], kind: BwKind) -> Option<&BwTest> {
    tests
        .iter()
        .filter(|t| t.kind == kind)
        .max_by(|a, b| a.best_mb_s.total_cmp(&b.best_mb_s))
}

/// The whole membw measurement: every variant on `cpus`, then (if `aggregate_cpus` is given)
/// libc memcpy, libc memset and the fastest read on all those CPUs at once.
pub fn run(
    cpus: &[u32],
    variants: &[Variant],
    cfg: &Config,
    mode: &str,
    aggregate_cpus: Option<&[u32]>,
) -> Result<MembwResult, String> {
    let t0 = now_ns();
    let tests = measure_single(cpus, variants, cfg)?;
    let single_wall_s = (now_ns() - t0) as f64 / 1e9;
    let best = |k| best_of(&tests, k).map(|t| t.name.clone());
    let (best_copy, best_fill, best_read) =
        (best(BwKind::Copy), best(BwKind::Fill), best(BwKind::Read));
    let mut aggregate = Vec::new();
    let t1 = now_ns();
    if let Some(acpus) = aggregate_cpus {
        let all = available_variants();
        let mut names = vec![LIBC_MEMCPY.to_string(), LIBC_MEMSET.to_string()];
        names.extend(best_read.clone());
        for name in names {
            if let Some(v) = all.iter().find(|v| v.name == name) {
                aggregate.push(measure_aggregate(acpus, v, cfg)?);
            }
        }
    }
    Ok(MembwResult {
        cpus: cpus.to_vec(),
        mode: mode.to_string(),
        buffer_bytes: cfg.buffer_bytes as u64,
        tests,
        best_copy,
        best_fill,
        best_read,
        aggregate,
        single_wall_s,
        aggregate_wall_s: if aggregate_cpus.is_some() {
            (now_ns() - t1) as f64 / 1e9
        } else {
            0.0
        },
    })
}
