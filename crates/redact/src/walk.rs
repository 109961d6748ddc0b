//! Walks a document (as a JSON value) and redacts every string, keeping the record of what was
//! replaced where. Places are JSON pointers with array indices written `*`, so the record stays
//! short (`/imported/kmsg/*`) and does not change with the number of lines.

use std::collections::{BTreeMap, BTreeSet};

use document::redaction::{RedactedKind, Redaction};
use serde_json::Value;

use crate::Redactor;
use crate::keys;
use crate::kind::{Kind, is_token};

#[derive(Default)]
struct Tally {
    tokens: BTreeSet<String>,
    occurrences: u32,
    places: BTreeSet<String>,
}

#[derive(Default)]
struct Record {
    by_kind: BTreeMap<&'static str, Tally>,
}

impl Record {
    fn add(&mut self, kind: Kind, token: &str, place: &str) {
        let t = self.by_kind.entry(kind.name()).or_default();
        t.tokens.insert(token.to_string());
        t.occurrences += 1;
        t.places.insert(place.to_string());
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn walk(r: &Redactor, v: &mut Value, place: &str, key_kind: Option<Kind>, rec: &mut Record) {
    match v {
        Value::String(s) => {
            if s.is_empty() || is_token(s) {
                return;
            }
            if let Some(kind) = key_kind {
                let token = r.token(kind, s);
                rec.add(kind, &token, place);
                *s = token;
                return;
            }
            let (out, hits) = r.text(s);
            for h in &hits {
                rec.add(h.kind, &h.token, place);
            }
            *s = out;
        }
        Value::Array(items) => {
            let inner = format!("{place}/*");
            let mut secret_next = false;
            for item in items.iter_mut() {
                let kind = if secret_next {
                    Some(Kind::Credentials)
                } else {
                    key_kind
                };
                secret_next = item.as_str().is_some_and(keys::is_secret_flag);
                walk(r, item, &inner, kind, rec);
            }
        }
        Value::Object(map) => {
            for (k, item) in map.iter_mut() {
                let kind = keys::kind_of_key(k).or(key_kind);
                walk(r, item, &format!("{place}/{}", escape(k)), kind, rec);
            }
        }
        _ => {}
    }
}

/// Redacts `doc` (a serialised result document) in place, except its `redaction` field, and
/// returns the record, merged with `earlier` (the record of a previous redaction).
pub fn redact_value(r: &Redactor, doc: &mut Value, earlier: Option<&Redaction>) -> Redaction {
    let mut rec = Record::default();
    if let Value::Object(map) = doc {
        for (k, item) in map.iter_mut() {
            if k == "redaction" {
                continue;
            }
            let kind = keys::kind_of_key(k);
            walk(r, item, &format!("/{}", escape(k)), kind, &mut rec);
        }
    }
    let mut items: BTreeMap<String, RedactedKind> = BTreeMap::new();
    if let Some(e) = earlier.filter(|e| e.mode == "hashed") {
        for i in &e.items {
            items.insert(i.kind.clone(), i.clone());
        }
    }
    for (kind, t) in rec.by_kind {
        let e = items
            .entry(kind.to_string())
            .or_insert_with(|| RedactedKind {
                kind: kind.to_string(),
                ..Default::default()
            });
        e.distinct += t.tokens.len() as u32;
        e.occurrences += t.occurrences;
        let mut places: BTreeSet<String> = e.places.drain(..).collect();
        places.extend(t.places);
        e.places = places.into_iter().collect();
    }
    // In the order of Kind::ALL, so the record reads the same every time.
    let mut ordered: Vec<RedactedKind> = Vec::new();
    for k in Kind::ALL {
        if let Some(i) = items.remove(k.name()) {
            ordered.push(i);
        }
    }
    ordered.extend(items.into_values());
    Redaction {
        mode: "hashed".into(),
        items: ordered,
    }
}
