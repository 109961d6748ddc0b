//! The indexed columns of a run, read defensively from the document as JSON.
//!
//! The document types grow while the store exists, so the store never deserialises the
//! machine or imported parts into Rust types: it looks up the fields it indexes in the JSON
//! value and stores NULL for anything missing or of an unexpected shape. The whole document is
//! kept as well, so nothing is lost and columns can be re-derived by a later migration.

use serde_json::Value;

/// The columns of `runs` besides id, hash and document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunColumns {
    pub started: Option<String>,
    pub device: Option<String>,
    pub soc: Option<String>,
    pub arch: Option<String>,
    pub kernel: Option<String>,
    pub distro: Option<String>,
    pub producer: Option<String>,
    pub imported: bool,
    pub clockspeed: Option<String>,
    /// Highest measured clock in MHz (for per-GHz figures).
    pub clock_mhz: Option<f64>,
    pub headline: Headline,
}

/// The six numbers of sbc-bench's Results.md table.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Headline {
    pub zip_multi: Option<f64>,
    pub zip_single: Option<f64>,
    /// aes-256-cbc, 16 KiB blocks, 1000 bytes/s.
    pub aes: Option<f64>,
    /// MB/s.
    pub memcpy: Option<f64>,
    pub memset: Option<f64>,
    pub khs: Option<f64>,
}

fn text(v: &Value, path: &[&str]) -> Option<String> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

fn num(v: &Value, path: &[&str]) -> Option<f64> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_f64().filter(|x| x.is_finite())
}

/// Everything the `runs` row indexes. Imported logs first take what the log said; native runs
/// take what the probe saw.
pub fn columns(doc: &Value) -> RunColumns {
    let imp = doc.get("imported").filter(|v| v.is_object());
    let m = doc.get("machine").filter(|v| v.is_object());
    let from_imp = |path: &[&str]| imp.and_then(|i| text(i, path));
    let from_machine = |path: &[&str]| m.and_then(|m| text(m, path));

    let kernel =
        from_imp(&["kernel_release"]).or_else(|| from_machine(&["identity", "kernel", "release"]));
    let arch = from_imp(&["arch"])
        .or_else(|| from_machine(&["identity", "userland", "arch"]))
        .or_else(|| from_imp(&["kernel_machine"]))
        .or_else(|| from_machine(&["identity", "kernel", "arch"]));
    let distro = from_imp(&["distro"])
        .or_else(|| from_machine(&["identity", "distro", "pretty_name"]))
        .or_else(|| from_imp(&["summary_line", "distro"]));
    let soc = from_imp(&["soc_guess"]).or_else(|| from_machine(&["identity", "soc", "name"]));
    let device = text(doc, &["device"])
        .or_else(|| from_imp(&["device"]))
        .or_else(|| from_machine(&["identity", "device_tree", "model"]))
        .or_else(|| from_machine(&["identity", "dmi", "product_name"]));
    let started = text(doc, &["started"]);

    let clocks = measured_clocks(doc);
    let clock_mhz = clocks.iter().copied().reduce(f64::max);
    let clockspeed = imp
        .and_then(|i| text(i, &["summary_line", "clock"]))
        .or_else(|| clock_cell(&clocks));

    RunColumns {
        started,
        device,
        soc,
        arch,
        kernel,
        distro,
        producer: text(doc, &["producer"]),
        imported: imp.is_some(),
        clockspeed,
        clock_mhz,
        headline: headline(doc),
    }
}

/// Measured clocks in MHz, one per cluster, highest first: suite "clock" rows in MHz for native
/// runs, the highest `measured_mhz` of each (not under load) clock check for imported logs.
pub fn measured_clocks(doc: &Value) -> Vec<f64> {
    let mut out: Vec<f64> = measurement_rows(doc)
        .filter(|r| r.suite == "clock" && r.unit.eq_ignore_ascii_case("MHz"))
        .map(|r| r.value)
        .collect();
    if out.is_empty()
        && let Some(checks) = doc
            .get("imported")
            .and_then(|i| i.get("clock_checks"))
            .and_then(Value::as_array)
    {
        for c in checks {
            if c.get("under_load").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let best = c
                .get("rows")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| num(r, &["measured_mhz"]))
                .reduce(f64::max);
            out.extend(best);
        }
    }
    out.retain(|v| *v > 0.0);
    out.sort_by(|a, b| b.total_cmp(a));
    out
}

/// "2300/1800 MHz" as Results.md writes the Clockspeed cell.
fn clock_cell(clocks: &[f64]) -> Option<String> {
    if clocks.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = clocks.iter().map(|c| format!("{c:.0}")).collect();
    parts.dedup();
    Some(format!("{} MHz", parts.join("/")))
}

/// A measurement row as far as the store needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row<'a> {
    pub suite: &'a str,
    pub test: &'a str,
    pub variant: Option<&'a str>,
    pub threads: i64,
    pub value: f64,
    pub unit: &'a str,
}

/// The document's measurement rows that have the required fields; malformed rows are skipped.
pub fn measurement_rows(doc: &Value) -> impl Iterator<Item = Row<'_>> {
    doc.get("measurements")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            Some(Row {
                suite: m.get("suite")?.as_str()?,
                test: m.get("test")?.as_str()?,
                variant: m.get("variant").and_then(Value::as_str),
                threads: m.get("threads").and_then(Value::as_i64).unwrap_or(0),
                value: m.get("value")?.as_f64().filter(|v| v.is_finite())?,
                unit: m.get("unit").and_then(Value::as_str).unwrap_or(""),
            })
        })
}

/// The Results.md numbers: an imported log's own headline (derived by sbc-bench's rules of its
/// version) where present, otherwise [`headline_from_measurements`].
pub fn headline(doc: &Value) -> Headline {
    let derived = headline_from_measurements(doc);
    let Some(h) = doc.get("imported").and_then(|i| i.get("headline")) else {
        return derived;
    };
    let or = |key: &str, d: Option<f64>| num(h, &[key]).or(d);
    Headline {
        zip_multi: or("zip_multi", derived.zip_multi),
        zip_single: or("zip_single", derived.zip_single),
        aes: or("aes", derived.aes),
        memcpy: or("memcpy", derived.memcpy),
        memset: or("memset", derived.memset),
        khs: or("khs", derived.khs),
    }
}

/// The mapping from measurement rows to the Results.md columns (the one place to change when
/// native runs name their rows differently). For each column the first matching rule wins;
/// among matching rows the highest value is taken (the best cluster, as sbc-bench does):
///
/// | column | suite | test |
/// |---|---|---|
/// | 7-zip multi | `7zip` | `multi`, or `total rating` with threads > 1 |
/// | 7-zip single | `7zip` | `single`, or `total rating` with threads = 1 |
/// | AES | `openssl` | `aes-256-cbc 16384` |
/// | memcpy | `tinymembench` / `membw` | `memcpy` / `libc memcpy…` |
/// | memset | `tinymembench` / `membw` | `memset` / `libc memset…` |
/// | kH/s | `cpuminer` | `scrypt` / `total score` |
pub fn headline_from_measurements(doc: &Value) -> Headline {
    let rows: Vec<Row<'_>> = measurement_rows(doc).collect();
    let best = |pred: &dyn Fn(&Row<'_>) -> bool| {
        rows.iter()
            .filter(|r| pred(r))
            .map(|r| r.value)
            .reduce(f64::max)
    };
    let zip = |name: &str, multi: bool| {
        best(&|r| r.suite == "7zip" && r.test == name).or_else(|| {
            best(&|r| r.suite == "7zip" && r.test == "total rating" && (r.threads > 1) == multi)
        })
    };
    let mem = |name: &str| {
        best(&|r| r.suite == "tinymembench" && r.test == name).or_else(|| {
            best(&|r| r.suite == "membw" && r.test.starts_with(&format!("libc {name}")))
        })
    };
    Headline {
        zip_multi: zip("multi", true),
        zip_single: zip("single", false),
        // The headline row: imports carry it, a run derives it by sbc-bench's rule (the OpenSSL
        // adapter's per-run rows are named "aes-256-cbc 16384 bytes" and are not used here).
        aes: best(&|r| r.suite == "openssl" && r.test == "aes-256-cbc 16384"),
        memcpy: mem("memcpy"),
        memset: mem("memset"),
        khs: best(&|r| r.suite == "cpuminer" && (r.test == "scrypt" || r.test == "total score")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn missing_and_odd_fields_become_none() {
        let c = columns(&json!({"producer": 5, "machine": "nonsense", "imported": [1]}));
        assert_eq!(c, RunColumns::default());
    }

    #[test]
    fn native_measurements_map_to_the_headline() {
        let doc = json!({"measurements": [
            {"suite": "7zip", "test": "total rating", "threads": 4, "value": 9000.0, "unit": "MIPS", "higher_is_better": true},
            {"suite": "7zip", "test": "total rating", "threads": 1, "value": 2000.0, "unit": "MIPS", "higher_is_better": true},
            {"suite": "7zip", "test": "total rating", "threads": 1, "value": 2500.0, "unit": "MIPS", "higher_is_better": true},
            {"suite": "membw", "test": "libc memcpy copy", "threads": 1, "value": 4000.0, "unit": "MB/s", "higher_is_better": true},
            {"suite": "openssl", "test": "aes-256-cbc 16384", "threads": 1, "value": 1234.5, "unit": "kB/s", "higher_is_better": true},
            {"suite": "clock", "test": "cpu0", "threads": 1, "value": 1800.4, "unit": "MHz", "higher_is_better": true},
            {"suite": "clock", "test": "cpu4", "threads": 1, "value": 2304.0, "unit": "MHz", "higher_is_better": true},
            {"suite": "broken"}
        ]});
        let h = headline(&doc);
        assert_eq!(h.zip_multi, Some(9000.0));
        assert_eq!(h.zip_single, Some(2500.0));
        assert_eq!(h.memcpy, Some(4000.0));
        assert_eq!(h.aes, Some(1234.5));
        assert_eq!(h.memset, None);
        let c = columns(&doc);
        assert_eq!(c.clockspeed.as_deref(), Some("2304/1800 MHz"));
        assert_eq!(c.clock_mhz, Some(2304.0));
    }
}
