//! What the CLI tests share.

use std::process::Command;

/// The built boardbench binary. On foreign targets the tests run under qemu-user, and
/// scripts/test registers qemu with binfmt_misc (with QEMU_LD_PREFIX set), so the binary starts
/// like a native one. `Option` lets a test skip where it cannot start (kept for callers that
/// handle it).
pub fn boardbench_cmd() -> Option<Command> {
    Some(Command::new(env!("CARGO_BIN_EXE_boardbench")))
}
