//! The service's program, `boardbench-serve` (a package of its own, so that the board binary
//! carries no web server): its version names the build and the glibc floor as the board
//! binary's does, its man page is its own, and upload tokens are made, listed and revoked in a
//! SQLite database. The HTTP API and pages are tested end to end, with the board binary's
//! `upload` and `results`, in crates/boardbench/tests/serve_*.rs and upload_serve.rs — which find
//! this program beside the board binary (cargo builds it for these tests).

use std::process::Output;

fn serve(args: &[&str]) -> Output {
    testsupport::cli::command(env!("CARGO_BIN_EXE_boardbench-serve"))
        .args(args)
        .output()
        .expect("boardbench-serve starts")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "{:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn version_names_the_build_and_the_glibc_floor() {
    let long = stdout(&serve(&["--version"]));
    let lines: Vec<&str> = long.lines().collect();
    let want = format!("boardbench-serve {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(lines.first(), Some(&want.as_str()), "{long}");
    assert!(
        lines
            .get(1)
            .is_some_and(|l| l.starts_with("build: ") && l.contains(" profile, git ")),
        "{long}"
    );
    assert!(
        lines.get(2).is_some_and(|l| l.starts_with("glibc: ")),
        "{long}"
    );
}

#[test]
fn man_page_is_the_services() {
    // roff writes a literal hyphen as `\-`.
    let page = stdout(&serve(&["manpage"])).replace("\\-", "-");
    assert!(page.contains(".TH boardbench-serve 1"), "{page}");
    assert!(page.contains("--max-upload"), "{page}");
}

#[test]
fn tokens_are_added_listed_and_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let token = stdout(&serve(&["--db", db, "token", "add", "lab"]));
    assert!(token.trim().starts_with("bbt_"), "{token}");
    let list = stdout(&serve(&["--db", db, "token", "list", "--json"]));
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["uploader"], "lab", "{list}");
    assert_eq!(list[0]["active_tokens"], 1, "{list}");
    assert!(stdout(&serve(&["--db", db, "token", "revoke", "lab"])).contains("revoked 1 token"));
    // Nothing left to revoke: exit status 1.
    let again = serve(&["--db", db, "token", "revoke", "lab"]);
    assert_eq!(again.status.code(), Some(1), "{again:?}");
}
