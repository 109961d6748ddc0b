//! CPU cores stopped during the run: the BSP kernels of Amlogic, Allwinner and others unplug
//! cores when hot (kmsg `CPU2: shutdown`), and any CPU that was online before and is not after
//! took the benchmark's threads with it. sbc-bench only matched CPU0–7; any number counts here.

use std::collections::BTreeSet;

use document::imported::ImportedLog;
use document::{Finding, Severity};

use crate::{RunCx, capped, cpu_list, finding, kinds};

/// The CPU number of a `CPUn: shutdown` kernel line.
pub(crate) fn shutdown_cpu(line: &str) -> Option<u32> {
    let at = line.find(": shutdown")?;
    let head = &line[..at];
    let start = head.rfind("CPU")? + 3;
    head[start..].parse().ok()
}

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let lines: Vec<&str> = cx.kmsg().collect();
    let gone: Vec<u32> = match (cx.before, cx.after) {
        (Some(b), Some(a)) if !a.online_cpus.is_empty() || !b.online_cpus.is_empty() => {
            let after: BTreeSet<u32> = a.online_cpus.iter().copied().collect();
            b.online_cpus
                .iter()
                .copied()
                .filter(|c| !after.contains(c))
                .collect()
        }
        _ => Vec::new(),
    };
    let mut out = judge(&lines, &gone);
    if let (Some(f), Some(b), Some(a)) = (out.first_mut(), cx.before, cx.after) {
        f.evidence.push(format!(
            "online CPUs: {} before, {} after the run",
            b.online_cpus.len(),
            a.online_cpus.len()
        ));
    }
    out
}

fn judge(lines: &[&str], gone: &[u32]) -> Vec<Finding> {
    let hits: Vec<(&str, u32)> = lines
        .iter()
        .filter_map(|l| shutdown_cpu(l).map(|c| (*l, c)))
        .collect();
    let stopped: BTreeSet<u32> = hits.iter().map(|h| h.1).collect();
    if stopped.is_empty() && gone.is_empty() {
        return Vec::new();
    }
    let mut ev: Vec<String> = capped(hits.iter().map(|h| h.0.to_string()).collect(), 10);
    if !gone.is_empty() {
        ev.push(format!("offline after the run: {}", cpu_list(gone)));
    }
    let message = if !stopped.is_empty() {
        let v: Vec<u32> = stopped.into_iter().collect();
        format!(
            "Overheating resulted in CPU cores temporarily being stopped ({}): the scores are not comparable.",
            cpu_list(&v)
        )
    } else {
        format!(
            "CPU cores went offline during the run ({}): the scores are not comparable.",
            cpu_list(gone)
        )
    };
    vec![finding(kinds::CORES_KILLED, Severity::Invalid, message, ev)]
}

pub(crate) fn imported(log: &ImportedLog) -> Vec<Finding> {
    let lines: Vec<&str> = log.kmsg.iter().map(String::as_str).collect();
    judge(&lines, &[])
}

#[cfg(test)]
mod tests {
    use super::shutdown_cpu;

    #[test]
    fn any_cpu_number() {
        assert_eq!(
            shutdown_cpu("[  566.894532] c0 1098 (kworker/u8:2) CPU2: shutdown"),
            Some(2)
        );
        assert_eq!(shutdown_cpu("[ 1.0] CPU13: shutdown"), Some(13));
        assert_eq!(shutdown_cpu("CPU: shutdown"), None);
        assert_eq!(shutdown_cpu("psci: CPU2 killed"), None);
        assert_eq!(shutdown_cpu("shutdown"), None);
    }
}
