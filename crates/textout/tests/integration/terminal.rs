//! The end-of-run terminal summary: no ANSI without colour, the figures a reviewer looks for,
//! and `Check the log` only when a finding says the numbers are not to be trusted.

use crate::common;

use common::{Figures, finding, machine, run_doc};
use document::Severity;
use textout::terminal_summary;

#[test]
fn no_escape_sequences_without_colour() {
    let f = Figures {
        khs: Some(18.74),
        findings: vec![
            finding(
                "throttling",
                Severity::Invalid,
                "Throttling \u{1b}[31moccured",
            ),
            finding("swapping", Severity::Warning, "Swap used"),
        ],
        ..Figures::default()
    };
    let doc = run_doc(machine("rk3588"), &f);
    let plain = terminal_summary(&doc, false);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let coloured = terminal_summary(&doc, true);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    // Colour only adds escapes: stripped, both say the same.
    let stripped: String = {
        let mut s = coloured.clone();
        while let Some(i) = s.find('\u{1b}') {
            let end = s[i..].find('m').map_or(s.len(), |e| i + e + 1);
            s.replace_range(i..end, "");
        }
        s
    };
    assert_eq!(stripped, plain);
}

#[test]
fn shows_memory_7zip_aes_sha_clock_and_findings() {
    let f = Figures {
        findings: vec![finding("swapping", Severity::Warning, "Swapping occured")],
        ..Figures::default()
    };
    let s = terminal_summary(&run_doc(machine("rk3399"), &f), false);
    for want in [
        "Memory performance:",
        "  cpu0 (Cortex-A53): memcpy 4321 MB/s, memset 15710 MB/s",
        "  cpu4 (Cortex-A72): memcpy 5114 MB/s, memset 14001 MB/s",
        "7-Zip: multi-threaded 12350 (runs: 12345, 12346, 12347), single-threaded 2306",
        "AES: 1284070 k (1000 bytes/s, aes-256-cbc, 16 KiB blocks)",
        "SHA-256: cpu0 (Cortex-A53) 1.50 MH/s (ARMv8 SHA2), cpu4 (Cortex-A72) 2.50 MH/s (ARMv8 SHA2)",
        "  cpu0 (Cortex-A53): 1416 MHz OPP, measured 1410 MHz, 1409 MHz when hot",
        "  cpu4 (Cortex-A72): 1800 MHz OPP, measured 1793 MHz, 1791 MHz when hot",
        "Findings:\n  [warning] swapping: Swapping occured\n",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    // A warning alone does not send anybody to the log.
    assert!(!s.contains("Check the log"), "{s}");
}

#[test]
fn check_the_log_only_when_numbers_are_invalid() {
    for (sev, hint) in [
        (Severity::Info, false),
        (Severity::Warning, false),
        (Severity::Invalid, true),
    ] {
        let f = Figures {
            findings: vec![finding("background-activity", sev, "busy")],
            ..Figures::default()
        };
        let s = terminal_summary(&run_doc(machine("rk3399"), &f), false);
        assert_eq!(s.contains("Check the log"), hint, "{sev:?}\n{s}");
    }
    let s = terminal_summary(&run_doc(machine("rk3399"), &Figures::default()), false);
    assert!(s.contains("Findings:\n  none\n"), "{s}");
    assert!(!s.contains("Check the log"));
}
