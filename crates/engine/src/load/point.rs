//! The fixed workload of a sweep point: recursive SHA-256 with the portable backend (the same
//! integer code on every architecture, so scores compare across boards; the hardware SHA
//! units would measure a special-purpose block instead of the cores), one thread per CPU,
//! each pinned, for a fixed time.

use std::time::{Duration, Instant};

use loops::sha256::{self, Sha256Backend};

pub const BACKEND: Sha256Backend = Sha256Backend::Portable;

/// One batch should take about this long: the deadline is checked between batches.
const BATCH: Duration = Duration::from_millis(10);

/// What the threads did together.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// Thousands of hashes per second, all threads together.
    pub khs: f64,
    /// Per thread (kH/s), in CPU order.
    pub per_thread_khs: Vec<f64>,
    /// The spread of the threads (percent), a sign of interference.
    pub spread_pct: Option<f64>,
    /// Hashes computed.
    pub iterations: u64,
}

/// Runs one thread per `host_cpus` entry for `duration`. Fails when a thread cannot be pinned.
pub fn run(host_cpus: &[u32], duration: Duration) -> anyhow::Result<Score> {
    let deadline = Instant::now() + duration;
    let results: Vec<anyhow::Result<(f64, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = host_cpus
            .iter()
            .map(|&cpu| s.spawn(move || one_thread(cpu, deadline)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("workload thread panicked")))
            })
            .collect()
    });
    let mut per = Vec::new();
    let mut iterations = 0;
    for r in results {
        let (khs, n) = r?;
        per.push(khs);
        iterations += n;
    }
    Ok(Score {
        khs: per.iter().sum(),
        spread_pct: loops::stats::stddev_pct(&per),
        per_thread_khs: per,
        iterations,
    })
}

/// Hashes on `cpu` until `deadline` (at least one batch); returns (kH/s, hashes).
fn one_thread(cpu: u32, deadline: Instant) -> anyhow::Result<(f64, u64)> {
    loops::affinity::pin_current_thread(&[cpu]).map_err(|e| anyhow::anyhow!("cpu{cpu}: {e}"))?;
    let mut seed = sha256::SEED;
    let mut n: u64 = 2_000;
    let (mut hashes, mut secs) = (0u64, 0.0f64);
    loop {
        let sample =
            sha256::run(BACKEND, &seed, n).ok_or_else(|| anyhow::anyhow!("no portable SHA-256"))?;
        // Each batch continues the chain, so no two batches hash the same values.
        if let Some(next) = hex_to_bytes(&sample.digest) {
            seed = next;
        }
        hashes += n;
        let batch_s = n as f64 / (sample.mhs * 1e6).max(1.0);
        secs += batch_s;
        if Instant::now() >= deadline {
            break;
        }
        // Aim each batch at BATCH, growing at most 4× at a time.
        let target = (n as f64 * BATCH.as_secs_f64() / batch_s.max(1e-6)) as u64;
        n = target.clamp(1_000, n.saturating_mul(4));
    }
    Ok((hashes as f64 / secs.max(1e-9) / 1e3, hashes))
}

fn hex_to_bytes(hex: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_add_up_and_the_chain_continues() {
        let cpu = loops::affinity::allowed_cpus()[0];
        let s = run(&[cpu, cpu], Duration::from_millis(30)).unwrap();
        assert_eq!(s.per_thread_khs.len(), 2);
        assert!(s.khs > 0.0 && s.iterations >= 4_000);
        assert!((s.khs - s.per_thread_khs.iter().sum::<f64>()).abs() < 1e-9);
        assert_eq!(hex_to_bytes(&"00".repeat(32)), Some([0; 32]));
        assert_eq!(hex_to_bytes("zz"), None);
    }
}
