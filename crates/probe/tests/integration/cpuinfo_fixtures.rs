//! Parses every shared /proc/cpuinfo capture and compares with the fixture index
//! (shared/fixtures/cpuinfo/index.json, see its README for how it was made).

use probe::cpuinfo;
use serde_json::Value;
use std::path::PathBuf;

/// shared/fixtures/cpuinfo beside the checkout (`testsupport::shared_fixtures`).
fn fixture_dir() -> PathBuf {
    testsupport::shared_fixtures().join("cpuinfo")
}

/// (file name, text) of every capture, sorted.
fn captures() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(fixture_dir())
        .expect("shared/fixtures/cpuinfo next to the repository")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cpuinfo") || n.ends_with(".txt"))
        .map(|n| {
            let bytes = std::fs::read(fixture_dir().join(&n)).unwrap();
            (n, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect();
    v.sort();
    v
}

fn index() -> serde_json::Map<String, Value> {
    let t = std::fs::read_to_string(fixture_dir().join("index.json")).unwrap();
    match serde_json::from_str(&t).unwrap() {
        Value::Object(m) => m,
        _ => panic!("index.json is not an object"),
    }
}

fn s(v: &Value) -> Option<&str> {
    v.as_str()
}

/// Processors the index expects: `processor : N` entries, or (early RISC-V kernels that print
/// only `hart : N` blocks) the harts, or (uniprocessor ARM kernels of the 2.6/3.x era that print
/// one block with a global `Processor` line or the MIDR and no `processor : N`) one.
fn expected_processors(e: &Value, text: &str) -> u64 {
    let key_count = |key: &str| {
        text.lines()
            .filter(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .count() as u64
    };
    match e["processor_entries"].as_u64().unwrap() {
        0 if key_count("hart") > 0 => key_count("hart"),
        0 => (key_count("Processor") + key_count("CPU implementer")).min(1),
        n => n,
    }
}

#[test]
fn every_capture_matches_the_index() {
    let idx = index();
    let caps = captures();
    assert!(caps.len() >= 180, "only {} captures found", caps.len());
    let (mut agree, mut total) = (0usize, 0usize);
    let mut misses = Vec::new();
    // Hard errors (wrong count, arch, vendor, a named unknown part), all listed at the end.
    let mut errors = Vec::new();
    for (name, text) in &caps {
        let Some(e) = idx.get(name) else {
            errors.push(format!("{name}: not in index"));
            continue;
        };
        let c = cpuinfo::parse(text);
        let want = expected_processors(e, text);
        if c.processors.len() as u64 != want {
            errors.push(format!(
                "{name}: {} processors, index {want}",
                c.processors.len()
            ));
        }
        let arch = (c.family.as_deref(), c.kernel_mode.as_deref());
        let want_arch = (s(&e["arch"]["family"]), s(&e["arch"]["kernel_mode"]));
        if arch != want_arch {
            errors.push(format!("{name}: arch {arch:?}, index {want_arch:?}"));
        }
        for core in e["arm_cores"].as_array().into_iter().flatten() {
            let want_name = s(&core["core_name"]);
            let want_vendor = s(&core["implementer_name"]);
            let cpus: Vec<u64> = core["cpus"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .collect();
            // (name, vendor) pairs the parser gives for this index entry.
            let got: Vec<(Option<String>, Option<String>)> = if cpus.is_empty() {
                // MIDR printed once: look for the entry among the shared cores.
                let m = c.shared_cores.iter().find(|sc| {
                    sc.arm.part == s(&core["part"]).unwrap_or_default()
                        && sc.arm.variant.as_deref() == s(&core["variant"])
                });
                if m.is_none() {
                    errors.push(format!("{name}: shared core {core} missing"));
                }
                m.map(|sc| (sc.core_name.clone(), sc.vendor.clone()))
                    .into_iter()
                    .collect()
            } else {
                cpus.iter()
                    .map(|&i| {
                        let p = c.processors.iter().find(|p| u64::from(p.index) == i);
                        (
                            p.and_then(|p| p.core_name.clone()),
                            p.and_then(|p| p.vendor.clone()),
                        )
                    })
                    .collect()
            };
            for (got_name, got_vendor) in got {
                if want_name.is_none() && got_name.is_some() {
                    errors.push(format!("{name}: unknown part named {got_name:?}"));
                }
                if got_vendor.as_deref() != want_vendor {
                    errors.push(format!(
                        "{name}: implementer {got_vendor:?} vs {want_vendor:?}"
                    ));
                }
                total += 1;
                if got_name.as_deref() == want_name {
                    agree += 1;
                } else {
                    misses.push(format!("{name}: {got_name:?} vs {want_name:?}"));
                }
            }
        }
    }
    let rate = agree as f64 / total as f64;
    println!(
        "core-name agreement: {agree}/{total} = {:.1} % over {} captures",
        100.0 * rate,
        caps.len()
    );
    for m in &misses {
        println!("  miss {m}");
    }
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
    assert!(rate >= 0.95, "agreement {rate:.3} below 95 %");
}

#[test]
fn non_arm_cores_are_named_from_uarch_isa_or_model() {
    let caps = captures();
    let find = |prefix: &str| {
        let (_, t) = caps
            .iter()
            .find(|(n, _)| n.starts_with(prefix))
            .unwrap_or_else(|| panic!("no capture {prefix}"));
        cpuinfo::parse(t)
    };
    let jh = find("StarFive-JH7110-6.5.0");
    assert_eq!(jh.processors[0].core_name.as_deref(), Some("sifive,u74-mc"));
    let k210 = find("Kendryte-K210");
    assert_eq!(k210.processors[0].core_name.as_deref(), Some("rv64imafdc"));
    let ls = find("Loongson-3A5000M");
    assert_eq!(
        ls.processors[0].core_name.as_deref(),
        Some("Loongson-3A5000M")
    );
    let jz = find("Ingenic-JZ4780");
    assert_eq!(
        jz.processors[0].core_name.as_deref(),
        Some("Ingenic JZRISC V4.15 FPU V0.0")
    );
    assert_eq!(jz.system_type.as_deref(), Some("JZ4780"));
}

#[test]
fn read_goes_through_the_root_and_cpuinfofile() {
    let d = tempfile::tempdir().unwrap();
    let mut notes = probe::Notes::default();
    let root = probe::Root::new(d.path());
    assert_eq!(
        cpuinfo::read(&root, &mut notes),
        document::cpu::CpuInfo::default()
    );
    assert_eq!(notes.0.len(), 1, "missing file is noted");
    let file = fixture_dir().join("RK3588-5.10.66.cpuinfo");
    let root = root.with_cpuinfo_file(Some(file));
    let c = cpuinfo::read(&root, &mut notes);
    assert_eq!(c.processors.len(), 8);
    assert_eq!(notes.0.len(), 1);
}

mod mutations {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        /// Cuts, splices and byte flips of real captures never panic the parser.
        #[test]
        fn mutated_captures_never_panic(
            pick in any::<prop::sample::Index>(),
            cut in any::<prop::sample::Index>(),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..20),
        ) {
            static CAPS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
            let caps = CAPS.get_or_init(captures);
            let (_, text) = &caps[pick.index(caps.len())];
            let mut bytes = text.as_bytes().to_vec();
            bytes.truncate(cut.index(bytes.len() + 1));
            for (at, b) in &edits {
                if !bytes.is_empty() {
                    let i = at.index(bytes.len());
                    bytes[i] = *b;
                }
            }
            let c = cpuinfo::parse(&String::from_utf8_lossy(&bytes));
            prop_assert!(c.processors.len() <= text.lines().count());
        }
    }
}

/// The live /proc/cpuinfo of an x86_64 test host parses to its own processors (skipped under
/// qemu-user, where the file describes the host, not the emulated CPU).
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn host_cpuinfo_parses() {
    if testsupport::host_only() {
        return;
    }
    let mut notes = probe::Notes::default();
    let c = cpuinfo::read(&probe::Root::host(), &mut notes);
    assert_eq!(c.family.as_deref(), Some("x86"), "{notes:?}");
    let online = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(c.processors.len() >= online);
    assert!(c.processors.iter().all(|p| p.core_name.is_some()));
}
