//! Memory latency: ramlat's chain table, tinymembench's random reads, and the cache levels found
//! from them.
//!
//! Timing is wall time (CLOCK_MONOTONIC) of a pinned thread. Each chain cell is measured in
//! several short runs; a run during which the thread lost the CPU (thread CPU time clearly below
//! wall time) is discarded, so a descheduled vCPU does not inflate a latency (ramlat divides a
//! CPU-time-limited loop by wall time and cannot tell), and the cell is the mean of the runs
//! kept: all their steps over all their time, as ramlat's steps over its wall time. (The
//! fastest run read 5–10 % below ramlat at DRAM sizes on a shared host: the luckiest 1.5 ms of
//! memory traffic, not the latency a long walk sees — scripts/bench-against, issue 21.) The
//! random-read cells keep tinymembench's best of several repeats.

pub mod caches;
pub mod chain;
pub mod random;

use document::measure::memlat::{
    AdvertisedCache, ChainRow, ChainTable, MemlatResult, RandomRow, RandomTable,
};

use crate::membw::on_pinned_thread;
use crate::timing::{now_ns, time};

/// How much and how long to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Chain table windows: powers of two from `min_size` to `max_size` bytes.
    pub min_size: u64,
    pub max_size: u64,
    /// Parallel chains per column.
    pub chains: Vec<u32>,
    /// Time per chain cell, split into `runs_per_cell` runs (the undisturbed ones are averaged).
    pub cell_ns: u64,
    pub runs_per_cell: u32,
    /// Random-read tables (without and with transparent huge pages).
    pub random: bool,
    /// Random-read windows: powers of two from `random_min_size` to min(`max_size`, 1 GiB).
    pub random_min_size: u64,
    /// Time per random-read repeat and the number of repeats (the fastest is kept).
    pub random_repeat_ns: u64,
    pub random_repeats: u32,
}

/// The largest window the random-read address generator covers (31-bit addresses, kept to 1 GiB).
pub const RANDOM_MAX_SIZE: u64 = 1 << 30;

impl Config {
    /// The standard table: 4 KiB … 64 MiB, 1/2/4/8 chains, ~36 ms per cell in 24 runs; random
    /// reads 1 KiB … 64 MiB, 5 repeats of ~3 ms.
    pub fn standard() -> Self {
        Config {
            min_size: 4 << 10,
            max_size: 64 << 20,
            chains: vec![1, 2, 4, 8],
            cell_ns: 36_000_000,
            runs_per_cell: 24,
            random: true,
            random_min_size: 1 << 10,
            random_repeat_ns: 3_000_000,
            random_repeats: 5,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let limit: u64 = if usize::BITS == 32 { 1 << 30 } else { 1 << 36 };
        for (what, s) in [
            ("minimum size", self.min_size),
            ("maximum size", self.max_size),
            ("random-read minimum size", self.random_min_size),
        ] {
            if s == 0 {
                return Err(format!("{what} must not be 0"));
            }
            if !s.is_power_of_two() {
                return Err(format!("{what} {s} B is not a power of two"));
            }
            if s > limit {
                return Err(format!(
                    "{what} {} is larger than {}",
                    caches::format_bytes(s),
                    caches::format_bytes(limit)
                ));
            }
        }
        if self.min_size < 4096 {
            return Err(format!("minimum size {} B is below 4 KiB", self.min_size));
        }
        if self.max_size < self.min_size {
            return Err(format!(
                "maximum size {} is below the minimum size {}",
                caches::format_bytes(self.max_size),
                caches::format_bytes(self.min_size)
            ));
        }
        if self.chains.is_empty() || self.chains.iter().any(|c| ![1, 2, 4, 8].contains(c)) {
            return Err(format!(
                "parallel chains must be 1, 2, 4 or 8 (got {:?})",
                self.chains
            ));
        }
        if self.cell_ns == 0 || self.random_repeat_ns == 0 {
            return Err("the time per cell must be positive".into());
        }
        if self.runs_per_cell == 0 || self.random_repeats == 0 {
            return Err("the number of runs must be at least 1".into());
        }
        Ok(())
    }

    fn sizes(from: u64, to: u64) -> Vec<u64> {
        std::iter::successors(Some(from), |&s| Some(s * 2))
            .take_while(|&s| s <= to)
            .collect()
    }
}

/// Share of a run's wall time the thread may lose before the run is discarded.
const DESCHEDULE_TOLERANCE: f64 = 0.02;

/// An anonymous mapping, optionally aligned and madvised.
struct Mapping {
    base: *mut u8,
    len: usize,
    map: *mut libc::c_void,
    map_len: usize,
}

impl Mapping {
    fn new(len: usize, align: usize) -> Result<Self, String> {
        let map_len = len + align;
        // SAFETY: anonymous private mapping, checked below.
        let map = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if map == libc::MAP_FAILED {
            return Err(format!(
                "cannot map {}: {}",
                caches::format_bytes(map_len as u64),
                std::io::Error::last_os_error()
            ));
        }
        let base = (map as usize).div_ceil(align) * align;
        Ok(Mapping {
            base: base as *mut u8,
            len,
            map,
            map_len,
        })
    }

    /// `madvise(advice)` over the aligned part; the error text when it fails.
    fn advise(&self, advice: libc::c_int) -> Option<String> {
        // SAFETY: the range lies in our mapping.
        let r = unsafe { libc::madvise(self.base.cast(), self.len, advice) };
        (r != 0).then(|| std::io::Error::last_os_error().to_string())
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`.
        unsafe { libc::munmap(self.map, self.map_len) };
    }
}

/// The wall times of a cell's short runs, split into the runs during which the thread kept the
/// CPU and those it lost it in (discarded).
#[derive(Default)]
struct Runs {
    ok: Vec<u64>,
    all: Vec<u64>,
}

impl Runs {
    /// Runs `f` `runs` times; if every run was disturbed, up to as many again are tried. Many
    /// short runs (~1.5 ms: below a scheduler time slice) give a busy machine many chances to
    /// leave one alone.
    fn of(runs: u32, mut f: impl FnMut()) -> Runs {
        let mut r = Runs::default();
        while r.all.len() < runs as usize || (r.ok.is_empty() && r.all.len() < 2 * runs as usize) {
            let ((), iv) = time(&mut f);
            r.all.push(iv.wall_ns);
            if !iv.was_descheduled(DESCHEDULE_TOLERANCE) {
                r.ok.push(iv.wall_ns);
            }
        }
        r
    }

    /// Runs discarded because the thread lost the CPU.
    fn discarded(&self) -> u32 {
        (self.all.len() - self.ok.len()) as u32
    }

    /// The undisturbed runs, or all of them when every run was disturbed.
    fn kept(&self) -> &[u64] {
        if self.ok.is_empty() {
            &self.all
        } else {
            &self.ok
        }
    }

    /// The fastest kept run.
    fn fastest(&self) -> u64 {
        self.kept().iter().copied().min().unwrap_or(0)
    }

    /// The mean of the kept runs.
    fn mean(&self) -> u64 {
        let k = self.kept();
        k.iter().sum::<u64>() / (k.len().max(1) as u64)
    }
}

/// Steps that take about `target_ns`, from a probe of `probe` steps that took `probe_ns`;
/// a multiple of 8, at least 1024.
fn steps_for(target_ns: u64, probe: usize, probe_ns: u64) -> usize {
    let per = probe_ns.max(1) as f64 / probe as f64;
    let steps = (target_ns as f64 / per) as usize;
    steps.clamp(1024, 1 << 30) / 8 * 8
}

/// One chain cell: `n` chains in a window of `words` words at `base` (chain already written).
/// Returns ns per step and the retries.
fn chain_cell(base: *mut usize, words: usize, n: usize, cfg: &Config) -> (f64, u32) {
    let mut p: Vec<*const usize> = chain::chain_starts(words, n)
        .into_iter()
        // SAFETY: start < words.
        .map(|s| unsafe { base.add(s) } as *const usize)
        .collect();
    // Warm-up: one whole cycle for windows up to 2 MiB (brings them into the caches), a short
    // walk beyond (those are memory-bound anyway; it still warms the TLB path and the loop).
    let warm = if words <= 1 << 18 {
        words.max(8)
    } else {
        1 << 14
    };
    // SAFETY: p holds chain starts inside the mapped window.
    unsafe { chain::chase_n(&mut p, warm / 8 * 8) };
    let probe = 4096;
    // SAFETY: `p` holds pointers into the chain written above, which stays alive; every link points inside it.
    let (_, iv) = time(|| unsafe { chain::chase_n(&mut p, probe) });
    let steps = steps_for(cfg.cell_ns / cfg.runs_per_cell as u64, probe, iv.wall_ns);
    // SAFETY: as above; the chains continue where they stopped.
    let runs = Runs::of(cfg.runs_per_cell, || unsafe {
        chain::chase_n(&mut p, steps)
    });
    let (ns, discarded) = (runs.mean(), runs.discarded());
    std::hint::black_box(&p);
    (ns as f64 / steps as f64, discarded)
}

/// The chain table on the calling thread (pinned by the caller).
pub fn chain_table(cfg: &Config) -> Result<ChainTable, String> {
    cfg.validate()?;
    let t0 = now_ns();
    let word = std::mem::size_of::<usize>();
    // No madvise: like ramlat, the window gets whatever the system's THP policy gives
    // (4 KiB pages under the usual "madvise" policy). Like ramlat, one area of the largest
    // size, aligned to a quarter of it, holds every window in its first bytes: the pages a
    // window uses are then the same ones at every size, first touched by the smallest.
    let sizes = Config::sizes(cfg.min_size, cfg.max_size);
    let largest = sizes.iter().copied().max().unwrap_or(4096) as usize;
    let area = Mapping::new(largest, (largest / 4).max(4096))?;
    let base = area.base.cast::<usize>();
    let mut rows = Vec::new();
    for size in sizes {
        let words = size as usize / word;
        // SAFETY: the window lies inside the mapping; words is a power of two.
        unsafe { chain::write_chain(base, words) };
        let mut ns = Vec::new();
        let mut retries = 0;
        for &n in &cfg.chains {
            let (t, r) = chain_cell(base, words, n as usize, cfg);
            ns.push(t);
            retries += r;
        }
        rows.push(ChainRow {
            size_bytes: size,
            ns_per_step: ns,
            descheduled_retries: retries,
            disturbed: retries > 0,
        });
    }
    Ok(ChainTable {
        chains: cfg.chains.clone(),
        word_bytes: word as u32,
        rows,
        wall_s: (now_ns() - t0) as f64 / 1e9,
    })
}

/// A small xorshift for the random window offsets (not in any timed loop).
fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Fastest ns per iteration of single and dual reads in a window of `size` bytes, over the
/// repeats at random window-aligned offsets of the buffer (averages out page colouring).
fn random_cell(buf: &Mapping, size: u64, cfg: &Config, rng: &mut u64) -> (f64, f64) {
    let mask = (size - 1) as u32;
    let windows = (buf.len as u64 / size).max(1);
    let mut best = [f64::INFINITY; 2];
    for _ in 0..cfg.random_repeats {
        let off = (xorshift(rng) % windows) * size;
        // SAFETY: off + size <= buf.len.
        let base = unsafe { buf.base.add(off as usize) } as *const u8;
        for (k, dual) in [false, true].into_iter().enumerate() {
            // Every run starts from a new seed, so no run replays addresses the run before left
            // in the caches.
            let mut run = |count: usize| {
                let seed = xorshift(rng) as u32;
                // SAFETY: base valid for size bytes, mask = size - 1.
                unsafe {
                    if dual {
                        random::dual_reads(base, mask, count, seed)
                    } else {
                        random::single_reads(base, mask, count, seed)
                    }
                }
            };
            let probe = 4096;
            run(probe); // warm-up
            let (_, iv) = time(|| run(probe));
            let count = steps_for(cfg.random_repeat_ns, probe, iv.wall_ns) / 16 * 16;
            let ns = Runs::of(1, || {
                std::hint::black_box(run(count));
            })
            .fastest();
            best[k] = best[k].min(ns as f64 / count as f64);
        }
    }
    (best[0], best[1])
}

/// One random-read table with `advice` (None = no madvise).
pub fn random_table(cfg: &Config, huge_pages: Option<bool>) -> Result<RandomTable, String> {
    cfg.validate()?;
    let t0 = now_ns();
    let top = cfg.max_size.min(RANDOM_MAX_SIZE).max(cfg.random_min_size);
    // At least 4 MiB, 2 MiB-aligned, so huge pages can back it when asked for.
    let len = top.max(4 << 20) as usize;
    let map = Mapping::new(len, 2 << 20)?;
    let madvise_error = huge_pages.and_then(|h| {
        map.advise(if h {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        })
    });
    // Zeroing faults the pages in (as huge pages when granted); the reads rely on all-zero bytes.
    // SAFETY: inside the mapping.
    unsafe { std::ptr::write_bytes(map.base, 0, len) };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    // Baseline: a 2-byte window is always an L1 hit; its time is subtracted from every row.
    let (base_single, base_dual) = random_cell(&map, 2, cfg, &mut rng);
    let rows = Config::sizes(cfg.random_min_size, top)
        .into_iter()
        .map(|size| {
            let (s, d) = random_cell(&map, size, cfg, &mut rng);
            RandomRow {
                size_bytes: size,
                single_ns: (s - base_single).max(0.0),
                dual_ns: (d - base_dual).max(0.0),
                single_raw_ns: s,
                dual_raw_ns: d,
            }
        })
        .collect();
    Ok(RandomTable {
        huge_pages: if madvise_error.is_some() {
            None
        } else {
            huge_pages
        },
        madvise_error,
        baseline_single_ns: base_single,
        baseline_dual_ns: base_dual,
        rows,
        wall_s: (now_ns() - t0) as f64 / 1e9,
    })
}

/// Everything on one thread pinned to `cpus`: the chain table, the two random-read tables
/// (MADV_NOHUGEPAGE, MADV_HUGEPAGE) when asked for, and the cache levels from the 1-chain
/// column beside the `advertised` caches.
pub fn run(
    cpus: &[u32],
    cfg: &Config,
    chain: bool,
    advertised: &[AdvertisedCache],
) -> Result<MemlatResult, String> {
    cfg.validate()?;
    let t0 = now_ns();
    on_pinned_thread(cpus, || {
        let chain = if chain { Some(chain_table(cfg)?) } else { None };
        let mut random = Vec::new();
        if cfg.random {
            random.push(random_table(cfg, Some(false))?);
            random.push(random_table(cfg, Some(true))?);
        }
        let caches = chain.as_ref().and_then(|t| {
            let col = t.chains.iter().position(|&c| c == 1)?;
            let ladder: Vec<(u64, f64)> = t
                .rows
                .iter()
                .map(|r| (r.size_bytes, r.ns_per_step[col]))
                .collect();
            Some(caches::analyse(&ladder, advertised))
        });
        Ok(MemlatResult {
            cpus: cpus.to_vec(),
            chain,
            random,
            caches,
            wall_s: (now_ns() - t0) as f64 / 1e9,
        })
    })
}

#[cfg(test)]
mod runs_tests {
    use super::Runs;

    #[test]
    fn undisturbed_runs_are_kept_else_all() {
        let r = Runs {
            ok: vec![10, 30],
            all: vec![10, 5, 30],
        };
        assert_eq!((r.fastest(), r.mean(), r.discarded()), (10, 20, 1));
        let all_disturbed = Runs {
            ok: vec![],
            all: vec![8, 4],
        };
        assert_eq!((all_disturbed.fastest(), all_disturbed.mean()), (4, 6));
        assert_eq!(all_disturbed.discarded(), 2);
    }

    #[test]
    fn at_least_the_asked_runs_are_made() {
        let mut n = 0;
        let r = Runs::of(5, || n += 1);
        assert!((5..=10).contains(&n) && r.all.len() == n);
    }
}
