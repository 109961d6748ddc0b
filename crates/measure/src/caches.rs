//! The caches a CPU advertises, as the latency ladder's analysis compares them: read once by
//! `probe::cache` (the same reader `info` uses), converted to bytes here.

use document::measure::memlat::AdvertisedCache;

/// The caches of `cpu` from /sys (instruction caches included; the analysis ignores them).
/// Entries without a size are left out: a board without the files has no advertised sizes.
pub fn advertised(root: &probe::Root, cpu: u32) -> Vec<AdvertisedCache> {
    let mut notes = probe::Notes::default();
    probe::cache::read_caches(root, &mut notes, cpu)
        .into_iter()
        .filter_map(|c| {
            Some(AdvertisedCache {
                level: c.level,
                kind: c.kind,
                size_bytes: c.size_kib?.checked_mul(1024)?,
            })
        })
        .collect()
}
