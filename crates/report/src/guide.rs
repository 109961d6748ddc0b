//! The guide section of the report and the page of `boardbench guide render --format html`:
//! the header table, then per section its tables (one column per run) each with a bar chart
//! comparing the runs (`chart::guide`). Every string is escaped; the page keeps the report's
//! Content-Security-Policy (no scripts, nothing fetched).

use guidetables::{self as render, Guide};

use crate::escape::esc;

/// The section (tables and charts) as HTML.
pub fn section(g: &Guide) -> String {
    let mut out = String::from("<section id=\"guide\"><h2>Performance guide</h2>");
    out.push_str(&format!("<h3>{}</h3>", esc(&g.header.title)));
    out.push_str(&render::html::table(&g.header));
    for s in &g.sections {
        if s.tables.is_empty() {
            continue;
        }
        out.push_str(&format!("<h3>{}</h3>", esc(&s.title)));
        for t in &s.tables {
            if t.title != s.title {
                out.push_str(&format!("<h4>{}</h4>", esc(&t.title)));
            }
            out.push_str(&render::html::table(t));
            for b in crate::chart::guide::from_table(t) {
                out.push_str(&crate::chart::guide::render(&b));
            }
        }
    }
    out.push_str(&render::html::notes(g));
    out.push_str("</section>");
    out
}

/// A whole page of the guide (title unescaped).
pub fn page(g: &Guide, title: &str) -> String {
    let body = format!(
        "<header><h1>{}</h1></header>{}<footer>Rendered from result documents by boardbench {}. Self-contained: no scripts, nothing loaded from the network.</footer>",
        esc(title),
        section(g),
        env!("CARGO_PKG_VERSION")
    );
    crate::page::page(&esc(title), &body)
}

#[cfg(test)]
mod tests {
    use document::guide::{GuideRecord, GuideSection, GuideTable, GuideValue};

    fn doc(device: &str, v: f64) -> document::ResultDocument {
        let mut d = testsupport::demo::run_document_named(device);
        let mut t = GuideTable::perf("Stream Benchmarks", "Benchmarks");
        t.push("copy (MB/s)", Some(GuideValue::one(v)));
        d.guide = Some(GuideRecord {
            sections: vec![GuideSection {
                name: "stream".into(),
                title: "Stream Benchmarks".into(),
                tables: vec![t],
                ..Default::default()
            }],
            ..Default::default()
        });
        d
    }

    #[test]
    fn the_page_has_a_chart_per_table_and_escapes_names() {
        let a = doc("<script>alert(1)</script>", 1000.0);
        let b = doc("board b", 1500.0);
        let runs = [
            guidetables::Run {
                board: a.device.clone().unwrap(),
                doc: &a,
            },
            guidetables::Run {
                board: "board b".into(),
                doc: &b,
            },
        ];
        let page = super::page(&guidetables::merge(&runs), "Guide & co");
        assert!(!page.contains("<script"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;: perf"));
        assert!(page.contains("Content-Security-Policy"));
        assert_eq!(page.matches("<svg").count(), 1, "one chart for one table");
        assert!(page.contains("1.5×"));
        assert!(page.contains("<title>Guide &amp; co</title>"));
    }

    #[test]
    fn the_report_of_a_guide_run_has_the_guide_section() {
        let a = doc("board a", 1000.0);
        let html = crate::html(&a, &[("board b".into(), doc("board b", 900.0))]);
        assert!(html.contains("<section id=\"guide\">"));
        assert!(html.contains("board b: perf"));
        let plain = crate::html(&testsupport::demo::run_document(), &[]);
        assert!(!plain.contains("id=\"guide\""));
    }
}
