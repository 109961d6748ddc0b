//! What happens when standard output cannot be written — one rule for every command, applied
//! once around the whole command instead of in each of them.
//!
//! - The reader went away (`| head -1`, `| grep -q`, a closed pager): the command ends quietly
//!   with exit code 141 (128 + SIGPIPE, what coreutils and git give), no message. Not 0: a
//!   script with `set -o pipefail` should see that the output was cut short. Anything the
//!   command changed is restored first (the error or unwind passes through its guards).
//! - Any other write error (`> /dev/full`: no space left on the device): one line naming it on
//!   stderr, exit code 1.
//!
//! Rust ignores SIGPIPE, so a closed pipe is an EPIPE error from the write: `writeln!(…)?`
//! returns it (found here in the error's chain), and `println!` panics with "failed printing to
//! stdout" (caught here, its panic message silenced).

use std::io::Write;

/// Exit code after the reader of standard output went away.
pub const CLOSED_PIPE: i32 = 141;

/// Exit code of a usage error: an unknown option, a value out of range, contradictory options,
/// an output that would overwrite something — anything found before the command started
/// (sysexits.h's EX_USAGE). Not 2: 2 is "completed, but not to be trusted", which scripts and
/// the LAVA and Ansible integrations read as "a document was written".
pub const USAGE: i32 = 64;

/// A usage error found by a command itself (clap finds the others): printed as
/// `boardbench: MESSAGE` and exit code [`USAGE`].
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// `Err(Usage)` from text, for `?` in commands.
pub fn usage<T>(msg: impl Into<String>) -> anyhow::Result<T> {
    Err(Usage(msg.into()).into())
}

const PRINT_PANIC: &str = "failed printing to stdout: ";

/// Runs a command and turns output errors into the rule above; returns the exit code.
pub fn run(command: impl FnOnce() -> anyhow::Result<i32>) -> i32 {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info
            .payload_as_str()
            .is_some_and(|m| m.starts_with(PRINT_PANIC))
        {
            default_hook(info);
        }
    }));
    let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(command)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => return from_error(&e),
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("");
            match msg.strip_prefix(PRINT_PANIC) {
                Some(_) if msg.contains("os error 32") => return CLOSED_PIPE,
                Some(reason) => {
                    eprintln!("boardbench: cannot write standard output: {reason}");
                    return 1;
                }
                // Another panic: its message is printed already.
                None => return 101,
            }
        }
    };
    // What is still buffered must arrive too: a full disk noticed only here is still an error.
    match std::io::stdout().flush() {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => CLOSED_PIPE,
        Err(e) => {
            eprintln!("boardbench: cannot write standard output: {e}");
            1
        }
    }
}

/// The exit code for a command's error, printing it unless it is a closed pipe.
fn from_error(e: &anyhow::Error) -> i32 {
    // Write errors arrive as io::Error, or inside serde_json's error (`to_writer`).
    let io_kind = e
        .chain()
        .find_map(|c| match c.downcast_ref::<std::io::Error>() {
            Some(io) => Some(io.kind()),
            None => c.downcast_ref::<serde_json::Error>()?.io_error_kind(),
        });
    if io_kind == Some(std::io::ErrorKind::BrokenPipe) {
        return CLOSED_PIPE;
    }
    if let Some(u) = e.downcast_ref::<Usage>() {
        eprintln!("boardbench: {u}");
        return USAGE;
    }
    if io_kind.is_some() && e.chain().count() == 1 {
        // A bare write error says nothing about what was written.
        eprintln!("boardbench: cannot write the output: {e}");
    } else {
        eprintln!("boardbench: {e:#}");
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_pipe_is_quiet_and_full_disk_is_an_error() {
        let pipe = || -> anyhow::Result<i32> {
            Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe).into())
        };
        assert_eq!(run(pipe), CLOSED_PIPE);
        let full = || -> anyhow::Result<i32> { Err(std::io::Error::from_raw_os_error(28).into()) };
        assert_eq!(run(full), 1);
        assert_eq!(run(|| Ok(2)), 2);
        assert_eq!(run(|| usage("--phases: no kind membww")), USAGE);
    }
}
