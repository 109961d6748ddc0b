//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

pub fn data_path(name: &str) -> PathBuf {
    data_dir().join(name)
}

/// A recorded output from tests/data.
pub fn data(name: &str) -> String {
    let p = data_path(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every recorded output (for the never-panic tests).
pub fn all_data() -> Vec<String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}
