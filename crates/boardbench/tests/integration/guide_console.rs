//! `boardbench guide console`: the boot-time and U-Boot storage tables from console logs written
//! for the tests (crates/guide/tests/data: a LAVA job log of a reboot loop, a grabserial capture
//! of U-Boot commands), rendered with the measured guide's renderers (reStructuredText checked by
//! docutils with warnings as errors); and the LAVA job templates that produce such logs
//! (integrations/lava/job-boot-time.yaml, job-uboot-storage.yaml) valid for LAVA's own schema
//! code (Debian's lava-common, as export_lava.rs). No network, a few seconds.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use document::ResultDocument;
use document::guide::SectionStatus;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn log(name: &str) -> String {
    repo()
        .join("crates/guide/tests/data")
        .join(name)
        .display()
        .to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn the_lava_templates_pass_lavas_schema_and_the_recorded_log_is_yaml() {
    let Some(py) = common::lava_python() else {
        return;
    };
    let check = r#"
import sys, yaml
from lava_common.schemas import validate
boot = yaml.safe_load(open(sys.argv[1]))
validate(boot, strict=True)
storage = yaml.safe_load(open(sys.argv[2]))
validate(storage, strict=True)
# The reboot loop: only boot actions; plain power cycles to the login and to the shell prompt,
# a setup boot that sets init=/bin/sh and one that removes it.
kinds = [next(iter(a)) for a in boot["actions"]]
assert set(kinds) == {"boot"}, kinds
boots = [a["boot"] for a in boot["actions"]]
minimal = [b for b in boots if b["method"] == "minimal"]
full = [b for b in minimal if b["prompts"] == ["login:"]]
shell = [b for b in minimal if "/ #" in b["prompts"]]
assert len(full) >= 3 and len(shell) >= 3 and len(full) + len(shell) == len(minimal), boots
setup = [b for b in boots if b["method"] == "u-boot"]
assert any("init=/bin/sh" in " ".join(b["commands"]) for b in setup), setup
assert boots.index(setup[0]) > boots.index(full[-1]) and boots.index(setup[0]) < boots.index(shell[0])
# U-Boot storage: mmc list (names the media), timed raw reads, FAT writes and reads; no raw
# write (it would destroy data).
cmds = [c for a in storage["actions"] for c in a["boot"].get("commands", [])]
assert "mmc list" in cmds, cmds
assert any(c.startswith("time mmc read ") for c in cmds), cmds
assert any(c.startswith("fatwrite ") for c in cmds) and any(c.startswith("fatload ") for c in cmds)
assert not any("mmc write" in c for c in cmds), cmds
# The recorded job log is LAVA's YAML: a list of {dt, lvl, msg}.
logged = yaml.safe_load(open(sys.argv[3]))
assert isinstance(logged, list) and all({"dt", "lvl", "msg"} <= set(e) for e in logged)
assert sum(1 for e in logged if e["lvl"] == "target") > 100
print("valid")
"#;
    let lava = repo().join("integrations/lava");
    common::assert_python_says_valid(
        &py,
        check,
        &[
            lava.join("job-boot-time.yaml"),
            lava.join("job-uboot-storage.yaml"),
            PathBuf::from(log("console-lava-boot-loop.yaml")),
        ],
    );
}

fn console(args: &[&str]) -> (Option<i32>, String) {
    let out = common::boardbench(&[&["guide", "console"], args].concat());
    (out.status.code(), text(&out.stderr))
}

fn render(args: &[&str]) -> String {
    let out = common::boardbench(&[&["guide", "render"], args].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn console_logs_become_the_boot_time_and_u_boot_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("boot.json");
    let b = tmp.path().join("uboot.json");
    let (code, err) = console(&[
        &log("console-lava-boot-loop.yaml"),
        "--device",
        "evm",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("boot-console: 2 tables"), "{err}");
    assert!(err.contains("uboot-storage: skipped"), "{err}");
    let doc: ResultDocument = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    assert_eq!(doc.device.as_deref(), Some("evm"));
    // When the lab measured: the LAVA log's first and last console lines (UTC).
    assert_eq!(doc.started.as_deref(), Some("2026-11-27T03:01:40+00:00"));
    assert_eq!(doc.finished.as_deref(), Some("2026-11-27T03:10:05+00:00"));
    let g = doc.guide.unwrap();
    assert_eq!(g.sections[0].status, SectionStatus::Done);
    assert_eq!(g.sections[0].tables[0].title, "Boot time MMCSD");
    assert_eq!(
        g.sections[0].tables[0].rows[0].cells[0]
            .as_ref()
            .unwrap()
            .samples,
        2
    );

    let (code, err) = console(&[
        &log("console-grabserial-uboot.txt"),
        "--device",
        "evm",
        "-o",
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("uboot-storage: 2 tables, 5 rows"), "{err}");
    // A grabserial capture's times are relative: no date.
    let doc: ResultDocument = serde_json::from_slice(&std::fs::read(&b).unwrap()).unwrap();
    assert_eq!(doc.started, None);

    // Both documents in one column, as a lab merges its jobs with --merge-by board.
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let rst = render(&[a, b, "--merge-by", "board"]);
    assert!(rst.contains(".. csv-table:: Boot time MMCSD"), "{rst}");
    assert!(
        rst.contains(":header: \"Boot Configuration\",\"evm: boot time (sec)\""),
        "{rst}"
    );
    assert!(
        rst.contains(
            "\"Kernel boot time test when bootloader, kernel and sdk-rootfs are in mmc-sd\",\"14.90 (min 14.70, max 15.10)\""
        ),
        "{rst}"
    );
    assert!(rst.contains(".. csv-table:: UBOOT EMMC RAW"), "{rst}");
    assert!(
        rst.contains(":header: \"File size (bytes in hex)\",\"evm: Write Throughput (Kbytes/sec)\",\"evm: Read Throughput (Kbytes/sec)\""),
        "{rst}"
    );
    assert!(
        rst.contains("\"1000000\",\"10240.00\",\"20480.00\""),
        "{rst}"
    );
    docutils_strict("console", &rst);
    let ti = render(&[a, b, "--merge-by", "board", "--style", "ti"]);
    assert!(ti.contains("Boot Time\n---------"), "{ti}");
    assert!(
        ti.contains("boardbench guide console LOG... --device BOARD"),
        "{ti}"
    );
    // The grid names the boot medium the logs showed.
    assert!(
        ti.contains("Boot medium: MMCSD, as the console logs"),
        "{ti}"
    );
    docutils_strict("console-ti", &ti);
    for format in ["md", "csv", "html"] {
        let out = render(&[a, b, "--merge-by", "board", "--format", format]);
        assert!(out.contains("UBOOT MMCSD FAT"), "{format}: {out}");
    }
    // A console-only render knows the board and when, not its SoC, kernel or build: those
    // rows are left out of the Evaluation Modules rather than printed empty.
    let md = render(&[a, b, "--merge-by", "board", "--format", "md"]);
    let header = &md[md.find("## Evaluation Modules").unwrap()..md.find("## Boot").unwrap()];
    assert!(header.contains("| Board | evm |"), "{header}");
    assert!(header.contains("| Runs | 2 |"), "{header}");
    for row in header.lines().filter(|l| l.starts_with("| ")) {
        assert!(!row.ends_with("|  |"), "an empty row: {row}\n{header}");
    }
    for gone in ["| SoC |", "| Kernel |", "| Built with |", "| Memory |"] {
        assert!(!header.contains(gone), "{gone}: {header}");
    }
    // A capture without dates: the TI grid says why its description is short.
    let ti = render(&[b, "--style", "ti"]);
    assert!(
        ti.contains("| evm  | nothing recorded of the board itself (console logs only) |"),
        "{ti}"
    );

    // The merged figures in JSON are as a person writes them: the median of 14.7 and 15.1 is
    // 14.9, not 14.899999999999999 (binary noise of the arithmetic).
    let db = tmp.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let out = common::boardbench(&["results", "--db", db, "add", a, b]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = common::boardbench(&[
        "results",
        "--db",
        db,
        "table",
        "--guide",
        "Boot time MMCSD",
        "--json",
    ]);
    let json = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut numbers = Vec::new();
    fn walk(v: &serde_json::Value, out: &mut Vec<f64>) {
        match v {
            serde_json::Value::Number(n) => out.extend(n.as_f64()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(&v, &mut numbers);
    assert!(numbers.contains(&14.9), "{json}");
    for n in numbers {
        let s = n.to_string();
        assert!(
            !s.contains("99999") && !s.contains("00000"),
            "{s} carries float noise: {json}"
        );
    }
}

/// REAL logs (crates/guide/tests/data/real-qemu): a lava-run job log of a QEMU board with
/// Debian's U-Boot and kernel, and a U-Boot qemu-x86_64 capture; the job that ran is LAVA's.
#[test]
fn real_lava_and_u_boot_logs_become_the_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("qemu.json");
    let lava = log("real-qemu/lava-qemu-x86-boot-loop.yaml");
    let (code, err) = console(&[
        &lava,
        &log("real-qemu/uboot-qemu-x86_64-storage.txt"),
        "--device",
        "qemu-x86",
        "--medium",
        "virtio",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("boot-console: 2 tables, 6 rows"), "{err}");
    assert!(err.contains("uboot-storage: 2 tables, 5 rows"), "{err}");
    let doc: ResultDocument = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    // The LAVA log's first console line: U-Boot's banner of the first power cycle.
    assert_eq!(doc.started.as_deref(), Some("2026-11-27T11:47:24+00:00"));
    let rst = render(&[out.to_str().unwrap()]);
    for title in [
        "Boot time VIRTIO",
        "Boot stages VIRTIO",
        "UBOOT VIRTIO RAW",
        "UBOOT VIRTIO FAT",
    ] {
        assert!(
            rst.contains(&format!(".. csv-table:: {title}")),
            "{title}: {rst}"
        );
    }
    docutils_strict("console-real", &rst);
    // lava-run's own output (the entries without the server's `- `) reads the same.
    let local = tmp.path().join("lava-run.log");
    let text = std::fs::read_to_string(&lava).unwrap();
    let stripped: String = text
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("- ").unwrap_or(l)))
        .collect();
    std::fs::write(&local, stripped).unwrap();
    let (a, b) = (tmp.path().join("a.json"), tmp.path().join("b.json"));
    for (input, output) in [(&lava, &a), (&local.display().to_string(), &b)] {
        let (code, err) = console(&[input, "--device", "q", "-o", output.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
    }
    let guide = |p: &Path| {
        let d: ResultDocument = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        // The tables (the notes name the log file).
        let tables: Vec<_> = d
            .guide
            .unwrap()
            .sections
            .into_iter()
            .map(|s| s.tables)
            .collect();
        serde_json::to_string(&tables).unwrap()
    };
    assert_eq!(guide(&a), guide(&b));

    // The job that ran passes LAVA's own schema, and its log is LAVA's YAML.
    let Some(py) = common::lava_python() else {
        return;
    };
    let check = r#"
import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)
logged = yaml.safe_load(open(sys.argv[2]))
assert isinstance(logged, list) and all({"dt", "lvl", "msg"} <= set(e) for e in logged)
assert {"target", "input", "results"} <= {e["lvl"] for e in logged}
job = [e["msg"] for e in logged if e["lvl"] == "results" and e["msg"]["case"] == "job"]
assert job == [{"case": "job", "definition": "lava", "result": "pass"}], job
print("valid")
"#;
    common::assert_python_says_valid(
        &py,
        check,
        &[
            repo().join("crates/guide/tests/data/real-qemu/make/job-qemu-boot-loop.yaml"),
            PathBuf::from(lava),
        ],
    );
}

#[test]
fn a_log_without_boots_or_transfers_exits_2_and_an_input_is_never_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("minicom.cap");
    std::fs::write(&empty, "Welcome to minicom 2.8\n").unwrap();
    let out = tmp.path().join("doc.json");
    let (code, err) = console(&[
        empty.to_str().unwrap(),
        "--device",
        "evm",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("boot-console: skipped"), "{err}");
    let doc: ResultDocument = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(
        doc.guide
            .unwrap()
            .sections
            .iter()
            .all(|s| s.status == SectionStatus::Skipped)
    );
    let (code, err) = console(&[
        empty.to_str().unwrap(),
        "--device",
        "evm",
        "-o",
        empty.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, Some(64), "{err}");
}

#[test]
fn missing_and_empty_logs_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope.yaml");
    let (code, err) = console(&[missing.to_str().unwrap(), "--device", "evm"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("nope.yaml"), "{err}");
    // An empty log (a capture or `lavacli jobs logs` that failed): refused when every log is.
    let empty = tmp.path().join("job-17.yaml");
    std::fs::write(&empty, "").unwrap();
    let (code, err) = console(&[empty.to_str().unwrap(), "--device", "evm"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("no console line in") && l.contains("job-17.yaml")),
        "{err}"
    );
    // Beside a log with boots it is a warning, and the tables come from the other.
    let (code, err) = console(&[
        empty.to_str().unwrap(),
        &log("console-lava-boot-loop.yaml"),
        "--device",
        "evm",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning: ") && err.contains("job-17.yaml: empty"),
        "{err}"
    );
}

/// docutils parses `text` with warnings as errors (as crates/guidetables' golden tests).
fn docutils_strict(what: &str, text: &str) {
    if common::host_only() {
        eprintln!("skipped under emulation: docutils runs on the host test");
        return;
    }
    let tmp = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(tmp.path(), text).unwrap();
    let check = "import sys, docutils.core\n\
                 docutils.core.publish_doctree(open(sys.argv[1]).read(), \
                 settings_overrides={'halt_level': 2, 'report_level': 2})\n";
    let out = Command::new("python3")
        .args(["-c", check])
        .arg(tmp.path())
        .output()
        .expect("python3 (scripts/test installs python3-docutils)");
    assert!(
        out.status.success(),
        "docutils rejected the reStructuredText ({what}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
