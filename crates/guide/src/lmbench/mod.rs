//! The guide's "LMBench Benchmarks" table: operating-system and memory costs measured the way
//! lmbench 3.0-a9 measures them (the benchmp harness in [`timing`], one module per program),
//! named as TI's performance guides name lmbench's figures — both the short rows
//! (`lat_pipe (us)`) and the long duplicates (`pipe_latency (microsec)`) — so the numbers can be
//! set beside published guides. Nothing is compiled or run from outside: every partner process
//! is a fork of this one, every server listens on 127.0.0.1, every file is in the work directory.

pub mod bw_file_rd;
pub mod bw_ipc;
pub mod bw_mem;
pub mod bw_mmap_rd;
pub mod call;
pub mod isolate;
pub mod lat_connect;
pub mod lat_ctx;
pub mod lat_fs;
pub mod lat_mem_rd;
pub mod lat_mmap;
pub mod lat_ops;
pub mod lat_pagefault;
pub mod lat_pipe;
pub mod lat_proc;
pub mod lat_select;
pub mod lat_sem;
pub mod lat_sig;
pub mod lat_syscall;
pub mod lat_tcp;
pub mod lat_unix;
pub mod page_cache;
pub mod small_process;
pub mod sys;
pub mod timing;

use std::io::Write;
use std::path::{Path, PathBuf};

use document::guide::{GuideTable, GuideValue};

use crate::{Context, Outcome};
use isolate::in_child as isolated;
use timing::{CANDIDATES, Error, Result, Timing};

pub const TITLE: &str = "LMBench Benchmarks";
pub const KEY_HEADER: &str = "Benchmarks";
/// The test file: 16 MiB, as TI's script makes `test1.txt`.
pub const TEST_FILE_BYTES: usize = 16 * 1024 * 1024;
/// TI's `1M` arguments are 10^6 bytes (lmbench reads upper-case suffixes as powers of ten).
pub const MB: usize = 1_000_000;

/// The longest interval `--quick` uses (µs).
pub const QUICK_ENOUGH_US: f64 = 20_000.0;

/// The longest calibrated interval of a full run (µs), and the fallback where no candidate
/// passes lmbench's linearity test and the clock is too coarse for every one (lmbench falls
/// back to 1 s; 100 ms, its largest candidate, keeps the section within ≈ 8 min).
pub const FULL_ENOUGH_US: f64 = 100_000.0;

/// lat_ctx's intervals per figure in the full plan: TI's `-N 100`.
pub const CTX_TRIES: usize = 100;

/// The pause before each row with a partner process (lat_pipe, lat_unix, lat_tcp, lat_connect,
/// lat_sem, lat_ctx, bw_pipe, bw_unix, bw_tcp). lmbench's programs are started one by one (TI's
/// script, a shell): the next begins tens of milliseconds after the last one's partners are
/// gone. Started at once, a row inherits the scheduler's state the row before left — the CPUs'
/// recent load, which decides where a new pair of processes is placed: on the 2-vCPU guest of
/// issue 21, lat_unix right after lat_pipe read 8.5–30 µs (pair on one vCPU, or mixed), after
/// a 100 ms pause 39–46 µs, lmbench's own 41–58 µs, and 46 µs when measured alone.
pub const SETTLE: std::time::Duration = std::time::Duration::from_millis(100);

/// [`isolated`] after [`SETTLE`], for the rows with a partner process.
fn partnered<T, F>(t: &Timing, measure: F) -> Result<T>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
    F: FnOnce(&Timing) -> Result<T>,
{
    settle(t);
    isolated(t, measure)
}

fn settle(t: &Timing) {
    if !t.cancelled() {
        std::thread::sleep(SETTLE);
    }
}

/// What one run measures: the full list or the quick subset, or a tiny one in tests.
#[derive(Debug, Clone)]
pub struct Plan {
    /// bw_mem sizes in MB (10^6 bytes).
    pub bw_mem_mb: Vec<usize>,
    /// lat_mem_rd ranges in bytes.
    pub mem_rd_ranges: Vec<usize>,
    /// lat_ctx (processes, KiB).
    pub ctx: Vec<(usize, usize)>,
    /// lat_ctx's intervals per figure when not the harness's (TI passes `-N 100`).
    pub ctx_tries: Option<usize>,
    /// lat_fs file sizes in bytes.
    pub fs_sizes: Vec<usize>,
    /// Run lat_proc exec and shell (they start /bin/true and /bin/sh).
    pub exec: bool,
}

impl Plan {
    /// The seed's sizes plus the ones above the last-level cache (`llc` bytes).
    pub fn full(llc: Option<u64>) -> Plan {
        let llc = llc.unwrap_or(1 << 20) as usize;
        let mut mb = vec![1, 2, 4, 8, 16];
        let above = above_llc_mb(llc);
        if above > 16 {
            mb.push(above);
        }
        let max_range = (2 * llc).max(MB);
        Plan {
            bw_mem_mb: mb,
            mem_rd_ranges: lat_mem_rd::ranges(max_range),
            ctx: vec![(2, 128), (2, 256), (4, 128), (4, 256)],
            // TI runs `lat_ctx -N 100`: a median of 100 intervals, which also reaches the
            // ring's settled placement (docs/guide.md, lat_ctx).
            ctx_tries: Some(CTX_TRIES),
            fs_sizes: lat_fs::SIZES.to_vec(),
            exec: true,
        }
    }

    /// `--quick`: the seed's rows only where sizes sweep (lat_mem_rd's seed points and twice
    /// the LLC; bw_mem 1 and 16 MB and above the LLC).
    pub fn quick(llc: Option<u64>) -> Plan {
        let mut p = Plan::full(llc);
        p.bw_mem_mb.retain(|&m| m == 1 || m == 16 || m > 16);
        let llc = llc.unwrap_or(1 << 20) as usize;
        let mut ranges: Vec<usize> = [512, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10]
            .into_iter()
            .chain([1 << 20, 2 * llc])
            .collect();
        ranges.sort_unstable();
        ranges.dedup();
        p.mem_rd_ranges = ranges;
        // lat_fs waits on the file system's journal: on the shared 2-vCPU guest it took 11 of the
        // quick section's 9–20 s (2026-11-27 09:40); the smallest and largest file size stay.
        p.fs_sizes.retain(|&s| s == 0 || s == 10 * 1024);
        // lat_ctx's 100 intervals (≈ 4.5 s here) leave for the harness's 11.
        p.ctx_tries = None;
        p
    }
}

/// The smallest power-of-two MB size at least twice the last-level cache.
pub fn above_llc_mb(llc: usize) -> usize {
    let mut mb = 1;
    while mb * MB < 2 * llc {
        mb *= 2;
    }
    mb
}

/// The harness for a guide run: `ENOUGH` (µs, lmbench's variable) wins over the calibration;
/// `--quick` keeps at most 5 intervals of at most 20 ms and scales the floors to a tenth.
pub fn timing_for(ctx: &Context) -> Timing {
    let given = std::env::var("ENOUGH")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok());
    // Quick runs try only the shortest candidate: at 10 ms the quick section took 15.7 s of its
    // 20 s on the quiet 2-vCPU guest (6.2 s at 5 ms); a clock too coarse for 5 ms falls back
    // to the quick cap (20 ms).
    let max = if ctx.quick {
        CANDIDATES[0]
    } else {
        FULL_ENOUGH_US
    };
    let mut t = Timing::calibrate_until(given, max, &ctx.cancel).with_cancel(ctx.cancel.clone());
    if ctx.quick {
        t.tries = 5;
        t.floor_scale = 0.1;
        t.enough_cap_us = Some(QUICK_ENOUGH_US);
        let coarse_clock = t
            .calibration
            .as_ref()
            .is_some_and(|c| !c.passed && c.clock_step_us.is_none() && !c.interrupted());
        t.enough_us = if coarse_clock {
            QUICK_ENOUGH_US
        } else {
            t.enough_us.min(QUICK_ENOUGH_US)
        };
    }
    t
}

/// The section: runs every benchmark of `plan` and returns the table.
pub fn run(ctx: &Context) -> Outcome {
    let timing = timing_for(ctx);
    let plan = if ctx.quick {
        Plan::quick(ctx.llc_bytes())
    } else {
        Plan::full(ctx.llc_bytes())
    };
    run_with(&timing, &plan, &ctx.workdir)
}

/// Rows collected so far, the failures and the notes.
#[derive(Default)]
struct Collect {
    rows: Vec<(String, Option<GuideValue>)>,
    failures: Vec<String>,
    notes: Vec<String>,
    cancelled: bool,
    /// Row-name prefixes to measure (empty: every row); see [`ROWS_VAR`].
    only: Vec<String>,
}

impl Collect {
    /// Whether a row named `name` (or starting with it) is to be measured.
    fn wants(&self, name: &str) -> bool {
        self.only.is_empty()
            || self
                .only
                .iter()
                .any(|p| name.starts_with(p.as_str()) || p.starts_with(name))
    }

    /// Measures one figure (unless filtered out) and records it under its row names; false
    /// once cancelled (stop measuring).
    fn put(&mut self, names: &[&str], measure: impl FnOnce() -> Result<GuideValue>) -> bool {
        if !names.iter().any(|n| self.wants(n)) {
            return !self.cancelled;
        }
        match measure() {
            Ok(v) => {
                for n in names {
                    self.rows.push((n.to_string(), Some(v.clone())));
                }
            }
            Err(Error::Cancelled) => self.cancelled = true,
            Err(Error::Failed(m)) => {
                self.failures.push(format!("{}: {m}", names[0]));
                for n in names {
                    self.rows.push((n.to_string(), None));
                }
            }
        }
        !self.cancelled
    }
}

/// `BOARDBENCH_LMBENCH_ROWS=lat_ctx,lat_proc-fork`: measure only the rows whose names start
/// with one of these comma-separated prefixes (for side-by-side benches of a few rows; the
/// section notes the filter).
pub const ROWS_VAR: &str = "BOARDBENCH_LMBENCH_ROWS";

/// `BOARDBENCH_LMBENCH_FILE=/path/test1.txt`: use this existing file (≥ 16 MiB) as the test
/// file instead of writing one, and leave it in place — for side-by-side benches, so lmbench and
/// boardbench read one file in one page-cache state. lat_mmap's figure depends 2–5× on the size
/// of the page-cache folios the file's writes produced (docs/guide.md, "lat_mmap and the page
/// cache"), which two separately written files need not share.
pub const FILE_VAR: &str = "BOARDBENCH_LMBENCH_FILE";

/// The test file given by [`FILE_VAR`] (its value `var`): None when not given, an error when it
/// does not name a file of at least 16 MiB.
fn given_test_file(
    var: Option<std::ffi::OsString>,
) -> std::result::Result<Option<PathBuf>, String> {
    let Some(path) = var.filter(|v| !v.is_empty()).map(PathBuf::from) else {
        return Ok(None);
    };
    match std::fs::metadata(&path) {
        Ok(m) if m.is_file() && m.len() >= TEST_FILE_BYTES as u64 => Ok(Some(path)),
        Ok(_) => Err(format!(
            "{FILE_VAR}={} is not a regular file of at least 16 MiB",
            path.display()
        )),
        Err(e) => Err(format!("{FILE_VAR}={}: {e}", path.display())),
    }
}

/// The row filter from [`ROWS_VAR`] (empty: every row).
fn rows_filter() -> Vec<String> {
    std::env::var(ROWS_VAR)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

/// Runs the plan with the given harness, files in `workdir`.
pub fn run_with(t: &Timing, plan: &Plan, workdir: &Path) -> Outcome {
    let mut c = Collect {
        only: rows_filter(),
        ..Default::default()
    };
    if !c.only.is_empty() {
        c.notes.push(format!(
            "Only the rows starting with {} were measured ({ROWS_VAR}).",
            c.only.join(", ")
        ));
    }
    let given = match given_test_file(std::env::var_os(FILE_VAR)) {
        Ok(g) => g,
        Err(e) => {
            return Outcome {
                failed: Some(e),
                ..Default::default()
            };
        }
    };
    if let Some(f) = &given {
        c.notes.push(format!(
            "The test file is {} ({FILE_VAR}), not written by the section.",
            f.display()
        ));
    }
    let file = match given.clone().map_or_else(|| make_test_file(workdir), Ok) {
        Ok(f) => f,
        Err(e) => {
            return Outcome {
                failed: Some(format!(
                    "cannot write the 16 MiB test file in {}: {e}",
                    workdir.display()
                )),
                ..Default::default()
            };
        }
    };
    c.notes.push(format!(
        "lmbench method (benchmp): ENOUGH {:.0} µs ({}), timer overhead {:.3} µs, loop overhead {:.5} µs; {} intervals per figure (one where ENOUGH reaches 1 s), median shown with min/max (lat_mem_rd: minimum); CLOCK_MONOTONIC.",
        t.enough_us,
        match &t.calibration {
            None => "given (ENOUGH)".to_string(),
            Some(c) => c.describe(),
        },
        t.timer_overhead_us,
        t.loop_overhead_us,
        t.tries
    ));
    c.notes.push(
        "No CPU pinning (as TI's runs): partner processes float, so IPC figures mix same-CPU and cross-CPU hand-offs; each row with a partner starts 100 ms after the row before, as lmbench's programs run one by one. Servers are our own forked children on 127.0.0.1 (listen backlog 100, as lmbench's).".into(),
    );
    let _ = measure_all(t, plan, &file, workdir, &mut c);
    if let Some(f) = page_cache::folios(&file, TEST_FILE_BYTES) {
        c.notes.push(format!(
            "The test file's page cache: {} folios (lat_mmap's figure depends 2–5× on their size; docs/guide.md, \"lat_mmap and the page cache\").{}",
            page_cache::describe(&f),
            page_cache::mixed_warning(&f, given.is_some())
                .map(|w| format!(" {w}"))
                .unwrap_or_default()
        ));
    }
    if given.is_none() {
        let _ = std::fs::remove_file(&file);
    }
    let mut table = GuideTable::perf(TITLE, KEY_HEADER);
    c.rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, v) in c.rows {
        table.push(k, v);
    }
    let failed = (!c.failures.is_empty()).then(|| c.failures.join("; "));
    Outcome {
        tables: vec![table],
        notes: c.notes,
        tool: None,
        skipped: None,
        failed,
    }
}

/// A 16 MiB file of pseudo-random bytes in `dir`, left in the page cache (not synced: the
/// methods read it from memory, as TI's freshly written `test1.txt`).
pub fn make_test_file(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join("test1.txt");
    let mut f = std::fs::File::create(&path)?;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64;
    let mut block = vec![0u8; 1 << 20];
    for _ in 0..TEST_FILE_BYTES / block.len() {
        for w in block.chunks_exact_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            w.copy_from_slice(&x.to_le_bytes());
        }
        f.write_all(&block)?;
    }
    Ok(path)
}

/// Every measurement in turn; returns early (None) once cancelled.
fn measure_all(t: &Timing, plan: &Plan, file: &Path, dir: &Path, c: &mut Collect) -> Option<()> {
    use lat_syscall::Op;
    for op in Op::ALL {
        let name = format!("lat_syscall-{} (us)", op.name());
        c.put(&[&name], || match file.parent() {
            Some(d) => isolate::in_child_at(t, d, |t, at| lat_syscall::measure(t, op, file, at)),
            None => isolated(t, |t| lat_syscall::measure(t, op, file, false)),
        })
        .then_some(())?;
    }
    c.put(
        &["lat_sig-install (us)", "signal_handler_latency (microsec)"],
        || isolated(t, lat_sig::install),
    )
    .then_some(())?;
    c.put(
        &["lat_sig-catch (us)", "signal_handler_overhead (microsec)"],
        || isolated(t, lat_sig::catch),
    )
    .then_some(())?;
    c.put(&["lat_sig-prot (us)"], || {
        isolated(t, |t| lat_sig::prot(t, file))
    })
    .then_some(())?;
    c.put(&["lat_pipe (us)", "pipe_latency (microsec)"], || {
        partnered(t, lat_pipe::measure)
    })
    .then_some(())?;
    c.put(
        &["lat_unix (us)", "af_unix_sock_stream_latency (microsec)"],
        || partnered(t, lat_unix::measure),
    )
    .then_some(())?;
    c.put(
        &["lat_tcp (us)", "tcp_latency_using_localhost (microsec)"],
        || partnered(t, lat_tcp::measure),
    )
    .then_some(())?;
    c.put(
        &[
            "lat_connect (us)",
            "tcp_ip_connection_cost_to_localhost (microsec)",
        ],
        || partnered(t, lat_connect::measure),
    )
    .then_some(())?;
    c.put(
        &["lat_select (us)", "select_on_200_tcp_fds (microsec)"],
        || isolated(t, lat_select::measure),
    )
    .then_some(())?;
    c.put(&["lat_sem (us)", "semaphore_latency (microsec)"], || {
        partnered(t, lat_sem::measure)
    })
    .then_some(())?;
    let mut ovr = Vec::new();
    let mut tc = t.clone();
    if let Some(n) = plan.ctx_tries {
        tc.tries = n;
    }
    for &(p, s) in &plan.ctx {
        c.put(&[&format!("lat_ctx-{p}-{s}k (us)")], || {
            // From a small, freshly started process where the host binary can start one (as
            // lmbench forks its ring from its small lat_ctx), else from the measuring child.
            settle(&tc);
            small_process::ring(&tc, p, s)
                .unwrap_or_else(|| isolated(&tc, |t| lat_ctx::measure(t, p, s)))
                .map(|(v, o)| {
                    ovr.push(format!("{p}-{s}k {o:.2}"));
                    v
                })
        })
        .then_some(())?;
    }
    if !ovr.is_empty() {
        c.notes.push(format!(
            "lat_ctx: per-hop overhead subtracted (µs): {}; median of {} intervals (TI passes -N 100); the overhead and the ring each measured in a fresh child of {}.",
            ovr.join(", "),
            tc.repetitions(tc.enough_us),
            if small_process::available() {
                "a small, freshly started process, as lmbench's lat_ctx forks a benchmp child for each"
            } else {
                "the measuring child, a copy of the whole program"
            }
        ));
    }
    use lat_proc::Kind;
    c.put(
        &["lat_proc-proccall (us)", "procedure_call (microsec)"],
        || isolated(t, |t| lat_proc::measure(t, Kind::Procedure)),
    )
    .then_some(())?;
    // fork, exec and shell from a small, freshly started process when the host binary can
    // start one (see small_process), else from the measuring child.
    let from_small = |t: &Timing, kind: Kind| {
        small_process::measure(t, kind)
            .unwrap_or_else(|| isolated(t, |t| lat_proc::measure(t, kind)))
    };
    c.put(&["lat_proc-fork (us)"], || from_small(t, Kind::Fork))
        .then_some(())?;
    if c.wants("lat_proc-fork (us)") {
        c.notes.push(if small_process::available() {
            "lat_proc fork/exec/shell: forked from a small, freshly started process, as lmbench's \
         lat_proc forks; fork's child ends with _exit where lmbench's runs the C library's exit \
         handlers, so fork reads below lmbench's figure (0.81-0.90 x on a 2-vCPU x86 guest)."
                .to_string()
        } else {
            "lat_proc fork/exec/shell: forked from the measuring child, a copy of the whole \
         program (fork copies more page tables than lmbench's small lat_proc does)."
                .to_string()
        });
    }
    if plan.exec {
        c.put(&["lat_proc-exec (us)"], || from_small(t, Kind::Exec))
            .then_some(())?;
        c.put(&["lat_proc-shell (us)"], || from_small(t, Kind::Shell))
            .then_some(())?;
        c.notes.push(format!(
            "lat_proc exec/shell start {} (and {} -c {}), not lmbench's own hello program.",
            lat_proc::HELLO,
            lat_proc::SHELL,
            lat_proc::HELLO
        ));
    }
    c.put(&["lat_pagefault (us)"], || {
        isolated(t, |t| lat_pagefault::measure(t, file))
    })
    .then_some(())?;
    c.put(&["lat_mmap-1m (us)"], || {
        isolated(t, |t| lat_mmap::measure(t, file, MB))
    })
    .then_some(())?;
    let mut rates = Vec::new();
    for &size in &plan.fs_sizes {
        let name = format!("lat_fs-{}k (num_files)", size / 1024);
        c.put(&[&name], || {
            isolated(t, |t| {
                lat_fs::measure(t, dir, size).map(|f| (f.files, f.creates_per_s, f.deletes_per_s))
            })
            .map(|(files, creates, deletes)| {
                rates.push(format!("{}k {creates:.0}/{deletes:.0}", size / 1024));
                GuideValue::one(files as f64)
            })
        })
        .then_some(())?;
    }
    if !rates.is_empty() {
        c.notes.push(format!(
            "lat_fs (num_files = files created in the median interval, ≈ rate × ENOUGH) in {}; creates/deletes per second: {}.",
            dir.display(),
            rates.join(", ")
        ));
    }
    for ty in lat_ops::TYPES {
        if !c.wants(&format!("lat_ops-{ty}-")) {
            continue;
        }
        for (op, v) in lat_ops::measure_type(t, ty) {
            c.put(&[&format!("lat_ops-{ty}-{op} (ns)")], || v)
                .then_some(())?;
        }
    }
    for &range in &plan.mem_rd_ranges {
        let name = format!(
            "lat_mem_rd-stride{}-{} (ns)",
            lat_mem_rd::STRIDE,
            lat_mem_rd::row_size(range)
        );
        let mut names = vec![name];
        if range == 512 << 10 {
            names.push("latency_for_0.50_mb_block_size (nanosec)".into());
        }
        if range == 1 << 20 {
            names.push("latency_for_1.00_mb_block_size (nanosec)".into());
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        c.put(&refs, || lat_mem_rd::measure(t, range))
            .then_some(())?;
    }
    // bw_mem in a forked child, as lmbench's benchmp runs it: from the guide's own process fwr
    // read 1.15–1.27 × lmbench at 1–4 MB and 1.6–3.2 × at 8–16 MB on a Zen 3 guest, from the
    // child 1.01–1.09 × (8 rounds each, back to back, 2026-11-28; why is not known: a C
    // program with an idle second thread did not change).
    for op in bw_mem::OPS {
        for &mb in &plan.bw_mem_mb {
            let name = format!("bw_mem-{op}-{mb}mb (MB/s)");
            c.put(&[&name], || {
                isolated(t, |t| bw_mem::measure(t, op, mb * MB))
            })
            .then_some(())?;
        }
    }
    c.put(&["bw_file_rd-io-1mb (MB/s)"], || {
        isolated(t, |t| bw_file_rd::measure(t, file, MB, false))
    })
    .then_some(())?;
    c.put(&["bw_file_rd-o2c-1mb (MB/s)"], || {
        isolated(t, |t| bw_file_rd::measure(t, file, MB, true))
    })
    .then_some(())?;
    c.put(&["bw_mmap_rd-mo-1mb (MB/s)"], || {
        isolated(t, |t| bw_mmap_rd::measure(t, file, MB, false))
    })
    .then_some(())?;
    c.put(&["bw_mmap_rd-o2c-1mb (MB/s)"], || {
        isolated(t, |t| bw_mmap_rd::measure(t, file, MB, true))
    })
    .then_some(())?;
    use bw_ipc::Kind as Bw;
    c.put(&["bw_pipe (MB/s)", "pipe_bandwidth (MBs)"], || {
        partnered(t, |t| bw_ipc::measure(t, Bw::Pipe))
    })
    .then_some(())?;
    c.put(
        &["bw_unix (MB/s)", "af_unix_socket_stream_bandwidth (MBs)"],
        || partnered(t, |t| bw_ipc::measure(t, Bw::Unix)),
    )
    .then_some(())?;
    c.put(&["bw_tcp (MB/s)"], || {
        partnered(t, |t| bw_ipc::measure(t, Bw::Tcp))
    })
    .then_some(())?;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_plan_takes_lat_ctx_over_tis_100_intervals_and_quick_over_the_harness() {
        assert_eq!(Plan::full(Some(1 << 20)).ctx_tries, Some(CTX_TRIES));
        assert_eq!(CTX_TRIES, 100);
        assert_eq!(Plan::quick(Some(1 << 20)).ctx_tries, None);
    }

    #[test]
    fn a_given_test_file_must_be_a_16_mib_file() {
        assert_eq!(given_test_file(None), Ok(None));
        assert_eq!(given_test_file(Some("".into())), Ok(None));
        let dir = tempfile::tempdir().unwrap();
        let missing = given_test_file(Some(dir.path().join("nope").into()));
        assert!(missing.unwrap_err().starts_with(FILE_VAR));
        let small = dir.path().join("small");
        std::fs::write(&small, b"x").unwrap();
        let err = given_test_file(Some(small.clone().into())).unwrap_err();
        assert!(err.contains("at least 16 MiB"), "{err}");
        assert!(given_test_file(Some(dir.path().into())).is_err());
        let f = std::fs::File::create(&small).unwrap();
        f.set_len(TEST_FILE_BYTES as u64).unwrap();
        assert_eq!(given_test_file(Some(small.clone().into())), Ok(Some(small)));
    }
}
