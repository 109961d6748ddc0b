//! The root directory every reader goes through.
//!
//! A [`Root`] maps machine paths ("/sys/…") into a directory (`/` live, a fixture tree in
//! tests) and reads them through [`crate::bounded_read`]: regular files only, a size limit per
//! kind of file, a time limit per read. Absent values keep the path *the user would recognise*
//! (their cpuinfo file rather than /proc/cpuinfo) and why.

use std::path::{Path, PathBuf};

use crate::bounded_read::{self, Kind, ReadError};

/// A filesystem root to read the machine from: `/` on the live system, a fixture tree in tests.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
    /// sbc-bench's `CPUINFOFILE`: an alternative /proc/cpuinfo (absolute or relative to the cwd,
    /// not to the root).
    cpuinfo_file: Option<PathBuf>,
}

/// Why a value is absent: the path that was tried and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Absent {
    pub path: String,
    pub reason: String,
}

impl std::fmt::Display for Absent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

/// Collected reasons for absent values, reported with a snapshot instead of failing it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notes(pub Vec<Absent>);

impl Notes {
    pub fn push(&mut self, a: Absent) {
        self.0.push(a);
    }
    /// Keeps the value, or records why it is absent and returns `None`.
    pub fn keep<T>(&mut self, r: Result<T, Absent>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(a) => {
                self.0.push(a);
                None
            }
        }
    }

    /// Like [`Notes::keep`], but a missing file is normal (an optional sysfs attribute): it is
    /// absent without a note. Files that exist but are empty, garbage or unreadable are noted.
    pub fn keep_optional<T>(&mut self, r: Result<T, Absent>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(a) if a.reason == "missing" => None,
            Err(a) => {
                self.0.push(a);
                None
            }
        }
    }
}

impl Root {
    /// The live system.
    pub fn host() -> Self {
        Self::new("/")
    }

    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Root {
            dir: dir.into(),
            cpuinfo_file: None,
        }
    }

    /// Reads /proc/cpuinfo from `file` instead (sbc-bench's `CPUINFOFILE`).
    pub fn with_cpuinfo_file(mut self, file: Option<PathBuf>) -> Self {
        self.cpuinfo_file = file;
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn is_host(&self) -> bool {
        self.dir == Path::new("/")
    }

    /// Maps an absolute machine path ("/sys/devices/...") into this root.
    pub fn path(&self, abs: &str) -> PathBuf {
        if abs == "/proc/cpuinfo"
            && let Some(f) = &self.cpuinfo_file
        {
            return f.clone();
        }
        self.dir.join(abs.trim_start_matches('/'))
    }

    fn absent(abs: &str, reason: impl Into<String>) -> Absent {
        Absent {
            path: abs.to_string(),
            reason: reason.into(),
        }
    }

    /// The path to name in notes: the user's cpuinfo file when /proc/cpuinfo is redirected.
    pub fn shown(&self, abs: &str) -> String {
        match &self.cpuinfo_file {
            Some(f) if abs == "/proc/cpuinfo" => f.display().to_string(),
            _ => abs.to_string(),
        }
    }

    fn failed(&self, abs: &str, e: ReadError) -> Absent {
        Absent {
            path: self.shown(abs),
            reason: e.to_string(),
        }
    }

    /// Reads a whole file as bytes, within the size limit of its kind ([`Kind::of`]).
    pub fn read_bytes(&self, abs: &str) -> Result<Vec<u8>, Absent> {
        self.read_kind(abs, Kind::of(abs))
    }

    fn read_kind(&self, abs: &str, kind: Kind) -> Result<Vec<u8>, Absent> {
        bounded_read::read_whole(&self.path(abs), kind).map_err(|e| self.failed(abs, e))
    }

    /// Reads a whole file as text (invalid UTF-8 is replaced, never an error), within the size
    /// limit of its kind.
    pub fn read(&self, abs: &str) -> Result<String, Absent> {
        let bytes = self.read_bytes(abs)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Reads a one-value sysfs file, trimmed; an empty file is absent.
    pub fn read_value(&self, abs: &str) -> Result<String, Absent> {
        let bytes = self.read_kind(abs, Kind::Value)?;
        let s = String::from_utf8_lossy(&bytes);
        let t = s.trim().trim_end_matches('\0').trim();
        if t.is_empty() {
            return Err(Self::absent(abs, "empty"));
        }
        Ok(t.to_string())
    }

    /// Reads an unsigned integer (decimal) from a one-value file.
    pub fn read_u64(&self, abs: &str) -> Result<u64, Absent> {
        let s = self.read_value(abs)?;
        s.parse()
            .map_err(|_| Self::absent(abs, format!("not a number: {:?}", truncate(&s, 40))))
    }

    /// Reads a signed integer from a one-value file (temperatures can be negative).
    pub fn read_i64(&self, abs: &str) -> Result<i64, Absent> {
        let s = self.read_value(abs)?;
        s.parse()
            .map_err(|_| Self::absent(abs, format!("not a number: {:?}", truncate(&s, 40))))
    }

    /// Names of the entries of a directory, sorted naturally (policy2 before policy10).
    pub fn list_dir(&self, abs: &str) -> Result<Vec<String>, Absent> {
        let rd = std::fs::read_dir(self.path(abs)).map_err(|e| Self::absent(abs, io_reason(&e)))?;
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort_by(|a, b| natural_cmp(a, b));
        Ok(names)
    }

    pub fn exists(&self, abs: &str) -> bool {
        self.path(abs).exists()
    }

    /// Reads a CPU list file ("0-3,6"). An empty file is an empty list (offline lists are).
    pub fn read_cpu_list(&self, abs: &str) -> Result<Vec<u32>, Absent> {
        let s = self.read(abs)?;
        parse_cpu_list(&s).ok_or_else(|| {
            Self::absent(abs, format!("not a CPU list: {:?}", truncate(s.trim(), 40)))
        })
    }

    /// Reads a whitespace-separated list of numbers; an empty file is absent.
    pub fn read_u64_list(&self, abs: &str) -> Result<Vec<u64>, Absent> {
        let s = self.read_value(abs)?;
        parse_u64_list(&s)
            .ok_or_else(|| Self::absent(abs, format!("not numbers: {:?}", truncate(&s, 40))))
    }

    /// Resolves symbolic links *inside* the root: an absolute link target ("/usr/bin/dash")
    /// means the root's /usr/bin/dash, not the host's. Returns the machine path of the final
    /// file. Needed wherever a link is followed in a fixture tree or a mounted image.
    pub fn resolve(&self, abs: &str) -> Result<String, Absent> {
        let mut todo: Vec<String> = abs
            .split('/')
            .filter(|c| !c.is_empty())
            .rev()
            .map(str::to_string)
            .collect();
        let mut done: Vec<String> = Vec::new();
        let mut hops = 0;
        while let Some(c) = todo.pop() {
            match c.as_str() {
                "." => continue,
                ".." => {
                    done.pop();
                    continue;
                }
                _ => {}
            }
            done.push(c);
            let here = format!("/{}", done.join("/"));
            let host = self.dir.join(here.trim_start_matches('/'));
            let Ok(meta) = std::fs::symlink_metadata(&host) else {
                continue; // missing: the read that follows reports it
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            hops += 1;
            if hops > 40 {
                return Err(Self::absent(abs, "too many levels of symbolic links"));
            }
            let target = std::fs::read_link(&host).map_err(|e| Self::absent(abs, io_reason(&e)))?;
            let target = target.to_string_lossy().into_owned();
            done.pop();
            if target.starts_with('/') {
                done.clear();
            }
            todo.extend(
                target
                    .split('/')
                    .filter(|c| !c.is_empty())
                    .rev()
                    .map(str::to_string),
            );
        }
        Ok(format!("/{}", done.join("/")))
    }

    /// Reads at most `n` bytes from the start of a file, following links inside the root
    /// (ELF headers of /bin/sh).
    pub fn read_head(&self, abs: &str, n: usize) -> Result<Vec<u8>, Absent> {
        let real = self.resolve(abs)?;
        bounded_read::read_head(&self.path(&real), n).map_err(|e| self.failed(abs, e))
    }

    /// Reads a device-tree string property: NUL-separated strings (e.g. `compatible`).
    pub fn read_dt_strings(&self, abs: &str) -> Result<Vec<String>, Absent> {
        let bytes = self.read_kind(abs, Kind::DeviceTree)?;
        let v: Vec<String> = bytes
            .split(|&b| b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| String::from_utf8_lossy(s).trim().to_string())
            .collect();
        if v.is_empty() {
            return Err(Self::absent(abs, "empty"));
        }
        Ok(v)
    }
}

pub use document::cpus::MAX_CPUS;

/// Parses a kernel CPU list ("0-3,6,8-11" or "0 1 2 3"; empty = no CPU) by
/// `document::cpus::CpuList`'s rule. `None` for anything else.
pub fn parse_cpu_list(s: &str) -> Option<Vec<u32>> {
    document::cpus::CpuList::parse(s)
        .ok()
        .map(document::cpus::CpuList::into_vec)
}

/// Parses a whitespace-separated list of unsigned numbers (cpufreq frequency lists).
pub fn parse_u64_list(s: &str) -> Option<Vec<u64>> {
    s.split_whitespace().map(|w| w.parse().ok()).collect()
}

pub(crate) fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "missing".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Orders names with embedded numbers numerically: cpu2 < cpu10, policy9 < policy10, and
/// every number counts (hwmon2/temp2_input < hwmon2/temp10_input).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    /// Splits into alternating runs of digits and non-digits.
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut v = Vec::new();
        let mut start = 0;
        let b = s.as_bytes();
        for i in 1..=b.len() {
            if i == b.len() || b[i].is_ascii_digit() != b[start].is_ascii_digit() {
                v.push((b[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        v
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for (x, y) in ca.iter().zip(cb.iter()) {
        let o = match (x, y) {
            ((true, x), (true, y)) => {
                // Compare digit runs by value without parsing (any length): strip leading
                // zeros, then shorter is smaller, then lexicographic.
                let (tx, ty) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty))
            }
            ((_, x), (_, y)) => x.cmp(y),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    ca.len().cmp(&cb.len()).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_in_both_sysfs_forms() {
        // related_cpus / affected_cpus are space separated; online and cpu_core/cpus use ranges.
        assert_eq!(parse_cpu_list("0 1 2 3\n"), Some(vec![0, 1, 2, 3]));
        assert_eq!(parse_cpu_list("4-5,7"), Some(vec![4, 5, 7]));
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("0 x"), None);
    }

    #[test]
    fn reads_through_the_root_and_keeps_reasons() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("sys/x")).unwrap();
        std::fs::write(d.path().join("sys/x/n"), "1200000\n").unwrap();
        std::fs::write(d.path().join("sys/x/bad"), "abc\n").unwrap();
        std::fs::write(d.path().join("sys/x/empty"), "").unwrap();
        let r = Root::new(d.path());
        assert_eq!(r.read_u64("/sys/x/n"), Ok(1_200_000));
        assert!(
            r.read_u64("/sys/x/bad")
                .unwrap_err()
                .reason
                .contains("not a number")
        );
        assert_eq!(r.read_value("/sys/x/empty").unwrap_err().reason, "empty");
        assert_eq!(r.read("/sys/x/none").unwrap_err().reason, "missing");
    }

    #[test]
    fn refuses_fifos_and_devices_without_hanging() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("proc")).unwrap();
        let fifo = d.path().join("proc/loadavg");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let r = Root::new(d.path());
        let t0 = std::time::Instant::now();
        let e = r.read("/proc/loadavg").unwrap_err();
        assert_eq!(e.path, "/proc/loadavg");
        assert_eq!(e.reason, "not a regular file (a FIFO)");
        assert!(t0.elapsed() < std::time::Duration::from_secs(1));
        // The user's cpuinfo file is /dev/zero: refused, named, nothing allocated.
        let z = Root::new(d.path()).with_cpuinfo_file(Some("/dev/zero".into()));
        let e = z.read("/proc/cpuinfo").unwrap_err();
        assert_eq!(e.path, "/dev/zero");
        assert_eq!(e.reason, "not a regular file (a character device)");
    }

    #[test]
    fn size_limits_per_kind_name_the_limit() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("sys/x")).unwrap();
        // A sparse 40 MiB file: over every limit, cheap to create.
        let big = std::fs::File::create(d.path().join("sys/x/big")).unwrap();
        big.set_len(40 << 20).unwrap();
        std::fs::write(d.path().join("sys/x/page"), vec![b'1'; 70 << 10]).unwrap();
        let r = Root::new(d.path()).with_cpuinfo_file(Some(d.path().join("sys/x/big")));
        let e = r.read("/proc/cpuinfo").unwrap_err();
        assert!(e.path.ends_with("sys/x/big"), "{e}");
        assert_eq!(
            e.reason,
            "larger than 32 MiB (the limit for a cpuinfo file)"
        );
        assert_eq!(
            r.read_value("/sys/x/page").unwrap_err().reason,
            "larger than 64 KiB (the limit for a sysfs value)"
        );
        // The same file as a whole sysfs file is within 1 MiB.
        assert_eq!(r.read("/sys/x/page").unwrap().len(), 70 << 10);
        assert_eq!(
            r.read("/sys/x/big").unwrap_err().reason,
            "larger than 1 MiB (the limit for a sysfs file)"
        );
        assert_eq!(r.read_head("/sys/x/big", 4).unwrap(), vec![0; 4]);
    }

    #[test]
    fn a_missing_cpuinfo_file_is_named_as_given() {
        let r = Root::new("/nonexistent-root").with_cpuinfo_file(Some("/nonexistent".into()));
        let e = r.read("/proc/cpuinfo").unwrap_err();
        assert_eq!(e.to_string(), "/nonexistent: missing");
        // A file of the user's without processors: the note names it too.
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("capture.txt");
        std::fs::write(&f, "Hardware : x\n").unwrap();
        let r = Root::new(d.path()).with_cpuinfo_file(Some(f.clone()));
        let mut notes = Notes::default();
        crate::cpuinfo::read(&r, &mut notes);
        assert_eq!(notes.0[0].path, f.display().to_string());
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(
            parse_cpu_list("0-3,6,8-9\n"),
            Some(vec![0, 1, 2, 3, 6, 8, 9])
        );
        assert_eq!(parse_cpu_list("\n"), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("x"), None);
        assert_eq!(parse_cpu_list("0-4294967295"), None);
        assert_eq!(parse_cpu_list("16384"), None);
    }

    #[test]
    fn links_resolve_inside_the_root() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("usr/bin")).unwrap();
        std::fs::write(d.path().join("usr/bin/dash"), b"\x7fELF").unwrap();
        std::os::unix::fs::symlink("usr/bin", d.path().join("bin")).unwrap();
        std::os::unix::fs::symlink("/usr/bin/dash", d.path().join("usr/bin/sh")).unwrap();
        std::os::unix::fs::symlink("loop", d.path().join("loop")).unwrap();
        let r = Root::new(d.path());
        assert_eq!(r.resolve("/bin/sh").unwrap(), "/usr/bin/dash");
        assert_eq!(r.read_head("/bin/sh", 2).unwrap(), b"\x7fE");
        assert!(r.resolve("/loop").is_err());
    }

    #[test]
    fn natural_order_puts_policy10_after_policy9() {
        let mut v = vec!["policy10", "policy2", "policy9", "policy0"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["policy0", "policy2", "policy9", "policy10"]);
        let mut w = vec![
            "/h/hwmon2/temp10_input",
            "/h/hwmon10/temp1_input",
            "/h/hwmon2/temp2_input",
        ];
        w.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            w,
            [
                "/h/hwmon2/temp2_input",
                "/h/hwmon2/temp10_input",
                "/h/hwmon10/temp1_input"
            ]
        );
    }
}
