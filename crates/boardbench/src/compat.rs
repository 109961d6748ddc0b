//! sbc-bench compatibility: its switches and its name.
//!
//! sbc-bench takes `getopts 'uSchjkmMtTrRsgNPG'` and reads option values from the next word
//! (`-m 10`, `-t 50`). We translate such an argv into boardbench's subcommands before clap sees
//! it, so `boardbench -m 5`, `sbc-bench -c` (a link named `sbc-bench`) and scripts written for
//! sbc-bench keep working. Global options (`--sysroot DIR`, `--cpuinfo-file F`) may come first.
//!
//! | sbc-bench | boardbench |
//! |---|---|
//! | *(none, as `sbc-bench`)* | `run` (log /var/log/sbc-bench.log) |
//! | `-c` / `-s [net]` (also together) | `run --cpuminer` / `run --stockfish` |
//! | `-m [sec]` | `monitor --interval sec` |
//! | `-r [sec]` / `-j` / `-R` | `review [--interval sec]` / `review --quick` |
//! | `-k` | `kernel` |
//! | `-t [°C]` / `-T [°C]` | `thermal [--target-temp °C]` / `thermal --long …` |
//! | `-g [list]` | `graph [--cpus list]` |
//! | `-G` / `-P args…` | `env --for geekbench` / `env --for phoronix --per-cluster -- args…` |
//! | `-h` | `--help` |

use std::ffi::OsString;

/// Global options that take a value (they may precede an sbc-bench switch).
const GLOBALS_WITH_VALUE: &[&str] = &["--sysroot", "--cpuinfo-file"];

/// True when the program was started under sbc-bench's name (a link to this binary).
pub fn invoked_as_sbc_bench(argv0: &std::ffi::OsStr) -> bool {
    let name = std::path::Path::new(argv0)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name == "sbc-bench" || name == "sbc-bench.sh"
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
}

/// Translates sbc-bench style arguments into boardbench arguments. Anything that does not start
/// with one of sbc-bench's switches is passed through unchanged.
pub fn translate(argv: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let prog = argv.first().cloned().unwrap_or_else(|| "boardbench".into());
    let sbc_name = invoked_as_sbc_bench(&prog);
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // Leading global options stay in front.
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if GLOBALS_WITH_VALUE.contains(&a) {
            i += 2;
        } else if GLOBALS_WITH_VALUE
            .iter()
            .any(|g| a.starts_with(&format!("{g}=")))
        {
            i += 1;
        } else {
            break;
        }
    }
    let i = i.min(args.len());
    let (globals, rest) = args.split_at(i);
    let out: Vec<String> = match rest.first().map(String::as_str) {
        None if sbc_name => run_args(false, false, true),
        None => return Ok(argv),
        Some("-c" | "-s") => {
            let mut cpuminer = false;
            let mut stockfish = false;
            let mut extra = Vec::new();
            let mut j = 0;
            while j < rest.len() {
                match rest[j].as_str() {
                    "-c" => cpuminer = true,
                    "-s" => {
                        stockfish = true;
                        // sbc-bench's optional NNUE net name: boardbench uses the net the
                        // installed Stockfish was built with.
                        if rest.get(j + 1).is_some_and(|n| !n.starts_with('-')) {
                            eprintln!(
                                "boardbench: ignoring the NNUE net {:?}: the installed Stockfish's own net is used",
                                rest[j + 1]
                            );
                            j += 1;
                        }
                    }
                    other => extra.push(other.to_string()),
                }
                j += 1;
            }
            let mut v = run_args(cpuminer, stockfish, sbc_name);
            v.extend(extra);
            v
        }
        Some("-m") => with_optional_number(rest, "monitor", "--interval"),
        Some("-r" | "-j") => with_optional_number(rest, "review", "--interval"),
        Some("-R") => {
            let mut v = vec!["review".to_string(), "--quick".to_string()];
            v.extend(rest.iter().skip(1).cloned());
            v
        }
        Some("-k") => {
            let mut v = vec!["kernel".to_string()];
            v.extend(rest.iter().skip(1).cloned());
            v
        }
        Some("-t") => with_optional_number(rest, "thermal", "--target-temp"),
        Some("-T") => {
            let mut v = with_optional_number(rest, "thermal", "--target-temp");
            v.insert(1, "--long".to_string());
            v
        }
        Some("-g") => {
            let mut v = vec!["graph".to_string()];
            if let Some(list) = rest.get(1).filter(|l| !l.starts_with('-')) {
                v.push("--cpus".into());
                v.push(list.clone());
                v.extend(rest.iter().skip(2).cloned());
            } else {
                v.extend(rest.iter().skip(1).cloned());
            }
            v
        }
        Some("-G") => {
            let mut v = vec!["env".to_string(), "--for".into(), "geekbench".into()];
            v.extend(rest.iter().skip(1).cloned());
            v
        }
        Some("-P") => {
            // Everything after -P goes to phoronix-test-suite, as in sbc-bench, which runs the
            // tests per core type and then on all cores.
            let mut v = vec!["env".to_string(), "--for".into(), "phoronix".into()];
            if rest.len() > 1 {
                v.push("--per-cluster".into());
                v.push("--".into());
                v.extend(rest.iter().skip(1).cloned());
            }
            v
        }
        Some("-h") => vec!["--help".to_string()],
        Some("-u") => {
            return Err("boardbench: -u (self-update) is not offered: update boardbench through your package manager or cargo".into());
        }
        Some("-M") => {
            return Err("boardbench: sbc-bench's -M (memory controller throttling test) is not implemented yet in this release".into());
        }
        Some("-S") => {
            return Err(
                "boardbench: sbc-bench's -S (storage check) is part of `boardbench review`".into(),
            );
        }
        Some("-N") => {
            return Err(
                "boardbench: -N is sbc-bench's internal Netio poller; not available".into(),
            );
        }
        _ if sbc_name
            && !rest.is_empty()
            && rest[0].starts_with('-')
            && !rest[0].starts_with("--") =>
        {
            return Err(format!("sbc-bench: unknown switch {} (see -h)", rest[0]));
        }
        _ => return Ok(argv),
    };
    let mut v = vec![prog];
    v.extend(globals.iter().cloned().map(OsString::from));
    v.extend(out.into_iter().map(OsString::from));
    Ok(v)
}

fn run_args(cpuminer: bool, stockfish: bool, sbc_name: bool) -> Vec<String> {
    let mut v = vec!["run".to_string()];
    if cpuminer {
        v.push("--cpuminer".into());
    }
    if stockfish {
        v.push("--stockfish".into());
    }
    if sbc_name {
        v.push("--as-sbc-bench".into());
    }
    v
}

/// `-x [N] rest…` → `cmd [flag N] rest…`.
fn with_optional_number(rest: &[String], cmd: &str, flag: &str) -> Vec<String> {
    let mut v = vec![cmd.to_string()];
    if let Some(n) = rest.get(1).filter(|s| is_number(s)) {
        v.push(flag.into());
        v.push(n.clone());
        v.extend(rest.iter().skip(2).cloned());
    } else {
        v.extend(rest.iter().skip(1).cloned());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_as(prog: &str, args: &[&str]) -> Result<Vec<String>, String> {
        let argv = std::iter::once(prog)
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        translate(argv).map(|v| {
            v.into_iter()
                .skip(1)
                .map(|s| s.into_string().unwrap())
                .collect()
        })
    }

    fn t(args: &[&str]) -> Result<Vec<String>, String> {
        t_as("boardbench", args)
    }

    #[test]
    fn monitor_switch_with_and_without_interval() {
        assert_eq!(t(&["-m"]).unwrap(), ["monitor"]);
        assert_eq!(t(&["-m", "10"]).unwrap(), ["monitor", "--interval", "10"]);
    }

    #[test]
    fn global_options_may_come_first() {
        assert_eq!(
            t(&["--sysroot", "/x", "-m", "5"]).unwrap(),
            ["--sysroot", "/x", "monitor", "--interval", "5"]
        );
        assert_eq!(
            t(&["--sysroot=/x", "-k"]).unwrap(),
            ["--sysroot=/x", "kernel"]
        );
    }

    #[test]
    fn the_run_switches() {
        assert_eq!(t(&["-c"]).unwrap(), ["run", "--cpuminer"]);
        assert_eq!(t(&["-s"]).unwrap(), ["run", "--stockfish"]);
        assert_eq!(
            t(&["-c", "-s"]).unwrap(),
            ["run", "--cpuminer", "--stockfish"]
        );
        assert_eq!(
            t(&["-s", "nn-6877cd24400e.nnue"]).unwrap(),
            ["run", "--stockfish"]
        );
    }

    #[test]
    fn the_sbc_bench_name_runs_with_its_log() {
        assert_eq!(
            t_as("/usr/local/bin/sbc-bench", &[]).unwrap(),
            ["run", "--as-sbc-bench"]
        );
        assert_eq!(
            t_as("sbc-bench", &["-c"]).unwrap(),
            ["run", "--cpuminer", "--as-sbc-bench"]
        );
        assert_eq!(
            t_as("sbc-bench.sh", &["-m", "3"]).unwrap(),
            ["monitor", "--interval", "3"]
        );
        assert!(
            t_as("sbc-bench", &["-x"])
                .unwrap_err()
                .contains("unknown switch")
        );
        // no arguments as boardbench: clap shows the help
        assert!(t(&[]).unwrap().is_empty());
    }

    #[test]
    fn the_other_modes() {
        assert_eq!(t(&["-k"]).unwrap(), ["kernel"]);
        assert_eq!(t(&["-r"]).unwrap(), ["review"]);
        assert_eq!(t(&["-r", "30"]).unwrap(), ["review", "--interval", "30"]);
        assert_eq!(t(&["-j"]).unwrap(), ["review"]);
        assert_eq!(t(&["-R"]).unwrap(), ["review", "--quick"]);
        assert_eq!(t(&["-t"]).unwrap(), ["thermal"]);
        assert_eq!(
            t(&["-t", "45"]).unwrap(),
            ["thermal", "--target-temp", "45"]
        );
        assert_eq!(
            t(&["-T", "60"]).unwrap(),
            ["thermal", "--long", "--target-temp", "60"]
        );
        assert_eq!(
            t(&["-g", "clusters"]).unwrap(),
            ["graph", "--cpus", "clusters"]
        );
        assert_eq!(t(&["-G"]).unwrap(), ["env", "--for", "geekbench"]);
        assert_eq!(
            t(&["-P", "pts/openssl", "pts/7zip"]).unwrap(),
            [
                "env",
                "--for",
                "phoronix",
                "--per-cluster",
                "--",
                "pts/openssl",
                "pts/7zip"
            ]
        );
        assert_eq!(t(&["-h"]).unwrap(), ["--help"]);
        assert!(t(&["-u"]).unwrap_err().contains("package manager"));
        assert!(t(&["-M"]).unwrap_err().contains("not implemented yet"));
    }

    #[test]
    fn subcommands_pass_through() {
        assert_eq!(t(&["info", "--json"]).unwrap(), ["info", "--json"]);
        assert_eq!(
            t(&["--sysroot", "/x", "info"]).unwrap(),
            ["--sysroot", "/x", "info"]
        );
    }
}
