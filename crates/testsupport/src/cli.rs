//! The binary under test as a command that the environment does not point elsewhere: no
//! machine root (`BOARDBENCH_SYSROOT`), no foreign cpuinfo (`CPUINFOFILE`), no results
//! database (`BOARDBENCH_DB`), stdin closed (nothing waits on the terminal).
//!
//! The path comes from the test (`env!("CARGO_BIN_EXE_boardbench")` is only known where the
//! binary's own tests are compiled).

use std::ffi::OsStr;
use std::process::{Command, Stdio};

/// `bin` with nothing from the environment that chooses a machine or a database.
pub fn command(bin: impl AsRef<OsStr>) -> Command {
    let mut c = Command::new(bin);
    c.env_remove("BOARDBENCH_SYSROOT")
        .env_remove("CPUINFOFILE")
        .env_remove("BOARDBENCH_DB")
        .stdin(Stdio::null());
    c
}

/// The results service's program, `boardbench-serve`, built beside the board binary `board` (a
/// package of its own, crates/serve, so that the board binary has no web server). `boardbench
/// serve` hands over to the same file. Cargo builds it for `cargo test --workspace` (the service
/// package has integration tests of its own); a test of the board package alone needs it built
/// first, and says so rather than skip.
pub fn service_binary(board: impl AsRef<std::path::Path>) -> std::path::PathBuf {
    let serve = board.as_ref().with_file_name("boardbench-serve");
    assert!(
        serve.is_file(),
        "{} is not built: this test needs the results service beside the board binary; run \
         `cargo build -p boardbench-serve` (with the same --target) first, or `cargo test \
         --workspace`, which builds it",
        serve.display()
    );
    serve
}
