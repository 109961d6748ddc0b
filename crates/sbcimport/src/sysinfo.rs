//! Who and what the log is about: the header line, distro, kernel, CPU count, architecture,
//! SoC guess and core types.

use crate::text::split_trailing_parens;

/// Words sbc-bench appends to the device name in the header for special modes.
const MODE_WORDS: &[&str] = &["extensive", "unattended", "pts", "gb", "NOTUNING", "review"];

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Header {
    pub line: String,
    pub version: Option<String>,
    pub device: Option<String>,
    pub date: Option<String>,
    pub modes: Vec<String>,
}

/// Parses line 1 (`sbc-bench v0.9.72 <device> [modes] (<date>)`, or v0.4's
/// `sbc-bench v0.4 -- <date>`). `None` if the line is no sbc-bench header.
pub fn header(first: &str) -> Option<Header> {
    let line = first.trim_end();
    let rest = line.strip_prefix("sbc-bench v")?;
    let (ver, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    crate::version::Version::parse(ver)?;
    let mut h = Header {
        line: line.to_string(),
        version: Some(format!("v{ver}")),
        ..Header::default()
    };
    if let Some(date) = rest.strip_prefix("-- ") {
        h.date = Some(date.trim().to_string());
        return Some(h);
    }
    let (mut device, date) = match split_trailing_parens(rest) {
        Some((d, date)) => (d.to_string(), Some(date.trim().to_string())),
        None => (rest.trim().to_string(), None),
    };
    h.date = date;
    // Mode words come last, after the device name.
    while let Some((head, last)) = device.rsplit_once(' ') {
        if !MODE_WORDS.contains(&last) {
            break;
        }
        h.modes.insert(0, last.to_string());
        device = head.trim_end().to_string();
    }
    let device = device.trim();
    h.device = (!device.is_empty()).then(|| device.to_string());
    Some(h)
}

/// The first `Description:` line (lsb_release).
pub fn distro(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .take(60)
        .find_map(|l| l.strip_prefix("Description:"))
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Iostat {
    pub release: String,
    pub machine: Option<String>,
    pub cpus: Option<u32>,
}

/// The iostat header `Linux <release> (<host>) <date> _<machine>_ (<n> CPU)`.
pub fn iostat(lines: &[&str]) -> Option<Iostat> {
    lines.iter().find_map(|l| {
        let rest = l.strip_prefix("Linux ")?;
        if !l.trim_end().ends_with("CPU)") {
            return None;
        }
        let release = rest.split_whitespace().next()?.to_string();
        let machine = rest
            .split_whitespace()
            .find(|t| t.len() > 2 && t.starts_with('_') && t.ends_with('_'))
            .map(|t| t.trim_matches('_').to_string());
        let cpus = split_trailing_parens(l)
            .and_then(|(_, inner)| inner.strip_suffix(" CPU")?.trim().parse().ok());
        Some(Iostat {
            release,
            machine,
            cpus,
        })
    })
}

/// The `SoC guess:` line.
pub fn soc_guess(lines: &[&str]) -> Option<String> {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("SoC guess:"))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Userland architecture (Debian naming): ` Userland:` line, the dpkg `Architecture:<TAB>` line,
/// else derived from the kernel machine.
pub fn arch(lines: &[&str], kernel_machine: Option<&str>) -> Option<String> {
    if let Some(u) = lines.iter().find_map(|l| l.strip_prefix(" Userland:")) {
        let u = u.trim();
        if !u.is_empty() && !u.contains(' ') {
            return Some(debian_arch(u).to_string());
        }
    }
    if let Some(a) = lines.iter().find_map(|l| l.strip_prefix("Architecture:\t")) {
        let a = a.trim();
        if !a.is_empty() && !a.contains(' ') {
            return Some(debian_arch(a).to_string());
        }
    }
    kernel_machine.map(|m| debian_arch(m).to_string())
}

/// Debian's name for an architecture that may be written the kernel's way. sbc-bench prints
/// `arm` for 32-bit ARM userlands (armhf on every board it ran on).
fn debian_arch(m: &str) -> &str {
    match m {
        "aarch64" | "arm64" => "arm64",
        "x86_64" | "amd64" => "amd64",
        "i386" | "i486" | "i586" | "i686" => "i386",
        "arm" | "armhf" => "armhf",
        m if m.starts_with("armv") => "armhf",
        m => m,
    }
}

/// Distinct core types and where they came from: the CPU topology table, the per-cluster
/// benchmark headers, else lscpu `Model name:` lines.
pub fn core_types(lines: &[&str]) -> (Vec<String>, Option<&'static str>) {
    let mut types = Vec::new();
    let push = |types: &mut Vec<String>, t: &str| {
        let t = t.split(" / ").next().unwrap_or(t).trim();
        if !t.is_empty() && t != "-" && !types.iter().any(|x| x == t) {
            types.push(t.to_string());
        }
    };
    // Topology table: header " CPU    cluster  policy   speed  speed   core type".
    if let Some(start) = lines.iter().position(|l| {
        l.trim_start().starts_with("CPU")
            && l.contains("cluster")
            && l.trim_end().ends_with("core type")
    }) {
        for l in &lines[start + 1..] {
            let toks: Vec<&str> = l.split_whitespace().collect();
            if toks.len() < 6 || toks[0].parse::<u32>().is_err() {
                break;
            }
            // Five columns of numbers (or "-"), then the core type with spaces.
            let mut rest = l.trim_start();
            for _ in 0..5 {
                rest = rest.trim_start();
                rest = rest.find(char::is_whitespace).map_or("", |i| &rest[i..]);
            }
            push(&mut types, rest.trim());
        }
        if !types.is_empty() {
            return (types, Some("log: CPU topology table"));
        }
    }
    for l in lines {
        let inner = l
            .strip_prefix("Executing benchmark on cpu")
            .and_then(|rest| split_trailing_parens(rest.trim_end_matches(':')));
        if let Some((_, inner)) = inner {
            push(&mut types, inner);
        }
    }
    if !types.is_empty() {
        return (types, Some("log: per-cluster benchmark headers"));
    }
    for l in lines {
        if let Some(m) = l.strip_prefix("Model name:") {
            push(&mut types, m.trim());
        }
    }
    // Old logs only say "little core" / "big core" (and old lscpu names one model): fall back
    // to a SoC named in the header or the kernel release.
    let big_little = lines
        .iter()
        .any(|l| l.starts_with("Executing tinymembench on a big core"));
    if types.is_empty() || (big_little && types.len() < 2) {
        let hints: String = lines
            .iter()
            .filter(|l| {
                l.starts_with("sbc-bench v")
                    || (l.starts_with("Linux ") && l.trim_end().ends_with("CPU)"))
            })
            .take(2)
            .map(|l| l.to_lowercase())
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(cores) = soc_cores(&hints) {
            return (
                cores.iter().map(|c| c.to_string()).collect(),
                Some("SoC named in header/kernel (heuristic)"),
            );
        }
    }
    if !types.is_empty() {
        return (types, Some("log: lscpu Model name"));
    }
    (types, None)
}

/// Core types of SoCs (and boards that name no SoC) seen in logs too old to name their cores.
/// Matched as lowercase substrings of the header line and the kernel release.
const SOC_HINTS: &[(&[&str], &[&str])] = &[
    (
        &[
            "rk3399",
            "nanopc-t4",
            "nanopi m4",
            "nanopi neo4",
            "rockpro64",
            "rock pi 4",
            "khadas captain",
            "khadas edge",
            "hugsun x99",
        ],
        &["Cortex-A53", "Cortex-A72"],
    ),
    (
        &["s922x", "a311d", "odroid-n2", "odroid n2"],
        &["Cortex-A53", "Cortex-A73"],
    ),
    (
        &["exynos5422", "odroidxu4", "odroid xu4", "odroid-xu4"],
        &["Cortex-A7", "Cortex-A15"],
    ),
    (&["s5p6818", "s912", "khadas vim2"], &["Cortex-A53"]),
];

fn soc_cores(hints: &str) -> Option<&'static [&'static str]> {
    SOC_HINTS
        .iter()
        .find(|(keys, _)| keys.iter().any(|k| hints.contains(k)))
        .map(|(_, cores)| *cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_variants() {
        let h =
            header("sbc-bench v0.9.72 Flipper One rev. F0B0C1 (Tue, 05 May 2026 10:08:45 +0000)")
                .unwrap();
        assert_eq!(h.version.as_deref(), Some("v0.9.72"));
        assert_eq!(h.device.as_deref(), Some("Flipper One rev. F0B0C1"));
        assert_eq!(h.date.as_deref(), Some("Tue, 05 May 2026 10:08:45 +0000"));
        let h = header("sbc-bench v0.4 -- Mon, 30 Jul 2018 06:15:21 +0000").unwrap();
        assert_eq!(h.device, None);
        assert_eq!(h.date.as_deref(), Some("Mon, 30 Jul 2018 06:15:21 +0000"));
        let h = header("sbc-bench v0.9.50 Rock 5B extensive (Mon, 30 Jul 2018 06:15:21 +0000)")
            .unwrap();
        assert_eq!(h.device.as_deref(), Some("Rock 5B"));
        assert_eq!(h.modes, vec!["extensive"]);
        let h = header("sbc-bench v0.6.1 Intel(R) Celeron(R) CPU J3455 @ 1.50GHz (Mon, 1 Jan 2019 1:00:00 +0000)").unwrap();
        assert_eq!(
            h.device.as_deref(),
            Some("Intel(R) Celeron(R) CPU J3455 @ 1.50GHz")
        );
        assert!(header("Distributor ID:\tUbuntu").is_none());
        assert!(header("sbc-bench vX").is_none());
    }

    #[test]
    fn iostat_header() {
        let l = ["Linux 7.1.0-rc1 (host-1)    05/05/26        _aarch64_       (8 CPU)"];
        let i = iostat(&l).unwrap();
        assert_eq!(i.release, "7.1.0-rc1");
        assert_eq!(i.machine.as_deref(), Some("aarch64"));
        assert_eq!(i.cpus, Some(8));
    }
}
