//! An independent check of the parsed figures: sbc-bench's own Sorted-Results.md (same
//! version, shared anchors, not shipped) lists the rows sorted by each figure. Every row there
//! must be a corpus row with the same figures, and each section must be in descending order of
//! its figure as this crate parses it.

use corpus::{Corpus, Figure, corpus};
use std::collections::HashMap;

#[test]
fn sorted_results_agree_with_the_corpus() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/anchors/src/sbc-bench/Sorted-Results.md"
    );
    let text = std::fs::read_to_string(path).expect("shared anchors: sbc-bench Sorted-Results.md");
    let by_key: HashMap<String, &corpus::Entry> =
        corpus().entries.iter().map(|e| (e.key(), e)).collect();
    let sections = [
        ("## 7-zip MIPS multi-threaded", Some(Figure::SevenZipMulti)),
        (
            "## 7-zip MIPS single-threaded",
            Some(Figure::SevenZipSingle),
        ),
        ("## openssl speed", Some(Figure::Aes256)),
        ("## memcpy", Some(Figure::Memcpy)),
        ("## memset", Some(Figure::Memset)),
        ("## clockspeed", None),
    ];
    let mut checked = 0;
    for (i, (heading, fig)) in sections.iter().enumerate() {
        let start = text.find(heading).unwrap_or_else(|| panic!("{heading}"));
        let end = sections
            .get(i + 1)
            .and_then(|(h, _)| text.find(h))
            .unwrap_or(text.len());
        let c = Corpus::from_markdown(&text[start..end])
            .map(|c| c.with_provenance("sorted", "-"))
            .unwrap_or_else(|e| panic!("{heading}: {e}"));
        let mut last = f64::INFINITY;
        for e in &c.entries {
            let Some(orig) = by_key.get(&e.key()) else {
                panic!("{heading}: {} not in the corpus", e.key())
            };
            assert_eq!(e.figures, orig.figures, "{heading}: {}", e.key());
            assert_eq!(e.clocks_mhz, orig.clocks_mhz, "{heading}: {}", e.key());
            // The clockspeed section is sorted by the first clock written (ODROID-N2's
            // "1800/1900" sorts as 1800).
            let v = match fig {
                Some(f) => e.figure(*f).unwrap_or(0.0),
                None => e.clocks_mhz.first().copied().unwrap_or(0) as f64,
            };
            assert!(v <= last, "{heading}: {} out of order", e.key());
            last = v;
            checked += 1;
        }
        // The clockspeed section leaves out rows without a clock in MHz.
        let min = if fig.is_some() { 250 } else { 240 };
        assert!(c.entries.len() >= min, "{heading}: {}", c.entries.len());
    }
    assert!(checked >= 5 * 250 + 240);
}
