//! The corpus's SoC names are the SoC catalogue's ([`document::socs`]): one name per chip for
//! the table's rows, sbc-bench's guess line, boardbench's own guess and the service.

/// The table's own spellings that are no SoC name the catalogue could read on its own, with
/// the catalogue's name. Kept for callers that list the table's spellings; the catalogue's
/// aliases cover them.
#[rustfmt::skip]
pub static SOC_ALIASES: &[(&str, &str)] = &[
    ("RP3A0", "Broadcom BCM2710A1 (RP3A0)"),
    ("BCM2837B0", "Broadcom BCM2837"),
    ("RK3588s", "Rockchip RK3588"),
    ("RK3588S2", "Rockchip RK3588"),
    ("CP8180", "Cix P1 (CD8180)"),
    ("2 x Ampere Altra Max", "Ampere Altra Max"),
];

/// The catalogue's name for a SoC spelling (table cell, guess line, user input): the canonical
/// name when the catalogue knows it (an x86 model name cleaned), else the spelling as written
/// (trimmed) — which matches no row, so an unknown name never forms a group of its own.
pub fn normalise_soc(s: &str) -> String {
    document::socs::canonical(s).unwrap_or_else(|| s.trim().to_string())
}

/// The catalogue's name, `None` when the catalogue does not know the spelling.
pub fn known_soc(s: &str) -> Option<String> {
    document::socs::canonical(s)
}
