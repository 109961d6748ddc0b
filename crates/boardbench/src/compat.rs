//! sbc-bench compatibility: its switches and its name.
//!
//! sbc-bench takes `getopts 'uSchjkmMtTrRsgNPG'` and reads option values from the next word
//! (`-m 10`). We translate such an argv into boardbench's subcommands before clap sees it, so
//! `boardbench -m 5` and a link named `sbc-bench` behave like sbc-bench.

use std::ffi::OsString;

/// Translates sbc-bench style arguments into boardbench arguments. Anything that does not start
/// with one of sbc-bench's switches is passed through unchanged.
pub fn translate(argv: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let prog = argv.first().cloned().unwrap_or_else(|| "boardbench".into());
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let first = args.first().map(String::as_str);
    let rest_from = |i: usize| args.iter().skip(i).cloned();
    let out: Vec<String> = match first {
        Some("-m") => {
            let mut v = vec!["monitor".to_string()];
            if let Some(n) = args.get(1).filter(|s| s.parse::<f64>().is_ok()) {
                v.push("--interval".into());
                v.push(n.clone());
                v.extend(rest_from(2));
            } else {
                v.extend(rest_from(1));
            }
            v
        }
        Some(
            sw @ ("-c" | "-s" | "-r" | "-j" | "-R" | "-t" | "-T" | "-g" | "-G" | "-P" | "-k" | "-M"
            | "-S" | "-u" | "-N"),
        ) => {
            return Err(format!(
                "boardbench: sbc-bench's {sw} switch is not implemented yet in this release"
            ));
        }
        _ => return Ok(argv),
    };
    let mut v = vec![prog];
    v.extend(out.into_iter().map(OsString::from));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(args: &[&str]) -> Result<Vec<String>, String> {
        let argv = std::iter::once("boardbench")
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

    #[test]
    fn monitor_switch_with_and_without_interval() {
        assert_eq!(t(&["-m"]).unwrap(), ["monitor"]);
        assert_eq!(t(&["-m", "10"]).unwrap(), ["monitor", "--interval", "10"]);
    }

    #[test]
    fn subcommands_pass_through_and_unknown_switches_say_not_yet() {
        assert_eq!(t(&["info", "--json"]).unwrap(), ["info", "--json"]);
        assert!(t(&["-k"]).unwrap_err().contains("not implemented yet"));
    }
}
