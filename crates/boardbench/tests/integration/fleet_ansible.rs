//! The Ansible role (integrations/ansible/) run for real: Debian's ansible-core plays the example
//! playbook against localhost with a local connection, in a short mode (`env -- true` on the
//! RK3588 fixture tree, nothing tuned), with the debug binary standing in for scripts/dist's
//! release binary and a results database in a temporary directory. The second play must change
//! nothing. ansible-lint checks the role and playbook.
//!
//! Host only (skipped under qemu, BOARDBENCH_EMULATED): it starts ansible, a Python program of
//! the host. scripts/test installs ansible-core and ansible-lint; without them the tests skip
//! with a note.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have(tool: &str) -> bool {
    common::which(tool, &[]).is_some()
}

fn skip(tool: &str) -> bool {
    if common::host_only() {
        eprintln!("skipped under emulation");
        return true;
    }
    if !have(tool) {
        eprintln!("skipped: {tool} is not installed (scripts/test installs it)");
        return true;
    }
    false
}

/// Runs `cmd` with an upper bound on its time (coreutils timeout).
fn bounded(secs: u32, cmd: &mut Command) -> Output {
    let prog = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let mut t = Command::new("timeout");
    t.args(["-k", "5", &secs.to_string()]).arg(prog).args(args);
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => t.env(k, v),
            None => t.env_remove(k),
        };
    }
    if let Some(d) = cmd.get_current_dir() {
        t.current_dir(d);
    }
    t.output().expect("timeout runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `changed=N` of the play recap for localhost.
fn recap(out: &str, key: &str) -> u32 {
    let line = out
        .lines()
        .find(|l| l.starts_with("localhost") && l.contains("changed="))
        .unwrap_or_else(|| panic!("no play recap:\n{out}"));
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

#[test]
fn playbook_installs_runs_fetches_and_stores_then_changes_nothing_the_second_time() {
    if skip("ansible-playbook") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let bin = env!("CARGO_BIN_EXE_boardbench");
    let sysroot = repo().join("crates/probe/tests/roots/rk3588");
    let vars = serde_json::json!({
        "boardbench_hosts": "localhost",
        "ansible_become": false,
        "boardbench_binary_src": bin,
        "boardbench_bin": t.join("host/bin/boardbench"),
        "boardbench_remote_dir": t.join("host/docs"),
        "boardbench_results_dir": t.join("controller/results"),
        "boardbench_controller_bin": bin,
        "boardbench_controller_db": t.join("controller/lab.sqlite"),
        "boardbench_run_id": "ci",
        "boardbench_mode": "env",
        "boardbench_args": ["--sysroot", sysroot, "--for", "geekbench", "--no-idle-gate",
            "--no-tune", "--no-store", "--interval", "0.2", "--", "true"],
        "boardbench_poll_interval": 1,
        "boardbench_async_timeout": 120,
    });
    std::fs::create_dir_all(t.join("host/bin")).unwrap();
    let vars_file = t.join("vars.json");
    std::fs::write(&vars_file, vars.to_string()).unwrap();
    let play = || {
        let mut c = Command::new("ansible-playbook");
        c.args(["-i", "localhost,", "-c", "local"])
            .arg(repo().join("integrations/ansible/playbook.yml"))
            .arg("-e")
            .arg(format!("@{}", vars_file.display()))
            .env("ANSIBLE_HOME", t.join("ansible-home"))
            .env("ANSIBLE_LOCAL_TEMP", t.join("ansible-tmp"))
            .env("ANSIBLE_ASYNC_DIR", t.join("ansible-async"))
            .env("ANSIBLE_NOCOLOR", "1")
            .env("ANSIBLE_RETRY_FILES_ENABLED", "0")
            .env("ANSIBLE_LOCALHOST_WARNING", "0")
            .env("ANSIBLE_INVENTORY_UNPARSED_WARNING", "0");
        let o = bounded(240, &mut c);
        let s = text(&o);
        assert!(o.status.success(), "ansible-playbook failed:\n{s}");
        s
    };

    // An earlier play's run that was interrupted (Ctrl-C, a reboot) left its temporary
    // document behind: the next play runs again all the same (issue 47).
    std::fs::create_dir_all(t.join("host/docs")).unwrap();
    std::fs::write(t.join("host/docs/ci.json.partial"), "{\"cut\": ").unwrap();
    let first = play();
    assert_eq!(recap(&first, "failed"), 0, "{first}");
    // install, directory, run, fetch, results add (the upload is skipped: no URL).
    assert!(recap(&first, "changed") >= 5, "{first}");
    let installed = std::fs::metadata(t.join("host/bin/boardbench")).unwrap();
    assert!(installed.len() > 0);
    let fetched = t.join("controller/results/localhost/ci.json");
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&fetched).unwrap()).unwrap();
    assert_eq!(doc["run"]["profile"], "env-geekbench");
    assert!(!t.join("host/docs/ci.json.partial").exists());
    let listed = bounded(
        30,
        Command::new(bin)
            .args(["results", "list", "--db"])
            .arg(t.join("controller/lab.sqlite")),
    );
    assert!(listed.status.success(), "{}", text(&listed));
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count(),
        1,
        "one run stored:\n{}",
        text(&listed)
    );

    // Same run id: nothing is run, copied, fetched or stored again.
    let second = play();
    assert_eq!(recap(&second, "changed"), 0, "{second}");
    assert_eq!(recap(&second, "failed"), 0, "{second}");
}

#[test]
fn role_and_playbook_pass_ansible_lint() {
    if skip("ansible-lint") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let o = bounded(
        300,
        Command::new("ansible-lint")
            .args(["--nocolor", "--offline"])
            .current_dir(repo().join("integrations/ansible"))
            .env("ANSIBLE_HOME", tmp.path().join("ansible-home"))
            .env("HOME", tmp.path()),
    );
    assert!(o.status.success(), "ansible-lint:\n{}", text(&o));
}
