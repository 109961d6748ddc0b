//! Whether each headline figure (a Results.md column) was measured the way sbc-bench measures
//! it, so that a quick run never passes for a full one: the summary row, `results table` and
//! `results compare` mark a figure that was not.
//!
//! The rule is keyed on the run's profile. A run stores its flags in
//! `run.comparability` (figures by [`Figure::name`]); a document without them (older runs)
//! gets them from its profile here; imported sbc-bench logs are sbc-bench's own figures.

use document::ResultDocument;
use document::run::FigureComparability;

use crate::Figure;

/// Profiles whose tool runs are sbc-bench's invocations (or the very cell of one that the
/// figure is read from). "standard" is what documents called sbc-bench's profile before it
/// was named so.
const FULL: [&str; 4] = ["sbc-bench", "standard", "extensive", "fast"];

/// The flags of a run made with `profile` (empty for modes without headline figures:
/// thermal, graph, env).
pub fn for_profile(profile: &str) -> Vec<FigureComparability> {
    let how = |figure: Figure| -> Option<(bool, &'static str)> {
        use Figure::*;
        Some(match (profile, figure) {
            ("quick", ZipMulti | ZipSingle) => (
                false,
                "quick: `7z b 1 -md=18`, a 256 KiB dictionary that stays in cache (sbc-bench: \
                 its default dictionary)",
            ),
            ("quick", Aes) => (false, "quick: 1 s per block size (sbc-bench: 3 s)"),
            ("quick", Khs) => (false, "quick: 30 s of cpuminer (sbc-bench: 300 s)"),
            ("quick", _) => (
                false,
                "quick: a shortened run, its figures are not to be set beside sbc-bench's",
            ),
            ("fast", Aes) => (
                true,
                "the 16384-byte cell only, 3 s as sbc-bench measures it (`-seconds 3 -bytes 16384`), \
                 one run (sbc-bench averages two on a one-cluster machine)",
            ),
            ("fast", ZipMulti) => (
                true,
                "sbc-bench's invocation with each dictionary size repeated for 1 s instead of \
                 about 4 (`-mtime=1`, where 7-Zip knows it); the third run is left out when the \
                 first two agree within 1 %",
            ),
            ("fast", ZipSingle) => (
                true,
                "sbc-bench's invocation with each dictionary size repeated for 1 s instead of \
                 about 4 (`-mtime=1`, where 7-Zip knows it)",
            ),
            (p, _) if FULL.contains(&p) => (true, "sbc-bench's invocation"),
            _ => return None,
        })
    };
    Figure::ALL
        .iter()
        .filter_map(|&f| {
            let (comparable, how) = how(f)?;
            Some(FigureComparability {
                figure: f.name().to_string(),
                profile: profile.to_string(),
                comparable_with_sbc_bench: comparable,
                how: how.to_string(),
            })
        })
        .collect()
}

/// The flags of a document: the stored ones, else those of its profile; none for imported
/// logs (sbc-bench's own figures).
pub fn of_document(doc: &ResultDocument) -> Vec<FigureComparability> {
    match &doc.run {
        Some(r) if !r.comparability.is_empty() => r.comparability.clone(),
        Some(r) => for_profile(&r.profile),
        None => Vec::new(),
    }
}

/// The mark a cell of `figure` gets: `" (quick)"` when it is not comparable, else nothing.
pub fn mark(flags: &[FigureComparability], figure: Figure) -> String {
    flags
        .iter()
        .find(|f| f.figure == figure.name() && !f.comparable_with_sbc_bench)
        .map(|f| format!(" ({})", f.profile))
        .unwrap_or_default()
}

/// The flags of the figures that are not comparable.
pub fn not_comparable(flags: &[FigureComparability]) -> Vec<&FigureComparability> {
    flags
        .iter()
        .filter(|f| !f.comparable_with_sbc_bench)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_flags_every_figure_and_full_profiles_none() {
        let q = for_profile("quick");
        assert_eq!(q.len(), Figure::ALL.len());
        assert!(q.iter().all(|f| !f.comparable_with_sbc_bench));
        assert_eq!(q[1].figure, "zip_single");
        assert_eq!(mark(&q, Figure::ZipSingle), " (quick)");
        for p in ["fast", "sbc-bench", "standard", "extensive"] {
            let f = for_profile(p);
            assert_eq!(f.len(), Figure::ALL.len(), "{p}");
            assert!(not_comparable(&f).is_empty(), "{p}");
            assert_eq!(mark(&f, Figure::Aes), "");
        }
        assert!(for_profile("thermal").is_empty());
    }

    #[test]
    fn stored_flags_win_over_the_profile() {
        let mut doc = ResultDocument {
            schema_version: 1,
            producer: "test".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: Vec::new(),
            findings: Vec::new(),
            imported: None,
            run: None,
            guide: None,
            redaction: None,
            analysis: None,
        };
        assert!(
            of_document(&doc).is_empty(),
            "imported logs are sbc-bench's own"
        );
        doc.run = Some(document::run::RunRecord {
            profile: "quick".into(),
            ..Default::default()
        });
        assert_eq!(mark(&of_document(&doc), Figure::Memcpy), " (quick)");
        let run = doc.run.as_mut().unwrap();
        run.profile = "fast".into();
        run.comparability = for_profile("fast");
        run.comparability[2].comparable_with_sbc_bench = false;
        assert_eq!(mark(&of_document(&doc), Figure::Aes), " (fast)");
        assert_eq!(mark(&of_document(&doc), Figure::ZipMulti), "");
    }
}
