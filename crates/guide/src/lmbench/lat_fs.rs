//! lat_fs: file creation and deletion of 0, 1, 4 and 10 KiB files in the guide's work directory
//! (no fsync: the VFS and journal paths, not the medium). Per interval the untimed set-up
//! prepares a fresh directory, the timed part creates (or deletes) n files, the untimed
//! clean-up removes what is left. The seed's `lat_fs-<S>k (num_files)` is the count of files
//! in the median interval (≈ creates/s × ENOUGH — it depends on the calibration); the rates
//! are kept as well.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::timing::{Error, Result, Sample, Timing, median, os_err};

pub const SIZES: [usize; 4] = [0, 1024, 4096, 10240];

/// One size's figures from the median intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct FsFigures {
    /// Files created in the median create interval (the seed's figure).
    pub files: u64,
    pub creates_per_s: f64,
    pub deletes_per_s: f64,
}

/// A scratch directory with names for `n` files (≤ 100 per sub-directory, as lmbench).
struct Tree {
    root: PathBuf,
    names: Vec<CString>,
}

impl Tree {
    fn new(base: &Path, n: u64, seq: &mut u64) -> Result<Tree> {
        *seq += 1;
        let root = base.join(format!("lat_fs.{}.{}", std::process::id(), seq));
        std::fs::create_dir_all(&root)?;
        let mut names = Vec::with_capacity(n as usize);
        for i in 0..n {
            let dir = root.join(format!("d{}", i / 100));
            if i % 100 == 0 {
                std::fs::create_dir_all(&dir)?;
            }
            let p = dir.join(format!("f{i}"));
            names.push(
                CString::new(p.as_os_str().as_bytes())
                    .map_err(|_| Error::Failed("bad path".into()))?,
            );
        }
        Ok(Tree { root, names })
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn create(name: &CString, buf: &[u8]) -> Result<()> {
    // creat(2) is openat with these flags (as the C library makes it).
    let fd = super::call::openat(
        libc::AT_FDCWD,
        name,
        libc::O_CREAT | libc::O_WRONLY | libc::O_TRUNC,
        0o600,
    );
    if fd < 0 {
        return Err(os_err("creat"));
    }
    let ok = super::sys::write_all(fd, buf);
    super::call::close(fd);
    if !ok {
        return Err(os_err("write"));
    }
    Ok(())
}

fn unlink(name: &CString) -> Result<()> {
    // SAFETY: unlinks by NUL-terminated name.
    if unsafe { libc::unlink(name.as_ptr()) } < 0 {
        return Err(os_err("unlink"));
    }
    Ok(())
}

/// Creates and deletes files of `size` bytes in `dir`.
pub fn measure(t: &Timing, dir: &Path, size: usize) -> Result<FsFigures> {
    let buf = vec![0x5au8; size];
    let mut seq = 0;
    let creates = t.benchmp_timed(0.0, |n| {
        let tree = Tree::new(dir, n, &mut seq)?;
        let t0 = Instant::now();
        for name in &tree.names {
            create(name, &buf)?;
        }
        Ok(t0.elapsed())
    })?;
    let deletes = t.benchmp_timed(0.0, |n| {
        let tree = Tree::new(dir, n, &mut seq)?;
        for name in &tree.names {
            create(name, &buf)?;
        }
        let t0 = Instant::now();
        for name in &tree.names {
            unlink(name)?;
        }
        Ok(t0.elapsed())
    })?;
    let rate = |s: Option<Sample>| s.map(|s| s.n as f64 * 1e6 / s.us.max(1e-9)).unwrap_or(0.0);
    let mc = median(&creates);
    Ok(FsFigures {
        files: mc.map(|s| s.n).unwrap_or(0),
        creates_per_s: rate(mc),
        deletes_per_s: rate(median(&deletes)),
    })
}
