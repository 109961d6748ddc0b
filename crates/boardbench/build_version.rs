//! What `boardbench --version` says about the build: the target, the profile, the git revision
//! and the glibc floor. The floor is what scripts/dist built for (`BOARDBENCH_GLIBC_FLOOR`, set
//! with cargo-zigbuild's `TRIPLE.2.17` targets and checked on the binary by scripts/check-glibc);
//! any other build needs the glibc of the machine it was linked on.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

/// The profile's name: Cargo's PROFILE says only "release" or "debug" (a custom profile such as
/// scripts/dist's `dist` inherits from one of them), but OUT_DIR lies in the profile's own
/// directory, `TARGET_DIR[/TRIPLE]/NAME/build/PACKAGE-HASH/out` ("debug" for the dev profile).
fn profile(out_dir: &str) -> Option<String> {
    let mut parts = Path::new(out_dir).components().rev().map(|c| c.as_os_str());
    let (_out, _pkg, build) = (parts.next()?, parts.next()?, parts.next()?);
    (build == "build")
        .then(|| parts.next())
        .flatten()
        .map(|n| n.to_string_lossy().into_owned())
}

pub fn main() {
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let dir = std::path::PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let rev = match std::env::var("BOARDBENCH_GIT_REV") {
        Ok(r) if !r.is_empty() => r,
        _ => git(&dir, &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into()),
    };
    // Rebuilt when HEAD moves (a commit, a checkout); the worktree's own HEAD and the shared refs.
    for p in [
        git(&dir, &["rev-parse", "--git-path", "HEAD"]),
        git(&dir, &["rev-parse", "--git-path", "refs/heads"]),
        git(&dir, &["rev-parse", "--git-path", "packed-refs"]),
    ]
    .into_iter()
    .flatten()
    {
        let p = if Path::new(&p).is_absolute() {
            p.into()
        } else {
            dir.join(&p)
        };
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    let floor = env("BOARDBENCH_GLIBC_FLOOR");
    let glibc = if floor.is_empty() {
        "glibc: the build machine's or newer (scripts/dist builds for 2.17, riscv64 2.27)"
            .to_string()
    } else {
        format!("glibc: {floor} or newer")
    };
    println!(
        "cargo:rustc-env=BOARDBENCH_BUILD=build: {}, {} profile, git {rev}",
        env("TARGET"),
        profile(&env("OUT_DIR")).unwrap_or_else(|| env("PROFILE"))
    );
    println!("cargo:rustc-env=BOARDBENCH_GLIBC={glibc}");
    println!("cargo:rerun-if-env-changed=BOARDBENCH_GLIBC_FLOOR");
    println!("cargo:rerun-if-env-changed=BOARDBENCH_GIT_REV");
    // This script is also the results service's (crates/serve: `build =
    // "../boardbench/build_version.rs"`; the board's build.rs includes it); a path relative to
    // either package's directory.
    println!("cargo:rerun-if-changed=../boardbench/build_version.rs");
}
