//! Whether each headline figure (a Results.md column) was measured the way sbc-bench measures
//! it, so that a quick run never passes for a full one: the summary row, `results table` and
//! `results compare` mark a figure that was not.
//!
//! The rule is keyed on the run's profile. A run stores its flags in
//! `run.comparability`; a document without them (older runs) gets them from its profile here;
//! imported sbc-bench logs are sbc-bench's own figures. Kept small and standalone so it can move
//! beside the typed headline rules.

use model::document::ResultDocument;
use model::run::FigureComparability;
use serde_json::Value;

/// The headline figures, in Results.md's column order.
pub const FIGURES: [&str; 6] = [
    "7zip-multi",
    "7zip-single",
    "aes",
    "memcpy",
    "memset",
    "khs",
];

/// Profiles whose tool runs are sbc-bench's invocations (or the very cell of one that the
/// figure is read from). "standard" is what documents called sbc-bench's profile before it
/// was named so.
const FULL: [&str; 4] = ["sbc-bench", "standard", "extensive", "fast"];

/// The flags of a run made with `profile` (empty for modes without headline figures:
/// thermal, graph, env).
pub fn for_profile(profile: &str) -> Vec<FigureComparability> {
    let how = |figure: &str| -> Option<(bool, &'static str)> {
        Some(match (profile, figure) {
            ("quick", "7zip-multi" | "7zip-single") => (
                false,
                "quick: `7z b 1 -md=18`, a 256 KiB dictionary that stays in cache (sbc-bench: \
                 its default dictionary)",
            ),
            ("quick", "aes") => (false, "quick: 1 s per block size (sbc-bench: 3 s)"),
            ("quick", "khs") => (false, "quick: 30 s of cpuminer (sbc-bench: 300 s)"),
            ("quick", _) => (
                false,
                "quick: a shortened run, its figures are not to be set beside sbc-bench's",
            ),
            ("fast", "aes") => (
                true,
                "the 16384-byte cell only, 3 s as sbc-bench measures it (`-seconds 3 -bytes 16384`)",
            ),
            ("fast", "7zip-multi") => (
                true,
                "sbc-bench's invocation; the third run is left out when the first two agree \
                 within 1 %",
            ),
            ("fast", "memcpy" | "memset") => (
                true,
                "sbc-bench's libc memcpy/memset test, without the other variants",
            ),
            (p, _) if FULL.contains(&p) => (true, "sbc-bench's invocation"),
            _ => return None,
        })
    };
    FIGURES
        .iter()
        .filter_map(|f| {
            let (comparable, how) = how(f)?;
            Some(FigureComparability {
                figure: (*f).to_string(),
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

/// [`of_document`] for a stored JSON document (tolerates any shape).
pub fn of_json(doc: &Value) -> Vec<FigureComparability> {
    let Some(run) = doc.get("run") else {
        return Vec::new();
    };
    if let Some(stored) = run
        .get("comparability")
        .and_then(|c| serde_json::from_value::<Vec<FigureComparability>>(c.clone()).ok())
        .filter(|v| !v.is_empty())
    {
        return stored;
    }
    run.get("profile")
        .and_then(Value::as_str)
        .map(for_profile)
        .unwrap_or_default()
}

/// The mark a cell of `figure` gets: `" (quick)"` when it is not comparable, else nothing.
pub fn mark(flags: &[FigureComparability], figure: &str) -> String {
    flags
        .iter()
        .find(|f| f.figure == figure && !f.comparable_with_sbc_bench)
        .map(|f| format!(" ({})", f.profile))
        .unwrap_or_default()
}

/// The figures that are not comparable ("7zip-multi", …) and the profile that made them.
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
        assert_eq!(q.len(), FIGURES.len());
        assert!(q.iter().all(|f| !f.comparable_with_sbc_bench));
        assert_eq!(mark(&q, "7zip-single"), " (quick)");
        for p in ["fast", "sbc-bench", "standard", "extensive"] {
            let f = for_profile(p);
            assert_eq!(f.len(), FIGURES.len(), "{p}");
            assert!(not_comparable(&f).is_empty(), "{p}");
            assert_eq!(mark(&f, "aes"), "");
        }
        assert!(for_profile("thermal").is_empty());
    }

    #[test]
    fn stored_flags_win_over_the_profile() {
        let mut stored = for_profile("fast");
        stored[2].comparable_with_sbc_bench = false;
        let doc = serde_json::json!({"run": {"profile": "fast", "comparability": stored}});
        assert_eq!(mark(&of_json(&doc), "aes"), " (fast)");
        let old = serde_json::json!({"run": {"profile": "quick"}});
        assert_eq!(mark(&of_json(&old), "memcpy"), " (quick)");
        assert!(of_json(&serde_json::json!({"imported": {}})).is_empty());
    }
}
