//! /proc/cpuinfo parsing for every architecture boardbench meets (arm64, armhf, riscv64,
//! x86_64, loongarch64, mips).
//!
//! The file is a list of `key : value` lines in blocks that start with `processor : N`. What
//! varies, and is handled here:
//! * Old 32-bit ARM kernels (and a few early arm64 ones) print `Features` and the MIDR lines
//!   (`CPU implementer` …) once, after all processor blocks, sometimes without a blank line in
//!   between, and name the CPU in a global `Processor` line.
//! * A HiSilicon vendor kernel joins the MIDR values of two clusters with `&`.
//! * Captures may have CRLF line ends, foreign lines (a `uname` line), be truncated or be
//!   garbage. The parser never panics; what it cannot read is simply absent.
//!
//! `family`/`kernel_mode` follow the rules of the shared fixture index: `aarch64` when the
//! Features have `asimd` or the model says AArch64, else `arm32`; `riscv64` from `isa: rv64…`;
//! `loongarch64` from the `isa` list; `mips64`/`mips32` from the MIPS `isa` list.

use crate::arm_parts;
use document::cpu::{ArmCore, ArmId, CpuInfo, Processor, RiscvId};

/// Keys that describe the machine, not one processor, wherever they appear.
const GLOBAL_KEYS: &[&str] = &[
    "Hardware",
    "Revision",
    "Serial",
    "Model",
    "system type",
    "machine",
];

/// The MIDR lines of ARM kernels.
const IMPLEMENTER: &str = "CPU implementer";
const PART: &str = "CPU part";
const VARIANT: &str = "CPU variant";
const REVISION: &str = "CPU revision";
const ARCHITECTURE: &str = "CPU architecture";

type Kv<'a> = Vec<(&'a str, &'a str)>;

struct Block<'a> {
    index: u32,
    kv: Kv<'a>,
}

fn get<'a>(kv: &Kv<'a>, key: &str) -> Option<&'a str> {
    kv.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// Non-empty value of `key`.
fn get_ne<'a>(kv: &Kv<'a>, key: &str) -> Option<&'a str> {
    get(kv, key).filter(|v| !v.is_empty())
}

/// Trimmed `key : value` pairs of all lines.
fn key_values(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim(), v.trim()))
}

/// Parses the text of a /proc/cpuinfo. Never panics; unknown lines are ignored.
pub fn parse(text: &str) -> CpuInfo {
    let mut global: Kv = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    // Whether lines currently belong to the last processor block (until a blank line).
    let mut in_block = false;
    // Early RISC-V kernels (4.19 on the U540) print `hart : N` blocks without `processor` lines.
    let starter = if key_values(text).any(|(k, v)| k == "processor" && v.parse::<u32>().is_ok()) {
        "processor"
    } else {
        "hart"
    };
    for raw in text.lines() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            in_block = false;
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        let start = if k == starter {
            v.parse::<u32>().ok()
        } else {
            None
        };
        if let Some(index) = start {
            blocks.push(Block {
                index,
                kv: Vec::new(),
            });
            in_block = true;
            continue;
        }
        // `Processor` (capital P) is the old ARM kernels' global model line.
        if k == "Processor" || GLOBAL_KEYS.contains(&k) || !in_block {
            global.push((k, v));
        } else if let Some(b) = blocks.last_mut() {
            b.kv.push((k, v));
        }
    }

    let mut info = CpuInfo {
        hardware: get_ne(&global, "Hardware").map(str::to_string),
        model: get_ne(&global, "Model").map(str::to_string),
        system_type: get_ne(&global, "system type").map(str::to_string),
        revision: get_ne(&global, "Revision").map(str::to_string),
        serial_prefix: get_ne(&global, "Serial").and_then(serial_prefix),
        ..CpuInfo::default()
    };

    // Where the MIDR is printed once for all processors: after the blocks (global), or glued to
    // the last block when no blank line separates it (the other blocks then have none).
    let per_cpu_midr = blocks
        .iter()
        .filter(|b| get(&b.kv, IMPLEMENTER).is_some())
        .count();
    let shared_src: Option<&Kv> = if per_cpu_midr == 0 && get(&global, IMPLEMENTER).is_some() {
        Some(&global)
    } else if per_cpu_midr == 1
        && blocks.len() > 1
        && blocks
            .last()
            .is_some_and(|b| get(&b.kv, IMPLEMENTER).is_some())
    {
        blocks.last().map(|b| &b.kv)
    } else {
        None
    };
    if let Some(src) = shared_src {
        info.shared_cores = shared_cores(src);
    }
    let global_flags = shared_src
        .and_then(|s| get(s, "Features"))
        .or_else(|| get(&global, "Features"));
    // "Processor name" on some Marvell Feroceon kernels.
    let global_model = get_ne(&global, "Processor").or_else(|| get_ne(&global, "Processor name"));
    // Uniprocessor ARM kernels of the 2.6/3.x era print one block with no `processor : N`
    // line at all (`Processor : ARMv6-compatible processor rev 7 (v6l)`, then the MIDR): that
    // block is CPU 0.
    let uniprocessor =
        blocks.is_empty() && (global_model.is_some() || get(&global, IMPLEMENTER).is_some());
    if uniprocessor {
        blocks.push(Block {
            index: 0,
            kv: Vec::new(),
        });
    }

    info.processors = blocks
        .iter()
        .map(|b| processor(b, global_model, global_flags))
        .collect();

    match info.shared_cores.len() {
        0 => {}
        1 => {
            let c = &info.shared_cores[0];
            for p in info.processors.iter_mut().filter(|p| p.arm.is_none()) {
                p.arm = Some(c.arm.clone());
                p.vendor.clone_from(&c.vendor);
                p.core_name.clone_from(&c.core_name);
                p.stepping.clone_from(&c.stepping);
            }
            info.midr_note = Some(if uniprocessor {
                "one processor block without `processor : N` (uniprocessor kernel of the 2.6/3.x \
                 era): the MIDR describes the only CPU"
                    .into()
            } else {
                "MIDR printed once for all processors (old kernel format): it describes the CPU \
                 that read the file; other CPUs may differ"
                    .into()
            });
        }
        _ => {
            info.midr_note = Some(
                "several core IDs joined with '&' in one MIDR block (vendor kernel); which \
                 processor has which is unknown"
                    .into(),
            );
        }
    }

    let (family, mode) = arch(&info, &global);
    info.family = family.map(str::to_string);
    info.kernel_mode = mode;
    for p in &mut info.processors {
        if p.core_name.is_none() {
            p.core_name = non_arm_core_name(family, p);
        }
        if p.vendor.is_none() {
            p.vendor = non_arm_vendor(family, p, &blocks, &global);
        }
    }
    info
}

/// First byte of a hex serial ("1f0c1300…" → "1f"); all-zero or non-hex serials give `None`.
fn serial_prefix(serial: &str) -> Option<String> {
    let head = serial.get(..2)?.to_ascii_lowercase();
    let hex = head.chars().all(|c| c.is_ascii_hexdigit());
    (hex && head != "00" && serial.len() >= 4).then_some(head)
}

/// Reads /proc/cpuinfo through the root (honours `CPUINFOFILE`, and then records the file in
/// `foreign_file`). A missing or empty file gives an empty `CpuInfo` and a note.
pub fn read(root: &crate::Root, notes: &mut crate::Notes) -> CpuInfo {
    let Some(text) = notes.keep(root.read("/proc/cpuinfo")) else {
        return CpuInfo::default();
    };
    let mut info = parse(&text);
    info.foreign_file = foreign_file(root);
    if info.processors.is_empty() {
        notes.push(crate::Absent {
            path: root.shown("/proc/cpuinfo"),
            reason: "no `processor : N` entries".into(),
        });
    }
    info
}

/// The file the root reads instead of its own /proc/cpuinfo, if any.
pub fn foreign_file(root: &crate::Root) -> Option<String> {
    let own = root.dir().join("proc/cpuinfo");
    let read = root.path("/proc/cpuinfo");
    (read != own).then(|| read.display().to_string())
}

fn processor(b: &Block, global_model: Option<&str>, global_flags: Option<&str>) -> Processor {
    let kv = &b.kv;
    let mut p = Processor {
        index: b.index,
        model_name: get_ne(kv, "model name")
            .or_else(|| get_ne(kv, "cpu model"))
            .or(global_model)
            .map(str::to_string),
        isa: get_ne(kv, "isa").map(str::to_string),
        flags: get(kv, "Features")
            .or_else(|| get(kv, "flags"))
            .or_else(|| get(kv, "features"))
            .or(global_flags)
            .map(|f| f.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        bogomips: get(kv, "BogoMIPS")
            .or_else(|| get(kv, "bogomips"))
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite()),
        ..Processor::default()
    };
    let riscv = RiscvId {
        uarch: get_ne(kv, "uarch").map(str::to_string),
        mvendorid: get_ne(kv, "mvendorid").map(str::to_string),
        marchid: get_ne(kv, "marchid").map(str::to_string),
        mimpid: get_ne(kv, "mimpid").map(str::to_string),
    };
    if riscv != RiscvId::default() {
        p.riscv = Some(riscv);
    }
    if let Some(imp) = get(kv, IMPLEMENTER) {
        let arm = ArmId {
            implementer: imp.to_string(),
            part: get(kv, PART).unwrap_or_default().to_string(),
            variant: get(kv, VARIANT).map(str::to_string),
            revision: get(kv, REVISION).map(str::to_string),
            architecture: get(kv, ARCHITECTURE).map(str::to_string),
        };
        let core = decode(arm);
        p.vendor = core.vendor;
        p.core_name = core.core_name;
        p.stepping = core.stepping;
        p.arm = Some(core.arm);
    }
    p
}

/// Names an ARM core ID.
fn decode(arm: ArmId) -> ArmCore {
    let imp = arm_parts::parse_id(&arm.implementer);
    let part = arm_parts::parse_id(&arm.part);
    ArmCore {
        vendor: imp
            .and_then(arm_parts::implementer_name)
            .map(str::to_string),
        core_name: imp
            .zip(part)
            .and_then(|(i, p)| arm_parts::core_name(i, p))
            .map(str::to_string),
        stepping: arm
            .variant
            .as_deref()
            .zip(arm.revision.as_deref())
            .and_then(|(v, r)| arm_parts::stepping(v, r)),
        arm,
    }
}

/// The MIDR printed once: one core, or several joined with `&` ("0xc07 & 0xc0f").
fn shared_cores(kv: &Kv) -> Vec<ArmCore> {
    let split = |key: &str| -> Vec<String> {
        get(kv, key)
            .map(|v| v.split('&').map(|s| s.trim().to_string()).collect())
            .unwrap_or_default()
    };
    let (imps, parts, vars, revs) = (
        split(IMPLEMENTER),
        split(PART),
        split(VARIANT),
        split(REVISION),
    );
    let arch = get(kv, ARCHITECTURE).map(str::to_string);
    let n = imps.len().max(parts.len()).max(1);
    // A single value (the implementer, usually) applies to every joined entry.
    let pick = |v: &[String], i: usize| -> Option<String> {
        if v.len() == 1 {
            v.first().cloned()
        } else {
            v.get(i).cloned()
        }
    };
    (0..n)
        .map(|i| {
            decode(ArmId {
                implementer: pick(&imps, i).unwrap_or_default(),
                part: pick(&parts, i).unwrap_or_default(),
                variant: pick(&vars, i),
                revision: pick(&revs, i),
                architecture: arch.clone(),
            })
        })
        .collect()
}

/// Architecture family and kernel mode, as far as the file tells.
fn arch(info: &CpuInfo, global: &Kv) -> (Option<&'static str>, Option<String>) {
    let procs = &info.processors;
    let isa_tokens = || {
        procs
            .iter()
            .filter_map(|p| p.isa.as_deref())
            .chain(get(global, "isa"))
            .flat_map(str::split_whitespace)
    };
    if let Some(rv) = isa_tokens().find(|t| t.starts_with("rv")) {
        let bits: String = rv[2..].chars().take_while(char::is_ascii_digit).collect();
        let mode = (!bits.is_empty()).then(|| format!("riscv{bits}"));
        return (Some("riscv"), mode);
    }
    if isa_tokens().any(|t| t.starts_with("loongarch")) {
        let mode = if isa_tokens().any(|t| t == "loongarch64") {
            "loongarch64"
        } else {
            "loongarch32"
        };
        return (Some("loongarch"), Some(mode.into()));
    }
    if isa_tokens().any(|t| t.starts_with("mips")) {
        let mode = if isa_tokens().any(|t| t.starts_with("mips64")) {
            "mips64"
        } else {
            "mips32"
        };
        return (Some("mips"), Some(mode.into()));
    }
    let says_aarch64 = |s: &str| s.contains("AArch64") || s.contains("aarch64");
    let arm = !info.shared_cores.is_empty()
        || procs.iter().any(|p| p.arm.is_some())
        || get(global, "Processor").is_some_and(|m| m.contains("ARM") || says_aarch64(m))
        || procs
            .iter()
            .filter_map(|p| p.model_name.as_deref())
            .any(|m| m.starts_with("ARM") || says_aarch64(m));
    if arm {
        let aarch64 = procs.iter().any(|p| p.flags.iter().any(|f| f == "asimd"))
            || get(global, "Processor").is_some_and(says_aarch64)
            || procs
                .iter()
                .filter_map(|p| p.model_name.as_deref())
                .any(says_aarch64)
            || procs
                .iter()
                .filter_map(|p| p.arm.as_ref()?.architecture.as_deref())
                .any(|a| a == "AArch64");
        return (
            Some("arm"),
            Some(if aarch64 { "aarch64" } else { "arm32" }.into()),
        );
    }
    let x86_flag = |f: &String| matches!(f.as_str(), "fpu" | "tsc" | "cx8" | "sse2" | "lm");
    if procs.iter().any(|p| p.flags.iter().any(x86_flag)) {
        // `lm` (long mode) is the 64-bit capability flag.
        let lm = procs.iter().any(|p| p.flags.iter().any(|f| f == "lm"));
        return (Some("x86"), Some(if lm { "x86_64" } else { "x86" }.into()));
    }
    (None, None)
}

/// Core name outside ARM: RISC-V `uarch` (else the model name some vendor kernels print, else
/// `isa`), LoongArch model name (the bracketed part preferred), MIPS `cpu model`, x86 model name.
fn non_arm_core_name(family: Option<&str>, p: &Processor) -> Option<String> {
    let name = match family {
        Some("riscv") => p
            .riscv
            .as_ref()
            .and_then(|r| r.uarch.clone())
            .or_else(|| p.model_name.clone())
            .or_else(|| p.isa.clone()),
        Some("loongarch") => p.model_name.as_deref().map(|m| bracketed(m).to_string()),
        Some("mips") | Some("x86") => p.model_name.clone(),
        _ => None,
    };
    name.map(|n| n.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty())
}

/// "Loongson-3A R1 (Loongson-3A1000) @ 900MHz" → "Loongson-3A1000"; otherwise the whole name.
fn bracketed(m: &str) -> &str {
    m.split_once('(')
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(inner, _)| inner.trim())
        .filter(|s| !s.is_empty())
        .unwrap_or(m)
}

/// Core vendor outside ARM.
fn non_arm_vendor(
    family: Option<&str>,
    p: &Processor,
    blocks: &[Block],
    global: &Kv,
) -> Option<String> {
    let v: Option<&str> = match family {
        Some("riscv") => {
            let r = p.riscv.as_ref();
            let by_uarch = r
                .and_then(|r| r.uarch.as_deref())
                .and_then(|u| u.split_once(','))
                .map(|(v, _)| v)
                .and_then(|v| match v {
                    "sifive" => Some("SiFive"),
                    "thead" => Some("T-Head"),
                    "andestech" => Some("Andes"),
                    "spacemit" => Some("SpacemiT"),
                    _ => None,
                });
            // JEDEC manufacturer IDs in `mvendorid` (bank and code).
            by_uarch.or_else(|| match r.and_then(|r| r.mvendorid.as_deref()) {
                Some("0x489") => Some("SiFive"),
                Some("0x5b7") => Some("T-Head"),
                Some("0x31e") => Some("Andes"),
                Some("0x710") => Some("SpacemiT"),
                _ => None,
            })
        }
        Some("loongarch") => Some("Loongson"),
        Some("mips") => {
            let m = p.model_name.as_deref().unwrap_or_default();
            [
                "Loongson", "Ingenic", "Broadcom", "Cavium", "MediaTek", "MIPS",
            ]
            .into_iter()
            .find(|v| m.starts_with(v))
        }
        Some("x86") => {
            let id = blocks
                .iter()
                .find(|b| b.index == p.index)
                .and_then(|b| get(&b.kv, "vendor_id"))
                .or_else(|| get(global, "vendor_id"));
            match id {
                Some("GenuineIntel") => Some("Intel"),
                Some("AuthenticAMD") => Some("AMD"),
                Some("HygonGenuine") => Some("Hygon"),
                Some("CentaurHauls") | Some("  Shanghai  ") => Some("Zhaoxin"),
                _ => None,
            }
        }
        _ => None,
    };
    v.map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const RK3588_LIKE: &str = "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm\n\
CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: 0xd05\nCPU revision\t: 0\n\n\
processor\t: 4\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm\n\
CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 0\n\n";

    #[test]
    fn arm64_per_cpu_midr() {
        let c = parse(RK3588_LIKE);
        assert_eq!(c.family.as_deref(), Some("arm"));
        assert_eq!(c.kernel_mode.as_deref(), Some("aarch64"));
        assert_eq!(c.processors.len(), 2);
        let big = &c.processors[1];
        assert_eq!(big.index, 4);
        assert_eq!(big.core_name.as_deref(), Some("Cortex-A76"));
        assert_eq!(big.stepping.as_deref(), Some("r4p0"));
        assert_eq!(big.vendor.as_deref(), Some("ARM"));
        assert_eq!(big.core_label().as_deref(), Some("Cortex-A76 / r4p0"));
        assert!(c.shared_cores.is_empty() && c.midr_note.is_none());
    }

    #[test]
    fn crlf_gives_the_same_result() {
        assert_eq!(
            parse(&RK3588_LIKE.replace('\n', "\r\n")),
            parse(RK3588_LIKE)
        );
    }

    #[test]
    fn old_arm32_format_shares_the_midr() {
        let t = "Processor\t: ARMv7 Processor rev 5 (v7l)\nprocessor\t: 0\nBogoMIPS\t: 4800\n\n\
processor\t: 1\nBogoMIPS\t: 4800\n\nFeatures\t: swp half thumb neon\nCPU implementer\t: 0x41\n\
CPU architecture: 7\nCPU variant\t: 0x0\nCPU part\t: 0xc07\nCPU revision\t: 5\n\nHardware\t: sun8i\n";
        let c = parse(t);
        assert_eq!(c.kernel_mode.as_deref(), Some("arm32"));
        assert_eq!(c.hardware.as_deref(), Some("sun8i"));
        assert_eq!(c.serial_prefix, None);
        let s = parse("processor : 0\nSerial\t: 1F0c13003209a3a1\nRevision : a02082\n");
        assert_eq!(s.serial_prefix.as_deref(), Some("1f"));
        assert_eq!(s.revision.as_deref(), Some("a02082"));
        assert_eq!(c.shared_cores.len(), 1);
        assert!(c.midr_note.is_some());
        for p in &c.processors {
            assert_eq!(p.core_name.as_deref(), Some("Cortex-A7"));
            assert_eq!(p.stepping.as_deref(), Some("r0p5"));
            assert_eq!(p.flags, ["swp", "half", "thumb", "neon"]);
            assert_eq!(p.model_name.as_deref(), Some("ARMv7 Processor rev 5 (v7l)"));
        }
    }

    #[test]
    fn uniprocessor_block_without_processor_lines_is_cpu0() {
        let t = "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nBogoMIPS\t: 697.95\n\
Features\t: swp half thumb fastmult vfp edsp java tls\nCPU implementer\t: 0x41\n\
CPU architecture: 7\nCPU variant\t: 0x0\nCPU part\t: 0xb76\nCPU revision\t: 7\n\n\
Hardware\t: BCM2708\nRevision\t: 000e\nSerial\t\t: 00000000c4f8a1b2\n";
        let c = parse(t);
        assert_eq!(c.processors.len(), 1);
        let p = &c.processors[0];
        assert_eq!(p.index, 0);
        assert_eq!(p.core_name.as_deref(), Some("ARM1176"));
        assert_eq!(p.stepping.as_deref(), Some("r0p7"));
        assert_eq!(
            p.model_name.as_deref(),
            Some("ARMv6-compatible processor rev 7 (v6l)")
        );
        assert_eq!(c.kernel_mode.as_deref(), Some("arm32"));
        assert_eq!(c.hardware.as_deref(), Some("BCM2708"));
        assert!(c.midr_note.as_deref().unwrap().contains("uniprocessor"));
        // Cortex-A8 and ARM1136 boards of the same era.
        let a8 = parse(&t.replace("0xb76", "0xc08").replace("0x0\n", "0x3\n"));
        assert_eq!(a8.processors[0].core_name.as_deref(), Some("Cortex-A8"));
        let arm1136 = parse(&t.replace("0xb76", "0xb36"));
        assert_eq!(arm1136.processors[0].core_name.as_deref(), Some("ARM1136"));
    }

    #[test]
    fn ampersand_joined_midr_lists_both_cores_and_assigns_none() {
        let t = "processor\t: 0\nBogoMIPS\t: 12.80\n\nprocessor\t: 1\nBogoMIPS\t: 38.40\n\n\
Features\t: swp half\nCPU implementer\t: 0x41\nCPU architecture: 7\nCPU variant\t: 0x0 & 0x3\n\
CPU part\t: 0xc07 & 0xc0f\nCPU revision\t: 5 & 3\n\nHardware\t: Kirin920\n";
        let c = parse(t);
        let names: Vec<_> = c
            .shared_cores
            .iter()
            .map(|s| (s.core_name.as_deref(), s.stepping.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                (Some("Cortex-A7"), Some("r0p5")),
                (Some("Cortex-A15"), Some("r3p3"))
            ]
        );
        assert!(c.processors.iter().all(|p| p.core_name.is_none()));
        assert_eq!(c.family.as_deref(), Some("arm"));
    }

    #[test]
    fn riscv_uses_uarch_and_isa() {
        let t = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nmmu\t\t: sv39\n\
uarch\t\t: sifive,u74-mc\nmvendorid\t: 0x489\nmarchid\t\t: 0x8000000000000007\nmimpid\t\t: 0x4210427\n";
        let c = parse(t);
        assert_eq!(c.kernel_mode.as_deref(), Some("riscv64"));
        let p = &c.processors[0];
        assert_eq!(p.core_name.as_deref(), Some("sifive,u74-mc"));
        assert_eq!(p.vendor.as_deref(), Some("SiFive"));
        assert_eq!(
            p.riscv.as_ref().unwrap().marchid.as_deref(),
            Some("0x8000000000000007")
        );
        let k210 = parse("processor : 0\nhart : 0\nisa : rv64imafdc");
        assert_eq!(k210.processors[0].core_name.as_deref(), Some("rv64imafdc"));
    }

    #[test]
    fn x86_model_name_and_vendor() {
        let t = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n\
model name\t: AMD EPYC 9B45  128-Core Processor\nflags\t\t: fpu vme de pse tsc lm sse2\nbogomips\t: 4000.00\n";
        let c = parse(t);
        assert_eq!(c.family.as_deref(), Some("x86"));
        assert_eq!(c.kernel_mode.as_deref(), Some("x86_64"));
        let p = &c.processors[0];
        assert_eq!(p.vendor.as_deref(), Some("AMD"));
        assert_eq!(
            p.core_name.as_deref(),
            Some("AMD EPYC 9B45 128-Core Processor")
        );
        assert_eq!(p.bogomips, Some(4000.0));
        assert!(
            c.model.is_none(),
            "x86 `document` is not the RPi `Model` line"
        );
    }

    #[test]
    fn loongson_prefers_bracketed_name_on_loongarch() {
        let t = "system type\t: generic-loongson-machine\nprocessor\t: 0\n\
model name\t: Loongson-3A R4 (Loongson-3A5000) @ 2500MHz\nisa\t\t: loongarch32 loongarch64\n";
        let c = parse(t);
        assert_eq!(c.kernel_mode.as_deref(), Some("loongarch64"));
        assert_eq!(c.system_type.as_deref(), Some("generic-loongson-machine"));
        assert_eq!(
            c.processors[0].core_name.as_deref(),
            Some("Loongson-3A5000")
        );
    }

    #[test]
    fn garbage_and_empty_input() {
        assert_eq!(parse(""), CpuInfo::default());
        let c = parse("Linux host 6.1.0 #1 SMP 12:00:00 UTC\n\u{0}\u{fffd}::::\nprocessor : x\n");
        assert!(c.processors.is_empty());
        let t = parse("processor : 0\nCPU implementer : 0x41\nCPU part : 0x");
        assert_eq!(t.processors[0].core_name, None);
        assert_eq!(t.processors[0].vendor.as_deref(), Some("ARM"));
    }

    proptest! {
        #[test]
        fn never_panics_on_arbitrary_text(s in any::<String>()) {
            let _ = parse(&s);
        }

        #[test]
        fn never_panics_on_line_soup(lines in prop::collection::vec(
            prop_oneof![
                Just("processor : 0".to_string()),
                Just("processor\t: 7".to_string()),
                Just(String::new()),
                Just("CPU part : 0xc07 & 0xc0f & ".to_string()),
                Just("CPU variant : 0x & &".to_string()),
                Just("CPU revision : 99999999999999999999".to_string()),
                Just("isa : rv".to_string()),
                Just("isa : loongarch64 mips64r2".to_string()),
                "[A-Za-z ]{0,12}:[ -~]{0,20}",
                "CPU implementer\t: 0x[0-9a-f]{0,3}",
                "model name : [ -~()]{0,30}",
            ],
            0..40,
        )) {
            let c = parse(&lines.join("\n"));
            prop_assert!(c.processors.len() <= lines.len());
        }
    }
}
