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
