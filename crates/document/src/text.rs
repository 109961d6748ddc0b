//! Rules every renderer applies to text that came from outside (a device name, a kernel
//! string, an uploader's tag): what may not reach a reader as it is, whatever the format; and
//! sizes with binary units, which the kernels' messages share with the renderers; and the one
//! CSV quoting rule.

/// Unicode's bidirectional controls (embeddings, overrides, isolates and marks). Left in a name
/// they reorder what a reader sees — `Raspberry Pi 5 \u{202e}B8 ledoM` displays as
/// "Raspberry Pi 5 Model 8B" — so every renderer shows each as U+FFFD instead.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `s` with every bidirectional control replaced by U+FFFD.
pub fn neutralise_bidi(s: &str) -> String {
    s.chars()
        .map(|c| if is_bidi_control(c) { '\u{fffd}' } else { c })
        .collect()
}

/// One CSV field — the one rule of every CSV written (the guide's tables, the results table):
/// bidirectional controls become U+FFFD; text a spreadsheet would run as a formula (`=`, `+`,
/// `-`, `@`, tab or CR first, and not a finite number: `-12.5` stays a number) gets a leading
/// `'`; then RFC 4180 quoting: quoted, with `"` doubled, when it holds a comma, a quote, a CR or
/// an LF, or begins or ends with a space (which a spreadsheet would otherwise drop).
pub fn csv_field(s: &str) -> String {
    let s = neutralise_bidi(s);
    let number = s.parse::<f64>().is_ok_and(f64::is_finite);
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !number {
        format!("'{s}")
    } else {
        s
    };
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// A size in bytes with a binary unit: "512 KiB", "32 MiB", "1.5 MiB" (one decimal unless
/// whole). The one rule of the kernels' messages and the text renderers.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if v.fract() == 0.0 {
        format!("{} {}", v as u64, UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn csv_fields_are_quoted_only_when_they_must_be() {
        assert_eq!(csv_field("RK3588"), "RK3588");
        assert_eq!(csv_field(""), "");
        assert_eq!(csv_field("Debian 12, arm64"), "\"Debian 12, arm64\"");
        assert_eq!(csv_field("8\" board"), "\"8\"\" board\"");
        assert_eq!(csv_field("a\rb"), "\"a\rb\"");
        assert_eq!(csv_field("a\nb"), "\"a\nb\"");
        assert_eq!(csv_field(" x"), "\" x\"");
        assert_eq!(csv_field("x "), "\"x \"");
        assert_eq!(csv_field("a b"), "a b");
    }

    #[test]
    fn csv_fields_cannot_run_as_formulas_or_reorder_text() {
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("+1 board"), "'+1 board");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("\rx"), "\"'\rx\"");
        assert_eq!(csv_field("-cmd|' /C calc'!A0"), "'-cmd|' /C calc'!A0");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        // Numbers stay numbers, negative ones too; a non-finite "number" is text.
        assert_eq!(csv_field("-12.5"), "-12.5");
        assert_eq!(csv_field("+3"), "+3");
        assert_eq!(csv_field("-1e3"), "-1e3");
        assert_eq!(csv_field("-inf"), "'-inf");
        assert_eq!(csv_field("Pi 5 \u{202e}B8 ledoM"), "Pi 5 \u{fffd}B8 ledoM");
    }

    #[test]
    fn sizes_with_binary_units() {
        assert_eq!(super::format_bytes(512 << 10), "512 KiB");
        assert_eq!(super::format_bytes(32 << 20), "32 MiB");
        assert_eq!(super::format_bytes(3 << 19), "1.5 MiB");
        assert_eq!(super::format_bytes(100), "100 B");
    }

    #[test]
    fn an_override_cannot_reorder_a_name() {
        let shown = super::neutralise_bidi("Raspberry Pi 5 \u{202e}B8 ledoM");
        assert_eq!(shown, "Raspberry Pi 5 \u{fffd}B8 ledoM");
        assert_eq!(super::neutralise_bidi("Radxa ROCK 5B"), "Radxa ROCK 5B");
        assert!(
            super::neutralise_bidi("\u{2066}\u{2069}\u{200f}")
                .chars()
                .all(|c| c == '\u{fffd}')
        );
    }
}
