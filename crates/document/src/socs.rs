//! The SoC catalogue: one name per chip, for every place boardbench names a SoC — the native
//! guess (probe), the reading of sbc-bench's `SoC guess:` line and of its header's device name,
//! the rows of sbc-bench's published table (corpus), the service and placement.
//!
//! Each [`Soc`] has a canonical name ("Rockchip RK3588"), its vendor, the other spellings it is
//! known by (the table's "RK3588s", sbc-bench's "RK3588/RK3588s", the kernel's "BCM2709") and
//! its core layout where it is fixed. [`lookup`] reads one spelling; [`of_guess`] reads a whole
//! guess line with its detail ("Amlogic Meson G12B (S922X) Revision 29:b", "Allwinner H616/H313",
//! "Ampere Altra / guessing impossible since running in kvm"); [`of_board`] names the SoC of
//! the boards sbc-bench's table names ("Raspberry Pi 4 Model B Rev 1.4", "ROCK PI 4B"); x86 CPU
//! model names are their own catalogue ([`x86_model`]: Intel and AMD model numbers name one
//! chip each).
//!
//! A spelling the catalogue does not know gives `None`, never a new name: callers say "SoC not
//! known: …" instead of making a group of one.
//!
//! Decisions (where a chip has several names or steppings):
//! - **RK3588 and RK3588S are one SoC** ("Rockchip RK3588"): the same die with the same 4×A76 +
//!   4×A55 at the same clocks; the S is the smaller package with fewer I/O lanes. sbc-bench's
//!   own page says they perform alike, and its guess line cannot tell them apart
//!   ("RK3588/RK3588s"). RK3588S2 is a later RK3588S stepping. RK3582 (the binned die with
//!   2 big cores) stays its own SoC: its core layout differs.
//! - **Broadcom steppings are the chip** (BCM2711B0/C0 → BCM2711, BCM2837B0 → BCM2837,
//!   BCM2712C1/D0 → BCM2712): the steppings have the same cores; their clock difference
//!   (RPi 3 B+ 1.4 GHz against 1.2, RPi 4 1.8 GHz on C0 boards) is in every row's clock column.
//!   sbc-bench's "BCM2710" (the downstream kernel's name on the RPi 3) is the BCM2837, its
//!   "BCM2709" the BCM2836. The RP3A0 (Zero 2) stays its own SoC as the table names it: the
//!   same BCM2710A1 die, but in a package with 512 MB stacked LPDDR2 and a 1 GHz limit.
//! - **Die siblings with the same cores and a second name are one SoC**: Allwinner H2+ = H3,
//!   H313 = H616, V40 = R40, StarFive JH7110S = JH7110 (the lower-clocked bin; sbc-bench's
//!   guess line says "JH7110" on both), Qualcomm QCM6490 = QCS6490, BCM2709 = BCM2836. Siblings the table
//!   keeps apart (Amlogic S922X and A311D, H616 and H618, S905X3 and S905D3) stay apart.
//!
//! Sources: the names in sbc-bench's published table (Results.md, BSD-3-Clause, Copyright (c)
//! 2018 Thomas Kaiser) and in its logs' `SoC guess:` lines; core layouts from the vendors'
//! product pages and the Linux device trees.

/// One chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Soc {
    /// The one name boardbench uses ("Rockchip RK3588").
    pub name: &'static str,
    pub vendor: &'static str,
    /// Other spellings, without the vendor ("RK3588S", "RK3588s", "RK3588S2").
    pub aliases: &'static [&'static str],
    /// The cores, biggest cluster first: (count, core type). Empty where the chip is sold with
    /// different core counts (server parts, cloud slices) or the layout is not known here.
    pub cores: &'static [(u16, &'static str)],
}

impl Soc {
    /// The number of cores of the fixed layout; `None` where it is not fixed.
    pub fn core_count(&self) -> Option<u32> {
        (!self.cores.is_empty()).then(|| self.cores.iter().map(|(n, _)| u32::from(*n)).sum())
    }
    /// "4+4" (per cluster), "4" for one cluster; `None` where not fixed.
    pub fn layout(&self) -> Option<String> {
        (!self.cores.is_empty()).then(|| {
            self.cores
                .iter()
                .map(|(n, _)| n.to_string())
                .collect::<Vec<_>>()
                .join("+")
        })
    }
}

macro_rules! soc {
    ($name:expr, $vendor:expr, [$($a:expr),*], [$(($n:expr, $c:expr)),*]) => {
        Soc { name: $name, vendor: $vendor, aliases: &[$($a),*], cores: &[$(($n, $c)),*] }
    };
}

/// The catalogue. Every SoC of sbc-bench's table is here, and the common ones of its logs.
#[rustfmt::skip]
pub static CATALOGUE: &[Soc] = &[
    // Rockchip
    soc!("Rockchip RK3188", "Rockchip", ["RK3188"], [(4, "Cortex-A9")]),
    soc!("Rockchip RK3228A", "Rockchip", ["RK3228A", "RK3228"], [(4, "Cortex-A7")]),
    soc!("Rockchip RK3229", "Rockchip", ["RK3229"], [(4, "Cortex-A7")]),
    soc!("Rockchip RK3288", "Rockchip", ["RK3288"], [(4, "Cortex-A17")]),
    soc!("Rockchip RK3308", "Rockchip", ["RK3308"], [(4, "Cortex-A35")]),
    soc!("Rockchip RK3318", "Rockchip", ["RK3318"], [(4, "Cortex-A53")]),
    soc!("Rockchip RK3326", "Rockchip", ["RK3326"], [(4, "Cortex-A35")]),
    soc!("Rockchip RK3328", "Rockchip", ["RK3328"], [(4, "Cortex-A53")]),
    soc!("Rockchip RK3368", "Rockchip", ["RK3368"], [(4, "Cortex-A53"), (4, "Cortex-A53")]),
    soc!("Rockchip RK3399", "Rockchip", ["RK3399"], [(2, "Cortex-A72"), (4, "Cortex-A53")]),
    soc!("Rockchip RK3528", "Rockchip", ["RK3528", "RK3528A"], [(4, "Cortex-A53")]),
    soc!("Rockchip RK3566", "Rockchip", ["RK3566"], [(4, "Cortex-A55")]),
    soc!("Rockchip RK3568", "Rockchip", ["RK3568", "RK3568B2"], [(4, "Cortex-A55")]),
    soc!("Rockchip RK3576", "Rockchip", ["RK3576"], [(4, "Cortex-A72"), (4, "Cortex-A53")]),
    soc!("Rockchip RK3582", "Rockchip", ["RK3582"], [(2, "Cortex-A76"), (4, "Cortex-A55")]),
    soc!("Rockchip RK3588", "Rockchip", ["RK3588", "RK3588S", "RK3588s", "RK3588S2", "RK3588/RK3588s", "RK3588/RK3588S"],
         [(4, "Cortex-A76"), (4, "Cortex-A55")]),
    // Broadcom (Raspberry Pi)
    soc!("Broadcom BCM2835", "Broadcom", ["BCM2835", "BCM2708"], [(1, "ARM1176")]),
    soc!("Broadcom BCM2836", "Broadcom", ["BCM2836", "BCM2709", "BCM2836/BCM2709"], [(4, "Cortex-A7")]),
    soc!("Broadcom BCM2837", "Broadcom", ["BCM2837", "BCM2837B0", "BCM2710"], [(4, "Cortex-A53")]),
    soc!("Broadcom BCM2710A1 (RP3A0)", "Raspberry Pi", ["RP3A0", "RP3A0-AU", "BCM2710A1"], [(4, "Cortex-A53")]),
    soc!("Broadcom BCM2711", "Broadcom", ["BCM2711", "BCM2711B0", "BCM2711C0"], [(4, "Cortex-A72")]),
    soc!("Broadcom BCM2712", "Broadcom", ["BCM2712", "BCM2712C1", "BCM2712D0"], [(4, "Cortex-A76")]),
    // Allwinner
    soc!("Allwinner A10", "Allwinner", ["A10"], [(1, "Cortex-A8")]),
    soc!("Allwinner A20", "Allwinner", ["A20"], [(2, "Cortex-A7")]),
    soc!("Allwinner A64", "Allwinner", ["A64"], [(4, "Cortex-A53")]),
    soc!("Allwinner A527", "Allwinner", ["A527", "T527", "sun55iw3"], [(4, "Cortex-A55"), (4, "Cortex-A55")]),
    soc!("Allwinner A733", "Allwinner", ["A733", "sun60iw2"], [(2, "Cortex-A76"), (6, "Cortex-A55")]),
    soc!("Allwinner D1", "Allwinner", ["D1"], [(1, "C906")]),
    soc!("Allwinner H3", "Allwinner", ["H3", "H2+", "H2 Plus", "H3/H2+"], [(4, "Cortex-A7")]),
    soc!("Allwinner H5", "Allwinner", ["H5"], [(4, "Cortex-A53")]),
    soc!("Allwinner H6", "Allwinner", ["H6"], [(4, "Cortex-A53")]),
    soc!("Allwinner H616", "Allwinner", ["H616", "H313", "H616/H313"], [(4, "Cortex-A53")]),
    soc!("Allwinner H618", "Allwinner", ["H618"], [(4, "Cortex-A53")]),
    soc!("Allwinner R40", "Allwinner", ["R40", "V40", "R40/V40"], [(4, "Cortex-A7")]),
    // Amlogic
    soc!("Amlogic S802", "Amlogic", ["S802", "Meson8"], [(4, "Cortex-A9")]),
    soc!("Amlogic S805", "Amlogic", ["S805", "Meson8b"], [(4, "Cortex-A5")]),
    soc!("Amlogic S812", "Amlogic", ["S812", "Meson8m2"], [(4, "Cortex-A9")]),
    soc!("Amlogic S905", "Amlogic", ["S905", "Meson GXBB"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905X", "Amlogic", ["S905X"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905W", "Amlogic", ["S905W"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905D", "Amlogic", ["S905D"], [(4, "Cortex-A53")]),
    soc!("Amlogic S912", "Amlogic", ["S912", "Meson GXM"], [(4, "Cortex-A53"), (4, "Cortex-A53")]),
    soc!("Amlogic S905X2", "Amlogic", ["S905X2"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905Y2", "Amlogic", ["S905Y2"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905L3A", "Amlogic", ["S905L3A"], [(4, "Cortex-A53")]),
    soc!("Amlogic S905X3", "Amlogic", ["S905X3"], [(4, "Cortex-A55")]),
    soc!("Amlogic S905D3", "Amlogic", ["S905D3"], [(4, "Cortex-A55")]),
    soc!("Amlogic S905X4", "Amlogic", ["S905X4"], [(4, "Cortex-A55")]),
    soc!("Amlogic S905X5M", "Amlogic", ["S905X5M"], [(4, "Cortex-A55")]),
    soc!("Amlogic S905Y4", "Amlogic", ["S905Y4"], [(4, "Cortex-A35")]),
    soc!("Amlogic S922X", "Amlogic", ["S922X"], [(4, "Cortex-A73"), (2, "Cortex-A53")]),
    soc!("Amlogic A311D", "Amlogic", ["A311D"], [(4, "Cortex-A73"), (2, "Cortex-A53")]),
    soc!("Amlogic A311D2", "Amlogic", ["A311D2", "Meson T7"], [(4, "Cortex-A73"), (4, "Cortex-A53")]),
    // Samsung / Nexell
    soc!("Samsung Exynos 5422", "Samsung", ["Exynos 5422", "Exynos5422"], [(4, "Cortex-A15"), (4, "Cortex-A7")]),
    soc!("Nexell S5P6818", "Nexell", ["S5P6818", "Samsung/Nexell S5P6818", "Samsung S5P6818"], [(8, "Cortex-A53")]),
    // Marvell
    soc!("Marvell Armada 375", "Marvell", ["Armada 375"], [(2, "Cortex-A9")]),
    soc!("Marvell Armada 380", "Marvell", ["Armada 380"], [(1, "Cortex-A9")]),
    soc!("Marvell Armada 385", "Marvell", ["Armada 385"], [(2, "Cortex-A9")]),
    soc!("Marvell Armada 388", "Marvell", ["Armada 388"], [(2, "Cortex-A9")]),
    soc!("Marvell Armada 3720", "Marvell", ["Armada 3720", "Armada 37xx"], [(2, "Cortex-A53")]),
    soc!("Marvell Armada 8040", "Marvell", ["Armada 8040"], [(4, "Cortex-A72")]),
    soc!("Marvell PXA1908", "Marvell", ["PXA1908"], [(4, "Cortex-A53")]),
    soc!("Marvell Armada 7040", "Marvell", ["Armada 7040"], [(4, "Cortex-A72")]),
    // NVIDIA
    soc!("NVIDIA Tegra X1 (T210)", "NVIDIA", ["Tegra X1", "TX1", "Tegra X1/TX1", "T210", "Jetson Nano", "Tegra210"], [(4, "Cortex-A57")]),
    soc!("NVIDIA Xavier (T194)", "NVIDIA", ["Xavier", "Tegra Xavier", "AGX Xavier", "Jetson Xavier AGX", "Jetson Xavier NX", "Jetson AGX Xavier", "T194"], []),
    soc!("NVIDIA Orin (T234)", "NVIDIA", ["Orin", "Orin NX", "Jetson AGX Orin", "Jetson Orin NX", "Jetson Orin Nano", "Orin Nano", "T234"], []),
    soc!("NVIDIA GB10", "NVIDIA", ["GB10"], [(10, "Cortex-X925"), (10, "Cortex-A725")]),
    // Qualcomm
    soc!("Qualcomm QCS6490", "Qualcomm", ["QCS6490", "QCM6490", "QCM6490/QCS6490"], [(1, "Cortex-A78"), (3, "Cortex-A78"), (4, "Cortex-A55")]),
    soc!("Qualcomm QRB5165", "Qualcomm", ["QRB5165"], [(1, "Cortex-A77"), (3, "Cortex-A77"), (4, "Cortex-A55")]),
    soc!("Qualcomm Snapdragon 7c", "Qualcomm", ["Snapdragon 7c", "SC7180"], [(2, "Kryo 468 Gold"), (6, "Kryo 468 Silver")]),
    soc!("Qualcomm MSM8998", "Qualcomm", ["MSM8998", "Snapdragon 835"], [(4, "Kryo 280 Gold"), (4, "Kryo 280 Silver")]),
    soc!("Qualcomm Snapdragon 8cx Gen 3", "Qualcomm", ["Snapdragon 8cx Gen 3", "SC8280XP"], [(4, "Cortex-X1C"), (4, "Cortex-A78C")]),
    soc!("Qualcomm Snapdragon X Elite (X1E)", "Qualcomm", ["Snapdragon X Elite", "X1E001DE", "X1E-80-100", "X1E-78-100", "X1E"], [(12, "Oryon")]),
    // MediaTek
    soc!("MediaTek MT6580", "MediaTek", ["MT6580"], [(4, "Cortex-A7")]),
    soc!("MediaTek MT7623", "MediaTek", ["MT7623", "MT7623N", "MT7623A"], [(4, "Cortex-A7")]),
    soc!("MediaTek Genio 1200 (MT8395)", "MediaTek", ["MT8395", "Genio 1200", "MT8395 Genio 1200"], [(4, "Cortex-A78"), (4, "Cortex-A55")]),
    // NXP
    // The table's "NXP i.MX6" is the Cubox-i4, a Quad.
    soc!("NXP i.MX6 Quad", "NXP", ["i.MX6", "i.MX6Q", "imx6q"], [(4, "Cortex-A9")]),
    soc!("NXP i.MX8MQ", "NXP", ["i.MX8MQ", "i.MX8M Quad"], [(4, "Cortex-A53")]),
    soc!("NXP i.MX8MP", "NXP", ["i.MX8MP", "i.MX8MPlus", "i.MX8M Plus"], [(4, "Cortex-A53")]),
    soc!("NXP LX2160A", "NXP", ["LX2160A"], [(16, "Cortex-A72")]),
    // Servers, cloud, desktop ARM
    soc!("Ampere Altra", "Ampere", ["Altra"], []),
    soc!("Ampere Altra Max", "Ampere", ["Altra Max"], []),
    soc!("AmpereOne", "Ampere", ["AmpereOne", "Ampere-1", "Ampere-1a", "Ampere Ampere-1", "Ampere Ampere-1a"], []),
    soc!("AWS Graviton", "Amazon", ["Graviton", "Amazon a1.xlarge"], []),
    soc!("Cavium ThunderX CN88xx", "Cavium", ["ThunderX CN8890", "ThunderX CN88xx", "CN8890"], []),
    soc!("AMD Opteron A1100", "AMD", ["Opteron A1100"], [(8, "Cortex-A57")]),
    soc!("Apple M1 Pro (T6000)", "Apple", ["M1 Pro", "T6000"], [(8, "Firestorm"), (2, "Icestorm")]),
    soc!("Phytium FT-2000/4", "Phytium", ["FT-2000/4"], [(4, "FTC663")]),
    soc!("Phytium D2000", "Phytium", ["D2000"], [(8, "FTC663")]),
    soc!("Phytium D3000", "Phytium", ["D3000", "D3000/8"], [(8, "FTC862")]),
    soc!("Cix P1 (CD8180)", "Cix", ["Cix P1", "CD8180", "CP8180", "Cix P1/CD8180", "Cix P1/CP8180"], [(4, "Cortex-A720"), (4, "Cortex-A720"), (4, "Cortex-A520")]),
    soc!("TI J721E", "TI", ["J721E", "TDA4VM"], [(2, "Cortex-A72")]),
    soc!("Realtek RTD1395", "Realtek", ["RTD1395"], [(4, "Cortex-A53")]),
    soc!("SigmaStar SSD201/SSD202D", "SigmaStar", ["SSD202D", "SSD201", "SSD201/SSD202D"], [(2, "Cortex-A7")]),
    soc!("Sophgo SG2300X", "Sophgo", ["SG2300X", "BM1684X"], [(8, "Cortex-A53")]),
    // RISC-V
    soc!("Allwinner D1s", "Allwinner", ["D1s"], [(1, "C906")]),
    soc!("T-Head TH1520", "T-Head", ["TH1520"], [(4, "C910")]),
    soc!("T-Head ICE", "T-Head", ["T-HEAD C910 RVB-ICE", "C910 RVB-ICE"], [(2, "C910")]),
    soc!("SpacemiT K1", "SpacemiT", ["SpacemiT K1", "K1-X", "SpacemiT K1-X"], [(4, "X60"), (4, "X60")]),
    soc!("StarFive JH7110", "StarFive", ["JH7110", "JH7110S"], [(4, "U74")]),
    soc!("Sophgo SG2042", "Sophgo", ["SG2042"], [(64, "C920")]),
    soc!("Sophgo SG2000", "Sophgo", ["SG2000"], [(1, "C906")]),
    soc!("ESWIN EIC7700X", "ESWIN", ["EIC7700X", "EIC7700"], [(4, "P550")]),
    soc!("ESWIN EIC7702X", "ESWIN", ["EIC7702X"], [(8, "P550")]),
    soc!("Canaan K510", "Canaan", ["K510", "Kendryte K510"], [(2, "AX25MP")]),
    // LoongArch
    soc!("Loongson 3A5000", "Loongson", ["3A5000", "Loongson-3A5000", "Loongson-3A5000-HV", "3A5000-HV"], [(4, "LA464")]),
];

/// Vendor words a spelling may start with; a guess's vendor may differ from the catalogue's
/// ("Nvidia", "Samsung/Nexell", "Kendryte").
static VENDOR_WORDS: &[&str] = &[
    "rockchip",
    "broadcom",
    "allwinner",
    "amlogic",
    "samsung",
    "nexell",
    "samsung/nexell",
    "marvell",
    "nvidia",
    "qualcomm",
    "mediatek",
    "nxp",
    "freescale",
    "ampere",
    "amazon",
    "cavium",
    "amd",
    "apple",
    "phytium",
    "cix",
    "ti",
    "realtek",
    "sigmastar",
    "sophgo",
    "t-head",
    "spacemit",
    "starfive",
    "eswin",
    "canaan",
    "kendryte",
    "loongson",
    "raspberry",
    "pi",
    "spreadtrum",
    "unisoc",
    "hisilicon",
    "meson",
    "amlogic meson",
];

/// Lower-case letters, digits and `+` only ("H2+" must stay apart from "H2").
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '+')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn by_key(key: &str) -> Option<&'static Soc> {
    if key.is_empty() {
        return None;
    }
    CATALOGUE.iter().find(|s| {
        squash(s.name) == key
            || s.aliases.iter().any(|a| squash(a) == key)
            || s.aliases
                .iter()
                .any(|a| squash(&format!("{} {a}", s.vendor)) == key)
    })
}

/// One spelling of one SoC ("RK3588s", "Rockchip RK3588", "BCM2711B0", "Exynos 5422",
/// "Nvidia Tegra Xavier"), case and punctuation aside; `None` when the catalogue does not know
/// it. Alternatives and detail are [`of_guess`]'s.
pub fn lookup(spelling: &str) -> Option<&'static Soc> {
    let s = spelling.trim();
    let s = strip_multiplier(s);
    if let Some(soc) = by_key(&squash(s)) {
        return Some(soc);
    }
    // Without the vendor words in front ("Nvidia Jetson Nano", "Samsung/Nexell S5P6818").
    let mut rest = s;
    loop {
        let lower = rest.to_ascii_lowercase();
        let Some(v) = VENDOR_WORDS
            .iter()
            .filter(|v| lower.starts_with(*v) && lower[v.len()..].starts_with([' ', '-']))
            .max_by_key(|v| v.len())
        else {
            break;
        };
        rest = rest[v.len()..].trim_start_matches([' ', '-']);
        if let Some(soc) = by_key(&squash(rest)) {
            return Some(soc);
        }
    }
    // A Broadcom stepping the list does not have ("BCM2711C1"): the chip.
    let key = squash(rest);
    if key.starts_with("bcm") && key.len() > 7 {
        let (base, step) = key.split_at(7);
        if step.len() == 2
            && step.starts_with(|c: char| ('a'..='d').contains(&c))
            && step.ends_with(|c: char| c.is_ascii_digit())
        {
            return by_key(base);
        }
    }
    None
}

/// A guess that says it has not decided: "one of: …", "S922X or A311D", "sun8i family", a list.
fn undecided(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("one of") || l.contains(" or ") || l.contains("family") || l.contains(", ")
}

/// "2 x Ampere Altra Max" → "Ampere Altra Max"; "1 x Ampere Altra" → "Ampere Altra".
fn strip_multiplier(s: &str) -> &str {
    let mut w = s.splitn(3, ' ');
    match (w.next(), w.next(), w.next()) {
        (Some(n), Some("x"), Some(rest)) if n.parse::<u32>().is_ok() => rest,
        _ => s,
    }
}

/// The SoC a spelling names, allowing product and SKU words after the name ("Ampere Altra
/// Q80-26", "Ampere Altra AADP-80", "MT6580 K9M1", "RK3228A TV Box"): the longest word-prefix
/// the catalogue knows.
pub fn lookup_prefix(spelling: &str) -> Option<&'static Soc> {
    if undecided(spelling) {
        return None;
    }
    let s = strip_multiplier(spelling.trim());
    let words: Vec<&str> = s.split_whitespace().collect();
    for n in (1..=words.len()).rev() {
        let p = words[..n].join(" ");
        // A vendor word alone is no SoC.
        if VENDOR_WORDS.iter().any(|v| v.eq_ignore_ascii_case(&p)) {
            break;
        }
        if let Some(soc) = lookup(&p) {
            return Some(soc);
        }
    }
    // "RK3568-ROC-PC": the model before the first dash.
    let first = words.first()?;
    let model = first.split('-').next()?;
    if model != *first && model.chars().any(|c| c.is_ascii_digit()) {
        return lookup(model);
    }
    None
}

/// The SoC a guess line names, the way sbc-bench writes it: with detail in parentheses or after
/// " / " ("Rockchip RK3576 (35760000 / 35 76 …)", "Amlogic Meson G12B (S922X) Revision 29:b",
/// "Ampere Altra / guessing impossible since running in kvm"), or with alternatives that are
/// names of one chip ("Allwinner H616/H313", "Cix P1/CD8180", "BCM2836/BCM2709"). `None` when
/// the guess names no chip the catalogue knows, or alternatives of different chips ("one of:
/// …", "Armada 375/38x"), or parts that disagree ("Meson SM1 (Unknown)").
pub fn of_guess(guess: &str) -> Option<&'static Soc> {
    let g = guess.trim();
    if g.is_empty() || undecided(g) {
        return None;
    }
    if let Some(s) = lookup(g) {
        return Some(s);
    }
    // The name, then what is in parentheses ("Meson G12B (S922X)").
    let head = g.split(" / ").next().unwrap_or(g).trim();
    let mut parts: Vec<String> = Vec::new();
    let before = head.split(" (").next().unwrap_or(head).trim();
    parts.push(before.to_string());
    let mut rest = head;
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else { break };
        parts.push(after[..close].trim().to_string());
        rest = &after[close + 1..];
    }
    let mut found: Vec<&'static Soc> = Vec::new();
    for p in &parts {
        if let Some(s) = of_part(p)
            && !found.contains(&s)
        {
            found.push(s);
        }
    }
    // The parenthesised model is the chip where the family name before it is not known
    // ("Meson G12B (S922X)"); two known names that differ are not one guess.
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// One part of a guess: a name, or alternatives separated by "/" that must all be one chip.
fn of_part(p: &str) -> Option<&'static Soc> {
    if let Some(s) = lookup(p).or_else(|| lookup_prefix(p)) {
        return Some(s);
    }
    if !p.contains('/') {
        return None;
    }
    let alts: Vec<&str> = p.split('/').map(str::trim).collect();
    // The words before the first alternative's model carry over ("Armada 375/38x" → "Armada 38x").
    let first_words: Vec<&str> = alts[0].split_whitespace().collect();
    let prefix = first_words[..first_words.len().saturating_sub(1)].join(" ");
    let mut one: Option<&'static Soc> = None;
    for (i, a) in alts.iter().enumerate() {
        if !a.chars().any(|c| c.is_ascii_digit()) {
            // A vendor alternative ("Samsung/Nexell S5P6818" splits into "Samsung").
            continue;
        }
        let s = if i == 0 {
            lookup(a)
        } else {
            lookup(a).or_else(|| lookup(&format!("{prefix} {a}")))
        }?;
        match one {
            Some(o) if o != s => return None,
            _ => one = Some(s),
        }
    }
    one
}

/// The SoC of a board sbc-bench's table names, from its device name as a log's header or the
/// device tree writes it ("Raspberry Pi 4 Model B Rev 1.4", "RPi 4 Model B Rev 1.1 / BCM2711 Rev
/// B0", "Radxa ROCK Pi 4B", "Pine64 RockPro64 v2.1", "Hardkernel ODROID-N2Plus").
pub fn of_board(device: &str) -> Option<&'static Soc> {
    let d = format!(
        " {} ",
        device.to_ascii_lowercase().replace("rpi ", "raspberry pi ")
    );
    let sq = squash(device).replace("rpi", "raspberrypi");
    // Raspberry Pi: the model number decides (a Pi 2 v1.2 has the BCM2837).
    if d.contains("raspberry pi") {
        let name = if d.contains(" pi 5") || d.contains("compute module 5") {
            "BCM2712"
        } else if d.contains(" pi 400") || d.contains(" pi 4") || d.contains("compute module 4") {
            "BCM2711"
        } else if d.contains(" pi zero 2") {
            "RP3A0"
        } else if d.contains(" pi 3")
            || d.contains("compute module 3")
            || d.contains(" pi 2 model b rev 1.2")
        {
            "BCM2837"
        } else if d.contains(" pi 2") {
            "BCM2836"
        } else if d.contains(" pi zero") || d.contains(" pi model") || d.contains(" pi 1") {
            "BCM2835"
        } else {
            return None;
        };
        return lookup(name);
    }
    for (needle, soc) in BOARDS {
        if sq.contains(&squash(needle)) {
            return lookup(soc);
        }
    }
    None
}

/// Board names (as squashed substrings, the more specific first) and their SoC. Sources: the
/// makers' product pages; the names as sbc-bench's logs and table write them.
#[rustfmt::skip]
static BOARDS: &[(&str, &str)] = &[
    ("ROCK Pi 4", "RK3399"), ("ROCK 4SE", "RK3399"), ("ROCK 4C", "RK3399"), ("ROCK 4D", "RK3576"),
    ("ROCK 5C Lite", "RK3582"), ("ROCK 5", "RK3588"), ("ROCK Pi S", "RK3308"),
    ("ROCK 3", "RK3568"), ("Radxa Zero 3", "RK3566"), ("Radxa Zero 2", "A311D"), ("Radxa ZERO", "S905Y2"),
    ("RockPro64", "RK3399"), ("Rock64", "RK3328"), ("Pinebook Pro", "RK3399"), ("Quartz64", "RK3566"),
    ("Pine H64", "H6"), ("PineH64", "H6"),
    ("NanoPC-T4", "RK3399"), ("NanoPi M4", "RK3399"), ("NanoPi NEO4", "RK3399"), ("NanoPi R4S", "RK3399"),
    ("NanoPC-T6", "RK3588"), ("NanoPi R6", "RK3588"), ("NanoPi R5", "RK3568"), ("NanoPi K1 Plus", "H5"),
    ("NanoPi K2", "S905"), ("NanoPC-T3", "S5P6818"), ("NanoPi M3", "S5P6818"), ("NanoPi Fire3", "S5P6818"),
    ("Orange Pi 5", "RK3588"), ("Orange Pi Zero 2W", "H618"), ("Orange Pi Zero 3", "H618"),
    ("Orange Pi Zero 2", "H616"), ("Orange Pi 4", "RK3399"), ("Orange Pi 3B", "RK3566"),
    ("ODROID-N2", "S922X"), ("ODROID-C4", "S905X3"), ("ODROID-HC4", "S905X3"), ("ODROID-C2", "S905"),
    ("ODROID-C1", "S805"), ("ODROID-C5", "S905X5M"), ("ODROID-XU3", "Exynos 5422"),
    ("ODROID-XU4", "Exynos 5422"), ("ODROID HC1", "Exynos 5422"), ("ODROID HC2", "Exynos 5422"),
    ("ODROID-M1", "RK3568"), ("ODROID-M2", "RK3588"),
    ("Khadas VIM3L", "S905D3"), ("Khadas VIM3", "A311D"), ("Khadas VIM4", "A311D2"),
    ("Khadas VIM2", "S912"), ("Khadas VIM1S", "S905Y4"), ("Khadas Edge", "RK3399"), ("Khadas Captain", "RK3399"),
    ("Tinker Board 2", "RK3399"), ("Tinker Board", "RK3288"),
    ("Jetson Nano", "Tegra X1"), ("Jetson Xavier", "Xavier"), ("Jetson AGX Orin", "Orin"), ("Orin Nano", "Orin"),
    ("Le Potato", "S905X"), ("AML-S905X-CC", "S905X"), ("AML-S912-PC", "S912"),
    ("Cubietruck", "A20"), ("Banana Pi BPI-M5", "S905X3"), ("Banana Pi BPI-M2-Ultra", "R40"),
    ("LeMaker Banana Pi", "A20"), ("A20-OLinuXino", "A20"), ("A20-Lime2", "A20"), ("A10-OLinuXino", "A10"),
    ("Helios4", "Armada 388"), ("Clearfog", "Armada 388"), ("ESPRESSObin", "Armada 3720"),
    ("MACCHIATObin", "Armada 8040"), ("VisionFive 2 Lite", "JH7110S"), ("VisionFive 2", "JH7110"),
    ("Lichee Pi 4A", "TH1520"), ("Milk-V Jupiter", "SpacemiT K1"), ("Banana Pi BPI-F3", "SpacemiT K1"), ("LPi3A", "SpacemiT K1"), ("Milk-V DuoS", "SG2000"),
    ("Radxa Orion O6", "CD8180"), ("Hugsun X99", "RK3399"), ("MacBook Pro (14-inch, M1 Pro", "M1 Pro"),
    ("Nintendo Switch", "Tegra X1"), ("OnePlus 5", "MSM8998"), ("BM1684X", "SG2300X"), ("Milk-V(M1) Jupiter", "SpacemiT K1"), ("MS-R1", "CD8180"), ("Libre Technology CC", "S905X"), ("HummingBoard Pulse", "i.MX8MQ"), ("Minisforum MS-R1", "CD8180"),
];

/// The SoC a core type (and count) singles out, where no other chip has it: Phytium's FTC cores,
/// AmpereOne's own core, Loongson model names, Neoverse-N1 in the core counts only Ampere's
/// Altra Max has (96-128 a socket; two sockets up to 256). `None` otherwise.
pub fn of_cores(core_types: &[String], count: Option<u32>) -> Option<&'static Soc> {
    let t = core_types.join(" ").to_ascii_lowercase();
    if let Some(s) = core_types.iter().find_map(|c| lookup(c.trim())) {
        return Some(s);
    }
    let name = match (t.as_str(), count) {
        (t, Some(4)) if t.contains("ftc663") => "FT-2000/4",
        (t, Some(8)) if t.contains("ftc663") => "D2000",
        (t, Some(8)) if t.contains("ftc862") => "D3000",
        (t, _) if t.contains("ampere-1") => "AmpereOne",
        (t, Some(n))
            if t.trim() == "neoverse-n1"
                && ((96..=128).contains(&n) || (161..=256).contains(&n)) =>
        {
            "Altra Max"
        }
        _ => return None,
    };
    lookup(name)
}

/// An x86 CPU model name, cleaned to one name per chip ("Intel(R) Celeron(R) J4105 CPU @
/// 1.50GHz" → "Intel Celeron J4105", "Pentium(R) Silver J5005" → "Intel Pentium J5005",
/// "Ryzen Embedded R1505G" → "AMD Ryzen R1505G", "i3-N305" → "Intel Core i3-N305"). `None` for
/// what is not an Intel or AMD model name.
pub fn x86_model(model: &str) -> Option<String> {
    let cleaned = model
        .replace("(R)", " ")
        .replace("(r)", " ")
        .replace("(TM)", " ")
        .replace("(tm)", " ");
    let cleaned = cleaned.split('@').next().unwrap_or(&cleaned);
    let noise = [
        "intel",
        "amd",
        "cpu",
        "processor",
        "silver",
        "gold",
        "embedded",
        "apu",
        "with",
        "radeon",
        "graphics",
        "mobile",
        "dual-core",
        "quad-core",
        "core",
    ];
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_alphanumeric()))
        .filter(|w| !noise.contains(&w.to_ascii_lowercase().as_str()))
        .collect();
    let model_at = words
        .iter()
        .rposition(|w| w.chars().any(|c| c.is_ascii_digit()))?;
    let family: Vec<&str> = words[..model_at].to_vec();
    let m = words[model_at];
    let lower = m.to_ascii_lowercase();
    let fam_lower: Vec<String> = family.iter().map(|w| w.to_ascii_lowercase()).collect();
    let has = |w: &str| fam_lower.iter().any(|f| f == w);
    let (vendor, fam) = if has("ryzen")
        || has("athlon")
        || has("opteron")
        || has("epyc")
        || lower.starts_with("e-")
    {
        ("AMD", family.join(" "))
    } else if has("atom") || has("celeron") || has("pentium") || has("xeon") {
        ("Intel", family.join(" "))
    } else if lower.starts_with("x5-") || lower.starts_with("x7-") {
        ("Intel", "Atom".to_string())
    } else if lower.starts_with("i3-")
        || lower.starts_with("i5-")
        || lower.starts_with("i7-")
        || lower.starts_with("i9-")
    {
        ("Intel", "Core".to_string())
    } else if family.is_empty()
        && (lower.starts_with('n') || lower.starts_with('j'))
        && lower[1..].chars().all(|c| c.is_ascii_digit())
        && lower.len() >= 3
    {
        ("Intel", String::new())
    } else {
        return None;
    };
    let name = if fam.is_empty() {
        format!("{vendor} {m}")
    } else {
        format!("{vendor} {fam} {m}")
    };
    Some(name)
}

/// The catalogue's name for any spelling: the canonical name of a known SoC, the cleaned name
/// of an x86 model; `None` when not known.
pub fn canonical(spelling: &str) -> Option<String> {
    of_guess(spelling)
        .map(|s| s.name.to_string())
        .or_else(|| x86_model(spelling))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(g: &str) -> Option<&'static str> {
        of_guess(g).map(|s| s.name)
    }

    #[test]
    fn every_spelling_class_maps() {
        assert_eq!(
            name("Amlogic Meson G12B (S922X) Revision 29:a (40:2)"),
            Some("Amlogic S922X")
        );
        assert_eq!(
            name("Amlogic Meson8m2 (S812) RevA (1d - 0:74E) detected"),
            Some("Amlogic S812")
        );
        assert_eq!(
            name("Amlogic Meson SM1 (Unknown) Revision 2b:b (40:2)"),
            None
        );
        assert_eq!(name("Allwinner H3/H2+"), Some("Allwinner H3"));
        assert_eq!(name("Allwinner H616/H313"), Some("Allwinner H616"));
        assert_eq!(name("Marvell Armada 375/38x"), None);
        assert_eq!(name("Samsung/Nexell S5P6818"), Some("Nexell S5P6818"));
        assert_eq!(name("Cix P1/CP8180"), Some("Cix P1 (CD8180)"));
        assert_eq!(name("BCM2711B0"), Some("Broadcom BCM2711"));
        assert_eq!(name("BCM2711C1"), Some("Broadcom BCM2711"));
        assert_eq!(name("BCM2710"), Some("Broadcom BCM2837"));
        assert_eq!(name("BCM2837B0"), Some("Broadcom BCM2837"));
        assert_eq!(
            name("Rockchip RK3588/RK3588s (35881000)"),
            Some("Rockchip RK3588")
        );
        assert_eq!(
            name("Rockchip RK3588S2 (35881000 / 35 88 12 fe)"),
            Some("Rockchip RK3588")
        );
        assert_eq!(
            name("Ampere Altra / guessing impossible since running in kvm"),
            Some("Ampere Altra")
        );
        assert_eq!(name("1 x Ampere Altra AADP-80"), Some("Ampere Altra"));
        assert_eq!(name("2 x Ampere Altra Max"), Some("Ampere Altra Max"));
        assert_eq!(name("Nvidia Tegra X1/TX1"), Some("NVIDIA Tegra X1 (T210)"));
        assert_eq!(
            name("Qualcomm QCM6490/QCS6490 / guessing impossible since running in vm-other"),
            Some("Qualcomm QCS6490")
        );
        assert_eq!(name("one of: RK3566, RK3568"), None);
        assert_eq!(name("https://example.com/soc"), None);
        assert_eq!(name("Spreadtrum UMS9620"), None);
        assert_eq!(name("Phytium D3000/8"), Some("Phytium D3000"));
        assert_eq!(name("Amlogic S922X or A311D"), None);
        assert_eq!(name("NXP i.MX6 Quad"), Some("NXP i.MX6 Quad"));
        assert_eq!(name("StarFive JH7110"), Some("StarFive JH7110"));
        assert_eq!(name("JH7110S"), Some("StarFive JH7110"));
    }

    #[test]
    fn boards_and_x86() {
        let b = |d: &str| of_board(d).map(|s| s.name);
        assert_eq!(
            b("Raspberry Pi 4 Model B Rev 1.4"),
            Some("Broadcom BCM2711")
        );
        assert_eq!(
            b("Raspberry Pi 5 Model B Rev 1.0"),
            Some("Broadcom BCM2712")
        );
        assert_eq!(
            b("Raspberry Pi Zero 2 Rev 1.0"),
            Some("Broadcom BCM2710A1 (RP3A0)")
        );
        assert_eq!(
            b("Raspberry Pi 2 Model B Rev 1.2"),
            Some("Broadcom BCM2837")
        );
        assert_eq!(
            b("Raspberry Pi 2 Model B Rev 1.1"),
            Some("Broadcom BCM2836")
        );
        assert_eq!(b("Radxa ROCK PI 4B"), Some("Rockchip RK3399"));
        assert_eq!(b("Pine64 RockPro64 v2.1"), Some("Rockchip RK3399"));
        assert_eq!(b("Radxa ROCK 5B"), Some("Rockchip RK3588"));
        assert_eq!(b("Some Unknown Board"), None);
        assert_eq!(
            x86_model("Intel(R) Celeron(R) J4105 CPU @ 1.50GHz").as_deref(),
            Some("Intel Celeron J4105")
        );
        assert_eq!(
            x86_model("Celeron J4105").as_deref(),
            Some("Intel Celeron J4105")
        );
        assert_eq!(
            x86_model("Intel(R) Pentium(R) Silver J5005 CPU @ 1.50GHz").as_deref(),
            Some("Intel Pentium J5005")
        );
        assert_eq!(
            x86_model("Ryzen Embedded R1505G").as_deref(),
            Some("AMD Ryzen R1505G")
        );
        assert_eq!(x86_model("i3-N305").as_deref(), Some("Intel Core i3-N305"));
        assert_eq!(
            x86_model("Intel i3-N305").as_deref(),
            Some("Intel Core i3-N305")
        );
        assert_eq!(x86_model("Intel(R) N100").as_deref(), Some("Intel N100"));
        assert_eq!(x86_model("N100").as_deref(), Some("Intel N100"));
        assert_eq!(
            x86_model("Intel(R) Atom(TM) x5-Z8350  CPU @ 1.44GHz").as_deref(),
            Some("Intel Atom x5-Z8350")
        );
        assert_eq!(
            x86_model("x5-Z8350").as_deref(),
            Some("Intel Atom x5-Z8350")
        );
        assert_eq!(x86_model("Cortex-A53"), None);
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in CATALOGUE.iter().enumerate() {
            for b in &CATALOGUE[i + 1..] {
                assert_ne!(a.name, b.name);
                for x in a.aliases {
                    assert!(
                        !b.aliases.iter().any(|y| squash(x) == squash(y)),
                        "{x} in {} and {}",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }
}
