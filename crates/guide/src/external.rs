//! The part the external-tool sections (CoreMark, CoreMark-Pro, NBench) share: find the program
//! on PATH under one of its usual names, run it with its output and CPU time captured, and turn
//! "not installed" into a skipped section with the reason.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use adapters::{SearchPath, Tool};

use crate::Context;
use crate::child_cpu::{self, ChildRun};

/// Looks the tool up in `$PATH` (plus Debian's games directories); `Err` is the skip reason.
pub fn find(family: &str, candidates: &[&str]) -> Result<Tool, String> {
    SearchPath::from_env()
        .find(family, candidates)
        .map_err(|s| s.reason)
}

/// Runs `tool args…` in `dir` (the tool's own directory when None: NBench reads its data
/// files from the working directory), restricted to `cpus`.
pub fn run(
    ctx: &Context,
    tool: &Tool,
    args: &[&str],
    dir: Option<&Path>,
    cpus: &[u32],
    limit: Duration,
) -> Result<ChildRun, String> {
    let mut cmd = Command::new(&tool.path);
    cmd.args(args);
    if let Some(d) = dir.or_else(|| tool.path.parent()) {
        cmd.current_dir(d);
    }
    let r = child_cpu::run(&mut cmd, Some(cpus), limit, &|| ctx.cancelled())
        .map_err(|e| format!("cannot run {}: {e}", tool.path.display()))?;
    if r.killed && !ctx.cancelled() {
        return Err(format!(
            "{} did not finish within {} s",
            tool.name,
            limit.as_secs()
        ));
    }
    Ok(r)
}

/// stdout followed by stderr.
pub fn combined(r: &ChildRun) -> String {
    format!("{}{}", r.stdout, r.stderr)
}
