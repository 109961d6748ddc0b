//! A whole result document placed in the corpus (`place_run`): imported sbc-bench fixture logs
//! (which are rows of the table themselves), the architecture classes, and the comparability
//! marks (quick runs, 7-Zip newer than 16.02, 32-bit userlands).

use corpus::{ArchClass, Figure, corpus, place_run};
use document::ResultDocument;
use testsupport::sbc_bench_logs;

fn import(name: &str) -> ResultDocument {
    let bytes = std::fs::read(sbc_bench_logs().join(name)).expect("fixture log");
    sbcimport::import_bytes(&bytes, name).expect("imports")
}

#[test]
fn an_imported_row_is_placed_among_the_other_rows_with_its_soc() {
    // NanoPC T4 (RK3399), sbc-bench v0.5: no "SoC guess" line, a row of the table itself.
    let doc = import("1iZq.txt");
    let p = place_run(corpus(), &doc);
    assert_eq!(p.class, Some(ArchClass::Arm));
    assert_eq!(p.soc.as_deref(), Some("Rockchip RK3399"));
    assert!(
        p.notes.iter().any(|n| n.contains("own row")),
        "{:?}",
        p.notes
    );
    assert!(!p.figures.is_empty());
    for f in &p.figures {
        let fig = f.placement.figure;
        let rows = corpus()
            .entries
            .iter()
            .filter(|e| e.class == ArchClass::Arm && e.comparable() && e.figure(fig).is_some())
            .count();
        let all = f.placement.all.expect("ranked");
        assert_eq!(all.of, rows - 1, "{fig:?}: its own row is left out");
        assert!(f.not_comparable.is_none(), "sbc-bench's own figures");
        let soc = f.placement.same_soc.as_ref().expect("RK3399 rows");
        assert!(soc.count >= 3);
    }
    let lines = p.terminal_lines();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("7-Zip multi"), "{}", lines[0]);
    assert!(lines[1].contains(corpus::DATE) && lines[1].contains("BSD-3-Clause"));
    let all = p.lines();
    assert!(
        all.iter()
            .any(|l| l.contains("above:") || l.contains("below:"))
    );
    assert!(all.last().unwrap().contains(corpus::SOURCE));
}

#[test]
fn x86_runs_are_ranked_among_x86_rows_only_and_say_so() {
    let doc = import("3Qf7.txt"); // Celeron N5105
    let p = place_run(corpus(), &doc);
    assert_eq!(p.class, Some(ArchClass::X86));
    assert!(p.comparison.contains("x86 rows only"), "{}", p.comparison);
    let x86 = corpus()
        .entries
        .iter()
        .filter(|e| e.class == ArchClass::X86)
        .count();
    for f in &p.figures {
        assert!(f.placement.all.unwrap().of <= x86);
        assert_eq!(f.placement.class, ArchClass::X86);
    }
    assert!(p.terminal_lines()[0].contains("x86 rows only"));
}

#[test]
fn quick_runs_and_newer_7zip_are_placed_only_with_their_mark() {
    let mut doc = import("1iZq.txt");
    doc.run = Some(document::run::RunRecord {
        profile: "quick".into(),
        ..Default::default()
    });
    let p = place_run(corpus(), &doc);
    assert!(!p.figures.is_empty());
    for f in &p.figures {
        assert!(f.not_comparable.as_deref().unwrap().starts_with("quick"));
        assert!(f.line().starts_with("(not comparable: quick"));
        assert!(f.short().ends_with("(not comparable)"));
    }

    let mut doc = import("1iZq.txt");
    doc.imported
        .as_mut()
        .unwrap()
        .sevenzip
        .as_mut()
        .unwrap()
        .version = Some("23.01".into());
    let p = place_run(corpus(), &doc);
    for f in &p.figures {
        let zip = matches!(
            f.placement.figure,
            Figure::SevenZipMulti | Figure::SevenZipSingle
        );
        assert_eq!(f.not_comparable.is_some(), zip, "{:?}", f.placement.figure);
        if zip {
            assert!(f.line().contains("7-Zip 23.01"));
        }
    }
}

#[test]
fn a_32_bit_userland_on_a_64_bit_kernel_is_noted() {
    let doc = import("3Gia.txt"); // Raspberry Pi 4, armhf userland, aarch64 kernel
    let p = place_run(corpus(), &doc);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("32-bit userland (armhf)")),
        "{:?}",
        p.notes
    );
}

#[test]
fn soc_guesses_and_device_names_find_the_corpus_soc() {
    let c = corpus();
    assert_eq!(
        corpus::run::soc_of_guess(c, "Nvidia Jetson Orin NX").as_deref(),
        Some("NVIDIA Orin (T234)")
    );
    assert_eq!(
        corpus::run::soc_of_guess(c, "Rockchip RK3576 (35760000 / 35 76 22)").as_deref(),
        Some("Rockchip RK3576")
    );
    assert_eq!(
        corpus::run::soc_of_guess(c, "Rockchip RK3576 / 35 76 22 00 ff 00").as_deref(),
        Some("Rockchip RK3576")
    );
    assert_eq!(corpus::run::soc_of_guess(c, "one of: RK3566, RK3568"), None);
    assert_eq!(
        corpus::run::soc_of_device(c, "FriendlyElec NanoPC-T4").map(|x| x.0),
        Some("Rockchip RK3399".to_string())
    );
    // A document without any architecture is not placed, and says why.
    let doc: ResultDocument = serde_json::from_value(serde_json::json!({
        "schema_version": document::SCHEMA_VERSION, "producer": "test", "measurements": [], "findings": []
    }))
    .unwrap();
    let p = place_run(c, &doc);
    assert_eq!(p.class, None);
    assert!(p.figures.is_empty() && p.terminal_lines().is_empty());
    assert!(p.comparison.starts_with("not placed"));
}

#[test]
fn the_placement_items_of_issue_46() {
    let c = corpus();
    // 7-Zip 9.20 (an old distribution's) is marked like any version but 16.02.
    let doc = import("1iyp.txt");
    assert_eq!(corpus::run::sevenzip(&doc).map(|z| z.1), Some(true));
    let p = place_run(c, &doc);
    let zip = p
        .figures
        .iter()
        .find(|f| f.placement.figure == Figure::SevenZipMulti)
        .expect("a 7-Zip multi figure");
    assert!(zip.line().contains("7-Zip 9.20"), "{}", zip.line());

    // A log whose own table row is marked not comparable (Hugsun X99, overclocked) carries the
    // mark on every figure; the own row is found whatever the file name's letter case.
    let bytes = std::fs::read(sbc_bench_logs().join("2ICt.txt")).unwrap();
    let doc = sbcimport::import_bytes(&bytes, "2ict.TXT").unwrap();
    let p = place_run(c, &doc);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("own row") && n.contains("left out")),
        "{:?}",
        p.notes
    );
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("marks this log's own row not comparable")),
        "{:?}",
        p.notes
    );
    assert!(p.figures.iter().all(|f| f.not_comparable.is_some()));
    assert_eq!(p.soc.as_deref(), Some("Rockchip RK3399"));

    // The same-SoC group respects the core count: a 2-vCPU Altra slice is not compared with
    // the 80- and 96-core parts, and the line names the group.
    let all = corpus::place_with(
        c,
        Figure::SevenZipMulti,
        5000.0,
        Some("Ampere Altra"),
        ArchClass::Arm,
        corpus::PlaceOptions::default(),
    );
    let two = corpus::place_with(
        c,
        Figure::SevenZipMulti,
        5000.0,
        Some("Ampere Altra"),
        ArchClass::Arm,
        corpus::PlaceOptions {
            cores: Some(2),
            ..Default::default()
        },
    );
    let (all, two) = (all.same_soc.unwrap(), two.same_soc.unwrap());
    assert!(
        two.count < all.count && two.other_cores > 0,
        "{all:?} {two:?}"
    );
    assert_eq!(two.group, "Ampere Altra, 2 cores");
    let rk = corpus::place(
        Figure::SevenZipMulti,
        15000.0,
        Some("RK3588S"),
        ArchClass::Arm,
    );
    assert!(
        rk.line().contains("Rockchip RK3588, 8 cores 4+4: "),
        "{}",
        rk.line()
    );

    // A figure below every row is "below all N", never "N+1st of N".
    let low = corpus::place(Figure::SevenZipMulti, 1.0, None, ArchClass::Arm);
    let r = low.all.unwrap();
    assert!(
        low.line().contains(&format!("below all {} ARM rows", r.of)),
        "{}",
        low.line()
    );

    // A SoC guess the catalogue does not know is said, and forms no group.
    let mut doc = import("4D0a.txt");
    doc.imported.as_mut().unwrap().soc_guess = Some("Spreadtrum UMS9620".into());
    doc.imported.as_mut().unwrap().device = Some("Some Phone".into());
    doc.imported.as_mut().unwrap().source = "new.txt".into();
    doc.imported.as_mut().unwrap().kernel_release = None;
    doc.device = Some("Some Phone".into());
    let found = corpus::run::soc_of_document(c, &doc);
    assert_eq!(found.soc, None);
    assert!(
        found
            .note
            .as_deref()
            .unwrap_or_default()
            .starts_with("SoC not known: "),
        "{found:?}"
    );
}
