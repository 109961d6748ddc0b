//! What the device tree states that the kernel publishes nowhere else: each CPU's nominal
//! clock and the DRAM type. Read through the [`Root`] (`/proc/device-tree`, else
//! `/sys/firmware/devicetree/base`), so fixture trees and mounted images work.
//!
//! **The CPU clock**, for a logical CPU (its node: `/sys/devices/system/cpu/cpuN/of_node`, else
//! the Nth `cpus/cpu@*` node in the order of their `reg`, which is the order arm64 and arm
//! number CPUs in on every board seen):
//! 1. the highest `opp-hz` (64-bit big-endian; the first clock's where an OPP lists several) of
//!    the table its `operating-points-v2` phandle names — a node `opp-table*`/`*opp*` at the top
//!    level or under `/cpus` whose `phandle` matches; OPPs with `status` other than "okay" are
//!    skipped (the kernel's OPP code reads available children only) and so are `turbo-mode`
//!    ones (cpufreq offers them only with boost on). A table with `opp-supported-hw` lists the
//!    OPPs of every speed bin of the SoC, some of which this chip may not run: said in the
//!    source ("highest of its speed bins");
//! 2. the highest frequency of the older `operating-points` (pairs of kHz and µV);
//! 3. the node's `clock-frequency` (one 32-bit or two cells, big-endian, in Hz).
//!
//! **The DRAM type**: a node whose `compatible` is one of the JEDEC memory bindings
//! (`jedec,lpddr2` … `jedec,lpddr5`, `jedec,lpddrN-channel`; kernel
//! `Documentation/devicetree/bindings/memory-controllers/ddr/`), searched to three levels under
//! nodes whose names speak of memory (`memory-controller`, `dmc`, `emif`, `ddr`, `dram`,
//! `lpddr`, `sdram`, `channel`, `rank`). No vendor's private properties are read: they are not
//! documented.

use document::machine::DramDevice;

use crate::Root;

/// The device tree's directory in the root, if there is one.
pub fn base(root: &Root) -> Option<&'static str> {
    ["/proc/device-tree", "/sys/firmware/devicetree/base"]
        .into_iter()
        .find(|b| root.exists(b))
}

/// A CPU's nominal clock as the device tree states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DtClock {
    pub khz: u64,
    /// "operating-points-v2 /cpus/opp-table-cluster0", "clock-frequency of /cpus/cpu@0" …
    pub from: String,
}

/// Big-endian 32-bit cells of a property.
fn cells(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The first 64-bit big-endian value of a property (opp-hz).
fn first_u64(bytes: &[u8]) -> Option<u64> {
    let b: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
    Some(u64::from_be_bytes(b))
}

/// A property of one or two cells (`clock-frequency`, `reg` of a CPU).
fn one_or_two_cells(bytes: &[u8]) -> Option<u64> {
    match cells(bytes).as_slice() {
        [a] => Some(u64::from(*a)),
        [a, b] => Some((u64::from(*a) << 32) | u64::from(*b)),
        _ => None,
    }
}

/// The device-tree path ("/cpus/cpu@100") of logical CPU `cpu`.
fn cpu_node(root: &Root, base: &str, cpu: u32) -> Option<String> {
    if let Ok(p) = root.resolve(&format!("/sys/devices/system/cpu/cpu{cpu}/of_node")) {
        for prefix in ["/sys/firmware/devicetree/base", "/proc/device-tree"] {
            if let Some(rel) = p.strip_prefix(prefix).filter(|r| r.starts_with('/'))
                && root.exists(&format!("{base}{rel}"))
            {
                return Some(rel.to_string());
            }
        }
    }
    let mut nodes: Vec<(u64, String)> = root
        .list_dir(&format!("{base}/cpus"))
        .ok()?
        .into_iter()
        .filter(|n| n.starts_with("cpu@"))
        .filter(|n| {
            root.read_dt_strings(&format!("{base}/cpus/{n}/device_type"))
                .map_or(true, |t| t.iter().any(|s| s == "cpu"))
        })
        .filter_map(|n| {
            let reg = root.read_bytes(&format!("{base}/cpus/{n}/reg")).ok()?;
            Some((one_or_two_cells(&reg)?, n))
        })
        .collect();
    nodes.sort();
    nodes.get(cpu as usize).map(|(_, n)| format!("/cpus/{n}"))
}

/// The node whose `phandle` (or the older `linux,phandle`) is `ph`, among the OPP tables at
/// the top level and under /cpus.
fn opp_table(root: &Root, base: &str, ph: u32) -> Option<String> {
    for dir in ["", "/cpus"] {
        let Ok(names) = root.list_dir(&format!("{base}{dir}")) else {
            continue;
        };
        for n in names.iter().filter(|n| n.contains("opp")) {
            let node = format!("{dir}/{n}");
            let found = ["phandle", "linux,phandle"].iter().any(|p| {
                root.read_bytes(&format!("{base}{node}/{p}"))
                    .ok()
                    .and_then(|b| cells(&b).first().copied())
                    == Some(ph)
            });
            if found {
                return Some(node);
            }
        }
    }
    None
}

/// The highest usable `opp-hz` of a table (Hz) and whether the table lists speed bins.
fn highest_opp(root: &Root, base: &str, table: &str) -> Option<(u64, bool)> {
    let mut best: Option<u64> = None;
    let mut bins = false;
    for n in root.list_dir(&format!("{base}{table}")).ok()? {
        let at = format!("{base}{table}/{n}");
        let Ok(hz) = root.read_bytes(&format!("{at}/opp-hz")) else {
            continue;
        };
        let Some(hz) = first_u64(&hz) else {
            continue;
        };
        let available = root
            .read_dt_strings(&format!("{at}/status"))
            .map_or(true, |s| s.iter().any(|v| v == "okay" || v == "ok"));
        if !available || root.exists(&format!("{at}/turbo-mode")) {
            continue;
        }
        bins |= root.exists(&format!("{at}/opp-supported-hw"));
        best = Some(best.map_or(hz, |b| b.max(hz)));
    }
    best.map(|b| (b, bins))
}

/// Logical CPU `cpu`'s nominal clock from the device tree (see the module's notes); None when
/// there is no device tree or it states none.
pub fn cpu_clock(root: &Root, cpu: u32) -> Option<DtClock> {
    let base = base(root)?;
    let node = cpu_node(root, base, cpu)?;
    let prop = |p: &str| root.read_bytes(&format!("{base}{node}/{p}")).ok();
    if let Some(ph) = prop("operating-points-v2").and_then(|b| cells(&b).first().copied())
        && let Some(table) = opp_table(root, base, ph)
        && let Some((hz, bins)) = highest_opp(root, base, &table)
        && hz >= 1000
    {
        let bins = if bins {
            ", the highest of its speed bins"
        } else {
            ""
        };
        return Some(DtClock {
            khz: hz / 1000,
            from: format!("operating-points-v2 {table}{bins}"),
        });
    }
    if let Some(khz) = prop("operating-points")
        .map(|b| cells(&b))
        .and_then(|c| c.chunks_exact(2).map(|p| u64::from(p[0])).max())
        .filter(|k| *k > 0)
    {
        return Some(DtClock {
            khz,
            from: format!("operating-points of {node}"),
        });
    }
    let hz = prop("clock-frequency").and_then(|b| one_or_two_cells(&b))?;
    (hz >= 1000).then(|| DtClock {
        khz: hz / 1000,
        from: format!("clock-frequency of {node}"),
    })
}

/// Words in a node name under which the JEDEC memory nodes are looked for.
const MEMORY_WORDS: [&str; 9] = [
    "memory-controller",
    "dmc",
    "emif",
    "ddr",
    "dram",
    "sdram",
    "channel",
    "rank",
    "lpddr",
];

/// "LPDDR4" from `jedec,lpddr4` or `jedec,lpddr4-channel`.
fn jedec_type(compatible: &[String]) -> Option<String> {
    compatible.iter().find_map(|c| {
        let t = c.strip_prefix("jedec,")?;
        let t = t.strip_suffix("-channel").unwrap_or(t);
        let ok = t.strip_prefix("lpddr").or_else(|| t.strip_prefix("ddr"))?;
        (ok.len() == 1 && ok.bytes().all(|b| b.is_ascii_digit())).then(|| t.to_uppercase())
    })
}

/// The DRAM types the device tree states through the JEDEC bindings, one device per node that
/// names one (source "devicetree", the node's path as the locator).
pub fn dram(root: &Root) -> Vec<DramDevice> {
    let Some(base) = base(root) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // (path, depth, under a memory-like node)
    let mut todo: Vec<(String, usize, bool)> = vec![(String::new(), 0, false)];
    let mut seen = 0usize;
    while let Some((node, depth, memoryish)) = todo.pop() {
        let Ok(children) = root.list_dir(&format!("{base}{node}")) else {
            continue;
        };
        for c in children {
            seen += 1;
            if seen > 20_000 {
                return out;
            }
            let path = format!("{node}/{c}");
            let lower = c.to_lowercase();
            let here = memoryish || MEMORY_WORDS.iter().any(|w| lower.contains(w));
            let abs = format!("{base}{path}");
            if here
                && let Ok(compat) = root.read_dt_strings(&format!("{abs}/compatible"))
                && let Some(t) = jedec_type(&compat)
            {
                // A channel that names its type is one device: its ranks (which say the same
                // again) are not visited.
                out.push(DramDevice {
                    source: "devicetree".into(),
                    locator: Some(path.clone()),
                    mem_type: Some(t),
                    ..Default::default()
                });
                continue;
            }
            // Only directories are nodes; properties are files.
            if depth < 3 && std::fs::metadata(root.path(&abs)).is_ok_and(|m| m.is_dir()) {
                todo.push((path, depth + 1, here));
            }
        }
    }
    out.sort_by(|a, b| a.locator.cmp(&b.locator));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jedec_compatibles_name_the_type() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            jedec_type(&v(&["lpddr4-ff,0100", "jedec,lpddr4"])).as_deref(),
            Some("LPDDR4")
        );
        assert_eq!(
            jedec_type(&v(&["jedec,lpddr5-channel"])).as_deref(),
            Some("LPDDR5")
        );
        assert_eq!(jedec_type(&v(&["jedec,lpddr2-nvm"])), None);
        assert_eq!(jedec_type(&v(&["jedec,spi-nor"])), None);
        assert_eq!(jedec_type(&v(&["rockchip,rk3588-dmc"])), None);
    }

    #[test]
    fn cells_of_one_or_two() {
        assert_eq!(
            one_or_two_cells(&1_800_000_000u32.to_be_bytes()),
            Some(1_800_000_000)
        );
        assert_eq!(
            one_or_two_cells(&2_400_000_000u64.to_be_bytes()),
            Some(2_400_000_000)
        );
        assert_eq!(one_or_two_cells(&[0, 0, 1]), None);
        assert_eq!(
            first_u64(&[0, 0, 0, 0, 0x6b, 0x49, 0xd2, 0x00, 0, 0]),
            Some(1_800_000_000)
        );
    }
}
