//! The built-in corpus: every row parses, spot checks, aliases, marks, size, diff.

use corpus::{
    Arch, ArchClass, Corpus, DATE, Figure, LICENSE, Mark, RESULTS_MD, SOURCE, UNKNOWN_DATE,
    UNKNOWN_SOURCE, corpus, diff, normalise_soc,
};

/// Table rows by an independent count: lines between the header separator and the first
/// non-table line that start with "|".
fn independent_row_count(text: &str) -> usize {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("| -----"));
    lines.next();
    lines.take_while(|l| l.starts_with('|')).count()
}

#[test]
fn every_row_parses_and_is_counted() {
    let c = match Corpus::from_markdown(RESULTS_MD) {
        Ok(c) => c,
        Err(e) => panic!("rows that do not parse:\n{e}"),
    };
    let n = independent_row_count(RESULTS_MD);
    assert_eq!(n, 258, "the page says 258 results");
    assert_eq!(c.entries.len(), n);
    assert_eq!(corpus().entries, c.entries);
    // A page parsed from text says its source was not given; the built-in one names it.
    assert_eq!(
        (c.source.as_str(), c.date.as_str()),
        (UNKNOWN_SOURCE, UNKNOWN_DATE)
    );
    assert_eq!(
        (corpus().source.as_str(), corpus().date.as_str()),
        (SOURCE, DATE)
    );
    // Lines are distinct and ascending: no row parsed twice, none skipped in between.
    assert!(c.entries.windows(2).all(|w| w[0].line < w[1].line));
}

#[test]
fn provenance_and_licence_travel_with_the_data() {
    let c = corpus();
    assert!(c.provenance().contains("v0.9.72"));
    assert!(c.provenance().contains(DATE));
    assert!(LICENSE.contains("Copyright (c) 2018, Thomas Kaiser"));
    assert!(LICENSE.contains("BSD 3-Clause"));
}

#[test]
fn data_file_stays_small() {
    let size = std::fs::metadata(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/sbc-bench-results.md"
    ))
    .unwrap()
    .len();
    assert!(size < 200 * 1024, "{size} bytes");
    assert_eq!(size as usize, RESULTS_MD.len());
}

fn row(log: &str) -> &'static corpus::Entry {
    corpus()
        .entries
        .iter()
        .find(|e| e.log.as_deref() == Some(log))
        .unwrap_or_else(|| panic!("no row {log}"))
}

#[test]
fn spot_checks() {
    // | [AAEON BOXER-8654AI (Orin NX)](results/87lq.txt) | 1730 MHz | 5.15 | Jammy arm64 | 14820 | 2379 | 973830 | 6920 | 20470 | - |
    let e = row("results/87lq.txt");
    assert_eq!(e.device, "AAEON BOXER-8654AI (Orin NX)");
    assert_eq!(e.soc_table.as_deref(), Some("Orin NX"));
    assert_eq!(e.soc.as_deref(), Some("NVIDIA Orin (T234)"));
    assert_eq!(e.clocks_mhz, vec![1730]);
    assert_eq!(e.kernel, "5.15");
    assert_eq!(e.distro, "Jammy arm64");
    assert_eq!(e.arch, Some(Arch::Arm64));
    assert_eq!(e.class, ArchClass::Arm);
    assert_eq!(
        e.figures,
        [
            Some(14820.0),
            Some(2379.0),
            Some(973830.0),
            Some(6920.0),
            Some(20470.0),
            None
        ]
    );
    assert!(e.marks.is_empty() && e.comparable());

    // | [Apple M1 Pro](results/443N.txt) | 3030/2060 MHz | 5.18 | Gentoo 2.8 arm64 | 43800 | 5010 | 1064450 | 27110 | 71910 | 48.28 |
    let e = row("results/443N.txt");
    assert_eq!(e.clocks_mhz, vec![3030, 2060]);
    assert_eq!(e.soc.as_deref(), Some("Apple M1 Pro (T6000)"));
    assert_eq!(e.figure(Figure::Cpuminer), Some(48.28));
    assert!(
        e.marks
            .iter()
            .any(|m| matches!(m, Mark::Preliminary { .. }))
    );

    // | [Clearfog A1<br />(Armada 388)](results/4d1U.txt) | 1600 MHz | 5.15 | Bullseye armhf | …
    let e = row("results/4d1U.txt");
    assert_eq!(e.device, "Clearfog A1 (Armada 388)");
    assert_eq!(e.soc.as_deref(), Some("Marvell Armada 388"));
    assert_eq!(e.arch, Some(Arch::Armhf));

    // | [BPi M4 (RTD1395)](results/1Dt1.txt) | 1400 MHz | 4.9 | Bionic arm64 | 3500 | - | …
    let e = row("results/1Dt1.txt");
    assert_eq!(e.figure(Figure::SevenZipSingle), None);
    assert_eq!(e.figure(Figure::Cpuminer), Some(5.48));

    // | [Atom N270](results/461n.txt) | 1600 MHz | 4.19 | Buster i386 | 1220 | …
    let e = row("results/461n.txt");
    assert_eq!(e.arch, Some(Arch::I386));
    assert_eq!(e.class, ArchClass::X86);

    // | [Qualcomm Snapdragon 8cx Gen 3 (WSL2)](results/4kEp.txt) | 2980/? MHz | …
    let e = row("results/4kEp.txt");
    assert_eq!(e.clocks_mhz, vec![2980]);
    // WSL2 is not a SoC: the device name before it is.
    assert_eq!(e.soc.as_deref(), Some("Qualcomm Snapdragon 8cx Gen 3"));
    assert!(!e.comparable());

    // | [Skyworth E900V22C (S905L3A)](results/e900v22c.txt) | … | - | |  (a stray trailing cell)
    let e = row("results/e900v22c.txt");
    assert_eq!(e.soc.as_deref(), Some("Amlogic S905L3A"));
    assert_eq!(e.figure(Figure::Cpuminer), None);

    // The RPi 3 B+ settings labels instead of a clock.
    let e = row("results/1isD.txt");
    assert_eq!(e.clock_text, "with fan");
    assert!(e.clocks_mhz.is_empty());
    assert!(e.comparable());
}

#[test]
fn every_row_has_a_plausible_shape() {
    for e in &corpus().entries {
        assert!(
            !e.device.is_empty() && !e.device.contains('[') && !e.device.contains("<br"),
            "{e:?}"
        );
        assert!(e.kernel.starts_with(|c: char| c.is_ascii_digit()), "{e:?}");
        assert!(
            e.clocks_mhz.iter().all(|&m| (100..6000).contains(&m)),
            "{e:?}"
        );
        assert!(e.figures.iter().flatten().all(|v| *v > 0.0), "{e:?}");
        assert!(
            e.log.as_deref().is_some_and(|l| l.starts_with("results/")),
            "{e:?}"
        );
        if e.arch.is_none() {
            assert!(
                e.distro.contains("Raspbian")
                    || e.distro.contains("Debian")
                    || e.distro.contains("Raspberry Pi OS")
                    || e.distro == "Buster",
                "{e:?}"
            );
        }
    }
    let x86 = corpus()
        .entries
        .iter()
        .filter(|e| e.class == ArchClass::X86)
        .count();
    let riscv = corpus()
        .entries
        .iter()
        .filter(|e| e.class == ArchClass::RiscV)
        .count();
    assert!(x86 >= 30 && riscv >= 10, "x86 {x86}, RISC-V {riscv}");
    // The page's x86 section (from "Atom N270" on) is all x86; the Radxa X4 (N100) above it too.
    let first = corpus()
        .entries
        .iter()
        .position(|e| e.device == "Atom N270")
        .unwrap();
    assert!(
        corpus().entries[first..]
            .iter()
            .all(|e| e.class == ArchClass::X86)
    );
    assert_eq!(row("results/XObB.txt").class, ArchClass::X86);
}

#[test]
fn soc_aliases() {
    for (from, to) in [
        ("RK3588", "Rockchip RK3588"),
        // One SoC (see document::socs): same die, same cores, the page says they perform alike.
        ("RK3588s", "Rockchip RK3588"),
        ("RK3588S2", "Rockchip RK3588"),
        ("BCM2711B0", "Broadcom BCM2711"),
        ("Cix P1", "Cix P1 (CD8180)"),
        ("CP8180", "Cix P1 (CD8180)"),
        ("BCM2711", "Broadcom BCM2711"),
        ("BCM2837B0", "Broadcom BCM2837"),
        ("RP3A0", "Broadcom BCM2710A1 (RP3A0)"),
        ("S905X3", "Amlogic S905X3"),
        ("Amlogic S905X3", "Amlogic S905X3"),
        ("A311D2", "Amlogic A311D2"),
        ("Allwinner H616", "Allwinner H616"),
        ("Tegra X1", "NVIDIA Tegra X1 (T210)"),
        ("Exynos 5422", "Samsung Exynos 5422"),
        ("JH7110", "StarFive JH7110"),
        ("Rockchip RK3588", "Rockchip RK3588"),
    ] {
        assert_eq!(normalise_soc(from), to, "{from}");
    }
    // Idempotent on every name the corpus produces.
    for e in &corpus().entries {
        if let Some(s) = &e.soc {
            assert_eq!(&normalise_soc(s), s);
        }
    }
    // The biggest SoC groups the issue talks about.
    let rk3588 = corpus().by_soc("RK3588").count();
    assert!(rk3588 >= 3, "{rk3588}");
    let e = corpus()
        .entries
        .iter()
        .find(|e| e.device == "RK3568-ROC-PC")
        .unwrap();
    assert_eq!(e.soc.as_deref(), Some("Rockchip RK3568"));
    assert_eq!(rk3588, corpus().by_soc("Rockchip RK3588").count());
    assert_eq!(rk3588, corpus().by_soc("RK3588S").count());
    // The table's own alias list is the catalogue's.
    for (from, to) in corpus::SOC_ALIASES {
        assert_eq!(&normalise_soc(from), to, "{from}");
    }
    // Every row's SoC the table names is one the catalogue knows (a row it cannot name is in
    // no group; none is).
    let unnamed: Vec<&str> = corpus()
        .entries
        .iter()
        .filter(|e| e.soc_table.is_some() && e.soc.is_none())
        .map(|e| e.device.as_str())
        .collect();
    assert!(
        unnamed.is_empty(),
        "rows without a catalogue SoC: {unnamed:?}"
    );
    assert_eq!(corpus().by_soc("Cix P1").count(), 2);
}

#[test]
fn marks() {
    let c = corpus();
    // Bold: exactly the rows whose cells contain "**" in the page.
    let bold_lines: Vec<usize> = RESULTS_MD
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("| [") && l.contains("**"))
        .map(|(i, _)| i + 1)
        .collect();
    let bold_rows: Vec<usize> = c
        .entries
        .iter()
        .filter(|e| e.bold())
        .map(|e| e.line)
        .collect();
    assert_eq!(bold_rows, bold_lines);
    let e = row("results/1iyp.txt");
    assert!(e.marks.contains(&Mark::Bold {
        column: "Distro".into(),
        text: "Xenial armhf".into()
    }));
    assert_eq!(e.distro, "Xenial armhf");

    // Footnote: Helios4's AES.
    let e = row("results/1jCy.txt");
    assert_eq!(e.figure(Figure::Aes256), Some(42500.0));
    let Some(Mark::Footnote {
        figure,
        value,
        text,
        ..
    }) = e.marks.iter().find(|m| matches!(m, Mark::Footnote { .. }))
    else {
        panic!("no footnote on {e:?}")
    };
    assert_eq!(*figure, Figure::Aes256);
    assert_eq!(*value, Some(98560.0));
    assert!(text.contains("cryptodev"), "{text}");
    assert_eq!(
        c.entries
            .iter()
            .filter(|e| e.marks.iter().any(|m| matches!(m, Mark::Footnote { .. })))
            .count(),
        1
    );

    // Not comparable: RPi 3 B+ UV and OC, Hugsun X99, WSL2, RPi 5 at 3 GHz (two rows).
    let nc: Vec<&str> = c
        .entries
        .iter()
        .filter(|e| !e.comparable())
        .map(|e| e.log.as_deref().unwrap())
        .collect();
    assert_eq!(
        nc,
        [
            "results/2ICt.txt",
            "results/4kEp.txt",
            "results/1iH0.txt",
            "results/1iGz.txt",
            "results/8acvqG.txt",
            "results/frdzAn.txt"
        ]
    );
    // Preliminary: every RISC-V row and the boards the page names.
    let prelim: Vec<&str> = c
        .entries
        .iter()
        .filter(|e| e.class != ArchClass::RiscV)
        .filter(|e| {
            e.marks
                .iter()
                .any(|m| matches!(m, Mark::Preliminary { .. }))
        })
        .map(|e| e.device.as_str())
        .collect();
    assert_eq!(
        prelim,
        [
            "Apple M1 Pro",
            "Khadas VIM4 (A311D2)",
            "Khadas VIM4 (A311D2)",
            "Orange Pi 5 (RK3588)",
            "Radxa ROCK 5B (RK3588)",
            "Radxa ROCK 5C Lite (RK3582)",
            "RK3568-ROC-PC"
        ]
    );
    for e in &c.entries {
        if e.class == ArchClass::RiscV {
            assert!(
                e.marks
                    .iter()
                    .any(|m| matches!(m, Mark::Preliminary { .. })),
                "{e:?}"
            );
        }
    }
}

#[test]
fn a_damaged_row_is_reported_not_skipped() {
    let page = RESULTS_MD.replacen("| 14820 | 2379 |", "| 14820 | lots |", 1);
    let err = Corpus::from_markdown(&page).unwrap_err();
    assert_eq!(err.rows.len(), 1);
    assert!(err.rows[0].text.contains("87lq"));
    assert!(err.to_string().contains("7-zip single"), "{err}");
    let page = RESULTS_MD.replacen("| 5.15 | Jammy arm64 | 14820", "| 5.15 | 14820", 1);
    assert_eq!(Corpus::from_markdown(&page).unwrap_err().rows.len(), 1);
    assert!(Corpus::from_markdown("# nothing here").is_err());
}

#[test]
fn diff_lists_added_removed_changed() {
    let old = corpus();
    assert!(diff(old, old).is_empty());
    assert_eq!(diff(old, old).unchanged, old.entries.len());
    // A newer page: one row removed, one figure changed, one row added.
    let removed_line = "| [Akaso M8S (S812)](results/3R3N.txt) | 1200 MHz | 5.10 | Buster armhf | 3050 | 885 | 32120 | 1160 | 3330 | - |\n";
    assert!(RESULTS_MD.contains(removed_line));
    let added_line = "| [New Board (RK3588)](results/new1.txt) | 2400/1800 MHz | 6.12 | Trixie arm64 | 16000 | 3500 | 1300000 | 11000 | 30000 | 40.00 |\n";
    let page = RESULTS_MD.replacen(removed_line, added_line, 1).replacen(
        "| 14820 | 2379 |",
        "| 14900 | 2379 |",
        1,
    );
    let new = Corpus::from_markdown(&page)
        .map(|c| c.with_provenance("newer", "later"))
        .unwrap();
    let d = diff(old, &new);
    assert_eq!(d.added.len(), 1);
    assert_eq!(d.added[0].soc.as_deref(), Some("Rockchip RK3588"));
    assert_eq!(d.removed.len(), 1);
    assert_eq!(d.removed[0].device, "Akaso M8S (S812)");
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].key, "results/87lq.txt");
    assert_eq!(d.changed[0].fields, ["7-Zip multi"]);
    assert_eq!(d.unchanged, old.entries.len() - 2);
}

#[test]
#[ignore = "a listing for review: cargo test -p boardbench-corpus -- --ignored --nocapture"]
fn list_socs() {
    for e in &corpus().entries {
        println!(
            "{:4} {:45} {:28} {:?} {:?}",
            e.line,
            e.device,
            format!("{:?}", e.soc),
            e.class,
            e.clocks_mhz
        );
    }
}
