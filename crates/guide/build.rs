//! Records how the guide's built-in methods were compiled (compiler version, target, opt-level,
//! target features): a Dhrystone or STREAM figure depends on them, so the result document says
//! which build produced it (`guide::build_info`).

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    println!("cargo:rustc-env=GUIDE_BUILD_RUSTC={version}");
    println!("cargo:rustc-env=GUIDE_BUILD_TARGET={}", env("TARGET"));
    println!(
        "cargo:rustc-env=GUIDE_BUILD_FLAGS=opt-level={} profile={}",
        env("OPT_LEVEL"),
        env("PROFILE")
    );
    println!(
        "cargo:rustc-env=GUIDE_BUILD_FEATURES={}",
        env("CARGO_CFG_TARGET_FEATURE")
    );
    println!("cargo:rerun-if-env-changed=RUSTC");
    println!("cargo:rerun-if-changed=build.rs");
}
