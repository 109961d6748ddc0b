//! A result document as LAVA test cases: the `lava-test-case` lines a lava-test-shell step
//! runs, so LAVA records every headline figure as a measurement and every finding as pass/fail.
//!
//! The lines are shell commands (`boardbench export lava RUN | sh` on the device under test,
//! see integrations/lava/). Case names keep to LAVA's safe characters (letters, digits, `-`,
//! `_`, `.`); units are the figures' own (MIPS, kB/s, MB/s, kH/s, MHz: those of sbc-bench's
//! Results.md, so a LAVA chart reads like the table people know).
//!
//! Cases, in this order:
//! - one per headline figure the run has (`7zip-multi`, `7zip-single`, `aes-256-cbc-16k`,
//!   `memcpy`, `memset`, `cpuminer`), `--result pass` with its measurement;
//! - `clock-<cluster>` per measured cluster clock (MHz);
//! - `finding-<kind>` per finding: `fail` for warning and invalid, `pass` for info;
//! - `run-valid`: `fail` when a finding says the numbers are not to be trusted.

use document::{ResultDocument, Severity};
use headline::Figure;

/// One LAVA test case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    pub pass: bool,
    pub measurement: Option<(f64, String)>,
}

impl Case {
    /// The `lava-test-case` command line, safe to give to `sh`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "lava-test-case {} --result {}",
            self.name,
            if self.pass { "pass" } else { "fail" }
        );
        if let Some((v, unit)) = &self.measurement {
            s.push_str(&format!(
                " --measurement {} --units {}",
                number(*v),
                quote(unit)
            ));
        }
        s
    }
}

/// The LAVA name of a headline figure.
pub fn figure_case_name(f: Figure) -> &'static str {
    match f {
        Figure::ZipMulti => "7zip-multi",
        Figure::ZipSingle => "7zip-single",
        Figure::Aes => "aes-256-cbc-16k",
        Figure::Memcpy => "memcpy",
        Figure::Memset => "memset",
        Figure::Khs => "cpuminer",
    }
}

/// Every case of a document, in the order above; names are unique (a repeated finding kind
/// gets `-2`, `-3` …).
pub fn cases(doc: &ResultDocument) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let h = headline::figures(doc);
    for f in Figure::ALL {
        if let Some(v) = f.of(&h).filter(|v| v.is_finite()) {
            out.push(Case {
                name: figure_case_name(f).into(),
                pass: true,
                measurement: Some((v, f.unit().into())),
            });
        }
    }
    for r in doc
        .measurements
        .iter()
        .filter(|r| r.suite == "clock" && r.unit.eq_ignore_ascii_case("MHz"))
        .filter(|r| r.value.is_finite() && r.value > 0.0)
    {
        push_unique(
            &mut out,
            format!("clock-{}", safe_name(&r.test)),
            true,
            Some((r.value, "MHz".into())),
        );
    }
    for f in &doc.findings {
        push_unique(
            &mut out,
            format!("finding-{}", safe_name(&f.kind)),
            f.severity == Severity::Info,
            None,
        );
    }
    let valid = !doc.findings.iter().any(|f| f.severity == Severity::Invalid);
    push_unique(&mut out, "run-valid".into(), valid, None);
    out
}

/// The lines of every case, one per line.
pub fn lines(doc: &ResultDocument) -> String {
    cases(doc).iter().map(|c| c.line() + "\n").collect()
}

fn push_unique(out: &mut Vec<Case>, name: String, pass: bool, m: Option<(f64, String)>) {
    let mut candidate = name.clone();
    let mut n = 2;
    while out.iter().any(|c| c.name == candidate) {
        candidate = format!("{name}-{n}");
        n += 1;
    }
    out.push(Case {
        name: candidate,
        pass,
        measurement: m,
    });
}

/// Letters, digits, `-`, `_` and `.`; anything else becomes `-`.
pub fn safe_name(s: &str) -> String {
    let s: String = s
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.is_empty() { "unnamed".into() } else { s }
}

/// A measurement LAVA stores (decimal, at most 10 places; three are plenty here).
fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// A unit as one shell word (single-quoted when it is not plain).
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.' | '%'))
    {
        s.into()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::{Finding, Measurement};

    #[test]
    fn figures_clocks_and_findings_become_cases() {
        let finding = |kind: &str, severity| Finding {
            kind: kind.into(),
            severity,
            message: "m".into(),
            evidence: vec![],
        };
        let doc = ResultDocument {
            redaction: None,
            analysis: None,
            schema_version: 1,
            producer: "t".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: vec![
                Measurement::new("7zip", "total rating", 4, 9000.0, "MIPS"),
                Measurement::new("membw", "libc memcpy copy", 1, 2638.28317, "MB/s"),
                Measurement::new("clock", "cpu0", 1, 1800.0, "MHz"),
            ],
            findings: vec![
                finding("throttling", Severity::Invalid),
                finding("vm guest", Severity::Warning),
                finding("vm guest", Severity::Info),
            ],
            imported: None,
            run: None,
            guide: None,
        };
        assert_eq!(
            lines(&doc),
            "lava-test-case 7zip-multi --result pass --measurement 9000 --units MIPS\n\
             lava-test-case memcpy --result pass --measurement 2638.283 --units MB/s\n\
             lava-test-case clock-cpu0 --result pass --measurement 1800 --units MHz\n\
             lava-test-case finding-throttling --result fail\n\
             lava-test-case finding-vm-guest --result fail\n\
             lava-test-case finding-vm-guest-2 --result pass\n\
             lava-test-case run-valid --result fail\n"
        );
        assert_eq!(quote("it's"), "'it'\\''s'");
    }
}
