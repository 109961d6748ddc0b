//! The report of the synthetic run, of hostile strings and of every fixture sbc-bench log.

use std::path::Path;

use document::samples::MonitorSample;
use document::{Finding, ResultDocument, SCHEMA_VERSION, Severity};
use report::chart::{compare, memlat, opp, timeline};
use testsupport::demo;
use testsupport::sbc_bench_logs;

fn imported(name: &str) -> ResultDocument {
    let bytes = std::fs::read(sbc_bench_logs().join(name)).expect("fixture log");
    sbcimport::import_bytes(&bytes, name).expect("imports")
}

/// Every `<svg>` … `</svg>` of the page, in order.
fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(a) = rest.find("<svg") {
        let Some(b) = rest[a..].find("</svg>") else {
            break;
        };
        out.push(&rest[a..a + b + 6]);
        rest = &rest[a + b + 6..];
    }
    out
}

/// Tags open and close in order (self-closing ones excepted): inline SVG is XML.
fn assert_balanced(fragment: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = fragment;
    while let Some(i) = rest.find('<') {
        let end = rest[i..].find('>').expect("tag closes") + i;
        let tag = &rest[i + 1..end];
        rest = &rest[end + 1..];
        if tag.ends_with('/') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if tag.starts_with('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.as_str()), "in {fragment}");
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
}

#[test]
fn synthetic_run_has_summary_findings_and_three_charts() {
    let doc = demo::run_document();
    let html = report::html(&doc, &[]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for want in [
        "Synthetic RK3399 board",
        "Rockchip RK3399",
        "6.1.75-rockchip64",
        "Debian GNU/Linux 12 (bookworm)",
        "cpu4-5 Cortex-A72, up to 1800 MHz",
        "5620",   // 7-Zip multi
        "726500", // AES
        "was throttled from 1800 to 1416 MHz",
        "13 of 20 samples below 1800 MHz",
        "Tot:             489   1150   5620", // tool output
        "cpu4 throttled to 1416000 kHz",      // kernel messages
        "policy4/scaling_governor",
        "id=\"chart-timeline\"",
        "id=\"chart-opp\"",
        "id=\"chart-memlat\"",
    ] {
        assert!(html.contains(want), "missing {want}");
    }
    assert!(!html.contains("id=\"chart-compare\""), "no others, no bars");
    // The placement among sbc-bench's published results (issue 24), with the data's licence.
    assert!(html.contains("id=\"chart-placement\""));
    assert!(html.contains("Copyright (c) 2018, Thomas Kaiser"));
    let s = svgs(&html);
    assert_eq!(s.len(), 4);
    for svg in s {
        assert_balanced(svg);
    }
    // Self-contained: nothing fetched, nothing run.
    assert!(!html.contains("<script"));
    assert!(
        !html.contains("http://") || html.matches("http://").count() == 4,
        "the SVG namespace only"
    );
    assert!(!html.contains("https://"));
    assert!(html.contains("default-src 'none'"));
}

#[test]
fn the_kernel_status_of_the_run_is_shown() {
    let mut doc = demo::run_document();
    doc.run.as_mut().unwrap().kernel = Some(document::run::KernelStatus {
        release: Some("6.1.75-rockchip64".into()),
        origin: Some("downstream tree following kernel.org stable".into()),
        maintainer: Some("Armbian".into()),
        level: "warning".into(),
        verdict: "6.1 LTS is supported until 2027-12 <but 40 releases behind>".into(),
        judged_on: "2026-11-23".into(),
        table_as_of: "2025-11".into(),
        ..Default::default()
    });
    let html = report::html(&doc, &[]);
    assert!(
        html.contains(
            "<th>Kernel status</th><td>downstream tree following kernel.org stable, Armbian: \
             6.1 LTS is supported until 2027-12 &lt;but 40 releases behind&gt; (as of 2026-11-23)</td>"
        ),
        "escaped and complete"
    );
}

#[test]
fn timeline_shows_the_clock_drop_and_the_temperature_ramp() {
    let t = timeline::from_doc(&demo::run_document()).expect("timeline");
    assert_eq!(t.bands.len(), 8);
    // Big cluster first (display order), named with its core.
    assert_eq!(t.clocks[0].name, "cpu4 (Cortex-A72)");
    assert_eq!(t.clocks[1].name, "cpu0 (Cortex-A53)");
    let big: Vec<f64> = t.clocks[0].pts.iter().map(|p| p.1).collect();
    assert_eq!(big.iter().copied().fold(0.0, f64::max), 1800.0);
    assert_eq!(big.iter().copied().fold(f64::MAX, f64::min), 1416.0);
    let temps: Vec<f64> = t.temp.iter().map(|p| p.1).collect();
    assert!(temps.first().unwrap() < &50.0 && temps.iter().copied().fold(0.0, f64::max) > 80.0);
    assert!(t.bands.windows(2).all(|w| w[0].end_s <= w[1].start_s));
    let n: usize = t.clocks[0].pts.len();
    assert_eq!(n, t.temp.len());
    assert_eq!(n, t.cpu.len());
}

#[test]
fn opp_and_memlat_data_come_from_their_phases() {
    let doc = demo::run_document();
    let o = opp::from_doc(&doc);
    let names: Vec<&str> = o.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "cpu4 (Cortex-A72)",
            "cpu0 (Cortex-A53)",
            "cpu4 (Cortex-A72) (hot)"
        ]
    );
    assert_eq!(o[0].pts.len(), 8);
    assert_eq!(o[0].pts.last(), Some(&(1800.0, 1704.0)));
    let l = memlat::from_doc(&doc).expect("ladder");
    assert_eq!(l.series.len(), 6, "4 chain columns + 2 random tables");
    assert_eq!(l.series[0].pts.len(), 15);
    assert_eq!(l.levels.len(), 2);
    let html = memlat::render(&l);
    assert!(html.contains("L2 ≤ 1 MiB"), "levels are labelled");
    assert!(html.contains(">64 MiB<"), "log size axis reaches 64 MiB");
}

#[test]
fn bars_are_normalised_to_this_run() {
    let doc = demo::run_document();
    let others = vec![
        ("faster board".to_string(), demo::scaled_run("Faster", 1.5)),
        ("slower board".to_string(), demo::scaled_run("Slower", 0.5)),
    ];
    let c = compare::from_docs("this", &doc, &others);
    let multi = c.metrics.iter().find(|m| m.name == "7-Zip multi").unwrap();
    assert_eq!(multi.ratio(0), Some(1.0));
    assert_eq!(multi.ratio(1), Some(1.5));
    assert_eq!(multi.ratio(2), Some(0.5));
    let khs = c.metrics.iter().find(|m| m.name == "cpuminer").unwrap();
    assert_eq!(khs.ratio(1), None, "no cpuminer in the run");
    let html = report::html(&doc, &others);
    assert!(html.contains("id=\"chart-compare\""));
    assert!(html.contains("1.5× · 8430 MIPS"), "7-Zip multi 5620 × 1.5");
    assert_eq!(svgs(&html).len(), 5, "with the placement chart");
    for s in svgs(&html) {
        assert_balanced(s);
    }
}

#[test]
fn every_document_string_is_escaped() {
    const EVIL: &str = "<script>alert(1)</script>";
    const IMG: &str = "<img src=x onerror=alert(2)>";
    let mut doc = demo::run_document_named(EVIL);
    doc.findings.push(Finding {
        kind: "x\"><b>".into(),
        severity: Severity::Invalid,
        message: format!("bad {IMG}"),
        evidence: vec![format!("</code>{EVIL}")],
    });
    let run = doc.run.as_mut().unwrap();
    run.phases[0].title = format!("clock {IMG}");
    run.profile = EVIL.into();
    run.phases[6].tool_runs[0].output = format!("Tot: {EVIL}");
    run.phases[6].tool_runs[0].command = format!("7zr b {IMG}");
    run.kmsg.as_mut().unwrap().lines[0].text = IMG.into();
    run.settings[0].before = EVIL.into();
    doc.machine.as_mut().unwrap().clusters[1].core_name = Some(IMG.into());
    let other = demo::scaled_run(EVIL, 2.0);
    let html = report::html(&doc, &[(format!("other {IMG}"), other)]);
    assert!(!html.contains("<script"), "no script element at all");
    assert!(!html.contains("<img"));
    assert!(!html.contains("<b>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&lt;img src=x onerror=alert(2)&gt;"));
    for s in svgs(&html) {
        assert_balanced(s);
    }
    // The same for a page per chart.
    for (_, page) in report::chart_pages(&doc, &[("o".into(), demo::scaled_run(EVIL, 1.0))]) {
        assert!(!page.contains("<script") && !page.contains("<img"));
    }
}

#[test]
fn odd_documents_render_without_panicking() {
    let empty = ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: String::new(),
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
    let html = report::html(&empty, &[("also empty".into(), empty.clone())]);
    assert!(html.contains("this run has none of the headline numbers"));

    let mut doc = demo::run_document();
    let run = doc.run.as_mut().unwrap();
    run.phases[1].finished_unix_ms = 0; // finished before it started
    run.phases[2].samples.push(MonitorSample {
        unix_ms: 1,
        interval_s: f64::NAN,
        clocks_mhz: vec![None, Some(0), Some(u32::MAX)],
        load1: None,
        cpu: None,
        temp_c: Some(f64::INFINITY),
        rpi: None,
    });
    run.phases[0].clock[0].mhz = f64::NAN;
    run.monitor.as_mut().unwrap().display_order = vec![7, 1, 1];
    if let Some(m) = run.phases[2].memlat.as_mut() {
        m.chain.as_mut().unwrap().rows[0].ns_per_step.clear();
        m.random[0].rows[0].single_raw_ns = -1.0;
    }
    doc.measurements[6].value = f64::NAN;
    let html = report::html(&doc, &[("x".into(), empty)]);
    for s in svgs(&html) {
        assert_balanced(s);
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
    }
}

#[test]
fn every_fixture_log_renders() {
    let mut names: Vec<String> = std::fs::read_dir(sbc_bench_logs())
        .expect("fixture logs")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    let (mut rendered, mut with_timeline, mut with_opp, mut with_monitor, mut with_checks) =
        (0, 0, 0, 0, 0);
    for name in &names {
        let bytes = std::fs::read(sbc_bench_logs().join(name)).unwrap();
        let Ok(doc) = sbcimport::import_bytes(&bytes, name) else {
            continue;
        };
        let log = doc.imported.as_ref().unwrap();
        with_monitor += usize::from(log.monitor.iter().any(|t| !t.rows.is_empty()));
        with_checks += usize::from(
            log.clock_checks
                .iter()
                .any(|c| c.rows.iter().any(|r| r.opp_mhz.is_some())),
        );
        let html = report::html(&doc, &[]);
        for s in svgs(&html) {
            assert_balanced(s);
            assert!(!s.contains("NaN"), "{name}");
        }
        rendered += 1;
        with_timeline += usize::from(html.contains("id=\"chart-timeline\""));
        with_opp += usize::from(html.contains("id=\"chart-opp\""));
    }
    println!(
        "{rendered} logs rendered: timeline {with_timeline} (monitor tables {with_monitor}), \
         OPP chart {with_opp} (OPP rows {with_checks})"
    );
    assert!(
        rendered >= 155,
        "{rendered} of {} logs rendered",
        names.len()
    );
    assert_eq!(
        with_opp, with_checks,
        "every log with OPP rows gets the OPP chart"
    );
    assert!(
        with_timeline * 10 >= with_monitor * 9,
        "a timeline for nearly every monitor"
    );
}

#[test]
fn an_imported_log_charts_its_monitor_tables_and_clock_checks() {
    let doc = imported("XUpQ.txt");
    let t = timeline::from_doc(&doc).expect("timeline");
    assert!(t.bands.iter().any(|b| b.label.contains("7-zip multi")));
    assert!(!t.clocks.is_empty() && !t.cpu.is_empty());
    // Time runs forward within each phase table.
    for s in &t.clocks {
        assert!(s.pts.windows(2).all(|w| w[0].0 <= w[1].0));
    }
    let html = report::html(&doc, &[]);
    assert!(html.contains("imported sbc-bench log XUpQ.txt"));
}

#[test]
fn the_leads_recorded_run_renders_when_present() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../boardbench/tests/data/run-quick.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} not there yet", path.display());
        return;
    };
    let doc: ResultDocument = serde_json::from_str(&text).expect("a result document");
    let html = report::html(&doc, &[]);
    let sampled = doc
        .run
        .as_ref()
        .is_some_and(|r| r.phases.iter().any(|p| !p.samples.is_empty()));
    assert_eq!(html.contains("id=\"chart-timeline\""), sampled);
    for s in svgs(&html) {
        assert_balanced(s);
    }
}

#[test]
fn a_machine_without_cpufreq_or_sensors_still_gets_its_cpu_timeline() {
    // Like this VM: no clock columns, no temperature, only CPU states.
    let mut doc = demo::run_document();
    let run = doc.run.as_mut().unwrap();
    run.monitor = None;
    for p in &mut run.phases {
        for s in &mut p.samples {
            s.clocks_mhz.clear();
            s.temp_c = None;
        }
    }
    let t = timeline::from_doc(&doc).expect("CPU use alone is a timeline");
    assert!(t.clocks.is_empty() && t.temp.is_empty() && !t.cpu.is_empty());
    let html = report::html(&doc, &[]);
    assert!(html.contains("no clock readings"));
    assert!(html.contains("no temp readings"));
    // An empty panel has no scale: never a made-up 0–1.2 MHz axis.
    for tick in [">0.2<", ">0.4<", ">1.2<"] {
        assert!(!html.contains(tick), "an empty panel has a tick {tick}");
    }
}

#[test]
fn long_imported_runs_are_timed_in_minutes() {
    // 1lzP (NanoPi M4) runs for about 36 minutes.
    let html = report::html(&imported("1lzP.txt"), &[]);
    assert!(html.contains("minutes since the first phase started"));
    let short = report::html(&demo::run_document(), &[]);
    assert!(short.contains("seconds since the first phase started"));
}

#[test]
fn an_imported_log_is_placed_with_its_soc_rows_highlighted() {
    // RockPro64 (RK3399): a row of the table itself, among many RK3399 rows.
    let doc = imported("1lBC.txt");
    let p = report::chart::placement::from_doc(corpus::corpus(), &doc).expect("placed");
    assert_eq!(p.placement.soc.as_deref(), Some("Rockchip RK3399"));
    for st in &p.strips {
        assert!(st.rows.iter().filter(|r| r.1).count() >= 3, "{}", st.label);
        assert!(st.rows.iter().any(|r| !r.1));
    }
    let fig = report::chart::placement::render(&p);
    assert!(fig.contains("dot s1") && fig.contains("dot others"));
    assert!(fig.contains("own row"));
    assert!(fig.contains(corpus::DATE) && fig.contains("BSD-3-Clause"));
    for s in svgs(&fig) {
        assert_balanced(s);
    }
}
