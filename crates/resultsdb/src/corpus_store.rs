//! Where `boardbench corpus update` keeps a newer sbc-bench Results.md, and the corpus in use.
//!
//! The stored corpus lives beside the default results database: `<data dir>/corpus/Results.md`
//! with `<data dir>/corpus/source.txt` (two lines: the source in words, the date) — the data
//! dir is /var/lib/boardbench for root, else `$XDG_DATA_HOME/boardbench` or
//! `~/.local/share/boardbench` ([`crate::location::default_path`]'s rule).
//! `BOARDBENCH_CORPUS_DIR` names another directory. Without a stored corpus the built-in one
//! (`corpus::corpus()`, sbc-bench v0.9.72) is used; `corpus reset` removes the stored one.
//! The licence notice is written beside the data (`LICENSE.sbc-bench`).
//!
//! `corpus update` also takes the user's own runs — a boardbench results database (SQLite)
//! or the results service's table export (`GET /api/v1/table?format=json`) — as the *local
//! layer*, `<dir>/local.json` ([`corpus::LocalLayer`]): kept apart from the published rows
//! (every row marked `Mark::Local`), replaced as a whole by the next such update, listed by
//! `corpus show`, never used to place runs or judge outliers. [`Input::detect`] tells the
//! three inputs apart by their content, not their name.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use corpus::Corpus;

const PAGE: &str = "Results.md";
const SOURCE: &str = "source.txt";
const NOTICE: &str = "LICENSE.sbc-bench";
const LOCAL: &str = "local.json";

/// What `corpus update FILE` was given, told by its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A boardbench results database: an SQLite file ("SQLite format 3" header).
    Database,
    /// JSON: the service's table export (an array of table rows).
    ServiceExport,
    /// Anything else is read as sbc-bench's Results.md.
    ResultsMd,
}

impl Input {
    pub fn detect(path: &Path) -> Result<Input, String> {
        use std::io::Read;
        let mut head = [0u8; 16];
        let mut f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut n = 0;
        while n < head.len() {
            match f.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        let head = &head[..n];
        if head.starts_with(b"SQLite format 3\0") {
            return Ok(Input::Database);
        }
        let first = head
            .iter()
            .copied()
            .find(|b| !b.is_ascii_whitespace() && *b != 0xEF && *b != 0xBB && *b != 0xBF);
        Ok(match first {
            Some(b'[' | b'{') => Input::ServiceExport,
            _ => Input::ResultsMd,
        })
    }
}

/// The runs of a results database (opened read-only), with the figures marked not comparable
/// where the run's profile says so.
pub fn local_from_database(path: &Path, date: &str) -> Result<corpus::LocalLayer, String> {
    let loc = crate::Location::Sqlite(path.to_path_buf());
    let mut store =
        crate::Store::open_read(&loc).map_err(|e| format!("{}: {e}", path.display()))?;
    let listing = store
        .list(&crate::Filter::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let marks = crate::marks::load(&mut store);
    let runs = listing
        .into_iter()
        .map(|l| {
            let c = &l.columns;
            let h = &c.headline;
            corpus::LocalRun {
                key: format!("run {}", l.id),
                device: c.device.clone(),
                soc: c.soc.clone(),
                clock: c.clockspeed.clone(),
                kernel: c.kernel.clone(),
                distro: c.distro.clone(),
                arch: c.arch.clone(),
                figures: corpus::local::figures(
                    h.zip_multi,
                    h.zip_single,
                    h.aes,
                    h.memcpy,
                    h.memset,
                    h.khs,
                ),
                not_comparable: crate::marks::describe(&marks, l.id),
            }
        })
        .collect();
    Ok(corpus::LocalLayer {
        source: format!("results database {}", path.display()),
        date: date.to_string(),
        runs,
    })
}

/// The service's table export (`GET /api/v1/table?format=json`: an array of rows with `id`,
/// `device`, `soc`, `clockspeed`, `kernel`, `distro`, the six figures and `comparability`).
pub fn local_from_export(text: &str, name: &str, date: &str) -> Result<corpus::LocalLayer, String> {
    use serde_json::Value;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{name}: not JSON: {e}"))?;
    let Value::Array(rows) = v else {
        return Err(format!(
            "{name}: not the service's table export (an array of rows, as `GET /api/v1/table?format=json` returns it)"
        ));
    };
    let mut runs = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let Some(id) = r.get("id").and_then(Value::as_i64) else {
            return Err(format!(
                "{name}: row {} has no run id: not the service's table export (`GET /api/v1/table?format=json`)",
                i + 1
            ));
        };
        let s = |k: &str| {
            r.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        let f = |k: &str| r.get(k).and_then(Value::as_f64);
        let flags: Vec<document::run::FigureComparability> = r
            .get("comparability")
            .cloned()
            .and_then(|c| serde_json::from_value(c).ok())
            .unwrap_or_default();
        let mut marks = crate::marks::Marks::new();
        if !flags.is_empty() {
            marks.insert(id, flags);
        }
        runs.push(corpus::LocalRun {
            key: format!("run {id}"),
            device: s("device"),
            soc: s("soc"),
            clock: s("clockspeed"),
            kernel: s("kernel"),
            distro: s("distro"),
            arch: s("arch"),
            figures: corpus::local::figures(
                f("zip_multi"),
                f("zip_single"),
                f("aes"),
                f("memcpy"),
                f("memset"),
                f("khs"),
            ),
            not_comparable: crate::marks::describe(&marks, id),
        });
    }
    Ok(corpus::LocalLayer {
        source: format!("results service export {name}"),
        date: date.to_string(),
        runs,
    })
}

/// The stored local layer in `dir`, `Ok(None)` when there is none.
pub fn load_local(dir: &Path) -> Result<Option<corpus::LocalLayer>, String> {
    let p = dir.join(LOCAL);
    match std::fs::read_to_string(&p) {
        Ok(t) => serde_json::from_str(&t)
            .map(Some)
            .map_err(|e| format!("{}: {e}", p.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", p.display())),
    }
}

/// Store the local layer in `dir` (replacing the previous one). Returns its path.
pub fn save_local(dir: &Path, layer: &corpus::LocalLayer) -> Result<PathBuf, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let p = dir.join(LOCAL);
    let tmp = dir.join(".local.json.tmp");
    let text = serde_json::to_string_pretty(layer).map_err(|e| e.to_string())?;
    std::fs::write(&tmp, text).map_err(|e| err(&tmp, e))?;
    std::fs::rename(&tmp, &p).map_err(|e| err(&p, e))?;
    Ok(p)
}

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
/// The local layer (`local.json`) is removed too.
pub fn reset(dir: &Path) -> Result<bool, String> {
    let page = dir.join(PAGE);
    if !page.exists() && !dir.join(LOCAL).exists() {
        return Ok(false);
    }
    for f in [PAGE, SOURCE, NOTICE, LOCAL] {
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
