//! Pinning the calling thread to a CPU set. Kernels always run pinned, so results belong to a
//! known core (and, on big.LITTLE, a known core type).

use document::cpus::CpuList;
use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// Error when a CPU set cannot be applied (CPU offline, outside the allowed mask, too large).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AffinityError(pub String);

impl std::fmt::Display for AffinityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for AffinityError {}

/// The CPUs the current thread may run on.
pub fn allowed_cpus() -> Vec<u32> {
    let Ok(set) = sched_getaffinity(Pid::from_raw(0)) else {
        return Vec::new();
    };
    (0..CpuSet::count())
        .filter(|&i| set.is_set(i).unwrap_or(false))
        .map(|i| i as u32)
        .collect()
}

/// Pins the calling thread to `cpus`. Refuses CPUs the thread cannot run on (offline, isolated
/// or outside the process's cpuset) with a message naming them, instead of the kernel's bare
/// EINVAL (sbc-bench issue 124) or its silent dropping of some CPUs of the set.
///
/// The check is made by the kernel itself: set the mask, read it back (the kernel reports only
/// active CPUs of the cpuset), and compare. So a thread pinned before can be widened again, and
/// nothing here depends on a mask captured earlier.
pub fn pin_current_thread(cpus: &[u32]) -> Result<(), AffinityError> {
    if cpus.is_empty() {
        return Err(AffinityError("empty CPU list".into()));
    }
    let previous = sched_getaffinity(Pid::from_raw(0)).ok();
    let mut set = CpuSet::new();
    for &c in cpus {
        set.set(c as usize)
            .map_err(|_| AffinityError(format!("CPU {c} does not exist on this system")))?;
    }
    let refused = |got: &[u32]| {
        let bad: Vec<u32> = cpus.iter().copied().filter(|c| !got.contains(c)).collect();
        AffinityError(format!(
            "CPU {} not online or not allowed for this process",
            format_cpu_list(&bad)
        ))
    };
    if sched_setaffinity(Pid::from_raw(0), &set).is_err() {
        return Err(refused(&[]));
    }
    let got = allowed_cpus();
    if cpus.iter().any(|c| !got.contains(c)) {
        if let Some(prev) = previous {
            let _ = sched_setaffinity(Pid::from_raw(0), &prev);
        }
        return Err(refused(&got));
    }
    Ok(())
}

/// Parses a CPU list as the kernel and taskset write it: "0-3,6,8-9" (`document::cpus::CpuList`);
/// an empty list is an error here (nothing to pin to).
pub fn parse_cpu_list(s: &str) -> Result<Vec<u32>, AffinityError> {
    let list = CpuList::parse(s).map_err(|e| AffinityError(e.0))?;
    if list.is_empty() {
        return Err(AffinityError(format!("empty CPU list {s:?}")));
    }
    Ok(list.into_vec())
}

/// Formats CPUs as a compact list ("0-3,6"; `document::cpus::CpuList`).
pub fn format_cpu_list(cpus: &[u32]) -> String {
    CpuList::new(cpus).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_round_trip() {
        assert_eq!(
            parse_cpu_list("0-3,6, 8-9").unwrap(),
            vec![0, 1, 2, 3, 6, 8, 9]
        );
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 6, 8, 9]), "0-3,6,8-9");
        assert!(parse_cpu_list("3-1").is_err());
        assert!(parse_cpu_list("x").is_err());
        assert!(parse_cpu_list("").is_err());
    }

    #[test]
    fn pinning_to_an_allowed_cpu_works_and_a_missing_one_is_refused() {
        // On a thread of its own, so the test harness's thread keeps its mask.
        std::thread::spawn(|| {
            let allowed = allowed_cpus();
            assert!(!allowed.is_empty());
            pin_current_thread(&allowed[..1]).unwrap();
            assert_eq!(allowed_cpus(), &allowed[..1]);
            // A pinned thread can be widened again.
            pin_current_thread(&allowed).unwrap();
            assert_eq!(allowed_cpus(), allowed);
            let err = pin_current_thread(&[100_000]).unwrap_err();
            assert!(err.0.contains("100000"), "{err}");
            // A set with one impossible CPU is refused, not silently narrowed.
            let max = CpuSet::count() as u32 - 1;
            if !allowed.contains(&max) {
                let err = pin_current_thread(&[allowed[0], max]).unwrap_err();
                assert!(err.0.contains(&max.to_string()), "{err}");
                assert_eq!(allowed_cpus(), allowed, "mask restored after a refusal");
            }
        })
        .join()
        .unwrap();
    }
}
