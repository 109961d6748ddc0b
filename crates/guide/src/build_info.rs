//! How this binary's built-in methods were compiled, for the result document: C builds of the
//! same programs with other compilers and flags give other numbers, so a guide says which build
//! produced its figures. Filled in by the crate's build script.

use document::guide::GuideBuild;

/// Compiler, target, optimisation level and the target features the code was compiled with.
pub fn build_info() -> GuideBuild {
    let mut features: Vec<String> = env!("GUIDE_BUILD_FEATURES")
        .split(',')
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect();
    features.sort();
    GuideBuild {
        compiler: env!("GUIDE_BUILD_RUSTC").to_string(),
        target: env!("GUIDE_BUILD_TARGET").to_string(),
        flags: env!("GUIDE_BUILD_FLAGS").to_string(),
        target_features: features,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_is_recorded() {
        let b = super::build_info();
        assert!(b.compiler.starts_with("rustc"), "{b:?}");
        assert!(b.target.contains(std::env::consts::ARCH) || !b.target.is_empty());
        assert!(b.flags.contains("opt-level="));
    }
}
