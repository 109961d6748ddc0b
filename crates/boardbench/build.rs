//! The board binary's build script: what `--version` says about the build (build_version.rs, the
//! results service's build script too) and the JSON Schema of the result document.
//!
//! The schema is generated here, on the build machine, from the very types that are serialised
//! (`document` with its `schema` feature, a build-dependency) and embedded as text: `boardbench
//! schema` prints it, and the binary carries neither schemars nor the derived schema code (issue
//! 23: about 0.4 MB). A change to a document type rebuilds `document` and so re-runs this script.

#[path = "build_version.rs"]
mod version;

fn main() {
    version::main();
    let mut s = schemars::schema_for!(document::ResultDocument).to_value();
    if let Some(o) = s.as_object_mut() {
        o.insert(
            "$id".into(),
            format!(
                "https://boardbench.invalid/schema/result-document-v{}.json",
                document::SCHEMA_VERSION
            )
            .into(),
        );
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(
        out.join("result-document.schema.json"),
        serde_json::to_string(&s).expect("a schema serialises"),
    )
    .expect("writing the schema into OUT_DIR");
    println!("cargo:rerun-if-changed=build.rs");
}
