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
//! | `-h` | sbc-bench's own help ([`sbc_bench_help`]) under its name, else `--help` |
//!
//! `NOTUNING=yes` is sbc-bench's switch for "leave the governors alone" in every mode; the modes
//! it reaches here (review, thermal, env) get `--no-tune` (`run` reads the variable itself).

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

/// sbc-bench's help, for `sbc-bench -h` (and `--help`) under sbc-bench's name: its switches as
/// boardbench carries them out, and the environment variables it honours.
pub fn sbc_bench_help(argv: &[OsString]) -> Option<String> {
    let prog = argv.first()?;
    if !invoked_as_sbc_bench(prog) {
        return None;
    }
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let first = args.get(leading_globals(&args))?;
    (first == "-h" || first == "--help").then(|| SBC_BENCH_HELP.to_string())
}

const SBC_BENCH_HELP: &str = "\
Usage: sbc-bench [-c] [-s [net]] [-g [list]] [-G] [-h] [-j] [-k] [-m [sec]] [-P args…]
                 [-r [sec]] [-R] [-t [°C]] [-T [°C]]

boardbench, called as sbc-bench. Without a switch: the full benchmark run (idle gate,
performance governors, clock check, memory bandwidth and latency, OpenSSL, SHA-256, 7-Zip),
everything restored afterwards; the log is /var/log/sbc-bench.log and its last line is the
Results.md summary row. Run it as root.

Switches:
  -c            the full run plus cpuminer (a NEON/SSE/AVX stress test)
  -s [net]      the full run plus Stockfish (with the installed Stockfish's own net; a net
                name is ignored); -c and -s may be combined
  -m [sec]      monitor clocks, load and temperature every sec seconds (default 5)
  -r [sec]      review mode: settings and bottlenecks, tune, then monitor every sec seconds
                (default 60) until Ctrl-C, or run $ExecuteCommand under monitoring
  -j            the same review mode
  -R            review mode without the slow checks (no measured clocks)
  -k            kernel version, origin and upstream support status
  -t [°C]       thermal test; with °C, first wait until the SoC has cooled to it
  -T [°C]       the long thermal test
  -g [list]     performance (and per watt) per cluster and cpufreq OPP; list: clusters
                (default), cores, all, or CPUs like 0,4-5
  -G            controlled environment for Geekbench (run it, then Ctrl-C)
  -P args…      controlled environment for phoronix-test-suite batch-run args… (per cluster,
                then on all cores)
  -h            this help

Environment variables:
  MODE=unattended   no questions; when the box does not become idle, give up (exit code 3)
                    instead of benchmarking a busy box
  MODE=extensive    the longer run: all-core OpenSSL, 7-Zip per cluster, Stockfish, cpuminer
  MaxKHz=kHz        cap every cpufreq policy at kHz for the run (restored afterwards); clock
                    checks and -g skip the OPPs above it
  MinKHz=kHz        clock checks and -g skip the OPPs below it (-g default: 600000)
  NOTUNING=yes      leave governors and clock limits as they are (run, -r/-R, -t/-T, -G/-P)
  CPUINFOFILE=file  read file instead of /proc/cpuinfo (another board's capture)
  ExecuteCommand=…  review mode: run this shell command under monitoring instead of waiting
                    for Ctrl-C
  NO_COLOR=1        no colours

Not offered: -u (update boardbench through your package manager), -M (memory controller
throttling test), -S (storage check: part of -r), -N (internal).

Exit codes: 0 valid run, 2 completed but not to be trusted, 3 never idle (unattended), 1 error,
64 usage error (nothing was started), 128+N ended by signal N (everything restored).
Every boardbench command is available too: boardbench --help.
";

/// The words sbc-bench's `MODE` takes from a user (`gb` and `pts` are set by its own `-G`/`-P`).
pub const MODE_WORDS: &[&str] = &["unattended", "extensive"];

/// The subcommand of a (translated) argv: its first word after the global options.
pub fn subcommand(argv: &[OsString]) -> Option<String> {
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args.get(leading_globals(&args)).cloned()
}

/// sbc-bench's environment variables, checked before anything runs by the commands that read
/// them: `MaxKHz`/`MinKHz` (run, clock, graph) must be kHz (a whole number), `MODE` (run) only
/// words sbc-bench knows. The message names the variable. Other commands ignore them (`MODE`
/// is a common name in other software's environment).
pub fn check_environment(argv: &[OsString]) -> Result<(), String> {
    let get = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    check_environment_with(subcommand(argv).as_deref().unwrap_or(""), &get)
}

fn check_environment_with(
    command: &str,
    get: &dyn Fn(&str) -> Option<String>,
) -> Result<(), String> {
    if !matches!(command, "run" | "clock" | "graph") {
        return Ok(());
    }
    let mut khz = [None, None];
    for (i, name) in ["MaxKHz", "MinKHz"].into_iter().enumerate() {
        if let Some(v) = get(name) {
            match v.trim().parse::<u64>() {
                Ok(k) if k > 0 => khz[i] = Some(k),
                _ => {
                    return Err(format!(
                        "{name}={v}: not a clock in kHz (a whole number such as 1416000)"
                    ));
                }
            }
        }
    }
    if let [Some(max), Some(min)] = khz
        && min > max
    {
        return Err(format!(
            "MinKHz={min} is above MaxKHz={max}: no OPP would be left"
        ));
    }
    if let Some(mode) = get("MODE").filter(|_| command == "run") {
        for w in mode
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            if !MODE_WORDS.contains(&w.to_lowercase().as_str()) {
                return Err(format!(
                    "MODE={mode}: unknown word {w:?} (sbc-bench's MODE takes {})",
                    MODE_WORDS.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// Translates sbc-bench style arguments into boardbench arguments. Anything that does not start
/// with one of sbc-bench's switches is passed through unchanged.
pub fn translate(argv: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let no_tuning = std::env::var("NOTUNING").is_ok_and(|v| v == "yes");
    translate_with(argv, no_tuning)
}

/// [`translate`] with sbc-bench's `NOTUNING=yes` given.
fn translate_with(argv: Vec<OsString>, no_tuning: bool) -> Result<Vec<OsString>, String> {
    let prog = argv.first().cloned().unwrap_or_else(|| "boardbench".into());
    let sbc_name = invoked_as_sbc_bench(&prog);
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // Leading global options stay in front.
    let i = leading_globals(&args);
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
            // As sbc-bench: the usage with the error, exit 1.
            let usage: Vec<&str> = SBC_BENCH_HELP.lines().take(2).collect();
            return Err(format!(
                "sbc-bench: unknown switch {} (see -h)\n{}",
                rest[0],
                usage.join("\n")
            ));
        }
        _ => return Ok(argv),
    };
    let mut out = out;
    if no_tuning && matches!(out[0].as_str(), "review" | "thermal" | "env") {
        out.insert(1, "--no-tune".into());
    }
    let mut v = vec![prog];
    v.extend(globals.iter().cloned().map(OsString::from));
    v.extend(out.into_iter().map(OsString::from));
    Ok(v)
}

/// How many of `args` are leading global options with their values.
fn leading_globals(args: &[String]) -> usize {
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
    i.min(args.len())
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

    fn argv(prog: &str, args: &[&str]) -> Vec<OsString> {
        std::iter::once(prog)
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn sbc_bench_h_is_sbc_benchs_help() {
        let h = sbc_bench_help(&argv("/usr/local/bin/sbc-bench", &["-h"])).unwrap();
        assert!(h.starts_with("Usage: sbc-bench [-c]"), "{h}");
        for switch in [
            "-c ",
            "-s [net]",
            "-m [sec]",
            "-r [sec]",
            "-j ",
            "-R ",
            "-k ",
            "-t [°C]",
            "-T [°C]",
            "-g [list]",
            "-G ",
            "-P args",
            "-h ",
        ] {
            assert!(
                h.contains(&format!("\n  {switch}")),
                "{switch} missing:\n{h}"
            );
        }
        for var in [
            "MODE=unattended",
            "MODE=extensive",
            "MaxKHz=",
            "MinKHz=",
            "NOTUNING=yes",
            "CPUINFOFILE=",
            "ExecuteCommand=",
        ] {
            assert!(h.contains(&format!("\n  {var}")), "{var} missing:\n{h}");
        }
        assert!(
            h.contains("Without a switch: the full benchmark run"),
            "{h}"
        );
        // Global options may come first; --help under the name is the same help.
        assert_eq!(
            sbc_bench_help(&argv("sbc-bench", &["--sysroot", "/x", "--help"])).as_deref(),
            Some(h.as_str())
        );
        // Under boardbench's name -h is boardbench's help; other sbc-bench switches are no help.
        assert!(sbc_bench_help(&argv("boardbench", &["-h"])).is_none());
        assert!(sbc_bench_help(&argv("sbc-bench", &["-m", "-h"])).is_none());
        assert!(sbc_bench_help(&argv("sbc-bench", &[])).is_none());
        // Every line fits a 100-column terminal.
        assert!(h.lines().all(|l| l.chars().count() <= 100), "{h}");
    }

    #[test]
    fn notuning_reaches_every_mode_that_tunes() {
        let tr = |args: &[&str]| -> Vec<String> {
            translate_with(argv("sbc-bench", args), true)
                .unwrap()
                .into_iter()
                .skip(1)
                .map(|s| s.into_string().unwrap())
                .collect()
        };
        assert_eq!(
            tr(&["-r", "30"]),
            ["review", "--no-tune", "--interval", "30"]
        );
        assert_eq!(tr(&["-R"]), ["review", "--no-tune", "--quick"]);
        assert_eq!(tr(&["-T", "60"])[..2], ["thermal", "--no-tune"]);
        assert_eq!(tr(&["-G"])[..2], ["env", "--no-tune"]);
        // run reads NOTUNING itself; monitor and kernel never tune.
        assert_eq!(tr(&["-c"]), ["run", "--cpuminer", "--as-sbc-bench"]);
        assert_eq!(tr(&["-m"]), ["monitor"]);
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
        let e = t_as("sbc-bench", &["-x"]).unwrap_err();
        assert!(e.contains("unknown switch -x"), "{e}");
        assert!(e.contains("\nUsage: sbc-bench [-c]"), "{e}");
        // no arguments as boardbench: clap shows the help
        assert!(t(&[]).unwrap().is_empty());
    }

    #[test]
    fn sbc_benchs_variables_are_checked_by_their_names() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |n: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            }
        };
        let e = check_environment_with("run", &env(&[("MaxKHz", "abc")])).unwrap_err();
        assert!(e.starts_with("MaxKHz=abc: not a clock in kHz"), "{e}");
        let e = check_environment_with("clock", &env(&[("MinKHz", "-5")])).unwrap_err();
        assert!(e.starts_with("MinKHz=-5"), "{e}");
        let e = check_environment_with("run", &env(&[("MaxKHz", "1000"), ("MinKHz", "2000")]))
            .unwrap_err();
        assert!(e.contains("above MaxKHz"), "{e}");
        let e = check_environment_with("run", &env(&[("MODE", "extensiv")])).unwrap_err();
        assert!(e.contains("unknown word \"extensiv\""), "{e}");
        assert!(check_environment_with("run", &env(&[("MODE", "unattended extensive")])).is_ok());
        assert!(check_environment_with("run", &env(&[("MaxKHz", "1416000")])).is_ok());
        // Commands that do not read them are not stopped by them.
        assert!(check_environment_with("results", &env(&[("MODE", "x"), ("MaxKHz", "y")])).is_ok());
        assert!(check_environment_with("clock", &env(&[("MODE", "x")])).is_ok());
        assert_eq!(
            subcommand(&argv("boardbench", &["--sysroot", "/x", "run", "-q"])).as_deref(),
            Some("run")
        );
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
