//! Bad input gets a clear error and loses nothing (issue 16), one test per case, as a careful
//! system tool is tested: the exit code, the one-line message, and that nothing was created,
//! overwritten or grown. Also `import` storing by default and `--json` on `results table`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use testsupport::sbc_bench_logs;

/// boardbench with `args`, never touching the user's default database or machine root
/// (`testsupport::cli::command`).
fn bb(args: &[&str]) -> Output {
    testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench"))
        .args(args)
        .output()
        .expect("run boardbench")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A database holding the imports of `names` (fixture logs).
fn db_with(dir: &Path, names: &[&str]) -> PathBuf {
    let db = dir.join("r.sqlite");
    let files: Vec<PathBuf> = names.iter().map(|n| sbc_bench_logs().join(n)).collect();
    let mut args = vec!["import", "--db", p(&db)];
    args.extend(files.iter().map(|f| p(f)));
    ok(&bb(&args));
    db
}

// ---- item 1: bounded reads, several logs in one file ----

#[test]
fn import_of_dev_zero_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("o");
    let t = std::time::Instant::now();
    let o = bb(&["import", "--no-store", "--out", p(&out_dir), "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o).trim(),
        "import: /dev/zero: binary data, not a text log"
    );
    assert!(t.elapsed().as_secs() < 10);
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);
}

#[test]
fn a_file_of_concatenated_logs_imports_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    for name in ["Xd38a.txt", "3GmR.txt", "Xd38a.txt"] {
        all.extend(std::fs::read(sbc_bench_logs().join(name)).unwrap());
        all.push(b'\n');
    }
    let file = dir.path().join("all.txt");
    std::fs::write(&file, all).unwrap();
    let out_dir = dir.path().join("o");
    let o = bb(&["import", "--no-store", "--out", p(&out_dir), p(&file)]);
    ok(&o);
    assert!(err(&o).contains("holds 3 sbc-bench logs"), "{}", err(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    for (k, multi) in [(1, 12350), (2, 12400), (3, 12350)] {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out_dir.join(format!("all-{k}.json"))).unwrap())
                .unwrap();
        let imp = &doc["imported"];
        assert_eq!(imp["source"], format!("all.txt (log {k} of 3)"));
        assert!(imp["clock_checks"].as_array().unwrap().len() <= 4);
        if k != 2 {
            assert_eq!(imp["headline"]["zip_multi"], multi);
        }
    }
}

#[test]
fn results_add_of_dev_zero_is_refused_without_filling_memory() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let o = bb(&["results", "add", "--db", p(&db), "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("/dev/zero: not a result document"),
        "{}",
        err(&o)
    );
}

// ---- item 2: never overwrite ----

#[test]
fn outputs_with_the_same_name_are_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    for (sub, log) in [("a", "Xd38a.txt"), ("b", "1iJ7.txt")] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::copy(
            sbc_bench_logs().join(log),
            dir.path().join(sub).join("results.log"),
        )
        .unwrap();
    }
    let a = dir.path().join("a/results.log");
    let b = dir.path().join("b/results.log");
    let out_dir = dir.path().join("o");
    ok(&bb(&[
        "import",
        "--no-store",
        "--out",
        p(&out_dir),
        p(&a),
        p(&b),
    ]));
    let read = |n: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(out_dir.join(n)).unwrap()).unwrap()
    };
    assert_eq!(
        read("results.json")["imported"]["sbc_bench_version"],
        "v0.9.72"
    );
    assert_eq!(
        read("results-2.json")["imported"]["sbc_bench_version"],
        "v0.4"
    );
    // A second call finds the file there: an error, the file untouched.
    let before = std::fs::read(out_dir.join("results.json")).unwrap();
    let again = bb(&["import", "--no-store", "--out", p(&out_dir), p(&b)]);
    assert_eq!(again.status.code(), Some(1));
    assert!(err(&again).contains("already exists"), "{}", err(&again));
    assert_eq!(std::fs::read(out_dir.join("results.json")).unwrap(), before);
    ok(&bb(&[
        "import",
        "--no-store",
        "--force",
        "--out",
        p(&out_dir),
        p(&b),
    ]));
    assert_eq!(
        read("results.json")["imported"]["sbc_bench_version"],
        "v0.4"
    );
}

// ---- item 3: truncated logs ----

#[test]
fn a_truncated_log_is_marked_partial_and_gives_no_wrong_number() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let cut = text.find("Total: 12252,12314,12").unwrap() + "Total: 12252,12314,12".len();
    let file = dir.path().join("cut.txt");
    std::fs::write(&file, &text[..cut]).unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&ok(&bb(&["import", "--no-store", p(&file)]))).unwrap();
    let imp = &doc["imported"];
    assert_eq!(imp["partial"], true);
    assert!(imp["headline"]["zip_multi"].is_null());
    assert_eq!(imp["headline"]["zip_single"], 2306);
    let problems = imp["problems"].to_string();
    assert!(
        problems.contains("cut off") && problems.contains("7-zip multi"),
        "{problems}"
    );
    assert!(
        !doc["measurements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["test"] == "multi")
    );
}

// ---- item 6: a read-only database is readable ----

#[test]
fn a_database_the_user_may_only_read_is_readable() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_with(dir.path(), &["Xd38a.txt"]);
    let before = std::fs::read(&db).unwrap();
    use std::os::unix::fs::PermissionsExt;
    // Readable by everyone, writable by no one (a new database is created 0600: its owner's).
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let is_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"));
    for args in [
        vec!["results", "list"],
        vec!["results", "show", "1"],
        vec!["results", "table"],
    ] {
        let mut cmd = if is_root {
            // Root ignores permissions: read as nobody instead.
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_boardbench"));
            c
        } else {
            common::command()
        };
        let Ok(o) = cmd.args(&args).args(["--db", p(&db)]).output() else {
            eprintln!("setpriv not available: skipped");
            return;
        };
        if is_root && err(&o).contains("Permission denied") && !err(&o).contains("sqlite") {
            eprintln!("the test binary is not reachable as nobody: skipped");
            return;
        }
        assert!(ok(&o).contains("Flipper One"), "{args:?}");
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
}

// ---- item 7: mistakes that create things ----

#[test]
fn read_commands_never_create_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("typo/results.sqlite");
    for args in [
        vec!["results", "list"],
        vec!["results", "table"],
        vec!["results", "show", "1"],
        vec!["results", "compare", "1", "2"],
        vec!["report", "1", "--html", "-"],
    ] {
        let o = bb(&[args.as_slice(), &["--db", p(&db)]].concat());
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(
            err(&o).trim(),
            format!("boardbench: no results database at {} yet", db.display()),
            "{args:?}"
        );
    }
    assert!(!dir.path().join("typo").exists());
}

#[test]
fn unknown_database_url_schemes_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for url in ["mysql://127.0.0.1/x", "postgress://bob:pw@db/x"] {
        for args in [vec!["results", "list"], vec!["results", "add", "x.json"]] {
            let o = common::command()
                .current_dir(dir.path())
                .args(&args)
                .args(["--db", url])
                .output()
                .unwrap();
            // A value error (issue 47: it was exit 1 outside `run`).
            assert_eq!(o.status.code(), Some(64));
            assert!(
                err(&o).contains("unknown database URL scheme"),
                "{}",
                err(&o)
            );
            assert!(!err(&o).contains("pw@"), "password shown: {}", err(&o));
        }
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_missing_sysroot_is_an_error() {
    let o = bb(&["--sysroot", "/nonexistent/boardbench-root", "info"]);
    assert_eq!(o.status.code(), Some(64));
    assert!(err(&o).contains("no such directory"), "{}", err(&o));
}

// ---- item 8: filters that lie ----

#[test]
fn like_wildcards_and_bad_dates() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_with(dir.path(), &["Xd38a.txt", "3GmR.txt"]);
    for wildcard in ["%", "_"] {
        let o = bb(&["results", "list", "--db", p(&db), "--device", wildcard]);
        assert_eq!(ok(&o), "", "--device {wildcard} matched runs");
    }
    assert_eq!(
        ok(&bb(&[
            "results",
            "list",
            "--db",
            p(&db),
            "--device",
            "flipper"
        ]))
        .lines()
        .count(),
        1
    );
    for opt in ["--since", "--until"] {
        let o = bb(&["results", "list", "--db", p(&db), opt, "notadate"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(err(&o).contains("not a date"), "{}", err(&o));
    }
    let o = bb(&["results", "list", "--db", p(&db), "--since", "2026-05-05"]);
    assert_eq!(ok(&o).lines().count(), 1);
}

// ---- item 9: values outside a unit's range; a run drawn twice ----

#[test]
fn impossible_values_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let doc = |value: &str, unit: &str| {
        format!(
            r#"{{"schema_version":1,"producer":"t","measurements":[{{"suite":"7zip","test":"multi","threads":4,"value":{value},"unit":"{unit}","higher_is_better":true}}]}}"#
        )
    };
    for (i, (value, unit)) in [("-1e308", "MIPS"), ("-5", "MB/s"), ("1e300", "kH/s")]
        .iter()
        .enumerate()
    {
        let f = dir.path().join(format!("bad{i}.json"));
        std::fs::write(&f, doc(value, unit)).unwrap();
        let o = bb(&["results", "add", "--db", p(&db), p(&f)]);
        assert_eq!(o.status.code(), Some(1), "{value} {unit}");
        assert!(err(&o).contains("7zip/multi"), "{}", err(&o));
    }
    // An imported document whose headline says -5 kH/s.
    let text = std::fs::read_to_string(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let out_dir = dir.path().join("o");
    let log = dir.path().join("neg.txt");
    std::fs::write(
        &log,
        text.replace("Total Scores: 18.85,18.74", "Total Scores: -18.85,-18.74"),
    )
    .unwrap();
    let o = bb(&["import", "--no-store", "--out", p(&out_dir), p(&log)]);
    ok(&o);
    let mut imported: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("neg.json")).unwrap()).unwrap();
    assert!(
        imported["imported"]["headline"]["khs"].is_null(),
        "a negative hash rate was derived"
    );
    imported["imported"]["headline"]["khs"] = serde_json::json!(-18.74);
    let f = dir.path().join("neg-headline.json");
    std::fs::write(&f, imported.to_string()).unwrap();
    let o = bb(&["results", "add", "--db", p(&db), p(&f)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("headline kH/s"), "{}", err(&o));
    let good = dir.path().join("good.json");
    std::fs::write(&good, doc("1234", "MIPS")).unwrap();
    ok(&bb(&["results", "add", "--db", p(&db), p(&good)]));
    assert_eq!(
        ok(&bb(&["results", "list", "--db", p(&db)]))
            .lines()
            .count(),
        1
    );
}

#[test]
fn a_run_given_twice_to_report_against_is_drawn_once() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("o");
    let a = sbc_bench_logs().join("Xd38a.txt");
    let b = sbc_bench_logs().join("3GmR.txt");
    ok(&bb(&[
        "import",
        "--no-store",
        "--out",
        p(&out_dir),
        p(&a),
        p(&b),
    ]));
    let (a, b) = (out_dir.join("Xd38a.json"), out_dir.join("3GmR.json"));
    let once = ok(&bb(&["report", p(&a), "--against", p(&b), "--html", "-"]));
    let twice = bb(&[
        "report",
        p(&a),
        "--against",
        p(&b),
        "--against",
        p(&b),
        "--html",
        "-",
    ]);
    assert!(err(&twice).contains("drawn once"), "{}", err(&twice));
    assert_eq!(ok(&twice), once);
}

// ---- issue 11 item 15: import stores by default; one output convention ----

#[test]
fn import_stores_into_the_database_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let a = sbc_bench_logs().join("Xd38a.txt");
    let o = bb(&["import", "--db", p(&db), "--tag", "lab", p(&a)]);
    let doc: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(doc["imported"]["sbc_bench_version"], "v0.9.72");
    assert!(err(&o).contains("stored as run 1"), "{}", err(&o));
    let again = bb(&[
        "import",
        "--db",
        p(&db),
        p(&a),
        p(&sbc_bench_logs().join("3GmR.txt")),
    ]);
    let lines = ok(&again);
    assert!(
        lines
            .lines()
            .next()
            .unwrap()
            .contains("run 1 (already stored)"),
        "{lines}"
    );
    let list = ok(&bb(&["results", "list", "--db", p(&db)]));
    assert_eq!(list.lines().count(), 2);
    assert!(list.contains("[lab]"));
    // --no-store leaves the database alone.
    let none = dir.path().join("none.sqlite");
    ok(&bb(&["import", "--no-store", "--db", p(&none), p(&a)]));
    assert!(!none.exists());
}

#[test]
fn results_table_json_is_the_same_under_both_spellings() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_with(dir.path(), &["Xd38a.txt"]);
    let json = ok(&bb(&["results", "table", "--json", "--db", p(&db)]));
    let old = ok(&bb(&[
        "results",
        "table",
        "--format",
        "json",
        "--db",
        p(&db),
    ]));
    assert_eq!(json, old);
    assert!(json.contains("\"zip_multi\": 12350.0"));
    let csv = ok(&bb(&["results", "table", "--csv", "--db", p(&db)]));
    assert!(csv.starts_with("id,Device"));
    let help = ok(&bb(&["results", "table", "--help"]));
    assert!(
        help.contains("--json") && !help.contains("--format"),
        "{help}"
    );
}

// ---- issue 26: exit codes, everything checked before the run, no output over an input ----

/// The result document of a fixture log, imported into `dir/o`.
fn imported_document(dir: &Path) -> PathBuf {
    let out_dir = dir.join("o");
    ok(&bb(&[
        "import",
        "--no-store",
        "--out",
        p(&out_dir),
        p(&sbc_bench_logs().join("Xd38a.txt")),
    ]));
    std::fs::read_dir(&out_dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// A run that would benchmark this machine if the check did not stop it first: the idle gate
/// gives up after a second and nothing is stored, so a missed check cannot hang or pollute.
fn run_refused(extra: &[&str], env: &[(&str, &str)]) -> (Output, std::time::Duration) {
    let t = std::time::Instant::now();
    let mut c = common::command();
    c.env_remove("MaxKHz")
        .env_remove("MinKHz")
        .env_remove("MODE")
        .args([
            "run",
            "--tiny-kernels",
            "--idle-timeout",
            "1",
            "--phases",
            "clock",
        ])
        .args(extra);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (o, t.elapsed())
}

/// Usage errors exit 64 with one line naming what the user typed, at once (no idle wait, no
/// phase), and leave nothing behind.
#[test]
fn usage_errors_exit_64_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("b.log");
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (&["--bogus"], &[], "--bogus"),
        (
            &["--phases", "clock,membww"],
            &[],
            "unknown phase kind \"membww\"",
        ),
        (
            &["--profile", "quick", "--extensive"],
            &[],
            "--profile quick",
        ),
        (&["--profile", "fast", "--extensive"], &[], "contradict"),
        (
            &["--min-khz", "1800000", "--max-khz", "1000000"],
            &[],
            "above --max-khz",
        ),
        (&["--idle-load", "-1"], &[], "0 or more"),
        (&["--idle-cpu", "250"], &[], "0 to 100"),
        (&[], &[("MaxKHz", "abc")], "MaxKHz=abc"),
        (&[], &[("MODE", "extensiv")], "MODE=extensiv"),
        (&["--db", ""], &[], "no database file named"),
        (&["--db", "sqlite:"], &[], "no database file named"),
        (&[], &[("BOARDBENCH_DB", "")], "BOARDBENCH_DB="),
    ];
    for (args, env, says) in cases {
        let mut a = args.to_vec();
        a.extend(["--log", p(&log)]);
        let (o, took) = run_refused(&a, env);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(64), "{args:?} {env:?}: {e}");
        assert!(e.contains(says), "{args:?} {env:?}: {e}");
        assert!(
            !e.contains("--max-khz") || !says.starts_with("MaxKHz"),
            "{e}"
        );
        assert!(took.as_secs() < 20, "{args:?}: {took:?}");
        assert!(!log.exists(), "{args:?}: a log was written");
    }
    // --help and --version are not errors.
    assert_eq!(bb(&["run", "--help"]).status.code(), Some(0));
}

#[test]
fn an_existing_output_is_never_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("earlier.json");
    std::fs::write(&out, "earlier result").unwrap();
    let (o, _) = run_refused(&["--no-store", "-o", p(&out)], &[]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains("already exists"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier result");
    // A directory that is not there is said before the run too.
    let (o, _) = run_refused(&["--no-store", "-o", p(&dir.path().join("no/x.json"))], &[]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    assert!(err(&o).contains("does not exist"), "{}", err(&o));
}

/// A database that cannot be written is an error before the run (exit 1), not a lost result
/// after it.
#[test]
fn a_database_that_cannot_be_written_is_found_before_the_run() {
    let (o, took) = run_refused(&["--db", "/proc/r.sqlite"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("cannot open the results database"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("--no-store"), "{}", err(&o));
    assert!(took.as_secs() < 20, "{took:?}");
}

/// `report` and `guide render` never write over a file they read, not even with --force; an
/// existing output needs --force.
#[test]
fn outputs_never_replace_their_input() {
    let dir = tempfile::tempdir().unwrap();
    // A document of our own: import a fixture log.
    let doc = dir.path().join("q.json");
    let made = imported_document(dir.path());
    std::fs::rename(&made, &doc).unwrap();
    let before = std::fs::read(&doc).unwrap();
    for force in [false, true] {
        let mut a = vec!["report", p(&doc), "--html", p(&doc)];
        if force {
            a.push("--force");
        }
        let o = bb(&a);
        assert_eq!(o.status.code(), Some(64), "{}", err(&o));
        assert!(err(&o).contains("also an input"), "{}", err(&o));
        let mut a = vec!["guide", "render", p(&doc), "-o", p(&doc)];
        if force {
            a.push("--force");
        }
        let o = bb(&a);
        assert_eq!(o.status.code(), Some(64), "{}", err(&o));
        assert!(err(&o).contains("also an input"), "{}", err(&o));
    }
    assert_eq!(std::fs::read(&doc).unwrap(), before);
    let html = dir.path().join("r.html");
    ok(&bb(&["report", p(&doc), "--html", p(&html)]));
    let o = bb(&["report", p(&doc), "--html", p(&html)]);
    assert_eq!(o.status.code(), Some(64), "{}", err(&o));
    ok(&bb(&["report", p(&doc), "--html", p(&html), "--force"]));
}

/// A file name that is not UTF-8 is a file name like any other: the run records its command
/// line and writes the log there (it used to panic after the whole run).
#[test]
fn a_log_path_that_is_not_utf8_is_written() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = testsupport::probe_root("rk3399");
    let log = dir.path().join(std::ffi::OsStr::from_bytes(b"x\xff.log"));
    let o = common::command()
        .env("HOME", dir.path())
        .arg("--sysroot")
        .arg(&root)
        .args([
            "run",
            "--quick",
            "--tiny-kernels",
            "--phases",
            "clock",
            "--no-idle-gate",
            "--no-store",
            "-q",
        ])
        .arg("--log")
        .arg(&log)
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 2)),
        "{:?}: {}",
        o.status,
        err(&o)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.trim_end().lines().last().unwrap().starts_with('|'),
        "{text}"
    );
}

/// `cat a.log b.log` of sbc-bench logs (no newline at their end) imports as two runs, each
/// with its own board; a log with binary data in its middle is refused, naming where.
#[test]
fn glued_logs_split_and_damaged_logs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut glued = std::fs::read(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    while glued.last() == Some(&b'\n') {
        glued.pop();
    }
    glued.extend(std::fs::read(sbc_bench_logs().join("3GmR.txt")).unwrap());
    let file = dir.path().join("glued.txt");
    std::fs::write(&file, &glued).unwrap();
    let o = bb(&[
        "import",
        "--no-store",
        "--out",
        p(&dir.path().join("o")),
        p(&file),
    ]);
    ok(&o);
    assert!(err(&o).contains("holds 2 sbc-bench logs"), "{}", err(&o));

    let log = std::fs::read(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let mid = log.len() / 2;
    let mut damaged = log[..mid].to_vec();
    damaged.extend((0..3072u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8));
    damaged.extend(&log[mid..]);
    let file = dir.path().join("damaged.txt");
    std::fs::write(&file, &damaged).unwrap();
    let o = bb(&[
        "import",
        "--no-store",
        "--out",
        p(&dir.path().join("d")),
        p(&file),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("binary data at byte"), "{}", err(&o));
}

/// What `results add` stores, `report` can read back: a document whose date is a number is
/// refused on the way in (it used to be stored, then refused by every reader).
#[test]
fn results_add_refuses_what_readers_would_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let made = imported_document(dir.path());
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&made).unwrap()).unwrap();
    v["started"] = serde_json::json!(12345);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    // The reader refuses it …
    let o = bb(&["report", p(&bad), "--html", "-"]);
    assert_ne!(o.status.code(), Some(0));
    // … and so does the store, storing nothing.
    let db = dir.path().join("r.sqlite");
    let o = bb(&["results", "add", "--db", p(&db), p(&bad)]);
    assert_ne!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("does not read as a result document"),
        "{}",
        err(&o)
    );
    ok(&bb(&["results", "add", "--db", p(&db), p(&made)]));
    let list = ok(&bb(&["results", "list", "--db", p(&db), "--json"]));
    let runs: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 1, "{list}");
}

/// `report` refuses to draw what the database would refuse to store: a negative bandwidth.
#[test]
fn report_refuses_impossible_values() {
    let dir = tempfile::tempdir().unwrap();
    let made = imported_document(dir.path());
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&made).unwrap()).unwrap();
    let ms = v["measurements"].as_array_mut().unwrap();
    let i = ms
        .iter()
        .position(|m| m["unit"] == "MB/s")
        .expect("a bandwidth");
    ms[i]["value"] = serde_json::json!(-5000.0);
    let bad = dir.path().join("neg.json");
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let o = bb(&["report", p(&bad), "--html", "-"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("is negative"), "{}", err(&o));
    assert!(o.stdout.is_empty());
}

// ---- issue 47: one answer to a bad value, nothing lost at the end ----

/// Exit 64 and clap's one error form (`error: invalid value …`) or boardbench's usage line.
fn usage(o: &Output) -> String {
    let e = err(o);
    assert_eq!(o.status.code(), Some(64), "stderr: {e}");
    assert!(!e.contains("panicked"), "{e}");
    e
}

#[test]
fn bad_values_of_every_command_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    for args in [
        &["sha256", "-i", "abc"][..],
        &["sha256", "-s", "0"],
        &["clock", "--cpu", "abc"],
        &["membw", "--cpu", "abc"],
        &["clock", "--samples", "0"],
        &["membw", "--samples", "0"],
        &["membw", "--size", "0"],
        &["membw", "--size", "abc"],
        &["membw", "--size", "99999999999999999999G"],
        &["graph", "--clock-samples", "0"],
        &["graph", "--seconds-per-point", "0"],
        &["graph", "--cpus", "abc"],
        &[
            "guide",
            "--sections",
            "bogus",
            "--no-idle-gate",
            "--no-store",
        ],
        &["upload", "notaurl", "--dry-run"],
        &["thermal", "--duration", "1e30"],
        &["thermal", "--target-temp", "500"],
        &["thermal", "--interval", "0"],
        &["run", "--idle-window", "1e30"],
        &["run", "--idle-timeout", "1e30"],
        &["env", "--idle-timeout", "1e30", "--for", "geekbench"],
        &["guide", "--idle-window", "1e30"],
        &["review", "--idle-timeout", "1e30"],
        &["results", "list", "--db", ""],
        &["report", "1", "--db", "", "--html", "-"],
        &[
            "run",
            "--db",
            ":memory:",
            "--no-idle-gate",
            "--log",
            "/dev/null",
        ],
        &[
            "run",
            "--db",
            "sqlite::memory:",
            "--no-idle-gate",
            "--log",
            "/dev/null",
        ],
        &["import", "--db", ":memory:", "/dev/null"],
    ] {
        let o = bb(args);
        let e = usage(&o);
        assert!(!e.contains("stored as run"), "{args:?}: {e}");
    }
    let _ = db;
    let db = db_with(dir.path(), &["1BsF.txt"]);
    let o = bb(&["results", "table", "--db", p(&db), "--sort", "bogus"]);
    assert!(usage(&o).contains("--sort"));
}

#[test]
fn a_cpuinfo_file_that_is_no_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        dir.path().to_str().unwrap(),
        "/dev/zero",
        "/no/such/cpuinfo",
    ] {
        let o = testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench"))
            .env("CPUINFOFILE", bad)
            .arg("info")
            .output()
            .unwrap();
        // The message names where the value came from.
        assert!(usage(&o).contains("CPUINFOFILE"), "{}", err(&o));
        let o = bb(&["info", "--cpuinfo-file", bad]);
        usage(&o);
    }
}

#[test]
fn the_log_the_database_and_the_output_are_never_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_with(dir.path(), &["1BsF.txt"]);
    let before = std::fs::read(&db).unwrap();
    let same = dir.path().join("same.txt");
    for args in [
        vec!["report", "1", "--db", p(&db), "--html", p(&db), "--force"],
        vec![
            "run",
            "--no-idle-gate",
            "-o",
            p(&db),
            "--force",
            "--db",
            p(&db),
            "--log",
            "/dev/null",
        ],
        vec!["run", "--no-idle-gate", "--log", p(&db), "--db", p(&db)],
        vec![
            "run",
            "--no-idle-gate",
            "--no-store",
            "-o",
            p(&same),
            "--log",
            p(&same),
        ],
    ] {
        let o = bb(&args);
        usage(&o);
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the database was changed"
    );
    assert!(!same.exists());
    // import --out . --force never replaces the log it reads.
    let log = dir.path().join("1BsF.json");
    std::fs::copy(sbc_bench_logs().join("1BsF.txt"), &log).unwrap();
    let text = std::fs::read(&log).unwrap();
    let o = bb(&[
        "import",
        "--no-store",
        "--out",
        p(dir.path()),
        "--force",
        p(&log),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("also an input"), "{}", err(&o));
    assert_eq!(std::fs::read(&log).unwrap(), text);
}

#[test]
fn a_log_that_takes_no_log_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    for log in ["/dev/full", "/proc/version"] {
        let t = std::time::Instant::now();
        let o = bb(&["run", "--no-idle-gate", "--no-store", "--log", log]);
        usage(&o);
        assert!(t.elapsed().as_secs() < 10);
    }
    // A missing directory is refused as -o refuses one, and not created.
    let missing = dir.path().join("no/such/run.log");
    usage(&bb(&[
        "run",
        "--no-idle-gate",
        "--no-store",
        "--log",
        p(&missing),
    ]));
    let db = dir.path().join("nodir/r.sqlite");
    usage(&bb(&[
        "run",
        "--no-idle-gate",
        "--db",
        p(&db),
        "--log",
        "/dev/null",
    ]));
    assert!(!dir.path().join("no").exists() && !dir.path().join("nodir").exists());
    // thermal checks its --log before the test, as run does.
    let t = std::time::Instant::now();
    usage(&bb(&[
        "thermal",
        "--no-store",
        "--duration",
        "60",
        "--log",
        "/dev/full",
    ]));
    assert!(t.elapsed().as_secs() < 10);
}

#[test]
fn import_refuses_an_empty_tag_as_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let log = sbc_bench_logs().join("1BsF.txt");
    usage(&bb(&["import", "--db", p(&db), "--tag", "", p(&log)]));
    usage(&bb(&[
        "run",
        "--no-idle-gate",
        "--db",
        p(&db),
        "--tag",
        "",
        "--log",
        "/dev/null",
    ]));
}

#[test]
fn without_home_there_is_no_default_database() {
    // Root's default is /var/lib/boardbench, HOME or not.
    let root = std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"));
    if root {
        eprintln!("skipped as root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let o = testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench"))
        .env_remove("HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("BOARDBENCH_DB")
        .current_dir(dir.path())
        .args(["results", "list"])
        .output()
        .unwrap();
    assert!(usage(&o).contains("HOME"), "{}", err(&o));
    assert!(!dir.path().join("results.sqlite").exists());
}

/// An imported device name with ANSI colour or U+202E is never printed raw by `import`,
/// `results list` or `results show`.
#[test]
fn control_characters_of_a_document_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sbc_bench_logs().join("1BsF.txt")).unwrap();
    let hostile = "\u{1b}[31mEvil\u{1b}[0m \u{202e}B8 ledoM\u{7}";
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // The device is read from the header line ("sbc-bench vX DEVICE (date)").
    let h = &lines[0];
    let (ver, rest) = h.split_at(h.find(' ').unwrap() + 1);
    let (v, _) = rest.split_at(rest.find(' ').unwrap() + 1);
    let date = &h[h.rfind(" (").unwrap()..];
    lines[0] = format!("{ver}{v}{hostile}{date}");
    let log = dir.path().join("hostile.txt");
    std::fs::write(&log, lines.join("\n")).unwrap();
    let db = dir.path().join("r.sqlite");
    let raw = |s: &str| s.contains('\u{1b}') || s.contains('\u{202e}') || s.contains('\u{7}');
    let o = bb(&[
        "import",
        "--db",
        p(&db),
        "--out",
        p(&dir.path().join("o")),
        p(&log),
    ]);
    let out = ok(&o);
    assert!(!raw(&out) && !raw(&err(&o)), "{out:?}");
    let list = ok(&bb(&["results", "list", "--db", p(&db)]));
    assert!(!raw(&list), "{list:?}");
    assert!(list.contains("Evil"), "{list:?}");
    let show = ok(&bb(&["results", "show", "1", "--db", p(&db)]));
    assert!(!raw(&show), "{show:?}");
}

/// Glued pre-v0.4 logs (no header line) are two runs; a log behind a UTF-8 BOM is one.
#[test]
fn headerless_glued_logs_and_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let a = std::fs::read(sbc_bench_logs().join("1isD.txt")).unwrap();
    let b = std::fs::read(sbc_bench_logs().join("1ixi.txt")).unwrap();
    let glued = dir.path().join("glued.txt");
    std::fs::write(&glued, [&a[..], &b[..]].concat()).unwrap();
    let o = bb(&[
        "import",
        "--no-store",
        "--out",
        p(&dir.path().join("g")),
        p(&glued),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("holds 2 sbc-bench logs"), "{}", err(&o));
    let bom = dir.path().join("bom.txt");
    let one = std::fs::read(sbc_bench_logs().join("1BsF.txt")).unwrap();
    std::fs::write(&bom, [&b"\xef\xbb\xbf"[..], &one[..]].concat()).unwrap();
    let o = bb(&["import", "--no-store", p(&bom)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(!err(&o).contains("logs"), "{}", err(&o));
}
