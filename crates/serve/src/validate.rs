//! Uploads are checked against the result document's JSON Schema (generated from the document
//! types, as `boardbench schema` prints it) before anything else: a document this version
//! cannot render or compare is refused with 422 and the schema's own words.

use std::sync::OnceLock;

/// The compiled validator (built once).
fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let schema = schemars::schema_for!(document::ResultDocument).to_value();
        jsonschema::validator_for(&schema).expect("the document schema compiles")
    })
}

/// An upload's body as a document this service stores, or why not (a 422's message): JSON
/// without a repeated key in any object, no U+0000 anywhere (PostgreSQL's text cannot hold it,
/// so neither database stores it: the same answer on both), only the document's own top-level
/// fields, and valid against the schema.
pub fn parse_upload(body: &[u8]) -> Result<serde_json::Value, String> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_slice(body);
    let count = std::cell::Cell::new(0);
    let doc = StrictValue { count: &count }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            if count.get() > MAX_VALUES {
                format!(
                    "the document has more than {MAX_VALUES} JSON values (fields, array items \
                     and scalars, at any depth); a result document has far fewer"
                )
            } else {
                format!("not JSON: {e}")
            }
        })?;
    if let Some(at) = nul_at(&doc, String::new()) {
        return Err(format!(
            "a string contains U+0000 (NUL), which no result document has, at {at}"
        ));
    }
    if let Some(obj) = doc.as_object() {
        let known = top_level_fields();
        let unknown: Vec<&str> = obj
            .keys()
            .map(String::as_str)
            .filter(|k| !known.iter().any(|f| f == k))
            .take(5)
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "unknown top-level field(s) {}: a result document has only {}",
                unknown.join(", "),
                known.join(", ")
            ));
        }
    }
    check(&doc)?;
    for field in ["started", "finished"] {
        if let Some(t) = doc.get(field).and_then(|v| v.as_str()) {
            resultsdb::filter::check_time(t).map_err(|why| format!("{why} at /{field}"))?;
        }
    }
    Ok(doc)
}

/// The top-level fields the document schema names.
fn top_level_fields() -> &'static [String] {
    static F: OnceLock<Vec<String>> = OnceLock::new();
    F.get_or_init(|| {
        let schema = schemars::schema_for!(document::ResultDocument).to_value();
        schema["properties"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    })
}

/// The JSON Pointer of the first string (or key) holding U+0000.
fn nul_at(v: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    let here = || {
        if at.is_empty() {
            "/".to_string()
        } else {
            at.clone()
        }
    };
    match v {
        Value::String(s) if s.contains('\0') => Some(here()),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| nul_at(x, format!("{at}/{i}"))),
        Value::Object(o) => o.iter().find_map(|(k, x)| {
            let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
            if k.contains('\0') {
                Some(p)
            } else {
                nul_at(x, p)
            }
        }),
        _ => None,
    }
}

/// Most JSON values (every object, array, string, number, boolean and null, at any depth) an
/// upload may hold. A long run with every monitor series has about a tenth of this; the limit
/// bounds what one upload — and a compare of the largest stored runs — holds in memory, whatever
/// its fields are called (unknown fields below the top level included), and reading stops at
/// it rather than after the whole body was built.
pub const MAX_VALUES: usize = 400_000;

/// A JSON value, refusing an object that names a key twice (serde_json keeps the last one
/// silently, so what is stored would not be what was sent) and more than [`MAX_VALUES`] values
/// in all (`count`).
#[derive(Clone, Copy)]
struct StrictValue<'c> {
    count: &'c std::cell::Cell<usize>,
}

impl<'de> serde::de::DeserializeSeed<'de> for StrictValue<'_> {
    type Value = serde_json::Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.count.set(self.count.get() + 1);
        if self.count.get() > MAX_VALUES {
            return Err(serde::de::Error::custom("too many values"));
        }
        d.deserialize_any(StrictVisitor { seed: self })
    }
}

struct StrictVisitor<'c> {
    seed: StrictValue<'c>,
}

impl<'de> serde::de::Visitor<'de> for StrictVisitor<'_> {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = a.next_element_seed(self.seed)? {
            v.push(x);
        }
        Ok(serde_json::Value::Array(v))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(k) = a.next_key::<String>()? {
            let v = a.next_value_seed(self.seed)?;
            if m.insert(k.clone(), v).is_some() {
                return Err(serde::de::Error::custom(format!(
                    "the key {k:?} appears twice"
                )));
            }
        }
        Ok(serde_json::Value::Object(m))
    }
}

/// Longest schema message echoed, in characters: the validator's words quote the offending
/// value whole (a 23 KB object under `anyOf`), which says nothing more than its path does.
const MAX_MESSAGE_CHARS: usize = 300;

fn short(m: &str) -> String {
    if m.chars().count() <= MAX_MESSAGE_CHARS {
        return m.to_string();
    }
    let head: String = m.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{head}… ({} characters in all)", m.chars().count())
}

/// `Err` with up to five schema violations, each with where it is.
pub fn check(doc: &serde_json::Value) -> Result<(), String> {
    let errors: Vec<String> = validator()
        .iter_errors(doc)
        .take(5)
        .map(|e| {
            let at = e.instance_path().to_string();
            format!(
                "{} at {}",
                short(&e.to_string()),
                if at.is_empty() { "/" } else { &at }
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("schema violation: {}", errors.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn demo_document_is_valid_and_garbage_is_not() {
        let doc = serde_json::to_value(testsupport::demo::run_document()).unwrap();
        super::check(&doc).unwrap();
        let e = super::check(&serde_json::json!({"schema_version": "x"})).unwrap_err();
        assert!(e.contains("schema violation"), "{e}");
    }

    fn demo() -> serde_json::Value {
        serde_json::to_value(testsupport::demo::run_document()).unwrap()
    }

    #[test]
    fn an_upload_is_the_document_that_was_sent() {
        let doc = demo();
        let back = super::parse_upload(&serde_json::to_vec(&doc).unwrap()).unwrap();
        assert_eq!(back, doc);
        // Floats come back to the bit (serde_json's float_roundtrip), as a client hashed them.
        use serde::de::DeserializeSeed;
        let text = "[0.30000000000000004, 1.7976931348623157e308, 5e-324, 6.103515625e-05, 2.2250738585072014e-308]";
        let mut de = serde_json::Deserializer::from_str(text);
        let count = std::cell::Cell::new(0);
        let v = super::StrictValue { count: &count }
            .deserialize(&mut de)
            .unwrap();
        let want: Vec<f64> = text[1..text.len() - 1]
            .split(", ")
            .map(|x| x.parse().unwrap())
            .collect();
        let got: Vec<u64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap().to_bits())
            .collect();
        assert_eq!(got, want.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }

    #[test]
    fn repeated_keys_nul_unknown_fields_and_schema_violations_are_refused_with_where() {
        let doc = demo();
        let text = serde_json::to_string(&doc).unwrap();
        let twice = text.replacen('{', "{\"producer\":\"x\",", 1);
        let e = super::parse_upload(twice.as_bytes()).unwrap_err();
        assert!(e.contains("\"producer\" appears twice"), "{e}");

        let mut d = doc.clone();
        d["producer"] = "boardbench\u{0}".into();
        let e = super::parse_upload(&serde_json::to_vec(&d).unwrap()).unwrap_err();
        assert!(e.contains("U+0000") && e.contains("at /producer"), "{e}");

        let mut d = doc.clone();
        d["padding"] = serde_json::json!([1, 2, 3]);
        let e = super::parse_upload(&serde_json::to_vec(&d).unwrap()).unwrap_err();
        assert!(e.contains("unknown top-level field(s) padding"), "{e}");

        let mut d = doc.clone();
        d["started"] = serde_json::json!(12);
        let e = super::parse_upload(&serde_json::to_vec(&d).unwrap()).unwrap_err();
        assert!(
            e.contains("schema violation") && e.contains("at /started"),
            "{e}"
        );

        assert!(super::parse_upload(b"{} trailing").is_err());

        let mut d = doc.clone();
        d["started"] = "not a date".into();
        let e = super::parse_upload(&serde_json::to_vec(&d).unwrap()).unwrap_err();
        assert!(e.contains("at /started"), "{e}");
    }
}
