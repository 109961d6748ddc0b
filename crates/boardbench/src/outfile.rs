//! The one rule for every file a command writes (`run -o`, `report --html`, `guide render -o`,
//! `import --out` …):
//!
//! - **never an input**: a file the command reads or writes otherwise (the document `report`
//!   renders, the runs `guide render` takes, the results database, the log `run` appends to)
//!   is never its output, not even with `--force` — also before it exists;
//! - **never an existing file without `--force`**: an earlier result is not replaced silently;
//! - **checked before the work starts**: a directory that does not exist or cannot be written
//!   is said at once, not after a half-hour run;
//! - **whole or not at all**: the file is written under a temporary name beside it and renamed
//!   into place, so a full disk or a signal never leaves half a document.
//!
//! A refusal is a usage error (exit code 64, [`crate::output::Usage`]).

use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::output::Usage;

/// A file a command will write, checked by [`OutFile::check`].
#[derive(Debug, Clone)]
pub struct OutFile {
    path: PathBuf,
    force: bool,
    /// A device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe): written into as it is,
    /// never replaced (as root, a rename over `/dev/null` would break the system).
    stream: bool,
}

/// (device, inode) of an existing file.
fn identity(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// Whether `a` and `b` are the same file: the same inode when both exist, else the same name
/// in the same directory (`-o same.txt --log same.txt` before either exists).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (identity(a), identity(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => {
            let place = |p: &Path| {
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                Some((std::fs::canonicalize(dir).ok()?, p.file_name()?.to_owned()))
            };
            place(a).is_some_and(|x| place(b) == Some(x))
        }
        _ => false,
    }
}

impl OutFile {
    /// Checks `path` as an output of a command that reads `inputs`; `flag` names the option in
    /// messages (`-o`, `--html`).
    pub fn check(path: &Path, force: bool, inputs: &[&Path], flag: &str) -> Result<OutFile, Usage> {
        let shown = path.display();
        if path.as_os_str().is_empty() {
            return Err(Usage(format!("{flag}: an empty file name")));
        }
        if inputs.iter().any(|i| same_file(path, i)) {
            return Err(Usage(format!(
                "{flag} {shown} is also an input of this command: not overwriting it"
            )));
        }
        // Where a link points to is what is written (following it).
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(Usage(format!("{flag} {shown} is a directory")));
            }
            Ok(m) if !m.is_file() => {
                return Ok(OutFile {
                    path: path.to_path_buf(),
                    force,
                    stream: true,
                });
            }
            Ok(_) => {
                if !force {
                    return Err(Usage(format!(
                        "{shown} already exists (not overwritten; --force overwrites)"
                    )));
                }
                // A link to a regular file: the file is replaced, not the link.
                if let Ok(real) = std::fs::canonicalize(path) {
                    return Self::check_dir(real, force, flag);
                }
            }
            Err(_) => {}
        }
        match std::fs::symlink_metadata(path) {
            // A dangling link: not followed.
            Ok(_) if !force => {
                return Err(Usage(format!(
                    "{shown} already exists (not overwritten; --force overwrites)"
                )));
            }
            _ => {}
        }
        Self::check_dir(path.to_path_buf(), force, flag)
    }

    /// The directory of a file to be written whole: it exists and takes a new file.
    fn check_dir(path: PathBuf, force: bool, flag: &str) -> Result<OutFile, Usage> {
        let shown = path.display();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(Usage(format!(
                "{flag} {shown}: the directory {} does not exist",
                dir.display()
            )));
        }
        // Whether the directory takes a new file: the same temporary file the write uses.
        let probe = temp_name(&path);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
        {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
            }
            Err(e) => {
                return Err(Usage(format!("{flag} {shown}: cannot write there: {e}")));
            }
        }
        Ok(OutFile {
            path,
            force,
            stream: false,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the whole file: a temporary file beside it, synced, renamed into place. A file
    /// that appeared since the check is still not overwritten without `--force`.
    pub fn write(&self, bytes: &[u8]) -> anyhow::Result<()> {
        if self.stream {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&self.path)
                .with_context(|| format!("cannot write {}", self.path.display()))?;
            return f
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", self.path.display()));
        }
        if !self.force && std::fs::symlink_metadata(&self.path).is_ok() {
            anyhow::bail!(
                "{} already exists (not overwritten; --force overwrites)",
                self.path.display()
            );
        }
        let tmp = temp_name(&self.path);
        let result = (|| -> std::io::Result<()> {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, &self.path)
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("cannot write {}", self.path.display()));
        }
        Ok(())
    }
}

/// `dir/.NAME.PID.tmp`: hidden, beside the target (same file system: the rename is atomic).
fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_file_needs_force_and_an_input_is_never_an_output() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("q.json");
        std::fs::write(&input, "{}").unwrap();
        let e = OutFile::check(&input, false, &[&input], "--html").unwrap_err();
        assert!(e.0.contains("also an input"), "{}", e.0);
        let e = OutFile::check(&input, true, &[&input], "--html").unwrap_err();
        assert!(e.0.contains("also an input"), "{}", e.0);
        // The same file under another spelling is still the input.
        let other = d.path().join(".").join("q.json");
        assert!(OutFile::check(&other, true, &[&input], "-o").is_err());

        let e = OutFile::check(&input, false, &[], "-o").unwrap_err();
        assert!(e.0.contains("already exists"), "{}", e.0);
        let o = OutFile::check(&input, true, &[], "-o").unwrap();
        o.write(b"new").unwrap();
        assert_eq!(std::fs::read(&input).unwrap(), b"new");
        // Nothing left beside it.
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    /// `-o /dev/null` (or `/dev/stdout`, a FIFO) is written into, never replaced: as root a
    /// rename over /dev/null would break the system.
    #[test]
    fn a_device_is_written_into_never_replaced() {
        let o = OutFile::check(Path::new("/dev/null"), false, &[], "-o").unwrap();
        o.write(b"{}").unwrap();
        let m = std::fs::metadata("/dev/null").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(m.file_type().is_char_device());
        // A link to a regular file replaces the file, and the link stays a link.
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = d.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(OutFile::check(&link, false, &[], "-o").is_err());
        OutFile::check(&link, true, &[], "-o")
            .unwrap()
            .write(b"new")
            .unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_missing_or_unwritable_directory_is_said_before_anything_is_written() {
        let d = tempfile::tempdir().unwrap();
        let e = OutFile::check(&d.path().join("no/such/x.json"), false, &[], "-o").unwrap_err();
        assert!(e.0.contains("does not exist"), "{}", e.0);
        let e = OutFile::check(d.path(), true, &[], "-o").unwrap_err();
        assert!(e.0.contains("is a directory"), "{}", e.0);
        assert!(OutFile::check(Path::new(""), false, &[], "-o").is_err());
        let fresh = d.path().join("new.json");
        let o = OutFile::check(&fresh, false, &[], "-o").unwrap();
        assert!(!fresh.exists(), "the check creates nothing");
        o.write(b"{}").unwrap();
        // A file that appeared since the check is not overwritten.
        assert!(o.write(b"again").is_err());
        assert_eq!(std::fs::read(&fresh).unwrap(), b"{}");
    }
}
