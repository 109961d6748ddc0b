//! sbc-bench's published results on the service's pages and in `GET /api/v1/corpus`: the
//! corpus in use (the one `boardbench corpus update` stored beside the default results
//! database, else the built-in one; read once), the rows of one SoC for the board page, and
//! the runs' placements for the compare page. The licence notice goes wherever the data does.

use std::borrow::Cow;
use std::sync::OnceLock;

use corpus::{Corpus, Figure};
use document::ResultDocument;
use report::escape::esc;

/// The corpus in use and where it comes from.
pub fn reference() -> &'static (Cow<'static, Corpus>, String) {
    static R: OnceLock<(Cow<'static, Corpus>, String)> = OnceLock::new();
    R.get_or_init(|| resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir()))
}

fn cell(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), corpus::run::number)
}

/// The source, date and licence line under every use of the data.
pub fn provenance_html(c: &Corpus) -> String {
    format!(
        "<p class=\"dim\">Corpus: {}. Data: {} (<a href=\"/api/v1/corpus\">rows and licence as JSON</a>).</p>",
        esc(&c.provenance()),
        esc(corpus::LICENSE_LINE)
    )
}

/// The published rows of `soc` as a table (with the source and licence), or a sentence saying
/// the table has none.
pub fn soc_rows(c: &Corpus, soc: &str) -> String {
    let name = corpus::run::soc_of_guess(c, soc).unwrap_or_else(|| soc.to_string());
    let rows: Vec<&corpus::Entry> = c
        .entries
        .iter()
        .filter(|e| e.soc.as_deref() == Some(name.as_str()))
        .collect();
    let mut out = format!(
        "<h2 id=\"published\">Published rows of {} (sbc-bench's table)</h2>",
        esc(&name)
    );
    if rows.is_empty() {
        out.push_str(&format!(
            "<p>sbc-bench's table has no row of {}.</p>",
            esc(&name)
        ));
        out.push_str(&provenance_html(c));
        return out;
    }
    out.push_str("<div class=\"scroll\"><table id=\"published-rows\" class=\"results\"><thead><tr><th>Device</th><th>Clockspeed</th><th>Kernel</th><th>Distro</th>");
    for f in Figure::ALL {
        out.push_str(&format!("<th>{}</th>", esc(f.column())));
    }
    out.push_str("</tr></thead><tbody>");
    for e in rows {
        out.push_str(&format!(
            "<tr><td>{}{}</td><td>{}</td><td>{}</td><td class=\"clip\">{}</td>",
            esc(&e.device),
            if e.comparable() {
                ""
            } else {
                " <strong>(not comparable)</strong>"
            },
            esc(&e.clock_text),
            esc(&e.kernel),
            esc(&e.distro)
        ));
        for f in Figure::ALL {
            out.push_str(&format!("<td class=\"num\">{}</td>", cell(e.figure(f))));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out.push_str(&provenance_html(c));
    out
}

/// A run's placement lines: the ones its finisher stored (`analysis.placement`, what
/// `results show` prints), computed here only for a document stored without an analysis.
pub fn placement_lines(c: &Corpus, doc: &ResultDocument) -> Vec<String> {
    match doc.analysis.as_ref().and_then(|a| a.placement.as_ref()) {
        Some(p) => p.lines.clone(),
        None => corpus::place_run(c, doc).lines(),
    }
}

/// Each run's placement among the published rows, one list per run: what the comparison is,
/// a line per figure (with its nearest rows), the corpus — as stored with the run.
pub fn placements(c: &Corpus, runs: &[(String, &ResultDocument)]) -> String {
    let mut out = String::from("<h2 id=\"corpus\">Against sbc-bench's published results</h2>");
    for (name, doc) in runs {
        let lines = placement_lines(c, doc);
        out.push_str(&format!("<h3>{}</h3><ul class=\"placement\">", esc(name)));
        if lines.is_empty() {
            out.push_str("<li>no figure placed</li>");
        }
        for l in &lines {
            let (class, text) = match l.strip_prefix("    ") {
                Some(near) => (" class=\"dim near\"", near),
                None if l.starts_with("compared with:")
                    || l.starts_with("note:")
                    || l.starts_with("corpus:") =>
                {
                    (" class=\"dim\"", l.as_str())
                }
                None => ("", l.as_str()),
            };
            // A figure's "(not comparable: …)" goes after the figure, dimmed: each line starts
            // with what it places.
            match not_comparable_prefix(text) {
                Some((why, rest)) => out.push_str(&format!(
                    "<li{class}>{} <span class=\"dim\">{}</span></li>",
                    esc(rest),
                    esc(why)
                )),
                None => out.push_str(&format!("<li{class}>{}</li>", esc(text))),
            }
        }
        out.push_str("</ul>");
    }
    out.push_str(&provenance_html(c));
    out
}

/// `("(not comparable: …)", the rest)` of a placement line that starts with the mark (its
/// parentheses balanced), else `None`.
fn not_comparable_prefix(line: &str) -> Option<(&str, &str)> {
    if !line.starts_with("(not comparable") {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in line.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let rest = line[i + 1..].trim_start();
                    return (!rest.is_empty()).then(|| (&line[..=i], rest));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_not_comparable_mark_moves_after_the_figure() {
        let l = "(not comparable: quick: `7z b 1` (sbc-bench: its default)) 7-Zip multi 5,631 MIPS";
        assert_eq!(
            super::not_comparable_prefix(l),
            Some((
                "(not comparable: quick: `7z b 1` (sbc-bench: its default))",
                "7-Zip multi 5,631 MIPS"
            ))
        );
        assert_eq!(super::not_comparable_prefix("7-Zip multi 5,631 MIPS"), None);
    }
}
