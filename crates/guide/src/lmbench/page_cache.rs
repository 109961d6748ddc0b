//! The page-cache folio sizes holding a file: lat_mmap's figure depends 2–5× on them (docs/guide.md,
//! "lat_mmap and the page cache"), so the section says what its test file was held in.
//!
//! Read by mapping the file read-only, touching every page, and looking each page's frame up in
//! `/proc/self/pagemap` and its flags in `/proc/kpageflags` (both need root for frame numbers;
//! otherwise nothing is said). A folio is a compound head page and the tail pages after it.

use std::collections::BTreeMap;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::Path;

const PAGE: usize = 4096;
const KPF_COMPOUND_TAIL: u64 = 1 << 16;
const PM_PRESENT: u64 = 1 << 63;
const PM_PFN_MASK: u64 = (1 << 55) - 1;

/// Folio size in bytes → how many, for the first `len` bytes of `file`; None when the frames
/// cannot be read (not root, no pagemap, a page size other than 4 KiB).
pub fn folios(file: &Path, len: usize) -> Option<BTreeMap<usize, usize>> {
    // SAFETY: sysconf has no preconditions.
    if unsafe { libc::sysconf(libc::_SC_PAGESIZE) } != PAGE as libc::c_long || len == 0 {
        return None;
    }
    let pagemap = File::open("/proc/self/pagemap").ok()?;
    let flags = File::open("/proc/kpageflags").ok()?;
    let f = File::open(file).ok()?;
    let p = super::lat_pagefault::map(f.as_raw_fd(), len)
        .ok()?
        .cast::<libc::c_void>();
    let mut heads = Vec::with_capacity(len / PAGE);
    let mut ok = true;
    for i in 0..len.div_ceil(PAGE) {
        let addr = p as usize + i * PAGE;
        // SAFETY: inside the mapping; a read brings the page in.
        unsafe { std::ptr::read_volatile(addr as *const u8) };
        let mut e = [0u8; 8];
        if pagemap
            .read_exact_at(&mut e, (addr / PAGE * 8) as u64)
            .is_err()
        {
            ok = false;
            break;
        }
        let e = u64::from_le_bytes(e);
        let pfn = e & PM_PFN_MASK;
        if e & PM_PRESENT == 0 || pfn == 0 {
            ok = false; // not root: frame numbers read as 0
            break;
        }
        let mut k = [0u8; 8];
        if flags.read_exact_at(&mut k, pfn * 8).is_err() {
            ok = false;
            break;
        }
        heads.push(u64::from_le_bytes(k) & KPF_COMPOUND_TAIL == 0);
    }
    // SAFETY: unmaps the mapping made above.
    unsafe { libc::munmap(p, len) };
    ok.then(|| count_runs(&heads))
}

/// Folio size → count from a page-by-page "starts a folio" list.
fn count_runs(heads: &[bool]) -> BTreeMap<usize, usize> {
    let mut out = BTreeMap::new();
    let mut run = 0;
    for &head in heads {
        if head && run > 0 {
            *out.entry(run * PAGE).or_insert(0) += 1;
            run = 0;
        }
        run += 1;
    }
    if run > 0 {
        *out.entry(run * PAGE).or_insert(0) += 1;
    }
    out
}

/// "16 × 1 MiB", "4094 × 4 KiB + 1 × 8 KiB".
pub fn describe(folios: &BTreeMap<usize, usize>) -> String {
    folios
        .iter()
        .map(|(size, n)| {
            if size % (1 << 20) == 0 {
                format!("{n} × {} MiB", size >> 20)
            } else {
                format!("{n} × {} KiB", size >> 10)
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Whether the file's cache mixes folio sizes — what a file written in large folios looks like
/// once some were split (on issue 21's guest a file idle for 28 minutes held 7 × 1 MiB +
/// 320 × 16 KiB + 1024 × 4 KiB where it was written as 16 × 1 MiB, and lat_pagefault read
/// 0.13 µs on it against 0.035–0.039 on a fresh one): folios smaller than the largest hold more
/// than an eighth of the file (a file's end may sit in a few smaller ones; a file system without
/// large folios has one size only).
pub fn mixed(folios: &BTreeMap<usize, usize>) -> bool {
    let Some((&largest, _)) = folios.last_key_value() else {
        return false;
    };
    let total: usize = folios.iter().map(|(size, n)| size * n).sum();
    let smaller: usize = folios
        .iter()
        .filter(|&(&size, _)| size < largest)
        .map(|(size, n)| size * n)
        .sum();
    smaller * 8 > total
}

/// The note's sentence for mixed folios, else nothing.
pub fn mixed_warning(folios: &BTreeMap<usize, usize>, given: bool) -> Option<String> {
    mixed(folios).then(|| {
        format!(
            "Its folios are of mixed sizes: large folios were split since the file was written (an idle file on a machine that reclaims or pages out cold memory), and lat_pagefault and lat_mmap then read slower than on a freshly written file{}.",
            if given {
                " — write the file again right before the run"
            } else {
                ""
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_tail_pages_make_folios() {
        let h = [true, true, false, false, false, true, false, true];
        let got = count_runs(&h);
        assert_eq!(got.get(&PAGE), Some(&2));
        assert_eq!(got.get(&(4 * PAGE)), Some(&1));
        assert_eq!(got.get(&(2 * PAGE)), Some(&1));
        assert_eq!(describe(&got), "2 × 4 KiB + 1 × 8 KiB + 1 × 16 KiB");
        let m: BTreeMap<usize, usize> = [(1 << 20, 16)].into();
        assert_eq!(describe(&m), "16 × 1 MiB");
    }

    #[test]
    fn split_large_folios_are_called_mixed_and_a_files_small_end_is_not() {
        let fresh: BTreeMap<usize, usize> = [(1 << 20, 16)].into();
        assert!(!mixed(&fresh) && mixed_warning(&fresh, true).is_none());
        // Large folios and smaller ones at the file's end: still as written.
        let end: BTreeMap<usize, usize> = [(1 << 20, 15), (256 << 10, 3), (PAGE, 64)].into();
        assert!(!mixed(&end));
        // Small pages only (a file system without large folios): one size, not mixed.
        let small: BTreeMap<usize, usize> = [(PAGE, 4096)].into();
        assert!(!mixed(&small));
        // Issue 21's idle file: 7 × 1 MiB + 320 × 16 KiB + 1024 × 4 KiB.
        let aged: BTreeMap<usize, usize> = [(1 << 20, 7), (16 << 10, 320), (PAGE, 1024)].into();
        assert!(mixed(&aged));
        let given = mixed_warning(&aged, true).unwrap();
        assert!(given.contains("mixed sizes") && given.contains("write the file again"));
        let own = mixed_warning(&aged, false).unwrap();
        assert!(!own.contains("write the file again"), "{own}");
    }

    #[test]
    fn a_files_folios_cover_the_file_where_frames_are_readable() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, vec![7u8; 64 * 1024]).unwrap();
        assert!(folios(&dir.path().join("missing"), 4096).is_none());
        // Frame numbers need root and the kernel's page flags; under qemu-user /proc/self is the
        // emulator's. Where all that holds, the folios must be read and make up the file.
        // SAFETY: geteuid has no preconditions.
        let readable = unsafe { libc::geteuid() } == 0
            && File::open("/proc/kpageflags").is_ok()
            && !testsupport::host_only();
        let got = folios(&p, 64 * 1024);
        if !readable {
            return;
        }
        let f = got.expect("frames are readable here");
        let bytes: usize = f.iter().map(|(size, n)| size * n).sum();
        assert_eq!(bytes, 64 * 1024, "{f:?}");
        // A folio is a power-of-two number of pages.
        assert!(f.keys().all(|s| (s / PAGE).is_power_of_two()), "{f:?}");
    }
}
