//! The table's SoC spellings mapped to the names boardbench's own SoC guess produces
//! (crates/probe/src/soc.rs: "Rockchip RK3588", "NVIDIA Orin (T234)", "Broadcom BCM2711" …).
//! First the explicit aliases, then the vendor-prefix rules; anything else stays as written.

/// Table spelling (exact, case-insensitive) → boardbench's SoC name. Sources: the page's own
/// explanations (Jetson, Hetzner CAX11 = Ampere Altra …) and the probe's name tables.
#[rustfmt::skip]
pub static SOC_ALIASES: &[(&str, &str)] = &[
    ("RP3A0", "Broadcom BCM2710A1 (RP3A0)"),
    ("BCM2837B0", "Broadcom BCM2837"),
    ("Tegra X1", "NVIDIA Tegra X1 (T210)"),
    ("Jetson Nano", "NVIDIA Tegra X1 (T210)"),
    ("Orin NX", "NVIDIA Orin (T234)"),
    ("Jetson AGX Orin", "NVIDIA Orin (T234)"),
    ("Jetson Orin Nano", "NVIDIA Orin (T234)"),
    ("Jetson Xavier AGX", "NVIDIA Xavier (T194)"),
    ("Jetson Xavier NX", "NVIDIA Xavier (T194)"),
    ("Exynos 5422", "Samsung Exynos 5422"),
    ("Nexell S5P6818", "Nexell S5P6818"),
    ("RK3588s", "Rockchip RK3588S"),
    ("RK3588S2", "Rockchip RK3588S"),
    ("T-Head TH1520", "T-Head TH1520"),
    ("SpacemiT K1", "SpacemiT K1"),
    ("JH7110", "StarFive JH7110"),
    ("JH7110S", "StarFive JH7110S"),
    ("SG2042", "Sophgo SG2042"),
    ("SG2000", "Sophgo SG2000"),
    ("SG2300X", "Sophgo SG2300X"),
    ("QCS6490", "Qualcomm QCS6490"),
    ("NXP LX2160A", "NXP LX2160A"),
    ("NXP i.MX6", "NXP i.MX6"),
    ("i.MX8MPlus EVK", "NXP i.MX8MP"),
    ("Armada 388", "Marvell Armada 388"),
    ("Armada 3720", "Marvell Armada 3720"),
    ("Armada 8040", "Marvell Armada 8040"),
    ("Ampere Altra", "Ampere Altra"),
    ("2 x Ampere Altra Max", "Ampere Altra Max"),
    ("2 x ThunderX CN8890", "Cavium ThunderX CN88xx"),
    ("SSD202D", "SigmaStar SSD201/SSD202D"),
    ("CD8180", "Cix P1 (CD8180)"),
    ("CP8180", "Cix P1 (CD8180)"),
    ("Apple M1 Pro", "Apple M1 Pro (T6000)"),
    ("TI J721E", "TI J721E"),
    ("MT7623", "MediaTek MT7623"),
    ("RTD1395", "Realtek RTD1395"),
    ("EIC7702X", "ESWIN EIC7702X"),
    ("Eswin EIC7700X", "ESWIN EIC7700X"),
    ("Kendryte K510", "Canaan K510"),
    ("Opteron A1100", "AMD Opteron A1100"),
    ("GB10", "NVIDIA GB10"),
    ("Qualcomm Snapdragon 835", "Qualcomm MSM8998"),
    ("N100", "Intel N100"),
    ("MT8395 Genio 1200", "MediaTek Genio 1200 (MT8395)"),
    ("Olimex A20-Lime2", "Allwinner A20"),
    ("Phytium FT-2000/4", "Phytium FT-2000/4"),
    ("Phytium D2000", "Phytium D2000"),
    ("Phytium D3000/8", "Phytium D3000"),
    ("Loongson-3A5000-HV", "Loongson 3A5000"),
];

/// Vendor by model prefix, for bare models ("RK3399", "S905X3", "A733", "BCM2711").
#[rustfmt::skip]
static PREFIXES: &[(&str, &str)] = &[
    ("RK", "Rockchip"),
    ("BCM", "Broadcom"),
    ("S9", "Amlogic"),
    ("S8", "Amlogic"),
    ("A311", "Amlogic"),
    ("A733", "Allwinner"),
    ("A527", "Allwinner"),
];

/// The vendor names already spelled out in the table ("Allwinner H6", "Amlogic S905").
static VENDORS: &[&str] = &[
    "Allwinner ",
    "Amlogic ",
    "Rockchip ",
    "Broadcom ",
    "NVIDIA ",
];

/// Normalise a SoC spelling (from the table or from boardbench's guess) to boardbench's name.
pub fn normalise_soc(s: &str) -> String {
    let s = s.trim();
    if let Some((_, to)) = SOC_ALIASES
        .iter()
        .find(|(from, _)| from.eq_ignore_ascii_case(s))
    {
        return to.to_string();
    }
    if VENDORS.iter().any(|v| s.starts_with(v)) {
        return s.to_string();
    }
    let upper = s.to_ascii_uppercase();
    for (p, vendor) in PREFIXES {
        if upper.starts_with(p)
            && (p.ends_with(|c: char| c.is_ascii_digit())
                || upper[p.len()..].starts_with(|c: char| c.is_ascii_digit()))
        {
            return format!("{vendor} {upper}");
        }
    }
    s.to_string()
}
