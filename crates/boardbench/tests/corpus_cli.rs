//! `boardbench corpus`: show (source, date, rows, licence), update FILE (what changed, where it
//! is stored, used from then on), a damaged page refused, reset back to the built-in corpus.
//! Every invocation gets its own corpus directory (`BOARDBENCH_CORPUS_DIR`).

use std::path::Path;
use std::process::Output;

fn bb(dir: &Path, args: &[&str]) -> Output {
    testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench"))
        .arg("corpus")
        .args(args)
        .env("BOARDBENCH_CORPUS_DIR", dir)
        .output()
        .expect("run boardbench")
}

fn ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn show_update_and_reset() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    let builtin = corpus::corpus();

    let show = ok(&bb(&dir, &["show"]));
    assert!(
        show.contains(&format!("source:  {}", corpus::SOURCE)),
        "{show}"
    );
    assert!(show.contains(&format!("date:    {}", corpus::DATE)));
    assert!(show.contains(&format!("rows:    {} (", builtin.entries.len())));
    assert!(show.contains("in use:  built in"));
    assert!(
        show.contains("Copyright (c) 2018, Thomas Kaiser"),
        "the notice"
    );

    let soc = ok(&bb(&dir, &["show", "--soc", "RK3588"]));
    let n = builtin.by_soc("RK3588").count();
    assert!(
        soc.contains(&format!("rows of Rockchip RK3588 ({n}):")),
        "{soc}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&bb(&dir, &["show", "--json", "--soc", "RK3588"]))).unwrap();
    assert_eq!(json["entries"].as_array().unwrap().len(), n);
    assert!(json["license"].as_str().unwrap().contains("Thomas Kaiser"));

    // A newer page: one row gone, one figure changed.
    let mut lines: Vec<String> = corpus::RESULTS_MD.lines().map(String::from).collect();
    let rows: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("| ["))
        .collect();
    let gone = lines.remove(rows[0]);
    let changed = &mut lines[rows[1] - 1];
    let old_row = changed.clone();
    let cells: Vec<&str> = old_row.split('|').collect();
    // The 7-zip multi cell (the fifth column) gets another number.
    let mut new_cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    new_cells[5] = " 1 ".into();
    *changed = new_cells.join("|");
    let page = tmp.path().join("Results.md");
    std::fs::write(&page, lines.join("\n") + "\n").unwrap();

    let dry = ok(&bb(&dir, &["update", page.to_str().unwrap(), "--dry-run"]));
    assert!(dry.contains("0 added, 1 removed, 1 changed"), "{dry}");
    assert!(dry.contains("7-Zip multi"), "{dry}");
    assert!(dry.contains("dry run: nothing stored"));
    assert!(!dir.join("Results.md").exists());
    let gone_device = &gone[gone.find('[').unwrap() + 1..gone.find(']').unwrap()];
    assert!(dry.contains(&format!("  - {gone_device}")), "{dry}");

    let up = ok(&bb(
        &dir,
        &[
            "update",
            page.to_str().unwrap(),
            "--date",
            "2026-12-01",
            "--source",
            "sbc-bench v0.9.73 Results.md (test)",
        ],
    ));
    assert!(
        up.contains(&format!("was:  {}", builtin.provenance())),
        "{up}"
    );
    assert!(up.contains("new:  sbc-bench v0.9.73 Results.md (test), 2026-12-01"));
    assert!(up.contains("stored in"));
    assert!(dir.join("Results.md").exists() && dir.join("LICENSE.sbc-bench").exists());
    let show = ok(&bb(&dir, &["show"]));
    assert!(
        show.contains("source:  sbc-bench v0.9.73 Results.md (test)"),
        "{show}"
    );
    assert!(show.contains("date:    2026-12-01"));
    assert!(show.contains("in use:  stored by `boardbench corpus update`"));

    // A page that is not a results table is refused; the stored one stays.
    let bad = tmp.path().join("bad.md");
    std::fs::write(&bad, "# nothing here\n").unwrap();
    let o = bb(&dir, &["update", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing stored"));
    assert!(ok(&bb(&dir, &["show"])).contains("2026-12-01"));

    let reset = ok(&bb(&dir, &["reset"]));
    assert!(reset.contains("removed the stored corpus"));
    assert!(reset.contains(corpus::DATE));
    assert!(ok(&bb(&dir, &["show"])).contains("in use:  built in"));
}
