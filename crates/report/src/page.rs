//! The page around the sections: one HTML file with its stylesheet inline, no scripts, no
//! fonts or images from anywhere. A Content-Security-Policy forbids every script and every
//! fetch, so even a string that escaped escaping could neither run nor phone home.

/// The stylesheet of the page and of the SVG charts (charts carry classes, not colours).
pub const CSS: &str = r#"
:root { --s0:#1f77b4; --s1:#d62728; --s2:#2ca02c; --s3:#ff7f0e; --s4:#9467bd; --s5:#8c564b; --s6:#e377c2; --s7:#17becf; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 24px auto; max-width: 1000px; padding: 0 16px; color: #222; background: #fff; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 1.8em; }
.dim { color: #777; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { width: 12em; }
details { margin: 6px 0; }
summary { cursor: pointer; color: #345; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: 6px; }
.findings { list-style: none; padding: 0; }
.findings > li { border-left: 4px solid #999; padding: 4px 10px; margin: 6px 0; background: #fafafa; }
.findings > li.sev-info { border-color: #4a8; }
.findings > li.sev-warning { border-color: #e90; }
.findings > li.sev-invalid { border-color: #c22; }
.badge { display: inline-block; font-size: 0.8em; padding: 0 6px; border-radius: 3px; color: #fff; background: #777; margin-right: 6px; text-transform: uppercase; }
.sev-info .badge { background: #397; } .sev-warning .badge { background: #c70; } .sev-invalid .badge { background: #b22; }
.evidence { margin: 4px 0 0 0; font-size: 0.9em; color: #444; }
figure.chart-figure { margin: 12px 0 24px 0; }
figcaption { color: #555; font-size: 0.9em; }
ul.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.9em; }
.swatch { display: inline-block; width: 14px; height: 4px; vertical-align: middle; margin-right: 5px; }
ol.phases { font-size: 0.9em; columns: 2; }
svg.chart { max-width: 100%; height: auto; display: block; }
@media (max-width: 720px) { figure.chart-figure { overflow-x: auto; } svg.chart { max-width: none; width: 720px; } }
svg.chart text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; font-size: 12px; fill: #333; }
svg.chart .tick { font-size: 11px; fill: #444; }
svg.chart .axis-label { font-size: 12px; fill: #222; }
svg.chart .note { fill: #999; font-style: italic; }
svg.chart .metric { font-size: 12px; fill: #222; }
svg.chart .band-label { font-size: 11px; fill: #456; }
.grid { stroke: #e6e6e6; stroke-width: 1; }
.axis { stroke: #666; stroke-width: 1; }
.band0 { fill: #eef3fa; } .band1 { fill: #e0e9f5; }
.band:hover { fill: #cddcf0; }
.series { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
.diagonal { stroke: #999; stroke-dasharray: 6 4; stroke-width: 1.2; }
.level { stroke: #888; stroke-width: 1; }
.advertised { stroke: #aaa; stroke-dasharray: 2 3; stroke-width: 1; }
.reference { stroke: #222; stroke-width: 1.5; }
.s0 { stroke: var(--s0); } .s1 { stroke: var(--s1); } .s2 { stroke: var(--s2); } .s3 { stroke: var(--s3); }
.s4 { stroke: var(--s4); } .s5 { stroke: var(--s5); } .s6 { stroke: var(--s6); } .s7 { stroke: var(--s7); }
.dot.others { fill: #bbb; } .swatch.others { background: #bbb; }
.dot.s0, .bar.s0, .swatch.s0 { fill: var(--s0); background: var(--s0); }
.dot.s1, .bar.s1, .swatch.s1 { fill: var(--s1); background: var(--s1); }
.dot.s2, .bar.s2, .swatch.s2 { fill: var(--s2); background: var(--s2); }
.dot.s3, .bar.s3, .swatch.s3 { fill: var(--s3); background: var(--s3); }
.dot.s4, .bar.s4, .swatch.s4 { fill: var(--s4); background: var(--s4); }
.dot.s5, .bar.s5, .swatch.s5 { fill: var(--s5); background: var(--s5); }
.dot.s6, .bar.s6, .swatch.s6 { fill: var(--s6); background: var(--s6); }
.dot.s7, .bar.s7, .swatch.s7 { fill: var(--s7); background: var(--s7); }
.bar { stroke: none; }
footer { margin-top: 3em; color: #888; font-size: 0.85em; }
body.wide { max-width: 1560px; }
.scroll { overflow-x: auto; max-width: 100%; }
table.results { font-size: 0.8em; }
table.results th, table.results td { padding: 3px 5px; }
table.results td { white-space: nowrap; }
td.clip { max-width: 11em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
table.results td.clip { max-width: 8em; }
table.results .mark { display: block; font-size: 0.85em; color: #777; }
tr.invalid td { background: #fdf0ee; }
.sev { display: inline-block; font-size: 0.8em; padding: 0 5px; border-radius: 3px; color: #fff; text-transform: uppercase; }
.sev.invalid { background: #b22; } .sev.warning { background: #c70; }
.worse { color: #b22; font-weight: 600; } .better { color: #286; }
@media (max-width: 600px) { body { margin: 8px auto; padding: 0 8px; } th, td { padding: 2px 4px; } h1 { font-size: 1.3em; } }
"#;

/// The whole page: `title` (already escaped) and the body HTML.
pub fn page(title_escaped: &str, body: &str) -> String {
    skeleton(title_escaped, body, "")
}

/// [`page`] for wide tables (the results service's table and board pages): the body may be
/// up to 1560 px wide instead of 1000.
pub fn wide_page(title_escaped: &str, body: &str) -> String {
    skeleton(title_escaped, body, " class=\"wide\"")
}

fn skeleton(title_escaped: &str, body: &str, body_attrs: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title_escaped}</title>\n<style>{CSS}</style>\n</head>\n<body{body_attrs}>\n{body}\n</body>\n</html>\n"
    )
}
