//! The commands' way to the one finisher (`finish::finish`): with the corpus the user's
//! commands place against (the one `corpus update` stored, else the built-in one).

use std::borrow::Cow;

use document::ResultDocument;

/// The active reference corpus (read once per call; commands that finish many documents keep it).
pub fn reference() -> Cow<'static, corpus::Corpus> {
    resultsdb::corpus_store::active(&resultsdb::corpus_store::default_dir()).0
}

/// Completes a document with the active corpus.
pub fn finish(doc: &mut ResultDocument) -> finish::Change {
    finish::finish(doc, &reference())
}
