//! A fresh database on the PostgreSQL test server (`scripts/pg-test-server start` prints the
//! URL to put into `BOARDBENCH_TEST_PG_URL`).

/// A fresh, empty database `bb_{prefix}_{pid}` on the test server and its URL, or `None` with a
/// note on stderr (the test skips): under emulation, or when `BOARDBENCH_TEST_PG_URL` is unset.
pub fn fresh_db(prefix: &str) -> Option<String> {
    if crate::emulated() {
        eprintln!("skipped: PostgreSQL tests do not run under emulation");
        return None;
    }
    let Ok(url) = std::env::var("BOARDBENCH_TEST_PG_URL") else {
        eprintln!("skipped: BOARDBENCH_TEST_PG_URL is not set (see scripts/pg-test-server)");
        return None;
    };
    let db = format!("bb_{prefix}_{}", std::process::id());
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect test server");
    // One statement per call: a multi-statement string is one implicit transaction.
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
        .expect("drop old test database");
    c.batch_execute(&format!("CREATE DATABASE {db}"))
        .expect("create test database");
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    Some(format!("{base}/{db}"))
}
