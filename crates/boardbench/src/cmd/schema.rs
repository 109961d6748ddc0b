//! `boardbench schema`: the JSON Schema of the result document, generated from the very types
//! that are serialised, so it cannot drift from what `run`, `import` and `results` write.
//! Tests validate every document they produce against it. Generated at build time (build.rs,
//! with `document`'s `schema` feature) and embedded as text: the binary carries no schemars.

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

/// The schema's text as build.rs generated it (compact JSON).
const SCHEMA: &str = include_str!(concat!(env!("OUT_DIR"), "/result-document.schema.json"));

/// The schema as a JSON value (draft 2020-12).
pub fn schema() -> serde_json::Value {
    serde_json::from_str(SCHEMA).expect("build.rs wrote valid JSON")
}

#[cfg(test)]
mod tests {
    /// The embedded schema is what schemars derives from the document's types now.
    #[test]
    fn embedded_schema_is_the_derived_one() {
        let derived = schemars::schema_for!(document::ResultDocument).to_value();
        let mut embedded = super::schema();
        let id = embedded
            .as_object_mut()
            .and_then(|o| o.remove("$id"))
            .expect("an $id");
        assert_eq!(
            id,
            format!(
                "https://boardbench.invalid/schema/result-document-v{}.json",
                document::SCHEMA_VERSION
            )
        );
        assert_eq!(embedded, derived);
    }
}
