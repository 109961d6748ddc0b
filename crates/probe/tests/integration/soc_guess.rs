//! SoC guess from cpuinfo alone, checked against the SoC each shared cpuinfo capture is named
//! after (the file name is the only place that names it; see the fixture README).
//!
//! Considered: every capture with a `Hardware` line, plus every capture for which the guess
//! answers (a distinctive topology, a Loongson/MIPS/RISC-V model name). A guess is right when
//! its name contains the file's SoC key (spaces, dashes and case ignored); a "one of: …" answer
//! is right when the file's SoC is among its candidates and wrong when it is not. The table of
//! right / wrong / none is printed (`cargo test --test integration -- soc_guess:: --nocapture`).

use probe::{cpuinfo, soc};
use serde_json::Value;
use std::path::PathBuf;

/// shared/fixtures/cpuinfo beside the checkout (`testsupport::shared_fixtures`).
fn fixture_dir() -> PathBuf {
    testsupport::shared_fixtures().join("cpuinfo")
}

/// The SoC key of a file where `model_from_filename` is not it as written (variant words,
/// board names, two names joined). Everything else uses `model_from_filename`.
const KEYS: &[(&str, &str)] = &[
    ("ARM-V2P-CA15-CA7", "V2P"),
    ("BCM2711B0", "BCM2711"),
    ("BCM2836_BCM2709", "BCM2836"),
    ("BCM2837_BCM2709", "BCM2837"),
    ("Comcerto-2000", "Comcerto 2000"),
    ("Exynos-8890", "Exynos 8890"),
    ("Exynos-Auto-V9", "Auto V9"),
    ("Google-Tensor", "Tensor"),
    ("HiSilicon-Hi3751", "Hi3751"),
    ("HiSilicon-Kunpeng-920", "Kunpeng 920"),
    ("HiSilicon-Hi3520D", "Hi3520D"),
    ("IMX.6-Quad", "i.MX6 Quad"),
    ("Marvell-Feroceon-88F6281", "88F6281"),
    ("Marvell-Kirkwood-88F6281", "88F6281"),
    ("NVidia-Tegra-Xavier", "Xavier"),
    ("Nvidia-Xavier", "Xavier"),
    ("Nvidia-Jetson-AGX-Orin", "Orin"),
    ("Nvidia_Jetson_Orin_NX", "Orin"),
    ("Nvidia-Jetson-Nano", "Tegra X1"),
    ("Nvidia-Jetson-TX2", "Tegra X2"),
    ("Nvidia-Tegra-X1", "Tegra X1"),
    ("Nvidia-Tegra-K1-Tegra124", "T124"),
    ("Nvidia-Tegra-K1-Tegra132", "T132"),
    ("Nvidia-Tegra2", "Tegra 2"),
    ("PLX-NAS7820", "NAS7820"),
    ("Phytium-FT2000:4", "FT-2000/4"),
    ("Qualcomm-APQ8064", "APQ8064"),
    ("Qualcomm-IPQ806x", "IPQ806"),
    ("Qualcomm-SDM662", "Snapdragon 662"),
    ("Qualcomm-SM8750", "SM8750"),
    ("Qualcomm-Snapdragon-450", "SDM450"),
    ("Qualcomm-Snapdragon-845", "Snapdragon 845"),
    ("Qualcomm-Snapdragon-865", "Snapdragon 865"),
    ("Renesas-RZ:Five", "RZ/Five"),
    ("SiFive-Freedom-U540", "FU540"),
    ("SigmaStar-SSD201", "SSD20"),
    ("SpacemiT-K1_M1", "K1"),
    ("TI-AM3358", "AM335"),
    ("TI-AM5728", "AM572"),
    ("TI-OMAP4470", "OMAP4"),
    ("TI-OMAP3530", "OMAP3"),
    ("Xilinx-Zynq-7000S", "Zynq-7000"),
    ("Cavium-ThunderX", "ThunderX"),
    ("Ampere-Emag", "eMAG"),
    ("Ampere-Altra-Max", "Altra Max"),
    ("AWS-c7g.medium-Graviton3", "Graviton3"),
    ("Cix-P1", "P1"),
    ("Loongson-3A5000", "3A5000"),
    ("Sophon-SG2042", "SG2042"),
];

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn key_of(file: &str, e: &Value) -> String {
    KEYS.iter()
        .find(|(prefix, _)| file.starts_with(prefix))
        .map(|(_, k)| k.to_string())
        .unwrap_or_else(|| {
            e["model_from_filename"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
}

#[test]
fn guesses_name_the_soc_of_the_file() {
    let index: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(fixture_dir().join("index.json")).unwrap())
            .unwrap();
    let (mut considered, mut right, mut among) = (0usize, 0usize, 0usize);
    let (mut unguessed, mut family, mut wrong) = (Vec::new(), Vec::new(), Vec::new());
    let mut impossible = Vec::new();
    // Which evidence gave the right answers ("device-tree", "cpuinfo Hardware", "core types" …).
    let mut by_source: Vec<(String, usize)> = Vec::new();
    let mut names: Vec<&String> = index.keys().collect();
    names.sort();
    for file in names {
        let e = &index[file];
        let bytes = std::fs::read(fixture_dir().join(file)).unwrap();
        let c = cpuinfo::parse(&String::from_utf8_lossy(&bytes));
        let g = soc::guess(&soc::SocHints {
            dt_compatible: &[],
            dt_model: None,
            cpuinfo: &c,
            max_khz_per_cluster: &[],
        });
        if c.hardware.is_none() && g.is_none() {
            impossible.push(file.as_str());
            continue;
        }
        considered += 1;
        let key = key_of(file, e);
        match &g {
            Some(g) if norm(&g.name).contains(&norm(&key)) => {
                right += 1;
                if g.name.starts_with("one of:") {
                    among += 1;
                }
                let source: String = g
                    .why
                    .split([' ', ':'])
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ");
                match by_source.iter_mut().find(|(s, _)| *s == source) {
                    Some(s) => s.1 += 1,
                    None => by_source.push((source, 1)),
                }
            }
            // An honest "family" answer names no SoC: it states the candidates in `why`.
            Some(g) if g.name.contains("family") => {
                family.push(format!("{file}: {:?} ({}) — want {key}", g.name, g.why))
            }
            Some(g) => wrong.push(format!("{file}: {:?} ({}) — want {key}", g.name, g.why)),
            None => unguessed.push(format!("{file}: Hardware {:?}", c.hardware)),
        }
    }
    let rate = right as f64 / considered as f64;
    let pct = |n: usize| 100.0 * n as f64 / considered as f64;
    println!("SoC guess from cpuinfo alone, {considered} captures considered:");
    println!("  {:<40} {:>4} {:>6.1} %", "right", right, pct(right));
    println!(
        "  {:<40} {:>4} {:>6.1} %",
        "  of which one name",
        right - among,
        pct(right - among)
    );
    println!(
        "  {:<40} {:>4} {:>6.1} %",
        "  of which \"one of: …\" with the SoC in it",
        among,
        pct(among)
    );
    println!(
        "  {:<40} {:>4} {:>6.1} %",
        "wrong",
        wrong.len(),
        pct(wrong.len())
    );
    let none = family.len() + unguessed.len();
    println!(
        "  {:<40} {:>4} {:>6.1} %",
        "none (family only or no guess)",
        none,
        pct(none)
    );
    println!("  right answers by evidence: {by_source:?}");
    for (label, list) in [
        ("family", &family),
        ("unguessed", &unguessed),
        ("WRONG", &wrong),
    ] {
        for x in list {
            println!("  {label:9} {x}");
        }
    }
    println!(
        "  not guessable from cpuinfo alone (no Hardware line, common core set): {} files: {}",
        impossible.len(),
        impossible.join(", ")
    );
    // Thresholds: the tables are written from public facts, not from these files, so a few
    // captures stay unguessed (generic Hardware lines, phone codenames) or family-only. A wrong
    // name is worse than none: at most 1 % may be wrong. 135 were right before ambiguous
    // evidence was answered with "one of: …"; that must not cost right answers.
    assert!(rate >= 0.85, "only {:.1} % right", 100.0 * rate);
    assert!(
        right >= 135,
        "{right} right answers, fewer than the 135 before"
    );
    assert!(
        wrong.len() as f64 <= 0.01 * considered as f64,
        "{} wrong guesses",
        wrong.len()
    );
}

/// The topology signature alone (Hardware/Model/Revision/Serial removed) still names the SoCs
/// whose core set is distinctive, and never names one whose core set is common.
#[test]
fn topology_alone_is_right_or_silent() {
    let index: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(fixture_dir().join("index.json")).unwrap())
            .unwrap();
    let (mut answered, mut right) = (0usize, 0usize);
    let mut misses = Vec::new();
    for (file, e) in &index {
        let bytes = std::fs::read(fixture_dir().join(file)).unwrap();
        let mut c = cpuinfo::parse(&String::from_utf8_lossy(&bytes));
        c.hardware = None;
        c.model = None;
        c.revision = None;
        c.serial_prefix = None;
        c.system_type = None;
        if c.processors.iter().any(|p| {
            p.model_name
                .as_deref()
                .is_some_and(|m| m.starts_with("Loongson") || m.starts_with("Spacemit"))
        }) {
            continue;
        }
        let Some(g) = soc::guess(&soc::SocHints {
            dt_compatible: &[],
            dt_model: None,
            cpuinfo: &c,
            max_khz_per_cluster: &[],
        }) else {
            continue;
        };
        answered += 1;
        if norm(&g.name).contains(&norm(&key_of(file, e))) {
            right += 1;
        } else {
            misses.push(format!("{file}: {} ({})", g.name, g.why));
        }
    }
    println!("topology alone: {right}/{answered} answers name the file's SoC");
    for m in &misses {
        println!("  {m}");
    }
    assert!(
        answered >= 40,
        "topology table too small: {answered} answers"
    );
    assert!(right as f64 >= 0.9 * answered as f64);
}
