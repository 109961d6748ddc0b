//! Which stored runs' headline figures were not measured the way sbc-bench measures them
//! (`run --quick`), for `results table` (marked cells and a column) and `results compare` (a
//! warning before ratios that mix such a run with full ones). The rule itself is
//! `headline::comparability`; this module only reads the flags of stored documents.

use std::collections::HashMap;

use crate::Store;
use document::run::FigureComparability;
use headline::Figure;
use headline::comparability as rule;

/// The flags of every native run (imported sbc-bench logs have none: they are sbc-bench's).
pub type Marks = HashMap<i64, Vec<FigureComparability>>;

/// Only what the flags need from a stored document (the rest is skipped unparsed).
#[derive(serde::Deserialize)]
struct Slim {
    run: Option<SlimRun>,
}

#[derive(serde::Deserialize)]
struct SlimRun {
    #[serde(default)]
    profile: String,
    #[serde(default)]
    comparability: Vec<FigureComparability>,
}

/// Flags from a stored document's text.
pub fn flags_of_text(json: &str) -> Vec<FigureComparability> {
    match serde_json::from_str::<Slim>(json) {
        Ok(Slim { run: Some(r) }) if !r.comparability.is_empty() => r.comparability,
        Ok(Slim { run: Some(r) }) => rule::for_profile(&r.profile),
        _ => Vec::new(),
    }
}

/// What the `runs.not_comparable` column holds for a document: the flags as JSON when a figure
/// is not comparable, an empty text otherwise (written when the run is stored, so reading the
/// table never parses documents).
pub fn column_text(json: &str) -> String {
    let flags = flags_of_text(json);
    if rule::not_comparable(&flags).is_empty() {
        String::new()
    } else {
        serde_json::to_string(&flags).unwrap_or_default()
    }
}

/// The runs of the store with at least one figure that is not comparable: from the column, and
/// from the documents of runs stored before the column existed (NULL).
pub fn load(store: &mut Store) -> Marks {
    let mut out = Marks::new();
    let stored = store
        .query(
            "SELECT id, not_comparable FROM runs WHERE imported = 0 AND not_comparable <> ''",
            &[],
        )
        .unwrap_or_default();
    for r in stored {
        if let (Some(id), Some(text)) = (r[0].as_i64(), r[1].as_str())
            && let Ok(flags) = serde_json::from_str::<Vec<FigureComparability>>(text)
        {
            out.insert(id, flags);
        }
    }
    let older = store
        .query(
            "SELECT d.run_id, d.json FROM documents d JOIN runs r ON r.id = d.run_id \
             WHERE r.imported = 0 AND r.not_comparable IS NULL",
            &[],
        )
        .unwrap_or_default();
    out.extend(older.into_iter().filter_map(|r| {
        let id = r.first()?.as_i64()?;
        let flags = flags_of_text(r.get(1)?.as_str()?);
        (!rule::not_comparable(&flags).is_empty()).then_some((id, flags))
    }));
    out
}

/// `" (quick)"` after a cell of `figure` of run `id` when it is not comparable.
pub fn mark(marks: &Marks, id: i64, figure: Figure) -> String {
    marks
        .get(&id)
        .map(|f| rule::mark(f, figure))
        .unwrap_or_default()
}

/// "quick: 7-zip multi, 7-zip single, AES" — the figures of run `id` that are not comparable.
pub fn describe(marks: &Marks, id: i64) -> String {
    let Some(flags) = marks.get(&id) else {
        return String::new();
    };
    let bad = rule::not_comparable(flags);
    let Some(first) = bad.first() else {
        return String::new();
    };
    let figures: Vec<&str> = bad
        .iter()
        .map(|f| {
            Figure::ALL
                .iter()
                .find(|x| x.name() == f.figure)
                .map_or(f.figure.as_str(), |x| x.column())
        })
        .collect();
    format!("{}: {}", first.profile, figures.join(", "))
}

/// Warnings for `results compare`: one line per run whose figures are not comparable, when
/// the runs compared are not all alike.
pub fn compare_warnings(marks: &Marks, ids: &[i64]) -> Vec<String> {
    let described: Vec<String> = ids.iter().map(|&id| describe(marks, id)).collect();
    if described.iter().all(|d| *d == described[0]) {
        return Vec::new();
    }
    ids.iter()
        .zip(&described)
        .filter(|(_, d)| !d.is_empty())
        .map(|(id, d)| {
            format!(
                "Warning: run {id} is a {} run whose figures are not measured the way sbc-bench \
                 measures them ({d}); its ratios to the other runs mix it with full runs.",
                d.split(':').next().unwrap_or("shortened")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks() -> Marks {
        let mut m = Marks::new();
        m.insert(
            2,
            flags_of_text(r#"{"run": {"profile": "quick", "phases": []}}"#),
        );
        m
    }

    #[test]
    fn quick_runs_are_marked_and_full_ones_not() {
        assert!(flags_of_text(r#"{"imported": {}}"#).is_empty());
        assert!(rule::not_comparable(&flags_of_text(r#"{"run": {"profile": "fast"}}"#)).is_empty());
        let m = marks();
        assert_eq!(mark(&m, 2, Figure::ZipSingle), " (quick)");
        assert_eq!(mark(&m, 1, Figure::ZipSingle), "");
        assert!(describe(&m, 2).starts_with("quick: 7-zip multi, 7-zip single, AES"));
    }

    #[test]
    fn compare_warns_only_when_mixing() {
        let m = marks();
        let w = compare_warnings(&m, &[1, 2]);
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("Warning: run 2 is a quick run"), "{w:?}");
        assert!(compare_warnings(&m, &[1, 3]).is_empty());
        assert!(compare_warnings(&m, &[2, 2]).is_empty());
    }
}
