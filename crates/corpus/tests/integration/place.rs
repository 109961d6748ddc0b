//! Placement: synthetic corpora with known answers, and invariants on the real one.

use corpus::{ArchClass, Corpus, DATE, Figure, PlaceOptions, SOURCE, corpus, place, place_with};

const HEAD: &str = "| Device / details | Clockspeed | Kernel | Distro | 7-zip multi | 7-zip single | AES | memcpy | memset | kH/s |\n| ----- | :--------: | :----: | :----: | ----: | ------: | ------: | -----: | -----: | ---: |\n";

fn synthetic(rows: &[(&str, &str, &str, &str)]) -> Corpus {
    // (device, clock, distro, 7-zip multi)
    let mut page = String::from(HEAD);
    for (i, (dev, clock, distro, multi)) in rows.iter().enumerate() {
        page += &format!(
            "| [{dev}](results/{i}.txt) | {clock} | 6.1 | {distro} | {multi} | 1000 | 1000 | 1000 | 1000 | - |\n"
        );
    }
    Corpus::from_markdown(&page)
        .map(|c| c.with_provenance("synthetic", "today"))
        .unwrap()
}

#[test]
fn synthetic_ranks_and_soc_stats() {
    let c = synthetic(&[
        ("A (RK3588)", "2400 MHz", "Bookworm arm64", "16000"),
        ("B (RK3588)", "2400 MHz", "Bookworm arm64", "14000"),
        ("C (RK3588s)", "2400 MHz", "Bookworm arm64", "12000"),
        ("D (RK3399)", "1800 MHz", "Bookworm arm64", "7000"),
        ("E (RK3399)", "1800 MHz", "Bookworm armhf", "6000"),
        ("Atom X", "2000 MHz", "Bookworm amd64", "50000"),
        ("R (JH7110)", "1500 MHz", "Noble riscv64", "4000"),
    ]);
    let p = place_with(
        &c,
        Figure::SevenZipMulti,
        13000.0,
        Some("RK3588"),
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    // ARM rows only: 16000 14000 12000 7000 6000; the x86 and RISC-V rows are not ranked.
    let all = p.all.unwrap();
    assert_eq!((all.rank, all.of, all.ties), (3, 5, 0));
    assert_eq!(all.percentile, 60.0);
    // RK3588 and RK3588s are one SoC in the catalogue (document::socs): three rows.
    let s = p.same_soc.unwrap();
    assert_eq!(s.soc, "Rockchip RK3588");
    assert_eq!(s.group, "Rockchip RK3588, 8 cores 4+4");
    assert_eq!(
        (s.count, s.median, s.min, s.max),
        (3, 14000.0, 12000.0, 16000.0)
    );
    assert_eq!(s.rank.rank, 3);
    assert!((s.percent_of_median - 92.857).abs() < 0.01);
    assert_eq!(p.above.as_ref().unwrap().device, "B (RK3588)");
    assert_eq!(p.below.as_ref().unwrap().device, "C (RK3588s)");
    assert!(
        p.scope.starts_with("ARM rows of synthetic, today"),
        "{}",
        p.scope
    );

    // A tie shares the rank; the best value is first, the worst last.
    let p = place_with(
        &c,
        Figure::SevenZipMulti,
        14000.0,
        None,
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    assert_eq!((p.all.unwrap().rank, p.all.unwrap().ties), (2, 1));
    assert!(p.same_soc.is_none());
    let top = place_with(
        &c,
        Figure::SevenZipMulti,
        99999.0,
        None,
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    assert_eq!(
        (top.all.unwrap().rank, top.all.unwrap().percentile),
        (1, 100.0)
    );
    assert!(top.above.is_none());
    let bottom = place_with(
        &c,
        Figure::SevenZipMulti,
        1.0,
        None,
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    assert_eq!(
        (bottom.all.unwrap().rank, bottom.all.unwrap().percentile),
        (6, 0.0)
    );
    assert!(bottom.below.is_none());

    // x86: one row, RISC-V: one row, LoongArch: none.
    let x = place_with(
        &c,
        Figure::SevenZipMulti,
        13000.0,
        None,
        ArchClass::X86,
        PlaceOptions::default(),
    );
    assert_eq!(x.all.unwrap().of, 1);
    assert!(x.scope.starts_with("x86 rows"));
    let l = place_with(
        &c,
        Figure::SevenZipMulti,
        13000.0,
        None,
        ArchClass::LoongArch,
        PlaceOptions::default(),
    );
    assert!(l.all.is_none() && l.above.is_none() && l.below.is_none());
    assert_eq!(
        l.summary(),
        "7-Zip multi 13,000 MIPS: no published LoongArch row has this figure [synthetic, today]"
    );
    // A figure the rows lack ("-").
    let k = place_with(
        &c,
        Figure::Cpuminer,
        10.0,
        Some("RK3588"),
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    assert!(k.all.is_none() && k.same_soc.is_none());
}

#[test]
fn not_comparable_rows_are_excluded_unless_asked() {
    let c = synthetic(&[
        (
            "Raspberry Pi 3 B+ (BCM2837B0)",
            "UV/normal",
            "Raspbian Stretch",
            "2100",
        ),
        (
            "Raspberry Pi 3 B+ (BCM2837B0)",
            "with fan",
            "Raspbian Stretch",
            "3670",
        ),
        (
            "Raspberry Pi 5 B (BCM2712)",
            "3000 MHz",
            "Bookworm arm64",
            "13410",
        ),
        (
            "Raspberry Pi 5 B (BCM2712)",
            "2400 MHz",
            "Bookworm arm64",
            "11010",
        ),
    ]);
    assert_eq!(c.entries.iter().filter(|e| !e.comparable()).count(), 2);
    let p = place_with(
        &c,
        Figure::SevenZipMulti,
        3000.0,
        Some("BCM2837B0"),
        ArchClass::Arm,
        PlaceOptions::default(),
    );
    assert_eq!(p.all.unwrap().of, 2);
    assert_eq!(p.excluded_not_comparable, 2);
    assert_eq!(p.same_soc.as_ref().unwrap().count, 1);
    assert!(
        p.scope.contains("not comparable excluded (2)"),
        "{}",
        p.scope
    );
    let opts = PlaceOptions {
        include_not_comparable: true,
        ..PlaceOptions::default()
    };
    let p = place_with(
        &c,
        Figure::SevenZipMulti,
        3000.0,
        Some("BCM2837B0"),
        ArchClass::Arm,
        opts,
    );
    assert_eq!(p.all.unwrap().of, 4);
    assert_eq!(p.same_soc.as_ref().unwrap().count, 2);
    assert!(p.scope.contains("included"));
}

#[test]
fn real_corpus_invariants() {
    let c = corpus();
    let classes = [
        ArchClass::Arm,
        ArchClass::RiscV,
        ArchClass::X86,
        ArchClass::LoongArch,
    ];
    let socs: Vec<Option<&str>> = vec![
        None,
        Some("RK3588"),
        Some("BCM2711"),
        Some("Rockchip RK3399"),
        Some("Allwinner H616"),
        Some("Intel N100"),
    ];
    for fig in Figure::ALL {
        for class in classes {
            let in_class: Vec<f64> = c
                .entries
                .iter()
                .filter(|e| e.class == class && e.comparable())
                .filter_map(|e| e.figure(fig))
                .collect();
            let max = in_class.iter().copied().fold(0.0, f64::max);
            let mut last_pct = -1.0;
            let mut last_rank = usize::MAX;
            // Values rising from 0 to beyond the best row.
            for step in 0..=40 {
                let v = max * 1.1 * step as f64 / 40.0;
                for soc in &socs {
                    let p = place(fig, v, *soc, class);
                    assert_eq!(p.source, SOURCE);
                    assert_eq!(p.date, DATE);
                    match p.all {
                        None => assert!(in_class.is_empty()),
                        Some(r) => {
                            assert_eq!(r.of, in_class.len());
                            assert!(r.rank >= 1 && r.rank <= r.of + 1);
                            assert!((0.0..=100.0).contains(&r.percentile));
                        }
                    }
                    if let Some(s) = &p.same_soc {
                        let expected = c
                            .entries
                            .iter()
                            .filter(|e| {
                                e.class == class && e.comparable() && e.figure(fig).is_some()
                            })
                            .filter(|e| e.soc.as_deref() == Some(s.soc.as_str()))
                            .count();
                        assert_eq!(s.count, expected);
                        assert!(s.min <= s.median && s.median <= s.max);
                        assert!(s.rank.rank >= 1 && s.rank.rank <= s.count + 1);
                    }
                    if let Some(a) = &p.above {
                        assert!(a.value > v);
                    }
                    if let Some(b) = &p.below {
                        assert!(b.value < v);
                    }
                }
                if let Some(r) = place(fig, v, None, class).all {
                    assert!(
                        r.percentile >= last_pct,
                        "{fig:?} {class:?} percentile not monotone"
                    );
                    assert!(r.rank <= last_rank, "{fig:?} {class:?} rank not monotone");
                    last_pct = r.percentile;
                    last_rank = r.rank;
                }
            }
        }
    }
    // The ARM 7-Zip multi scope: the Arm rows with that figure, never x86.
    let p = place(
        Figure::SevenZipMulti,
        7520.0,
        Some("RK3588"),
        ArchClass::Arm,
    );
    let arm = c
        .entries
        .iter()
        .filter(|e| {
            e.class == ArchClass::Arm && e.comparable() && e.figure(Figure::SevenZipMulti).is_some()
        })
        .count();
    assert_eq!(p.all.unwrap().of, arm);
    assert!(p.scope.contains("ARM rows") && p.scope.contains("v0.9.72"));
    let line = p.summary();
    assert!(
        line.starts_with("7-Zip multi 7,520 MIPS: ")
            && line.contains("Rockchip RK3588, 8 cores 4+4: "),
        "{line}"
    );
    assert!(line.ends_with(&format!("[{SOURCE}, {DATE}]")), "{line}");
    assert!(p.same_soc.unwrap().count >= 3);
    // Small figures keep their decimals; ordinals.
    let k = place(Figure::Cpuminer, 48.28, None, ArchClass::Arm).summary();
    assert!(k.starts_with("cpuminer 48.28 kH/s: "), "{k}");
    // Below every row: "below all 180 ARM rows (last)", never "181st of 180".
    for (v, want) in [(1.0e9, "1st "), (0.5, ": below all ")] {
        assert!(
            place(Figure::Aes256, v, None, ArchClass::Arm)
                .summary()
                .contains(want)
        );
    }
}
