//! Every reader shows the placement the finisher stored with the run, and the SoC it placed the
//! run as: `boardbench import` of a log without a `SoC guess:` line (the board names the chip),
//! then `results show`, `results list`, `results table --placement`, and `report --html`. After
//! `corpus update` with a smaller table the stored placement stays what every reader shows —
//! until `results reanalyse` places the run in the new table, and then every reader shows that.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use crate::common;
use testsupport::sbc_bench_logs;

const LIMIT: Duration = Duration::from_secs(120);

fn bb(dir: &Path, args: &[&str]) -> Output {
    let mut c = common::command();
    c.args(args)
        .env("BOARDBENCH_DB", dir.join("results.sqlite"))
        .env("BOARDBENCH_CORPUS_DIR", dir.join("corpus"));
    let o = common::output_within(c, LIMIT);
    assert!(
        o.status.success(),
        "boardbench {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The "memcpy …: Nth of M ARM rows" part of the memcpy line (`results show`).
fn memcpy_rank(show: &str) -> String {
    let line = show
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("memcpy "))
        .unwrap_or_else(|| panic!("no memcpy placement line in:\n{show}"));
    let from = line.find(": ").expect(line) + 2;
    let to = line.find(" ARM rows").expect(line);
    line[from..to].to_string()
}

/// The memcpy cell of the run's row in `results table --placement` ("12/180 (98 % …)").
fn memcpy_cell(md: &str) -> String {
    let row = md
        .lines()
        .find(|l| l.starts_with("| 1 | ARM |"))
        .unwrap_or_else(|| panic!("no placement row in:\n{md}"));
    let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    // id, class, SoC, then the six figures in the table's order: memcpy is the 4th figure.
    cells[3 + 3].to_string()
}

#[test]
fn readers_show_the_stored_placement_and_soc_until_the_run_is_reanalysed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A Raspberry Pi 4 log of sbc-bench v0.6.7: no "SoC guess:" line, the device name says it.
    let log = sbc_bench_logs().join("1MFf.txt");
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(!log_text.contains("SoC guess"), "the fixture changed");
    bb(d, &["import", log.to_str().unwrap()]);

    // One SoC name: the catalogue's, in the run's columns and in its placement.
    let show = out(&bb(d, &["results", "show", "1"]));
    let soc_line = show
        .lines()
        .find(|l| l.trim_start().starts_with("soc "))
        .expect(&show);
    assert!(soc_line.contains("BCM2711"), "{soc_line}");
    let soc = soc_line.trim_start()["soc".len()..].trim().to_string();
    let list = out(&bb(d, &["results", "list"]));
    assert!(list.contains(&soc), "{list}");
    assert!(
        show.contains(&format!("{soc}, 4 cores")),
        "the same-SoC group is named by the same SoC:\n{show}"
    );

    let stored = memcpy_rank(&show);
    let table = out(&bb(d, &["results", "table", "--placement"]));
    let cell = memcpy_cell(&table);
    let html = out(&bb(d, &["report", "1", "--html", "-"]));
    assert!(html.contains(&stored), "report shows the stored {stored:?}");

    // A smaller table of published results: the table's head, 16 rows around the Raspberry
    // Pi 4's, and everything after the table.
    let page: Vec<&str> = corpus::RESULTS_MD.lines().collect();
    let head = page.iter().position(|l| l.starts_with("| ---")).unwrap() + 1;
    let rows: Vec<usize> = (head..page.len())
        .take_while(|i| page[*i].starts_with('|'))
        .collect();
    let pi4 = rows
        .iter()
        .position(|i| page[*i].contains("results/1MFf.txt"))
        .expect("the log's own row");
    let keep = rows[pi4.saturating_sub(8)..(pi4 + 8).min(rows.len())].to_vec();
    let mut small: Vec<&str> = page[..head].to_vec();
    small.extend(keep.iter().map(|i| page[*i]));
    small.extend(&page[rows.last().unwrap() + 1..]);
    let small_md = d.join("small-results.md");
    std::fs::write(&small_md, small.join("\n") + "\n").unwrap();
    bb(d, &["corpus", "update", small_md.to_str().unwrap()]);

    // Every reader still shows what was stored.
    let show2 = out(&bb(d, &["results", "show", "1"]));
    assert_eq!(memcpy_rank(&show2), stored, "{show2}");
    assert_eq!(
        memcpy_cell(&out(&bb(d, &["results", "table", "--placement"]))),
        cell
    );
    let html2 = out(&bb(d, &["report", "1", "--html", "-"]));
    assert!(
        html2.contains(&stored),
        "report shows the stored {stored:?}"
    );

    // Re-analysed, the run is placed among the smaller table's rows, everywhere.
    let re = out(&bb(d, &["results", "reanalyse", "--all"]));
    assert!(re.contains("1 changed"), "{re}");
    let show3 = out(&bb(d, &["results", "show", "1"]));
    let now = memcpy_rank(&show3);
    assert_ne!(now, stored, "{show3}");
    assert!(
        out(&bb(d, &["report", "1", "--html", "-"])).contains(&now),
        "report shows the new {now:?}"
    );
    assert_ne!(
        memcpy_cell(&out(&bb(d, &["results", "table", "--placement"]))),
        cell
    );
}
