//! Takes the identity of a board and its network out of a result document before it is shared.
//!
//! A document carries text from the machine (kernel messages, tool output, imported sbc-bench
//! logs, the command line), and such text holds host names, IP and MAC addresses, filesystem
//! UUIDs and serial numbers of DMI, SD/eMMC cards and USB devices. `boardbench upload` sends
//! documents to a shared service, so every string of the document is scanned here and each
//! identifier is replaced by a `<kind:hash>` token: a salted SHA-256 prefix, so the same value
//! gives the same token on one machine (a lab can still tell that two runs came from the same
//! board or card) but the value cannot be looked up. The document records what was replaced
//! ([`document::redaction::Redaction`]).
//!
//! Three sources of identifiers, in this order of precedence:
//! - [`Redactor::with_known`] / [`local::identifiers`]: the values this machine really has (its
//!   host name, DMI serials, card CIDs, USB serials, MAC addresses, machine-id), replaced
//!   wherever they appear, even inside words of free text;
//! - [`keys`]: object fields whose name says what they hold (`hostname`, `*serial*`, `cid`,
//!   `mac_address`, `*uuid*` …): the whole value;
//! - [`text`]: patterns in every string (MAC and IP addresses, UUIDs, `SerialNumber: X`,
//!   `hostname=`, user names in home directories, passwords in URLs, `--token X` in a command
//!   line).
//!
//! Module map: [`kind`] the kinds and their tokens, [`text`] the scanner of one string,
//! [`keys`] the field names, [`walk`] the document walker and its record, [`local`] this
//! machine's identifiers through `probe::Root`.

pub mod keys;
pub mod kind;
pub mod local;
pub mod text;
pub mod walk;

pub use kind::Kind;

use document::ResultDocument;
use document::redaction::Redaction;

/// Replaces identifiers by salted tokens. Build one per upload (or per machine) and reuse it.
#[derive(Debug, Clone)]
pub struct Redactor {
    salt: Vec<u8>,
    known: text::Known,
}

impl Redactor {
    /// A redactor whose tokens are salted with `salt` (keep it secret and stable per machine:
    /// the same salt gives the same token for the same value).
    pub fn new(salt: &[u8]) -> Self {
        Redactor {
            salt: salt.to_vec(),
            known: text::Known::default(),
        }
    }

    /// Also replaces this literal value wherever it appears (a host name, a serial number).
    /// Values shorter than four characters (host names: two) and well-known defaults
    /// (`localhost`, `debian`, placeholder serials) identify nothing and are ignored; a host
    /// name under four characters is replaced only where it stands as a word of its own.
    pub fn with_known(mut self, kind: Kind, value: &str) -> Self {
        self.known.add(kind, value);
        self
    }

    /// [`Redactor::with_known`] for every identifier [`local::identifiers`] finds under `root`.
    pub fn with_local_identifiers(mut self, root: &probe::Root) -> Self {
        for (kind, value) in local::identifiers(root) {
            self.known.add(kind, &value);
        }
        self
    }

    /// The literal values this redactor replaces (for `upload --dry-run`'s summary: kinds only).
    pub fn known_kinds(&self) -> Vec<Kind> {
        self.known.kinds()
    }

    /// The token that replaces `value` of `kind`.
    pub fn token(&self, kind: Kind, value: &str) -> String {
        kind::token(&self.salt, kind, value)
    }

    /// One string with every identifier replaced; the hits say what was found.
    pub fn text(&self, s: &str) -> (String, Vec<text::Hit>) {
        text::redact(self, s)
    }

    /// The document with every identifier replaced and the record of it in `redaction`. A
    /// document redacted before keeps its tokens (they are not replaced again) and its record is
    /// merged, so redacting twice gives the same document. An error only if a replaced string
    /// no longer fits its field (no field of today's document parses its text).
    pub fn document(&self, doc: &ResultDocument) -> Result<ResultDocument, String> {
        let mut value = serde_json::to_value(doc).map_err(|e| e.to_string())?;
        let record = walk::redact_value(self, &mut value, doc.redaction.as_ref());
        let mut out: ResultDocument = serde_json::from_value(value)
            .map_err(|e| format!("the redacted document no longer reads back: {e}"))?;
        out.redaction = Some(record);
        Ok(out)
    }
}

/// The document unchanged except for a record saying identifiers were kept on purpose
/// (`upload --keep-identifiers`). A document that was redacted before keeps its record.
pub fn kept(doc: &ResultDocument) -> ResultDocument {
    let mut out = doc.clone();
    out.redaction.get_or_insert(Redaction {
        mode: "kept".into(),
        items: Vec::new(),
    });
    out
}
