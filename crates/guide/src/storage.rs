//! Storage: the seed's "EXT4 FIO 1G" table (sequential write and read per buffer size, with the
//! system's CPU load) plus random 4k IOPS with completion-latency percentiles, measured by fio.
//!
//! Why this shape:
//! - fio, not a home-made loop: its numbers are what every storage review quotes, and its JSON
//!   output is stable. Without fio the section is skipped and says so.
//! - Direct I/O (`--direct=1`, libaio, queue depth 4 as the seed's ltp-ddt script) so the page
//!   cache does not measure itself. Where the file system refuses O_DIRECT, buffered I/O with
//!   fio's own cache invalidation and a final fsync is used, and a note says so.
//! - The file is written once in full before anything is timed: a freshly allocated file reads
//!   back as holes (zeros from no device at all) and would make reads look impossibly fast.
//! - Only one file, in the directory the user named, after checking the free space; it is
//!   removed on every way out (normal end, error, cancel via Ctrl-C/SIGTERM, panic — a guard's
//!   Drop). Raw devices are never touched.
//! - The mount's file system and options go into the notes, a `sync` mount called out: the
//!   seed warns that it ruins write numbers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use document::guide::{GuideRow, GuideTable, GuideValue};
use serde_json::Value;

use crate::exec::{self, RunError};
use crate::registry::Outcome;
use crate::{Context, sysload};

/// The file size when the command sets none: the seed's 1 GiB.
pub const DEFAULT_SIZE: u64 = 1 << 30;

static SIZE: AtomicU64 = AtomicU64::new(DEFAULT_SIZE);

/// Sets the file size the registered section uses (the command's size option).
pub fn set_size(bytes: u64) {
    SIZE.store(bytes.max(1 << 20), Ordering::Relaxed);
}

/// The seed's buffer sizes, in the seed's row order.
pub const BLOCK_SIZES: [&str; 4] = ["1m", "4m", "4k", "256k"];

#[derive(Debug, Clone)]
pub struct Options {
    /// The test file's size in bytes.
    pub size: u64,
    /// How long each timed job runs (fio `--runtime` with `--time_based`).
    pub runtime: Duration,
}

impl Options {
    /// 1 GiB (or what [`set_size`] set) and 30 s per job (6 s with `--quick`).
    pub fn for_context(ctx: &Context) -> Self {
        Options {
            size: SIZE.load(Ordering::Relaxed),
            runtime: ctx.budget(Duration::from_secs(30)),
        }
    }
}

/// The registered section.
pub fn section(ctx: &Context) -> Outcome {
    run(ctx, &Options::for_context(ctx))
}

// ---------------------------------------------------------------------------------------------
// fio's JSON

/// One direction of one fio job.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FioDirection {
    pub io_bytes: u64,
    /// Bytes per second.
    pub bw_bytes: f64,
    pub iops: f64,
    /// Completion-latency percentiles: (percentile, nanoseconds).
    pub clat_pct_ns: Vec<(f64, f64)>,
    pub clat_mean_ns: f64,
}

impl FioDirection {
    /// The completion latency at percentile `p` (e.g. 99.0) in ns.
    pub fn clat_at(&self, p: f64) -> Option<f64> {
        self.clat_pct_ns
            .iter()
            .find(|(q, _)| (q - p).abs() < 1e-6)
            .map(|(_, v)| *v)
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FioJob {
    pub name: String,
    /// fio's error number (0 = none).
    pub error: i64,
    pub read: FioDirection,
    pub write: FioDirection,
    /// The job's user and system CPU time, percent of its runtime (of one CPU).
    pub usr_cpu: f64,
    pub sys_cpu: f64,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FioResult {
    /// "fio-3.33"
    pub version: String,
    pub jobs: Vec<FioJob>,
}

/// Parses fio's `--output-format=json`. fio may print warnings before the JSON object; they are
/// skipped.
pub fn parse_fio(text: &str) -> Result<FioResult, String> {
    let start = text.find('{').ok_or("no JSON object in fio's output")?;
    let v: Value = serde_json::from_str(&text[start..]).map_err(|e| format!("fio JSON: {e}"))?;
    let jobs = v
        .get("jobs")
        .and_then(Value::as_array)
        .ok_or("fio JSON without jobs")?;
    Ok(FioResult {
        version: v["fio version"].as_str().unwrap_or_default().to_string(),
        jobs: jobs.iter().map(parse_job).collect(),
    })
}

fn parse_job(j: &Value) -> FioJob {
    FioJob {
        name: j["jobname"].as_str().unwrap_or_default().to_string(),
        error: j["error"].as_i64().unwrap_or(0),
        read: parse_direction(&j["read"]),
        write: parse_direction(&j["write"]),
        usr_cpu: j["usr_cpu"].as_f64().unwrap_or(0.0),
        sys_cpu: j["sys_cpu"].as_f64().unwrap_or(0.0),
    }
}

fn parse_direction(d: &Value) -> FioDirection {
    let mut clat_pct_ns: Vec<(f64, f64)> = d["clat_ns"]["percentile"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_f64()?)))
                .collect()
        })
        .unwrap_or_default();
    clat_pct_ns.sort_by(|a, b| a.0.total_cmp(&b.0));
    FioDirection {
        io_bytes: d["io_bytes"].as_u64().unwrap_or(0),
        // Older fio versions have no bw_bytes, only bw in KiB/s.
        bw_bytes: d["bw_bytes"]
            .as_f64()
            .or_else(|| d["bw"].as_f64().map(|k| k * 1024.0))
            .unwrap_or(0.0),
        iops: d["iops"].as_f64().unwrap_or(0.0),
        clat_pct_ns,
        clat_mean_ns: d["clat_ns"]["mean"].as_f64().unwrap_or(0.0),
    }
}

// ---------------------------------------------------------------------------------------------
// Where the file goes

/// The mount holding a directory, from /proc/self/mountinfo.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MountOf {
    pub mount_point: String,
    pub fs_type: String,
    pub source: String,
    /// Per-mount options, then the file system's own (super) options.
    pub options: Vec<String>,
    /// "major:minor" of the device.
    pub dev: String,
}

impl MountOf {
    /// Whether writes are synchronous (`sync` among the options; `dirsync` only affects
    /// directories).
    pub fn is_sync(&self) -> bool {
        self.options.iter().any(|o| o == "sync")
    }
}

/// The mount whose mount point is the longest prefix of `dir` (an absolute, canonical path).
pub fn mount_of(mountinfo: &str, dir: &str) -> Option<MountOf> {
    let mut best: Option<MountOf> = None;
    for line in mountinfo.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(sep) = f.iter().position(|x| *x == "-") else {
            continue;
        };
        if f.len() < sep + 3 || sep < 6 {
            continue;
        }
        let mp = unescape(f[4]);
        let inside =
            dir == mp || mp == "/" || dir.starts_with(&format!("{}/", mp.trim_end_matches('/')));
        if !inside
            || best
                .as_ref()
                .is_some_and(|b| b.mount_point.len() > mp.len())
        {
            continue;
        }
        let mut options: Vec<String> = f[5].split(',').map(str::to_string).collect();
        if let Some(sup) = f.get(sep + 3) {
            options.extend(sup.split(',').map(str::to_string));
        }
        best = Some(MountOf {
            mount_point: mp,
            fs_type: f[sep + 1].to_string(),
            source: unescape(f[sep + 2]),
            options,
            dev: f[2].to_string(),
        });
    }
    best
}

fn unescape(s: &str) -> String {
    s.replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// The block device under a mount, from sysfs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockDevice {
    /// The whole disk ("mmcblk0", "nvme0n1", "sda").
    pub disk: String,
    pub partition: Option<String>,
    pub model: Option<String>,
    /// "mmc", "nvme", "usb", "ata", "virtio", "scsi"
    pub bus: Option<String>,
    /// MMC cards: "MMC" (eMMC) or "SD".
    pub mmc_type: Option<String>,
    pub rotational: Option<bool>,
}

impl BlockDevice {
    /// The seed's table prefix: "EMMC" for eMMC, "MMC" for SD cards, else the bus.
    pub fn table_prefix(&self) -> Option<String> {
        match (self.mmc_type.as_deref(), self.bus.as_deref()) {
            (Some("MMC"), _) => Some("EMMC".into()),
            (Some("SD"), _) => Some("MMC".into()),
            (_, Some(b)) => Some(b.to_uppercase()),
            _ => None,
        }
    }
}

/// Reads what sysfs says about device `dev` ("179:2").
pub fn block_device(root: &probe::Root, dev: &str) -> Option<BlockDevice> {
    let target = root.resolve(&format!("/sys/dev/block/{dev}")).ok()?;
    let parts: Vec<&str> = target.split('/').filter(|s| !s.is_empty()).collect();
    let bi = parts.iter().rposition(|p| *p == "block")?;
    let disk = parts.get(bi + 1)?.to_string();
    let partition = parts.get(bi + 2).map(|s| s.to_string());
    let sys = format!("/sys/block/{disk}");
    let dev_dir = format!("{sys}/device");
    let model = root
        .read_value(&format!("{dev_dir}/model"))
        .or_else(|_| root.read_value(&format!("{dev_dir}/name")))
        .ok()
        .filter(|s| !s.is_empty());
    let mmc_type = root.read_value(&format!("{dev_dir}/type")).ok();
    let bus = if target.contains("/mmc_host/") || disk.starts_with("mmcblk") {
        Some("mmc")
    } else if disk.starts_with("nvme") {
        Some("nvme")
    } else if target.contains("/usb") {
        Some("usb")
    } else if target.contains("/ata") {
        Some("ata")
    } else if target.contains("/virtio") {
        Some("virtio")
    } else if disk.starts_with("sd") {
        Some("scsi")
    } else {
        None
    };
    Some(BlockDevice {
        disk,
        partition,
        model,
        bus: bus.map(str::to_string),
        mmc_type: mmc_type.filter(|t| t == "MMC" || t == "SD"),
        rotational: root
            .read_u64(&format!("{sys}/queue/rotational"))
            .ok()
            .map(|r| r == 1),
    })
}

/// Free bytes for an unprivileged writer in `dir`.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain data; all-zero is a valid value.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid NUL-terminated path and `s` a writable statvfs.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut s) };
    (rc == 0).then(|| s.f_bavail as u64 * s.f_frsize as u64)
}

/// Removes the test file however the section ends.
struct FileGuard(PathBuf);

impl Drop for FileGuard {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// "1G", "16M", "512K": the table title's size.
pub fn size_label(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{}G", bytes >> 30)
    } else if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{}M", bytes >> 20)
    } else {
        format!("{}K", bytes >> 10)
    }
}

// ---------------------------------------------------------------------------------------------
// The section

struct Fio<'a> {
    ctx: &'a Context,
    file: PathBuf,
    size: u64,
    direct: bool,
}

enum JobError {
    Cancelled,
    Failed(String),
}

impl Fio<'_> {
    fn args(&self, rw: &str, bs: &str) -> Vec<String> {
        let mut a = vec![
            "--name=boardbench".to_string(),
            format!("--filename={}", self.file.display()),
            format!("--size={}", self.size),
            format!("--rw={rw}"),
            format!("--bs={bs}"),
            "--ioengine=libaio".into(),
            "--iodepth=4".into(),
            "--numjobs=1".into(),
            "--group_reporting".into(),
            "--eta=never".into(),
            "--output-format=json".into(),
            format!("--direct={}", u8::from(self.direct)),
        ];
        if !self.direct {
            a.push("--invalidate=1".into());
            a.push("--end_fsync=1".into());
        }
        a
    }

    /// Runs one job; returns its result and the system's CPU load over it.
    fn job(&self, args: Vec<String>, limit: Duration) -> Result<(FioJob, Option<f64>), JobError> {
        let (ran, load) = sysload::around(&self.ctx.root, || {
            exec::run(Command::new("fio").args(&args), limit, &self.ctx.cancel)
        });
        let ran = match ran {
            Ok(r) => r,
            Err(RunError::Cancelled) => return Err(JobError::Cancelled),
            Err(e) => return Err(JobError::Failed(format!("fio {e}"))),
        };
        let parsed = parse_fio(&ran.stdout);
        match parsed {
            Ok(r) if ran.ok() && r.jobs.first().is_some_and(|j| j.error == 0) => {
                Ok((r.jobs[0].clone(), load))
            }
            _ => Err(JobError::Failed(format!(
                "fio failed (exit {:?}): {}",
                ran.status,
                first_line(&ran.stderr).unwrap_or("no message")
            ))),
        }
    }

    fn timed(
        &self,
        rw: &str,
        bs: &str,
        runtime: Duration,
    ) -> Result<(FioJob, Option<f64>), JobError> {
        let mut a = self.args(rw, bs);
        a.push(format!("--runtime={}", runtime.as_secs().max(1)));
        a.push("--time_based".into());
        self.job(a, runtime + Duration::from_secs(120))
    }
}

fn first_line(s: &str) -> Option<&str> {
    s.lines().map(str::trim).find(|l| !l.is_empty())
}

/// Runs the storage section with explicit options (the registered section uses
/// [`Options::for_context`]).
pub fn run(ctx: &Context, opt: &Options) -> Outcome {
    let Some(dir) = ctx.storage_dir.as_ref() else {
        return Outcome::skipped("no directory given (--storage DIR)");
    };
    if exec::which("fio").is_none() {
        return Outcome::skipped("fio is not installed (Debian: apt install fio)");
    }
    let dir = match std::fs::canonicalize(dir) {
        Ok(d) if d.is_dir() => d,
        _ => return Outcome::skipped(format!("{} is not a directory", dir.display())),
    };
    // What fio needs plus room for its bookkeeping and the file system's metadata.
    let need = opt.size + opt.size / 20 + (16 << 20);
    match free_bytes(&dir) {
        Some(free) if free < need => {
            return Outcome::skipped(format!(
                "{} has {} MiB free, the {} MiB test file needs {} MiB",
                dir.display(),
                free >> 20,
                opt.size >> 20,
                need >> 20
            ));
        }
        None => {
            return Outcome::skipped(format!("cannot read the free space of {}", dir.display()));
        }
        _ => {}
    }
    let tool = exec::version_line("fio", &["--version"]);
    let mut notes = Vec::new();
    let mount = ctx
        .root
        .read("/proc/self/mountinfo")
        .ok()
        .and_then(|mi| mount_of(&mi, &dir.to_string_lossy()));
    let device = mount.as_ref().and_then(|m| block_device(&ctx.root, &m.dev));
    if let Some(m) = &mount {
        notes.push(format!(
            "file system: {} on {} mounted at {} ({})",
            m.fs_type,
            m.source,
            m.mount_point,
            m.options.join(",")
        ));
        if m.is_sync() {
            notes.push(
                "WARNING: the file system is mounted `sync`: every write waits for the device, \
                 write throughput is far below what the device can do"
                    .into(),
            );
        }
    }
    if let Some(d) = &device {
        let mut s = format!("block device: {}", d.disk);
        if let Some(m) = &d.model {
            s += &format!(", model {m}");
        }
        if let Some(b) = &d.bus {
            s += &format!(", bus {b}");
        }
        if let Some(t) = &d.mmc_type {
            s += &format!(", card type {t}");
        }
        if let Some(r) = d.rotational {
            s += if r {
                ", rotational"
            } else {
                ", non-rotational"
            };
        }
        notes.push(s);
    }
    let fs = mount
        .as_ref()
        .map(|m| m.fs_type.to_uppercase())
        .unwrap_or_else(|| "FS".into());
    let prefix = device
        .as_ref()
        .and_then(BlockDevice::table_prefix)
        .map(|p| format!("{p} "))
        .unwrap_or_default();
    let file = dir.join(format!("boardbench-fio.{}.tmp", std::process::id()));
    let _guard = FileGuard(file.clone());
    let mut fio = Fio {
        ctx,
        file,
        size: opt.size,
        direct: true,
    };
    let mut out = Outcome {
        tool: tool.clone(),
        ..Default::default()
    };

    // Lay the file out in full (untimed); this is also where O_DIRECT support shows.
    let layout_limit = Duration::from_secs(120 + opt.size / (2 << 20));
    let layout = |f: &Fio| f.job(f.args("write", "1m"), layout_limit);
    let laid = match layout(&fio) {
        Err(JobError::Failed(_)) => {
            fio.direct = false;
            let r = layout(&fio);
            if r.is_ok() {
                notes.push(
                    "the file system refused O_DIRECT: buffered I/O with the file's cached pages \
                     dropped before each job (fio --invalidate=1) and an fsync at the end of each \
                     write job"
                        .into(),
                );
            }
            r
        }
        r => r,
    };
    match laid {
        Ok(_) => {}
        Err(JobError::Cancelled) => {
            out.notes = notes;
            return out;
        }
        Err(JobError::Failed(e)) => {
            out.notes = notes;
            out.failed = Some(e);
            return out;
        }
    }
    if fio.direct {
        notes.push("direct I/O (O_DIRECT), libaio, queue depth 4, one job".into());
    }
    notes.push(format!(
        "each job runs {} s over a {} file written in full beforehand; write before read; \
         Mbytes/sec = 10^6 bytes/s; CPU load is the whole system's (100 − idle − iowait), \
         fio's own process figure is in the random table's notes",
        opt.runtime.as_secs().max(1),
        size_label(opt.size)
    ));

    let mut seq = GuideTable {
        key_headers: Vec::new(),
        title: format!("{prefix}{fs} FIO {}", size_label(opt.size)),
        key_header: "Buffer size (bytes)".into(),
        columns: vec![
            format!("Write {fs} Throughput (Mbytes/sec)"),
            format!("Write {fs} CPU Load (%)"),
            format!("Read {fs} Throughput (Mbytes/sec)"),
            format!("Read {fs} CPU Load (%)"),
        ],
        rows: BLOCK_SIZES
            .iter()
            .map(|bs| GuideRow {
                keys: Vec::new(),
                key: bs.to_string(),
                cells: vec![None; 4],
            })
            .collect(),
    };
    let mut random = GuideTable {
        key_headers: Vec::new(),
        title: format!("{prefix}{fs} FIO random 4k"),
        key_header: "Operation".into(),
        columns: vec![
            "IOPS".into(),
            "Latency p50 (us)".into(),
            "Latency p99 (us)".into(),
            "Latency p99.9 (us)".into(),
            "CPU Load (%)".into(),
        ],
        rows: Vec::new(),
    };
    let mut failed = None;
    'seq: for (i, bs) in BLOCK_SIZES.iter().enumerate() {
        for (rw, col) in [("write", 0), ("read", 2)] {
            if ctx.cancelled() {
                break 'seq;
            }
            match fio.timed(rw, bs, opt.runtime) {
                Ok((job, load)) => {
                    let d = if rw == "write" { &job.write } else { &job.read };
                    seq.rows[i].cells[col] = Some(GuideValue::one(d.bw_bytes / 1e6));
                    seq.rows[i].cells[col + 1] = load.map(GuideValue::one);
                }
                Err(JobError::Cancelled) => break 'seq,
                Err(JobError::Failed(e)) => {
                    failed = Some(e);
                    break 'seq;
                }
            }
        }
    }
    if failed.is_none() {
        for rw in ["randread", "randwrite"] {
            if ctx.cancelled() {
                break;
            }
            match fio.timed(rw, "4k", opt.runtime) {
                Ok((job, load)) => {
                    let d = if rw == "randread" {
                        &job.read
                    } else {
                        &job.write
                    };
                    let us = |p| d.clat_at(p).map(|ns| GuideValue::one(ns / 1000.0));
                    random.rows.push(GuideRow {
                        keys: Vec::new(),
                        key: rw.to_string(),
                        cells: vec![
                            Some(GuideValue::one(d.iops)),
                            us(50.0),
                            us(99.0),
                            us(99.9),
                            load.map(GuideValue::one),
                        ],
                    });
                    notes.push(format!(
                        "{rw} 4k: fio's own CPU {:.1} % user + {:.1} % system of one CPU",
                        job.usr_cpu, job.sys_cpu
                    ));
                }
                Err(JobError::Cancelled) => break,
                Err(JobError::Failed(e)) => {
                    failed = Some(e);
                    break;
                }
            }
        }
    }
    if seq.rows.iter().any(|r| r.cells.iter().any(Option::is_some)) {
        out.tables.push(seq);
    }
    if !random.rows.is_empty() {
        out.tables.push(random);
    }
    out.notes = notes;
    out.failed = failed;
    out
}
