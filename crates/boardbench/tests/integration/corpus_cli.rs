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

/// A results database built here (two fixture logs imported and added, as `results add` stores
/// them) becomes the local layer: said to be a database, its runs listed apart from the
/// published rows (which stay as they were), a second update from the same database changes
/// nothing, a JSON file that is not the service's export is refused, `reset` removes the layer.
#[test]
fn update_from_a_results_database_is_a_local_layer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    let db = tmp.path().join("results.sqlite");
    let logs = testsupport::sbc_bench_logs();
    let docs = tmp.path().join("docs");
    let run = |args: &[&str]| {
        testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench"))
            .args(args)
            .env_remove("BOARDBENCH_DB")
            .output()
            .expect("run boardbench")
    };
    ok(&run(&[
        "import",
        logs.join("Xd38a.txt").to_str().unwrap(),
        logs.join("3GmR.txt").to_str().unwrap(),
        "--out",
        docs.to_str().unwrap(),
        "--no-store",
    ]));
    let mut files: Vec<String> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut args = vec!["results", "--db", db.to_str().unwrap(), "add"];
    args.extend(files.iter().map(String::as_str));
    ok(&run(&args));

    let up = ok(&bb(
        &dir,
        &["update", db.to_str().unwrap(), "--date", "2026-11-27"],
    ));
    assert!(up.contains("is a results database"), "{up}");
    assert!(
        up.contains("not used to place runs or judge outliers"),
        "{up}"
    );
    assert!(
        up.contains(&format!(
            "published: {} ({} rows, unchanged)",
            corpus::corpus().provenance(),
            corpus::corpus().entries.len()
        )),
        "{up}"
    );
    assert!(up.contains("local was: none"), "{up}");
    assert!(up.contains("(2 runs)"), "{up}");
    assert!(
        up.contains("2 added, 0 removed, 0 changed, 0 the same"),
        "{up}"
    );
    assert!(dir.join("local.json").exists());
    // The published corpus is not replaced.
    assert!(!dir.join("Results.md").exists());

    let show = ok(&bb(&dir, &["show", "--soc", "RK3576"]));
    assert!(show.contains("in use:  built in"), "{show}");
    assert!(show.contains("local layer (your own runs"), "{show}");
    assert!(show.contains("  date:    2026-11-27"), "{show}");
    assert!(
        show.contains("local runs of Rockchip RK3576 (1):"),
        "{show}"
    );
    assert!(show.contains("  local run "), "{show}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&bb(&dir, &["show", "--json"]))).unwrap();
    assert_eq!(
        json["rows"].as_u64().unwrap() as usize,
        corpus::corpus().entries.len()
    );
    let local = json["local"]["entries"].as_array().unwrap();
    assert_eq!(local.len(), 2);
    assert!(
        local
            .iter()
            .all(|e| e["marks"].to_string().contains("\"Local\"")),
        "{local:?}"
    );

    let again = ok(&bb(&dir, &["update", db.to_str().unwrap(), "--dry-run"]));
    assert!(again.contains("no row changed (2 the same)"), "{again}");

    let bad = tmp.path().join("runs.json");
    std::fs::write(&bad, r#"{"runs": []}"#).unwrap();
    let o = bb(&dir, &["update", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/api/v1/table?format=json"), "{err}");
    assert!(err.contains("nothing stored"), "{err}");
    let missing = tmp.path().join("no-such-file");
    let o = bb(&dir, &["update", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing stored"));

    let reset = ok(&bb(&dir, &["reset"]));
    assert!(reset.contains("removed the stored corpus"), "{reset}");
    assert!(!dir.join("local.json").exists());
    assert!(ok(&bb(&dir, &["show"])).contains("local layer: none"));
}
