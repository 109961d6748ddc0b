//! Writing Prometheus's text exposition format (version 0.0.4, what node_exporter's textfile
//! collector and `promtool check metrics` read) by hand.
//!
//! Why not a client library here: a textfile is a static rendering of stored documents, with
//! several documents' samples in one family; the format is small and the rules that matter
//! (one HELP/TYPE per family, all of a family's samples together, escaped label values, no
//! duplicate series, no timestamps — the textfile collector rejects them) are easier to keep
//! visible in one place. The live monitor (`crate::live`) uses the prometheus-client crate.

use std::fmt::Write;

/// One metric family: its samples are written together under one HELP and TYPE line.
#[derive(Debug, Clone)]
pub struct Family {
    pub name: &'static str,
    pub help: &'static str,
    /// "gauge" or "counter".
    pub kind: &'static str,
    pub samples: Vec<Sample>,
}

/// One series: its labels (in the order given) and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub labels: Vec<(&'static str, String)>,
    pub value: f64,
}

impl Family {
    pub fn gauge(name: &'static str, help: &'static str) -> Self {
        Family {
            name,
            help,
            kind: "gauge",
            samples: Vec::new(),
        }
    }

    /// Adds a series; non-finite values are left out (a figure that is not there is absent,
    /// not NaN), and so is a series whose labels are already present (Prometheus rejects
    /// duplicate series).
    pub fn push(&mut self, labels: Vec<(&'static str, String)>, value: f64) {
        if !value.is_finite() {
            return;
        }
        let labels: Vec<(&'static str, String)> =
            labels.into_iter().filter(|(_, v)| !v.is_empty()).collect();
        if self.samples.iter().any(|s| s.labels == labels) {
            return;
        }
        self.samples.push(Sample { labels, value });
    }
}

/// The families in text format; families without samples are left out.
pub fn render(families: &[Family]) -> String {
    let mut out = String::new();
    for f in families.iter().filter(|f| !f.samples.is_empty()) {
        let _ = writeln!(out, "# HELP {} {}", f.name, escape_help(f.help));
        let _ = writeln!(out, "# TYPE {} {}", f.name, f.kind);
        for s in &f.samples {
            out.push_str(f.name);
            if !s.labels.is_empty() {
                out.push('{');
                for (i, (k, v)) in s.labels.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{k}=\"{}\"", escape_label(v));
                }
                out.push('}');
            }
            let _ = writeln!(out, " {}", value(s.value));
        }
    }
    out
}

/// A finite value as the format reads it (Rust's shortest round-trip decimal form).
pub fn value(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// HELP text: backslash and line feed escaped.
fn escape_help(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

/// Label values: backslash, double quote and line feed escaped.
pub fn escape_label(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_escape_skip_empties_duplicates_and_non_finite_values() {
        let mut a = Family::gauge("x_bytes", "A \\ help\nline");
        a.push(
            vec![("l", "a\"b\\c\nd".into()), ("empty", String::new())],
            1.5,
        );
        a.push(vec![("l", "a\"b\\c\nd".into())], 2.0);
        a.push(vec![("l", "nan".into())], f64::NAN);
        a.push(vec![], 3e20);
        let b = Family::gauge("y", "never shown");
        let text = render(&[a, b]);
        assert_eq!(
            text,
            "# HELP x_bytes A \\\\ help\\nline\n# TYPE x_bytes gauge\n\
             x_bytes{l=\"a\\\"b\\\\c\\nd\"} 1.5\nx_bytes 300000000000000000000\n"
        );
    }
}
