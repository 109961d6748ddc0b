//! LAVA: `boardbench export lava RUN` prints one valid `lava-test-case` call per figure and
//! finding; integrations/lava's job definition and test definition pass LAVA's own schema code
//! (Debian's lava-common, run with Debian's /usr/bin/python3); and the test definition's steps,
//! run as lava-test-shell runs them (from the repository root, parameters in the environment),
//! make only calls that stand-ins for `lava-test-case`/`lava-test-reference` accept, upload the
//! document to a stand-in results service and print it into the log.
//!
//! The tests that start host programs skip under qemu (BOARDBENCH_EMULATED=1); elsewhere
//! lava-common must be installed (scripts/test installs it).

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::lava_python;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn quick_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run-quick.json")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn stand_ins() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lava-stand-in")
}

#[test]
fn export_lava_prints_calls_the_stand_in_accepts() {
    let out = common::boardbench_cmd()
        .unwrap()
        .args(["export", "lava", quick_run().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = text(&out.stdout);
    assert!(
        lines.starts_with(
            "lava-test-case 7zip-multi --result pass --measurement 1948 --units MIPS\n"
        )
    );
    assert!(lines.contains("lava-test-case finding-vm-guest --result fail\n"));
    assert!(lines.ends_with("lava-test-case run-valid --result fail\n"));
    if common::host_only() {
        return;
    }
    // The stand-in checks each call (one shell for all lines).
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls");
    let script = dir.path().join("cases.sh");
    std::fs::write(&script, &lines).unwrap();
    let st = Command::new("sh")
        .arg("-e")
        .arg(&script)
        .env("PATH", path_with(&stand_ins()))
        .env("LAVA_CALLS", &calls)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(std::fs::read_to_string(&calls).unwrap(), lines);
}

fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn job_and_test_definitions_pass_lavas_schemas() {
    let Some(py) = lava_python() else { return };
    let check = r#"
import sys, yaml
from lava_common.schemas import validate
from lava_common.schemas.test.testdef import validate as validate_testdef
job = yaml.safe_load(open(sys.argv[1]))
validate(job, strict=True)
testdef = yaml.safe_load(open(sys.argv[2]))
validate_testdef(testdef)
# The job's test action points at this test definition.
paths = [d["path"] for a in job["actions"] if "test" in a for d in a["test"]["definitions"]]
assert paths == ["integrations/lava/boardbench.yaml"], paths
# The schema code really rejects: a job without a device type, a misspelt deploy method.
for broken in ({k: v for k, v in job.items() if k != "device_type"},
               dict(job, actions=[{"deploy": dict(job["actions"][0]["deploy"], to="tftpp")}])):
    try:
        validate(broken, strict=True)
    except Exception:
        continue
    raise SystemExit("a broken job passed the schema")
print("valid")
"#;
    let lava = repo().join("integrations/lava");
    common::assert_python_says_valid(
        &py,
        check,
        &[lava.join("job-rpi4.yaml"), lava.join("boardbench.yaml")],
    );
}

/// The definition's parameters and steps, as lava-test-shell reads them.
fn definition(py: &Path) -> (Vec<(String, String)>, Vec<String>) {
    let out = Command::new(py)
        .arg("-c")
        .arg(
            "import sys, yaml, json; d = yaml.safe_load(open(sys.argv[1])); \
             print(json.dumps({'params': d.get('params', {}), 'steps': d['run']['steps']}))",
        )
        .arg(repo().join("integrations/lava/boardbench.yaml"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let params = v["params"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    let steps = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (params, steps)
}

/// A stand-in for `boardbench` on the device: `run … -o FILE` copies a recorded document to
/// FILE and ends with `exit_code` (2: completed, not to be trusted — as that run did); every
/// other command is the real binary.
fn fake_boardbench(dir: &Path, exit_code: i32, write_doc: bool) -> PathBuf {
    let p = dir.join("boardbench");
    let copy = if write_doc {
        format!("cp '{}' \"$out\"", quick_run().display())
    } else {
        "echo 'boardbench: error: something went wrong' >&2".to_string()
    };
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nif [ \"$1\" = run ]; then\n  prev=\n  for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n  echo \"$*\" >>'{log}'\n  {copy}\n  exit {exit_code}\nfi\nexec '{real}' \"$@\"\n",
            log = dir.join("boardbench-args").display(),
            real = env!("CARGO_BIN_EXE_boardbench"),
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// Runs the definition's steps with `params` overriding its defaults; returns the output and
/// the recorded calls.
fn run_steps(py: &Path, dir: &Path, overrides: &[(&str, String)]) -> (Output, String) {
    let (mut params, steps) = definition(py);
    for (k, v) in overrides {
        match params.iter_mut().find(|(name, _)| name == k) {
            Some(p) => p.1 = v.clone(),
            None => panic!("the test definition has no parameter {k}"),
        }
    }
    let calls = dir.join("calls");
    // As lava-test-shell writes its run script: the parameters as shell variables (not in
    // the environment), then the steps.
    let mut script = String::new();
    for (k, v) in &params {
        assert!(!v.contains('\''), "{k}: a value with a quote");
        script.push_str(&format!("{k}='{v}'\n"));
    }
    for s in &steps {
        script.push_str(s);
        script.push('\n');
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(repo())
        .env("PATH", path_with(&stand_ins()))
        .env("LAVA_CALLS", &calls)
        .output()
        .unwrap();
    let calls = std::fs::read_to_string(&calls).unwrap_or_default();
    (out, calls)
}

/// Accepts one upload as the results service would and answers 201 with id 7; the thread
/// returns the Authorization header and the body.
fn stand_in_service() -> (String, std::thread::JoinHandle<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let h = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let mut r = BufReader::new(stream);
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        assert!(line.starts_with("POST /api/v1/runs "), "{line}");
        let (mut auth, mut len) = (String::new(), 0usize);
        loop {
            let mut h = String::new();
            r.read_line(&mut h).unwrap();
            let h = h.trim_end().to_string();
            if h.is_empty() {
                break;
            }
            let (k, v) = h.split_once(':').unwrap();
            match k.to_ascii_lowercase().as_str() {
                "authorization" => auth = v.trim().to_string(),
                "content-length" => len = v.trim().parse().unwrap(),
                "expect" => {
                    r.get_mut()
                        .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                        .unwrap();
                }
                _ => {}
            }
        }
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        let answer = r#"{"id":7,"hash":"00","created":true}"#;
        write!(
            r.get_mut(),
            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
            answer.len()
        )
        .unwrap();
        (auth, String::from_utf8(body).unwrap())
    });
    (url, h)
}

#[test]
fn test_definition_steps_report_every_figure_and_keep_the_document() {
    let Some(py) = lava_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let bb = fake_boardbench(dir.path(), 2, true);
    let (url, service) = stand_in_service();
    let output = dir.path().join("out");
    let (out, calls) = run_steps(
        &py,
        dir.path(),
        &[
            ("BOARDBENCH", bb.display().to_string()),
            ("OUTPUT", output.display().to_string()),
            ("RESULTS_URL", url.clone()),
            ("RESULTS_TOKEN", "secret-token".into()),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(!calls.contains("INVALID"), "{calls}");

    // The mode of the definition, with -o added.
    let args = std::fs::read_to_string(dir.path().join("boardbench-args")).unwrap();
    assert_eq!(
        args.trim(),
        format!("run -o {}/result.json --unattended", output.display())
    );

    // Every call: the run, each line `export lava` prints, the reference to the stored run.
    let export = common::command()
        .args(["export", "lava", quick_run().to_str().unwrap()])
        .output()
        .unwrap();
    let want = format!(
        "lava-test-case boardbench-run --result pass\n{}lava-test-reference boardbench-document --result pass --reference {url}/api/v1/runs/7\n",
        text(&export.stdout)
    );
    assert_eq!(calls, want);

    let (auth, body) = service.join().unwrap();
    assert_eq!(auth, "Bearer secret-token");
    let sent: serde_json::Value = serde_json::from_str(&body).unwrap();
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(quick_run()).unwrap()).unwrap();
    assert_eq!(sent, recorded);

    // The document is in the log too, and comes back out of it.
    assert!(stdout.contains("BOARDBENCH-DOCUMENT-BEGIN gzip+base64 result.json"));
    let log = dir.path().join("job.log");
    std::fs::write(&log, &stdout).unwrap();
    let back = Command::new("sh")
        .arg("-c")
        .arg(
            "sed -n '/^BOARDBENCH-DOCUMENT-BEGIN/,/^BOARDBENCH-DOCUMENT-END/p' \"$1\" \
             | sed '1d;$d' | base64 -d | gzip -dc",
        )
        .arg("sh")
        .arg(&log)
        .output()
        .unwrap();
    assert!(back.status.success(), "{}", text(&back.stderr));
    let back: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    assert_eq!(back, recorded);
}

#[test]
fn a_failed_run_is_a_failed_case_and_nothing_else() {
    let Some(py) = lava_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let bb = fake_boardbench(dir.path(), 1, false);
    let (out, calls) = run_steps(
        &py,
        dir.path(),
        &[
            ("BOARDBENCH", bb.display().to_string()),
            ("OUTPUT", dir.path().join("out").display().to_string()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        calls,
        "lava-test-case boardbench-run --result fail\nlava-test-case boardbench-document --result fail\n"
    );
    assert!(text(&out.stdout).contains("boardbench exited with code 1"));
    assert!(!text(&out.stdout).contains("BOARDBENCH-DOCUMENT-BEGIN"));
}

/// A real LAVA job (Debian's lava-dispatcher) against this machine over SSH, when the
/// dispatcher and sshd are installed and we are root (scripts/test installs both, without
/// lava-dispatcher's recommends; see docs/export.md). About 30 s.
#[test]
fn real_lava_run_against_this_machine_when_lava_dispatcher_is_installed() {
    if common::host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return;
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let have = |p: &str| Path::new(p).exists();
    if !(root && have("/usr/bin/lava-run") && have("/usr/sbin/sshd")) {
        eprintln!(
            "skipped: needs root, lava-dispatcher and openssh-server (integrations/lava/lava-run-local)"
        );
        return;
    }
    let out = Command::new(repo().join("integrations/lava/lava-run-local"))
        .arg(env!("CARGO_BIN_EXE_boardbench"))
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    for want in ["boardbench-run pass", "run-valid ", "job pass"] {
        assert!(
            stdout.lines().any(|l| l.starts_with(want)),
            "{want} missing:\n{stdout}"
        );
    }
}
