//! Cache levels read from a latency ladder (1-chain latency per window size, doubling sizes),
//! set beside what the system advertises. Pure: the caller passes the advertised caches in.
//!
//! A level boundary sits at the last size before a *step*: a jump between neighbours of at least
//! [`MIN_STEP`]× that is the largest among its neighbouring jumps (a gradual rise over several
//! sizes counts once, at its steepest point), after which the latency stays up (no later size
//! comes back below [`STAYS_UP`]× the level). Noise inside a plateau therefore does not make a
//! level, and a ramp (an L3 partly shared with co-tenants) still yields one boundary.

use document::measure::memlat::{AdvertisedCache, CacheAnalysis, CacheLevel};

/// Smallest jump between neighbouring sizes that can mark a level boundary.
pub const MIN_STEP: f64 = 1.4;
/// Every larger window must be at least this much slower than the boundary window.
pub const STAYS_UP: f64 = 1.25;

/// Indices `i` of the ladder after which latency steps up (size `i` is the last in its level).
pub fn boundaries(ladder: &[(u64, f64)]) -> Vec<usize> {
    let ns: Vec<f64> = ladder.iter().map(|&(_, t)| t).collect();
    if ns.len() < 2 || ns.iter().any(|t| !t.is_finite() || *t <= 0.0) {
        return Vec::new();
    }
    let jumps: Vec<f64> = ns.windows(2).map(|w| w[1] / w[0]).collect();
    let mut out = Vec::new();
    for (i, &j) in jumps.iter().enumerate() {
        let prev = if i > 0 { jumps[i - 1] } else { 0.0 };
        let next = jumps.get(i + 1).copied().unwrap_or(0.0);
        let stays_up = ns[i + 1..].iter().all(|&t| t >= ns[i] * STAYS_UP);
        if j >= MIN_STEP && j > prev && j >= next && stays_up {
            out.push(i);
        }
    }
    out
}

/// Builds the analysis: levels with their effective size and latency, the latency beyond the
/// last level, and flags where the effective size disagrees with sysfs.
pub fn analyse(ladder: &[(u64, f64)], advertised: &[AdvertisedCache]) -> CacheAnalysis {
    let b = boundaries(ladder);
    let mut levels = Vec::new();
    let mut flags = Vec::new();
    let mut first = 0usize;
    for (n, &i) in b.iter().enumerate() {
        let level = n as u32 + 1;
        // Latency of the level: the fastest of its sizes that already behave like its largest
        // one (leaves out sizes of the ramp that still partly hit the level before).
        let top = ladder[i].1;
        let latency_ns = ladder[first..=i]
            .iter()
            .map(|&(_, t)| t)
            .filter(|&t| t * STAYS_UP >= top)
            .fold(top, f64::min);
        let adv = advertised
            .iter()
            .filter(|c| c.level == level && c.kind != "Instruction")
            .map(|c| c.size_bytes)
            .max();
        let (eff, next) = (ladder[i].0, ladder[i + 1].0);
        let agrees = adv.map(|a| eff.saturating_mul(2) >= a && eff <= a.saturating_mul(2));
        if let (Some(a), Some(false)) = (adv, agrees) {
            flags.push(format!(
                "advertised L{level} {}, effective ≈ {}–{}",
                format_bytes(a),
                format_bytes(eff),
                format_bytes(next)
            ));
        }
        if adv.is_none() && !advertised.is_empty() {
            flags.push(format!(
                "a further step after {} ({latency_ns:.1} ns) that sysfs does not advertise \
                 (a cache shared with others, or page-walk cost)",
                format_bytes(eff)
            ));
        }
        levels.push(CacheLevel {
            level,
            effective_bytes: eff,
            next_bytes: next,
            latency_ns,
            advertised_bytes: adv,
            agrees,
        });
        first = i + 1;
    }
    // Beyond the last level: the latency of the largest window. (Not a median of the sizes
    // after the step: where co-tenants share the last cache, those sizes form a long ramp.)
    let beyond_ns = b.last().and_then(|_| ladder.last()).map(|&(_, t)| t);
    let adv_levels = advertised
        .iter()
        .filter(|c| c.kind != "Instruction")
        .map(|c| c.level)
        .max()
        .unwrap_or(0);
    if adv_levels > 0 && (levels.len() as u32) < adv_levels {
        let largest = advertised.iter().map(|c| c.size_bytes).max().unwrap_or(0);
        let reach = ladder.last().map(|&(s, _)| s).unwrap_or(0);
        let why = if reach < largest.saturating_mul(2) {
            format!(
                " (the ladder stops at {}; measure beyond {} to see it)",
                format_bytes(reach),
                format_bytes(largest)
            )
        } else {
            String::new()
        };
        flags.push(format!(
            "found {} cache level(s), sysfs advertises {adv_levels}{why}",
            levels.len()
        ));
    }
    CacheAnalysis {
        levels,
        beyond_ns,
        advertised: advertised.to_vec(),
        flags,
    }
}

/// "512 KiB", "32 MiB", "1.5 MiB" (its home is the document, which renderers read).
pub use document::text::format_bytes;
