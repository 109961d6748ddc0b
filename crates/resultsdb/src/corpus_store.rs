//! Where `boardbench corpus update` keeps a newer sbc-bench Results.md, and the corpus in use.
//!
//! The stored corpus lives beside the default results database: `<data dir>/corpus/Results.md`
//! with `<data dir>/corpus/source.txt` (two lines: the source in words, the date) — the data
//! dir is /var/lib/boardbench for root, else `$XDG_DATA_HOME/boardbench` or
//! `~/.local/share/boardbench` ([`crate::location::default_path`]'s rule).
//! `BOARDBENCH_CORPUS_DIR` names another directory. Without a stored corpus the built-in one
//! (`corpus::corpus()`, sbc-bench v0.9.72) is used; `corpus reset` removes the stored one.
//! The licence notice is written beside the data (`LICENSE.sbc-bench`).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use corpus::Corpus;

const PAGE: &str = "Results.md";
const SOURCE: &str = "source.txt";
const NOTICE: &str = "LICENSE.sbc-bench";

/// The directory of the stored corpus: `BOARDBENCH_CORPUS_DIR`, else beside the default
/// results database.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("BOARDBENCH_CORPUS_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let db = match crate::Location::default_sqlite() {
        crate::Location::Sqlite(p) => p,
        crate::Location::Postgres(_) => PathBuf::from("results.sqlite"),
    };
    db.parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
        .join("corpus")
}

/// The stored corpus in `dir`, `Ok(None)` when there is none.
pub fn load(dir: &Path) -> Result<Option<Corpus>, String> {
    let page = dir.join(PAGE);
    let text = match std::fs::read_to_string(&page) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", page.display())),
    };
    let meta = std::fs::read_to_string(dir.join(SOURCE)).unwrap_or_default();
    let mut lines = meta.lines();
    let source = lines
        .next()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(corpus::UNKNOWN_SOURCE);
    let date = lines
        .next()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(corpus::UNKNOWN_DATE);
    Corpus::from_markdown(&text)
        .map(|c| Some(c.with_provenance(source, date)))
        .map_err(|e| format!("{}: {e}", page.display()))
}

/// Store a page (already parsed as `parsed`) in `dir`, with its provenance and the licence
/// notice. Returns the page's path.
pub fn save(dir: &Path, text: &str, parsed: &Corpus) -> Result<PathBuf, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let page = dir.join(PAGE);
    let tmp = dir.join(".Results.md.tmp");
    std::fs::write(&tmp, text).map_err(|e| err(&tmp, e))?;
    let src = dir.join(SOURCE);
    std::fs::write(&src, format!("{}\n{}\n", parsed.source, parsed.date))
        .map_err(|e| err(&src, e))?;
    let notice = dir.join(NOTICE);
    std::fs::write(&notice, corpus::LICENSE).map_err(|e| err(&notice, e))?;
    std::fs::rename(&tmp, &page).map_err(|e| err(&page, e))?;
    Ok(page)
}

/// Remove the stored corpus (the built-in one is used again). True when there was one.
pub fn reset(dir: &Path) -> Result<bool, String> {
    let page = dir.join(PAGE);
    if !page.exists() {
        return Ok(false);
    }
    for f in [PAGE, SOURCE, NOTICE] {
        let p = dir.join(f);
        if p.exists() {
            std::fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    Ok(true)
}

/// The corpus in use: the stored one in `dir` if there is one and it parses, else the
/// built-in one. The string says which (and why, when a stored one could not be read).
pub fn active(dir: &Path) -> (Cow<'static, Corpus>, String) {
    match load(dir) {
        Ok(Some(c)) => (
            Cow::Owned(c),
            format!("stored by `boardbench corpus update` in {}", dir.display()),
        ),
        Ok(None) => (Cow::Borrowed(corpus::corpus()), "built in".to_string()),
        Err(e) => (
            Cow::Borrowed(corpus::corpus()),
            format!("built in (the stored corpus could not be read: {e})"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_load_reset_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("corpus");
        assert_eq!(load(&d).unwrap(), None);
        assert_eq!(active(&d).1, "built in");
        let c = Corpus::from_markdown(corpus::RESULTS_MD)
            .unwrap()
            .with_provenance("test page", "2026-11-26");
        save(&d, corpus::RESULTS_MD, &c).unwrap();
        let back = load(&d).unwrap().unwrap();
        assert_eq!(back.source, "test page");
        assert_eq!(back.date, "2026-11-26");
        assert_eq!(back.entries.len(), c.entries.len());
        assert!(active(&d).1.starts_with("stored"));
        assert!(d.join(NOTICE).exists());
        std::fs::write(d.join(PAGE), "no table here").unwrap();
        assert!(active(&d).1.contains("could not be read"));
        assert!(reset(&d).unwrap());
        assert!(!reset(&d).unwrap());
        assert_eq!(active(&d).1, "built in");
    }
}
