//! The one finisher of a result document: findings, headline, comparability marks and
//! placement, computed by the same function for a native run, an imported sbc-bench log, a
//! guide run, a document added with `results add` and an upload to the results service, and
//! recorded in [`document::analysis::Analysis`]. `boardbench results reanalyse` runs it again
//! over stored runs; [`Change`] says what it changed.
//!
//! **What it keeps from a document that already has findings.**
//! - A finding of a kind these rules do not know ([`findings::kinds::ALL`]: written by a newer
//!   boardbench or another tool) cannot be recomputed: it is always kept as it came, after the
//!   new findings, and its kind is listed in `analysis.kept`.
//! - Findings of known kinds are computed anew — a fixed rule removes its false finding, a new
//!   rule adds its own — when the document was finished before (it has `analysis`: a finisher
//!   made them) and always in `results reanalyse` ([`refinish`]), whose purpose that is.
//! - A document never finished (an older boardbench, another tool, one written by hand) that
//!   comes to be stored (`results add`, an upload) keeps every finding it came with that the
//!   analysis does not reproduce: its writer's word is not dropped unseen; `analysis.kept` names
//!   those kinds, and `results reanalyse` says it when it later removes one.
//!
//! Nothing else of the document changes besides `findings` and `analysis`.

use document::analysis::{Analysis, PlacementRecord};
use document::{Finding, ResultDocument};

/// The name and version of the rules ("boardbench 0.1.0").
pub fn rules() -> String {
    format!("boardbench {}", env!("CARGO_PKG_VERSION"))
}

/// What finishing changed in a document's findings (by kind).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// Findings that were not there before ("throttling [invalid]").
    pub added: Vec<String>,
    /// Findings that are gone.
    pub removed: Vec<String>,
    /// Findings of the same kind whose severity, message or evidence changed.
    pub changed: Vec<String>,
    /// The document had no analysis record before (never finished).
    pub first_analysis: bool,
    /// The stored placement (SoC, lines) differs from the one computed now.
    pub placement_changed: bool,
}

impl Change {
    /// Nothing in the findings or the placement changed (a first analysis counts as a change).
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && !self.first_analysis
            && !self.placement_changed
    }

    /// "+throttling [invalid], -throttling-unchecked [info]; placement changed", or
    /// "unchanged".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.added.iter().map(|k| format!("+{k}")));
        parts.extend(self.removed.iter().map(|k| format!("-{k}")));
        parts.extend(self.changed.iter().map(|k| format!("~{k}")));
        let mut s = if parts.is_empty() {
            "findings unchanged".to_string()
        } else {
            format!("findings {}", parts.join(", "))
        };
        if self.first_analysis {
            s += "; first analysis";
        }
        if self.placement_changed {
            s += "; placement changed";
        }
        s
    }
}

fn label(f: &Finding) -> String {
    format!("{} [{}]", f.kind, f.severity.name())
}

/// True when these rules produce findings of this kind.
pub fn known_kind(kind: &str) -> bool {
    findings::kinds::ALL.iter().any(|k| k.kind == kind)
}

/// Completes `doc`: findings, headline, comparability marks, placement in `reference` (the
/// active corpus of the caller: the built-in one, or the one `corpus update` stored). What it
/// keeps of the document's own findings: see the crate's documentation.
pub fn finish(doc: &mut ResultDocument, reference: &corpus::Corpus) -> Change {
    let renew = doc.analysis.is_some();
    finish_with(doc, reference, renew)
}

/// [`finish`] for `results reanalyse`: findings of known kinds are always computed anew.
pub fn refinish(doc: &mut ResultDocument, reference: &corpus::Corpus) -> Change {
    finish_with(doc, reference, true)
}

fn finish_with(doc: &mut ResultDocument, reference: &corpus::Corpus, renew: bool) -> Change {
    let before = std::mem::take(&mut doc.findings);
    let old_placement = doc.analysis.as_ref().and_then(|a| a.placement.clone());
    let first_analysis = doc.analysis.is_none();
    // The rules see the document without findings and without the previous record.
    doc.analysis = None;
    let mut found = findings::analyse(doc);
    let kept: Vec<Finding> = before
        .iter()
        .filter(|f| !known_kind(&f.kind) || (!renew && !found.iter().any(|n| n.kind == f.kind)))
        .cloned()
        .collect();
    let mut kept_kinds: Vec<String> = kept.iter().map(|f| f.kind.clone()).collect();
    kept_kinds.dedup();
    found.extend(kept);

    let placed = corpus::place_run(reference, doc);
    let placement = placed.record();
    let change = diff(
        &before,
        &found,
        first_analysis,
        old_placement.as_ref(),
        &placement,
    );
    doc.findings = found;
    doc.analysis = Some(Analysis {
        by: rules(),
        findings_analysed: true,
        findings: doc.findings.len(),
        kept: kept_kinds,
        headline: headline::rounding::results_row(doc),
        comparability: headline::comparability::of_document(doc),
        placement: Some(placement),
    });
    change
}

/// [`finish`] on a document as JSON (`results add`, the service's upload): only `findings` and
/// `analysis` are replaced, every other field stays as it came (fields of a newer writer that
/// the typed document does not know are not lost). An error when it does not read as a result
/// document.
pub fn finish_value(
    doc: &mut serde_json::Value,
    reference: &corpus::Corpus,
) -> Result<Change, String> {
    finish_value_with(doc, reference, false)
}

/// [`finish_value`] for `results reanalyse` ([`refinish`]).
pub fn refinish_value(
    doc: &mut serde_json::Value,
    reference: &corpus::Corpus,
) -> Result<Change, String> {
    finish_value_with(doc, reference, true)
}

fn finish_value_with(
    doc: &mut serde_json::Value,
    reference: &corpus::Corpus,
    always_renew: bool,
) -> Result<Change, String> {
    let mut typed: ResultDocument = serde_json::from_value(doc.clone())
        .map_err(|e| format!("does not read as a result document: {e}"))?;
    let change = if always_renew {
        refinish(&mut typed, reference)
    } else {
        finish(&mut typed, reference)
    };
    let obj = doc
        .as_object_mut()
        .ok_or_else(|| "a result document is a JSON object".to_string())?;
    let json = |v: serde_json::Result<serde_json::Value>| v.map_err(|e| e.to_string());
    if typed.findings.is_empty() {
        obj.remove("findings");
    } else {
        obj.insert(
            "findings".into(),
            json(serde_json::to_value(&typed.findings))?,
        );
    }
    obj.insert(
        "analysis".into(),
        json(serde_json::to_value(&typed.analysis))?,
    );
    Ok(change)
}

/// [`finish`] with the corpus built into boardbench.
pub fn finish_builtin(doc: &mut ResultDocument) -> Change {
    finish(doc, corpus::corpus())
}

fn diff(
    before: &[Finding],
    after: &[Finding],
    first_analysis: bool,
    old: Option<&PlacementRecord>,
    new: &PlacementRecord,
) -> Change {
    let mut c = Change {
        first_analysis,
        placement_changed: old.is_some_and(|o| o != new),
        ..Change::default()
    };
    let mut rest: Vec<&Finding> = before.iter().collect();
    for f in after {
        if let Some(i) = rest.iter().position(|o| o.kind == f.kind) {
            let o = rest.remove(i);
            if o != f {
                c.changed.push(label(f));
            }
        } else {
            c.added.push(label(f));
        }
    }
    c.removed = rest.into_iter().map(label).collect();
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::Severity;

    fn imported(name: &str) -> ResultDocument {
        let dir = testsupport::sbc_bench_logs();
        let bytes = std::fs::read(dir.join(name)).expect("fixture log");
        sbcimport::import_bytes(&bytes, name).expect("imports")
    }

    #[test]
    fn finishes_an_imported_log_and_says_so() {
        let mut doc = imported("8ctH.txt");
        assert!(doc.analysis.is_none());
        let c = finish_builtin(&mut doc);
        assert!(c.first_analysis);
        let a = doc.analysis.as_ref().expect("analysis record");
        assert!(a.findings_analysed);
        assert_eq!(a.findings, doc.findings.len());
        assert!(doc.findings.iter().any(|f| f.kind == "throttling"));
        assert!(a.placement.as_ref().is_some_and(|p| !p.lines.is_empty()));
        // Finishing again changes nothing.
        let again = finish_builtin(&mut doc);
        assert!(again.is_empty(), "{again:?}");
    }

    #[test]
    fn unknown_kinds_are_kept_known_ones_recomputed() {
        let mut doc = imported("8ctH.txt");
        doc.findings = vec![
            Finding {
                kind: "from-the-future".into(),
                severity: Severity::Warning,
                message: "a newer rule".into(),
                evidence: Vec::new(),
            },
            Finding {
                kind: "governor".into(),
                severity: Severity::Invalid,
                message: "stale".into(),
                evidence: Vec::new(),
            },
        ];
        let mut never_finished = doc.clone();
        // Never finished: the writer's findings the analysis does not reproduce are kept.
        finish_builtin(&mut never_finished);
        assert!(never_finished.findings.iter().any(|f| f.message == "stale"));
        // Re-analysed: known kinds are the rules' alone.
        let c = refinish(&mut doc, corpus::corpus());
        assert!(doc.findings.iter().any(|f| f.kind == "from-the-future"));
        assert!(!doc.findings.iter().any(|f| f.message == "stale"));
        assert_eq!(doc.analysis.as_ref().unwrap().kept, ["from-the-future"]);
        assert!(
            c.removed.iter().any(|k| k.starts_with("governor"))
                || c.changed.iter().any(|k| k.starts_with("governor"))
        );
        assert!(c.added.iter().any(|k| k.starts_with("throttling")));
    }
}
