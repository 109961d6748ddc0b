//! Rules every renderer applies to text that came from outside (a device name, a kernel
//! string, an uploader's tag): what may not reach a reader as it is, whatever the format.

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

#[cfg(test)]
mod tests {
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
