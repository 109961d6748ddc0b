//! `boardbench schema`: the JSON Schema of the result document, generated from the very types
//! that are serialised, so it cannot drift from what `run`, `import` and `results` write.
//! Tests validate every document they produce against it.

use std::io::Write;

use crate::cli::Globals;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args, _g: &Globals) -> anyhow::Result<i32> {
    writeln!(
        std::io::stdout().lock(),
        "{}",
        serde_json::to_string_pretty(&schema())?
    )?;
    Ok(0)
}

/// The schema as a JSON value (draft 2020-12).
pub fn schema() -> serde_json::Value {
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
    s
}
