//! Which SoC is this? A guess from, in this order of trust:
//! 1. the device-tree `compatible` strings (the kernel's own name for the SoC);
//! 2. a Raspberry Pi board revision code / `Model` line, or a known board name (device-tree
//!    `document`);
//! 3. the cpuinfo `Hardware` line (32-bit and Android/BSP kernels), alone or with the core types;
//! 4. the Amlogic chip ID in the first byte of `Serial`;
//! 5. model names (Loongson, MIPS `system type`, RISC-V vendor model names);
//! 6. the core-type topology signature ("4×Cortex-A55 + 4×Cortex-A76" ⇒ RK3588-class).
//!
//! The knowledge is kept as tables below (data, not code), each with its source. Sources:
//! Linux `Documentation/devicetree/bindings/arm/*.yaml` and the SoC `.dtsi` files (compatible
//! strings), the Linux `drivers/soc/amlogic/meson-*-socinfo.c` ID lists, the Raspberry Pi
//! documentation "Raspberry Pi revision codes", Allwinner BSP kernel naming (linux-sunxi wiki
//! "Allwinner SoC family"), vendor product pages for core configurations, and the sbc-bench
//! cpuinfo collection (shared fixtures) for what real `Hardware` lines look like.
//!
//! A wrong answer is worse than none. Evidence that fits several SoCs says so in the name:
//! "one of: Allwinner H616, Allwinner H618, …" (one BSP ID, one core set shared across makers),
//! "Amlogic S922X or A311D" for die siblings, "… family" where the members are not listed.
//! Only evidence that singles out one SoC gives one name.

use document::cpu::CpuInfo;

/// What the guess may look at.
pub struct SocHints<'a> {
    /// /proc/device-tree/compatible strings, most specific (board) first.
    pub dt_compatible: &'a [String],
    /// /proc/device-tree/model.
    pub dt_model: Option<&'a str>,
    pub cpuinfo: &'a CpuInfo,
    /// cpuinfo_max_freq of each cpufreq cluster (kHz), in policy order; empty when unknown.
    pub max_khz_per_cluster: &'a [u64],
}

/// A named SoC ("Rockchip RK3588", or "one of: …" where the evidence fits several) and the
/// evidence for it ("device-tree compatible rockchip,rk3588"): the document's own type.
pub use document::machine::SocGuess;

fn found(name: impl Into<String>, why: impl Into<String>) -> Option<SocGuess> {
    Some(SocGuess {
        name: name.into(),
        why: why.into(),
    })
}

/// Best guess of the SoC, or `None` when nothing distinctive is known. Names the SoC
/// catalogue knows are given in its spelling ([`canonical`]).
pub fn guess(h: &SocHints) -> Option<SocGuess> {
    let sig = Signature::of(h.cpuinfo);
    from_device_tree(h.dt_compatible)
        .or_else(|| raspberry_pi(h.cpuinfo, h.dt_model, &sig))
        .or_else(|| from_board(h.dt_model?.trim(), "device-tree model"))
        .or_else(|| from_hardware(h.cpuinfo, &sig))
        .or_else(|| from_amlogic_serial(h.cpuinfo))
        .or_else(|| from_model_names(h.cpuinfo))
        .or_else(|| from_topology(&sig, h.max_khz_per_cluster))
        .map(canonical)
}

/// The guess in the SoC catalogue's names (`document::socs`), so the native run, imported logs
/// and the published rows name one chip one way: "Rockchip RK3588S" is "Rockchip RK3588",
/// "Allwinner H2+" is "Allwinner H3"; the candidates of "one of: …" each, once. Names the
/// catalogue does not know stay as the tables below write them.
pub fn canonical(mut g: SocGuess) -> SocGuess {
    let one = |n: &str| {
        document::socs::lookup(n.trim())
            .map_or_else(|| n.trim().to_string(), |s| s.name.to_string())
    };
    if let Some(list) = g.name.strip_prefix("one of: ") {
        let mut names: Vec<String> = Vec::new();
        for n in list.split(", ") {
            let n = one(n);
            if !names.contains(&n) {
                names.push(n);
            }
        }
        g.name = match names.as_slice() {
            [only] => only.clone(),
            _ => format!("one of: {}", names.join(", ")),
        };
    } else if !g.name.contains(" or ") {
        g.name = one(&g.name);
    }
    g
}

// ---------------------------------------------------------------------------------------------
// 1. Device tree
// ---------------------------------------------------------------------------------------------

/// Exact SoC compatibles whose name cannot be derived by the vendor rules below (families,
/// codenames, irregular spellings), with a note on ambiguity. Source: Linux DT bindings.
#[rustfmt::skip]
static DT_EXACT: &[(&str, &str, &str)] = &[
    // Amlogic: the SoC compatible is usually followed by the family one ("amlogic,g12b").
    ("amlogic,s922x", "Amlogic S922X", "G12B family; the A311D has the same CPU cores"),
    ("amlogic,a311d", "Amlogic A311D", "G12B family; the S922X has the same CPU cores"),
    ("amlogic,g12b", "Amlogic S922X or A311D", "family compatible G12B only: S922X and A311D share it"),
    ("amlogic,g12a", "Amlogic G12A (S905X2/S905D2/S905Y2)", "family compatible only"),
    ("amlogic,sm1", "Amlogic SM1 (S905X3/S905D3)", "family compatible only"),
    ("amlogic,meson-gxbb", "Amlogic S905", "GXBB family"),
    ("amlogic,meson-gxl", "Amlogic GXL (S905X/S905D/S905W/S805X)", "family compatible only"),
    ("amlogic,meson-gxm", "Amlogic S912", "GXM family"),
    ("amlogic,meson-axg", "Amlogic AXG (A113D/A113X)", "family compatible only"),
    ("amlogic,meson8", "Amlogic S802", "Meson8"),
    ("amlogic,meson8b", "Amlogic S805", "Meson8b"),
    ("amlogic,meson8m2", "Amlogic S812", "Meson8m2"),
    ("amlogic,meson6", "Amlogic Meson6 (AML8726-MX)", ""),
    // NVIDIA Tegra generations.
    ("nvidia,tegra20", "NVIDIA Tegra 2 (T20)", ""),
    ("nvidia,tegra30", "NVIDIA Tegra 3 (T30)", ""),
    ("nvidia,tegra114", "NVIDIA Tegra 4 (T114)", ""),
    ("nvidia,tegra124", "NVIDIA Tegra K1 (T124)", ""),
    ("nvidia,tegra132", "NVIDIA Tegra K1 (T132, Denver)", ""),
    ("nvidia,tegra210", "NVIDIA Tegra X1 (T210)", ""),
    ("nvidia,tegra186", "NVIDIA Tegra X2 (T186)", ""),
    ("nvidia,tegra194", "NVIDIA Xavier (T194)", ""),
    ("nvidia,tegra234", "NVIDIA Orin (T234)", ""),
    // Irregular names.
    ("allwinner,sun8i-h2-plus", "Allwinner H2+", ""),
    ("allwinner,sun8i-v3s", "Allwinner V3s", ""),
    ("hisilicon,hi6220", "HiSilicon Kirin 620 (Hi6220)", ""),
    ("hisilicon,hi3660", "HiSilicon Kirin 960 (Hi3660)", ""),
    ("hisilicon,hi3670", "HiSilicon Kirin 970 (Hi3670)", ""),
    ("cix,sky1", "Cix P1 (CD8180)", ""),
    ("spacemit,k1-x", "SpacemiT K1", ""),
    ("sifive,fu540-c000", "SiFive FU540", ""),
    ("sifive,fu740-c000", "SiFive FU740", ""),
    ("xlnx,zynq-7000", "Xilinx Zynq-7000", ""),
    ("xlnx,zynqmp", "Xilinx Zynq UltraScale+ MPSoC", ""),
    ("apple,t8103", "Apple M1 (T8103)", ""),
    ("apple,t6000", "Apple M1 Pro (T6000)", ""),
    ("apple,t6001", "Apple M1 Max (T6001)", ""),
    ("apple,t8112", "Apple M2 (T8112)", ""),
    ("marvell,armada-3720", "Marvell Armada 3720", ""),
    ("marvell,armada380", "Marvell Armada 380", ""),
    ("marvell,armada385", "Marvell Armada 385", ""),
    ("marvell,armada388", "Marvell Armada 388", ""),
    ("marvell,armada370", "Marvell Armada 370", ""),
    ("marvell,armadaxp", "Marvell Armada XP", ""),
    ("marvell,kirkwood", "Marvell Kirkwood", "family compatible"),
    ("ti,am33xx", "TI AM335x", ""),
    ("ti,dra7", "TI DRA7xx / AM57xx", "family compatible"),
    ("ti,omap3", "TI OMAP3", "family compatible"),
    ("ti,omap4", "TI OMAP4", "family compatible"),
    ("mstar,infinity2", "MStar Infinity2", ""),
    ("renesas,r9a07g043", "Renesas R9A07G043 (RZ/G2UL or RZ/Five)", ""),
];

/// Vendor prefixes whose SoC compatible is `vendor,<letters><digits>[alnum]` and maps to
/// "<Vendor> <MODEL>". Board compatibles contain a dash and never match. The third field says
/// how the model is written: upper case, or with a fixed prefix replaced.
#[rustfmt::skip]
static DT_VENDORS: &[(&str, &str, ModelCase)] = &[
    ("rockchip,", "Rockchip", ModelCase::Upper),
    ("mediatek,", "MediaTek", ModelCase::Upper),
    ("qcom,", "Qualcomm", ModelCase::Upper),
    ("brcm,", "Broadcom", ModelCase::Upper),
    ("amlogic,", "Amlogic", ModelCase::Upper),
    ("ti,", "TI", ModelCase::Upper),
    ("starfive,", "StarFive", ModelCase::Upper),
    ("sophgo,", "Sophgo", ModelCase::Upper),
    ("thead,", "T-Head", ModelCase::Upper),
    ("canaan,", "Canaan", ModelCase::Upper),
    ("realtek,", "Realtek", ModelCase::Upper),
    ("sprd,", "Unisoc", ModelCase::Upper),
    ("ingenic,", "Ingenic", ModelCase::Upper),
    ("sigmastar,", "SigmaStar", ModelCase::Upper),
    ("fsl,", "NXP", ModelCase::Prefix("imx", "i.MX")),
    ("samsung,", "Samsung", ModelCase::Prefix("exynos", "Exynos ")),
    ("hisilicon,", "HiSilicon", ModelCase::Prefix("hi", "Hi")),
];

#[derive(Clone, Copy)]
enum ModelCase {
    Upper,
    /// Replace a lower-case prefix by this spelling and upper-case the rest.
    Prefix(&'static str, &'static str),
}

fn from_device_tree(compatible: &[String]) -> Option<SocGuess> {
    compatible.iter().find_map(|c| {
        let c = c.trim();
        let why = format!("device-tree compatible {c}");
        if let Some((_, name, note)) = DT_EXACT.iter().find(|(k, _, _)| *k == c) {
            let why = if note.is_empty() {
                why
            } else {
                format!("{why} ({note})")
            };
            return found(*name, why);
        }
        // Allwinner: "allwinner,sun50i-h616" → H616.
        if let Some(m) = c.strip_prefix("allwinner,sun") {
            let (_, model) = m.split_once("i-")?;
            return is_model(model).then(|| SocGuess {
                name: format!("Allwinner {}", model.to_ascii_uppercase()),
                why,
            });
        }
        let (vendor, model, case) = DT_VENDORS
            .iter()
            .find_map(|(p, v, case)| Some((*v, c.strip_prefix(p)?, *case)))?;
        if !is_model(model) {
            return None;
        }
        let model = match case {
            ModelCase::Upper => model.to_ascii_uppercase(),
            ModelCase::Prefix(p, spelled) => match model.strip_prefix(p) {
                Some(rest) => format!("{spelled}{}", rest.to_ascii_uppercase()),
                None => model.to_ascii_uppercase(),
            },
        };
        found(format!("{vendor} {model}"), why)
    })
}

/// `<letters><digits>[letters/digits]`: "rk3588s", "mt8183", "x1e80100", "bcm2711", "h616".
fn is_model(m: &str) -> bool {
    let letters = m.chars().take_while(char::is_ascii_lowercase).count();
    let rest = &m[letters..];
    letters > 0
        && rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
}

// ---------------------------------------------------------------------------------------------
// 2. Raspberry Pi
// ---------------------------------------------------------------------------------------------

/// Processor field (bits 12-15) of a new-style revision code (bit 23 set). Source: Raspberry Pi
/// documentation, "Raspberry Pi revision codes".
#[rustfmt::skip]
static RPI_PROCESSORS: &[&str] = &[
    "Broadcom BCM2835",
    "Broadcom BCM2836",
    "Broadcom BCM2837",
    "Broadcom BCM2711",
    "Broadcom BCM2712",
];

/// `Model` line → SoC, first match (more specific first). Source: Raspberry Pi product pages.
#[rustfmt::skip]
static RPI_MODELS: &[(&str, &str)] = &[
    ("Raspberry Pi 500", "Broadcom BCM2712"),
    ("Raspberry Pi 5", "Broadcom BCM2712"),
    ("Compute Module 5", "Broadcom BCM2712"),
    ("Raspberry Pi 400", "Broadcom BCM2711"),
    ("Raspberry Pi 4", "Broadcom BCM2711"),
    ("Compute Module 4", "Broadcom BCM2711"),
    ("Raspberry Pi Zero 2", "Broadcom BCM2710A1 (RP3A0)"),
    ("Raspberry Pi 3", "Broadcom BCM2837"),
    ("Compute Module 3", "Broadcom BCM2837"),
    ("Raspberry Pi 2 Model B Rev 1.2", "Broadcom BCM2837"),
    ("Raspberry Pi 2", "Broadcom BCM2836"),
    ("Raspberry Pi", "Broadcom BCM2835"),
];

/// Raspberry Pi kernels print `Hardware : BCM2835` (or BCM2709/BCM2710/BCM2711) whatever the
/// SoC; the revision code, the Model line or the core type tells the truth.
fn raspberry_pi(c: &CpuInfo, dt_model: Option<&str>, sig: &Signature) -> Option<SocGuess> {
    let hw = c.hardware.as_deref().unwrap_or_default();
    let model = c.model.as_deref().or(dt_model).unwrap_or_default().trim();
    if !(hw.starts_with("BCM2") || model.starts_with("Raspberry Pi")) {
        return None;
    }
    let code = c
        .revision
        .as_deref()
        .and_then(|r| u32::from_str_radix(r.trim(), 16).ok())
        .filter(|r| r & (1 << 23) != 0);
    if let Some(name) = code.and_then(|r| RPI_PROCESSORS.get(((r >> 12) & 0xf) as usize)) {
        let r = c.revision.as_deref().unwrap_or_default();
        return found(
            *name,
            format!("Raspberry Pi revision code {r} (processor field)"),
        );
    }
    if let Some((_, name)) = RPI_MODELS.iter().find(|(m, _)| model.starts_with(m)) {
        return found(*name, format!("board model \"{model}\""));
    }
    // The Raspberry Pi kernels of the 3.x era call the BCM2835 by its family name BCM2708 (and
    // the BCM2836/BCM2837 BCM2709); old-style revision codes (0002…0015) are all Pi 1 boards.
    let old_code = c
        .revision
        .as_deref()
        .and_then(|r| u32::from_str_radix(r.trim(), 16).ok())
        .is_some_and(|r| (0x2..=0x15).contains(&r));
    if hw == "BCM2708" || (old_code && matches!(hw, "BCM2708" | "BCM2835")) {
        let r = c.revision.as_deref().unwrap_or("none");
        return found(
            "Broadcom BCM2835",
            format!("cpuinfo Hardware \"{hw}\" (the Pi 1 SoC), revision code {r}"),
        );
    }
    // Core type of the Broadcom Pi SoCs.
    let by_core = [
        ("ARM1176", "Broadcom BCM2835"),
        ("Cortex-A7", "Broadcom BCM2836"),
        (
            "Cortex-A53",
            "one of: Broadcom BCM2837, Broadcom BCM2710A1 (RP3A0)",
        ),
        ("Cortex-A72", "Broadcom BCM2711"),
        ("Cortex-A76", "Broadcom BCM2712"),
    ];
    let core = sig.only_core()?;
    let (_, name) = by_core.iter().find(|(k, _)| *k == core)?;
    found(
        *name,
        format!("cpuinfo Hardware \"{hw}\" with {core} cores"),
    )
}

/// Boards whose kernel (Hardware line) or device tree (`document`) names the board instead of
/// the SoC, substring → SoC. Sources: the board makers' specification pages.
#[rustfmt::skip]
static BOARDS: &[(&str, &str, &str)] = &[
    ("Khadas VIM4", "Amlogic A311D2", "board Khadas VIM4"),
    ("Khadas VIM1S", "Amlogic S905Y4", "board Khadas VIM1S"),
    ("Khadas VIM3L", "Amlogic S905D3", "board Khadas VIM3L"),
    ("Khadas VIM3", "Amlogic A311D", "board Khadas VIM3"),
    ("Khadas VIM2", "Amlogic S912", "board Khadas VIM2"),
    ("ODROID-C2", "Amlogic S905", "board ODROID-C2"),
    ("ODROID-C4", "Amlogic S905X3", "board ODROID-C4"),
    ("ODROID-HC4", "Amlogic S905X3", "board ODROID-HC4"),
    ("ODROID-N2", "Amlogic S922X", "board ODROID-N2"),
    ("ODROID-C1", "Amlogic S805", "board ODROID-C1"),
    ("ODROID-XU3", "Samsung Exynos 5422", "board ODROID-XU3"),
    ("ODROID-XU4", "Samsung Exynos 5422", "board ODROID-XU4"),
    ("ODROID-HC1", "Samsung Exynos 5422", "board ODROID-HC1"),
    ("SolidRun CuBox", "Marvell Armada 510", "board SolidRun CuBox"),
    ("jetson-tk1", "NVIDIA Tegra K1 (T124)", "board Jetson TK1"),
    ("AP148", "Qualcomm IPQ8064", "Qualcomm AP148 reference board"),
    ("Bowser", "TI OMAP4460 or OMAP4470", "board Bowser (Kindle Fire HD 7/8.9)"),
    ("OMAP3 Beagle", "TI OMAP3530 or DM3730", "board BeagleBoard (the -xM has the DM3730)"),
    ("startablet", "NVIDIA Tegra 2 (T20)", "board LG Optimus Pad (\"star\")"),
    ("Jetson Nano", "NVIDIA Tegra X1 (T210)", "board Jetson Nano"),
];

/// A board name (Hardware line or device-tree model) → SoC.
fn from_board(text: &str, source: &str) -> Option<SocGuess> {
    let (_, name, note) = BOARDS.iter().find(|(k, _, _)| text.contains(k))?;
    found(*name, format!("{source} \"{text}\" ({note})"))
}

// ---------------------------------------------------------------------------------------------
// 3. Hardware line
// ---------------------------------------------------------------------------------------------

/// `Hardware` substring (case-insensitive) [+ core signature] → SoC. First match wins, so
/// specific entries come first. Sources: vendor BSP kernels as seen in the sbc-bench cpuinfo
/// collection, linux-sunxi wiki (Allwinner `sunXiwY` IDs), board vendors' spec pages.
#[rustfmt::skip]
static HARDWARE: &[(&str, &str, &str, &str)] = &[
    // (needle, signature or "", name, note)
    // Allwinner BSP IDs (sunXiwYpZ).
    ("sun8iw3", "", "Allwinner A23", ""),
    ("sun8iw5", "", "one of: Allwinner A33, Allwinner R16", "one BSP ID"),
    ("sun8iw6", "", "one of: Allwinner A83T, Allwinner H8", "one BSP ID"),
    ("sun8iw7", "", "one of: Allwinner H3, Allwinner H2+", "one BSP ID"),
    ("sun8iw11", "", "one of: Allwinner R40, Allwinner V40, Allwinner A40i, Allwinner T3", "one BSP ID"),
    ("sun9iw1", "", "Allwinner A80", ""),
    ("sun50iw10", "", "one of: Allwinner A133, Allwinner A100", "one BSP ID"),
    ("sun50iw11", "", "Allwinner R329", ""),
    ("sun50iw1", "", "one of: Allwinner A64, Allwinner H5, Allwinner H6, Allwinner H616", "A64's ID (H64/R18 share it), which Armbian's arm64 kernels print for every sun50i SoC"),
    ("sun50iw2", "", "Allwinner H5", ""),
    ("sun50iw3", "", "Allwinner A63", ""),
    ("sun50iw6", "", "Allwinner H6", ""),
    ("sun50iw9", "", "one of: Allwinner H616, Allwinner H618, Allwinner H313, Allwinner T507", "one BSP ID"),
    ("sun55iw3", "", "one of: Allwinner A523, Allwinner T527", "one BSP ID"),
    ("sun20iw1", "", "Allwinner D1", ""),
    // Allwinner mainline-era family names: only the core count narrows them.
    ("sun4i", "", "Allwinner A10", ""),
    ("sun5i", "", "Allwinner sun5i family", "A13, A10s or R8"),
    ("sun6i", "", "one of: Allwinner A31, Allwinner A31s", "sun6i family"),
    ("sun7i", "", "Allwinner A20", ""),
    ("sun8i", "1xCortex-A7", "one of: Allwinner V3s, Allwinner S3, Allwinner V3", "sun8i family with one Cortex-A7"),
    ("sun8i", "2xCortex-A7", "Allwinner A23", "sun8i family with two Cortex-A7"),
    ("sun8i", "8xCortex-A7", "one of: Allwinner A83T, Allwinner H8", "sun8i family with eight Cortex-A7"),
    ("sun8i", "4xCortex-A7", "one of: Allwinner H3, Allwinner H2+, Allwinner R40, Allwinner A33, Allwinner R16", "sun8i family with four Cortex-A7"),
    ("sun8i", "", "Allwinner sun8i family", ""),
    ("sun9i", "", "Allwinner A80", ""),
    // Amlogic 32-bit kernels: the core type separates Meson8b from Meson8/8m2.
    ("Amlogic Meson", "4xCortex-A5", "Amlogic S805", "Meson8b (4×Cortex-A5)"),
    ("Amlogic Meson", "4xCortex-A9", "one of: Amlogic S802, Amlogic S812", "Meson8/Meson8m2: both have 4×Cortex-A9"),
    ("Oxsemi NAS", "", "PLX NAS7820 (Oxford OX820)", ""),
    ("Comcerto 2000", "", "Mindspeed Comcerto 2000", ""),
    ("OMAP4", "", "TI OMAP4", "OMAP4430/4460/4470"),
    ("OMAP3", "", "TI OMAP3", "OMAP3530/DM3730 class"),
    ("AM33XX", "", "TI AM335x", ""),
    ("DRA74X", "", "TI AM572x / DRA74x", ""),
    ("DRA72X", "", "TI AM571x / DRA72x", ""),
    ("dm385", "", "TI DM385", ""),
    ("Xilinx Zynq", "", "Xilinx Zynq-7000", ""),
    ("Sigmastar", "2xCortex-A7", "SigmaStar SSD201/SSD202D", "Infinity2M"),
    ("MStar Infinity2", "", "MStar Infinity2", ""),
    ("i.MX6 Quad/DualLite", "4xCortex-A9", "NXP i.MX6 Quad", ""),
    ("i.MX6 Quad/DualLite", "2xCortex-A9", "NXP i.MX6 DualLite", ""),
    ("STi SoC", "", "STMicroelectronics STiH4xx family", "STiH407/410/415/416/418"),
    ("Feroceon-KW", "", "one of: Marvell Kirkwood 88F6281, Marvell Kirkwood 88F6282, Marvell Kirkwood 88F6192, Marvell Kirkwood 88F6180", "Kirkwood family"),
    ("Armada-370", "", "Marvell Armada 370", ""),
    ("ARM-Versatile Express", "2xCortex-A15+3xCortex-A7", "ARM V2P-CA15_A7 (TC2) test chip", "Versatile Express"),
    ("GPL32900", "", "GeneralPlus GPL32900 family", ""),
    ("bigfish", "4xCortex-A53", "HiSilicon Hi3798 family (Hi3798CV200/MV200)", "HiSilicon set-top-box platform \"bigfish\""),
    ("hi6210sft", "", "HiSilicon Kirin 620 (Hi6210SFT/Hi6220)", ""),
    ("hi6620", "", "one of: HiSilicon Kirin 910 (Hi6620), HiSilicon Kirin 910T", "one BSP ID"),
    ("hi6250", "", "one of: HiSilicon Kirin 650 (Hi6250), HiSilicon Kirin 655, HiSilicon Kirin 658, HiSilicon Kirin 659", "one BSP ID"),
    ("hi3650", "", "one of: HiSilicon Kirin 950 (Hi3650), HiSilicon Kirin 955", "one BSP ID"),
    ("hi3660", "", "HiSilicon Kirin 960 (Hi3660)", ""),
    ("hi3751", "", "HiSilicon Hi3751 family", "V310/V320/V510/V530… cannot be told apart"),
    ("RK30board", "2xCortex-A9", "one of: Rockchip RK3066, Rockchip RK3168", "RK30 BSP with two Cortex-A9"),
    ("RK30board", "4xCortex-A9", "Rockchip RK3188", "RK30 BSP with four Cortex-A9"),
    ("RK29board", "", "Rockchip RK2918", ""),
    ("Rockchip", "4xCortex-A9", "Rockchip RK3188", "Rockchip with 4×Cortex-A9"),
    ("Rockchip", "4xCortex-A17", "Rockchip RK3288", "Rockchip with 4×Cortex-A17"),
    ("Rockchip", "4xCortex-A7", "one of: Rockchip RK3228, Rockchip RK3229, Rockchip RK3126, Rockchip RK3128, Rockchip RV1126", "Rockchip with 4×Cortex-A7"),
    ("SAMSUNG EXYNOS", "4xCortex-A7+4xCortex-A15", "Samsung Exynos 5422", "Exynos 5420/5800 have the same cores"),
    // Qualcomm BSP codenames (Android `Hardware : Qualcomm Technologies, Inc <CODENAME>`).
    ("msmnile", "", "Qualcomm SM8150 (Snapdragon 855)", "codename msmnile"),
    ("kona", "", "Qualcomm SM8250 (Snapdragon 865)", "codename kona"),
    ("lahaina", "", "Qualcomm SM8350 (Snapdragon 888)", "codename lahaina"),
    ("taro", "", "Qualcomm SM8450 (Snapdragon 8 Gen 1)", "codename taro"),
    ("kalama", "", "Qualcomm SM8550 (Snapdragon 8 Gen 2)", "codename kalama"),
    ("pineapple", "", "Qualcomm SM8650 (Snapdragon 8 Gen 3)", "codename pineapple"),
    ("bengal", "", "one of: Qualcomm SM6115 (Snapdragon 662), Qualcomm SM4250 (Snapdragon 460)", "codename bengal"),
    ("trinket", "", "Qualcomm SM6125 (Snapdragon 665)", "codename trinket"),
    ("lito", "", "one of: Qualcomm SM7250 (Snapdragon 765), Qualcomm SM7225 (Snapdragon 750G)", "codename lito"),
    ("atoll", "", "Qualcomm SM7125 (Snapdragon 720G)", "codename atoll"),
];

/// Model tokens in a Hardware line: (token prefix, vendor, needs digits right after the prefix).
/// "MT6771V/C" → MediaTek MT6771V, "Qualcomm MSM 8974" → Qualcomm MSM8974, "SMDK4210" →
/// Samsung Exynos 4210, "vendor Kirin810" → HiSilicon Kirin 810.
#[rustfmt::skip]
static HARDWARE_TOKENS: &[(&str, &str)] = &[
    ("MT", "MediaTek MT"),
    ("MSM", "Qualcomm MSM"),
    ("APQ", "Qualcomm APQ"),
    ("SDM", "Qualcomm SDM"),
    ("SM", "Qualcomm SM"),
    ("QCS", "Qualcomm QCS"),
    ("QCM", "Qualcomm QCM"),
    ("IPQ", "Qualcomm IPQ"),
    ("SDA", "Qualcomm SDA"),
    ("SMDK", "Samsung Exynos "),
    ("S3C", "Samsung S3C"),
    ("S5PC", "Samsung S5PC"),
    ("S5PV", "Samsung S5PV"),
    ("EXYNOS", "Samsung Exynos "),
    ("KIRIN", "HiSilicon Kirin "),
    ("HI", "HiSilicon Hi"),
    ("UMS", "Unisoc UMS"),
    ("SC", "Spreadtrum SC"),
    ("RK", "Rockchip RK"),
    ("TCC", "Telechips TCC"),
];

fn from_hardware(c: &CpuInfo, sig: &Signature) -> Option<SocGuess> {
    let hw = c.hardware.as_deref()?.trim();
    if let Some(g) = from_board(hw, "cpuinfo Hardware") {
        return Some(g);
    }
    let lower = hw.to_ascii_lowercase();
    let why = |note: &str| {
        if note.is_empty() {
            format!("cpuinfo Hardware \"{hw}\"")
        } else {
            format!("cpuinfo Hardware \"{hw}\" ({note})")
        }
    };
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for (needle, spec, name, note) in HARDWARE {
        let needle = needle.to_ascii_lowercase();
        // Plain words (codenames like "kona", "taro") must be whole words; IDs may be prefixes.
        let hit = if needle.chars().all(|c| c.is_ascii_lowercase()) {
            words.contains(&needle.as_str())
        } else {
            lower.contains(&needle)
        };
        if hit && (spec.is_empty() || sig.matches(spec)) {
            return found(*name, why(note));
        }
    }
    // "Allwinner sun7i (A20) Family", "Allwinner A83t board": a model-looking word.
    if lower.starts_with("allwinner") {
        let words = hw.split(|c: char| !c.is_ascii_alphanumeric());
        if let Some(w) = words.skip(1).find(|w| {
            w.len() >= 2
                && w.starts_with(['A', 'H', 'R', 'V', 'T', 'D'])
                && w[1..].starts_with(|c: char| c.is_ascii_digit())
        }) {
            return found(format!("Allwinner {}", w.to_ascii_uppercase()), why(""));
        }
    }
    // Model tokens. "MSM 8610" is written with a space in some BSPs.
    // Samsung's SMDK reference boards carry the S3C24xx/S3C64xx and S5PC1xx/S5PV2xx numbers
    // too; only the others are Exynos.
    let joined = hw
        .to_ascii_uppercase()
        .replace("MSM ", "MSM")
        .replace("APQ ", "APQ")
        .replace("SMDK24", "S3C24")
        .replace("SMDK64", "S3C64")
        .replace("SMDKC1", "S5PC1")
        .replace("SMDKV2", "S5PV2");
    for word in joined.split(|c: char| !c.is_ascii_alphanumeric()) {
        for (prefix, spelled) in HARDWARE_TOKENS {
            if word.strip_prefix(prefix).is_some_and(is_model_number) {
                let rest = &word[prefix.len()..];
                return found(format!("{spelled}{rest}"), why(""));
            }
        }
    }
    None
}

/// "6771V", "8974PRO", "4210": at least three digits, then at most three letters/digits.
fn is_model_number(rest: &str) -> bool {
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits >= 3 && rest.len() - digits <= 3
}

// ---------------------------------------------------------------------------------------------
// 4. Amlogic serial
// ---------------------------------------------------------------------------------------------

/// Amlogic chip major IDs (first byte of the cpuinfo Serial on Amlogic vendor kernels). Source:
/// Linux drivers/soc/amlogic/meson-gx-socinfo.c and meson-mx-socinfo.c (mainline IDs up to
/// 0x2c); later IDs from Amlogic vendor kernels as collected by sbc-bench.
#[rustfmt::skip]
static AMLOGIC_IDS: &[(&str, &str, &str)] = &[
    ("19", "Amlogic S802", "Meson8"),
    ("1b", "Amlogic S805", "Meson8b"),
    ("1d", "Amlogic S812", "Meson8m2"),
    ("1f", "Amlogic S905", "GXBB"),
    ("20", "Amlogic GXTVBB (T96x)", "GXTVBB"),
    ("21", "Amlogic GXL (S905X/S905D/S905W/S805X)", "GXL"),
    ("22", "Amlogic S912", "GXM"),
    ("25", "Amlogic AXG (A113D/A113X)", "AXG"),
    ("28", "Amlogic G12A (S905X2/S905D2/S905Y2)", "G12A"),
    ("29", "Amlogic S922X or A311D", "G12B"),
    ("2b", "Amlogic SM1 (S905X3/S905D3)", "SM1"),
    ("32", "Amlogic S905X4", "SC2; S905C2 shares it"),
    ("36", "Amlogic A311D2", "T7"),
    ("37", "Amlogic S905Y4", "S4; S805X2/S905W2 share it"),
];

fn from_amlogic_serial(c: &CpuInfo) -> Option<SocGuess> {
    let hw = c.hardware.as_deref()?;
    if !hw.to_ascii_lowercase().contains("amlogic") {
        return None;
    }
    let id = c.serial_prefix.as_deref()?;
    let (_, name, family) = AMLOGIC_IDS.iter().find(|(k, _, _)| *k == id)?;
    found(
        *name,
        format!("cpuinfo Hardware \"{hw}\" and Serial chip ID 0x{id} ({family})"),
    )
}

// ---------------------------------------------------------------------------------------------
// 5. Model names (Loongson, MIPS, RISC-V vendor kernels)
// ---------------------------------------------------------------------------------------------

/// MIPS `system type` → SoC. Source: Linux arch/mips platform names.
#[rustfmt::skip]
static MIPS_SYSTEMS: &[(&str, &str)] = &[
    ("JZ4780", "Ingenic JZ4780"),
    ("JZ4770", "Ingenic JZ4770"),
    ("X1000", "Ingenic X1000"),
    ("X1830", "Ingenic X1830"),
    ("MT7621", "MediaTek MT7621"),
    ("MT7628", "MediaTek MT7628"),
];

/// RISC-V `model name` substring → SoC (vendor kernels print a marketing core name).
static RISCV_MODELS: &[(&str, &str, &str)] = &[(
    "Spacemit(R) X60",
    "SpacemiT K1 (or M1)",
    "the M1 is a K1 with higher clocks",
)];

fn from_model_names(c: &CpuInfo) -> Option<SocGuess> {
    let first = c.processors.first()?;
    let model = first.model_name.as_deref().unwrap_or_default();
    if model.starts_with("Loongson") {
        // "Loongson-3A R1 (Loongson-3A1000) @ 900MHz" → 3A1000; "Loongson-3A5000-HV".
        let inner = model
            .split_once('(')
            .and_then(|(_, r)| r.split_once(')'))
            .map_or(model, |(i, _)| i);
        let chip = inner
            .split(" @")
            .next()?
            .trim()
            .trim_start_matches("Loongson-");
        return found(
            format!("Loongson {chip}"),
            format!("cpuinfo model name \"{model}\""),
        );
    }
    let sys = c.system_type.as_deref().unwrap_or_default();
    if let Some((_, name)) = MIPS_SYSTEMS.iter().find(|(k, _)| sys.contains(k)) {
        return found(*name, format!("cpuinfo system type \"{sys}\""));
    }
    let (_, name, note) = RISCV_MODELS.iter().find(|(k, _, _)| model.contains(k))?;
    found(*name, format!("cpuinfo model name \"{model}\" ({note})"))
}

// ---------------------------------------------------------------------------------------------
// 6. Topology signature
// ---------------------------------------------------------------------------------------------

/// Core-type signature → the SoCs with exactly that core set, first match. Counts are exact
/// ("*" = any count); a "/rXpY" suffix requires that stepping. One candidate names the SoC;
/// several give "one of: …" — a core set shared by SoCs of different makers (Kirin 980 and
/// RK3588 both have 4×Cortex-A55 + 4×Cortex-A76) must never be answered with one of them.
/// Common sets (4×Cortex-A53, 8×Cortex-A53, 4×Cortex-A55, 4×Cortex-A7 …) fit dozens of SoCs
/// and are deliberately absent. Sources: vendor product pages and datasheets for the core
/// configurations, the sbc-bench cpuinfo collection for the steppings.
#[rustfmt::skip]
static TOPOLOGY: &[(&str, &[&str], &str)] = &[
    // Big.LITTLE sets used by several vendors.
    ("4xCortex-A55+4xCortex-A76", &["Rockchip RK3588", "Rockchip RK3588S", "HiSilicon Kirin 980", "HiSilicon Kirin 985", "HiSilicon Kirin 990", "MediaTek Dimensity 800", "MediaTek Dimensity 820", "Unisoc UMS9620 (T820)"], ""),
    ("4xCortex-A53+2xCortex-A72", &["Rockchip RK3399", "MediaTek MT8176", "Qualcomm Snapdragon 650 (MSM8956)", "NXP i.MX8 QuadMax"], ""),
    ("4xCortex-A53+4xCortex-A72", &["Rockchip RK3576", "HiSilicon Kirin 950", "HiSilicon Kirin 955", "Qualcomm Snapdragon 652 (MSM8976)", "Qualcomm Snapdragon 653 (MSM8976SG)"], ""),
    ("4xCortex-A55+4xCortex-A78", &["Qualcomm QCS6490", "Qualcomm Snapdragon 778G (SM7325)", "MediaTek Genio 1200 (MT8395)", "MediaTek Kompanio 1380 (MT8195)", "MediaTek Dimensity 1100", "MediaTek Dimensity 1200", "MediaTek Dimensity 8100", "Samsung Exynos 1380"], ""),
    ("4xCortex-A7+4xCortex-A15", &["Samsung Exynos 5422", "Samsung Exynos 5420", "Samsung Exynos 5800", "Allwinner A80", "Renesas R-Car H2"], ""),
    ("4xCortex-A510+3xCortex-A710+1xCortex-X2", &["Qualcomm Snapdragon 8 Gen 1 (SM8450)", "Qualcomm Snapdragon 8+ Gen 1 (SM8475)", "MediaTek Dimensity 9000", "Samsung Exynos 2200"], ""),
    ("4xKryo-4XX-Silver+4xKryo-4XX-Gold", &["Qualcomm Snapdragon 855 (SM8150)", "Qualcomm Snapdragon 8cx (SC8180X)"], "855+/860 are the SM8150 die"),
    ("4xKryo-3XX-Silver+4xKryo-3XX-Gold", &["Qualcomm Snapdragon 845 (SDM845)", "Qualcomm Snapdragon 850 (SDM850)"], ""),
    ("8xOryon", &["Qualcomm Snapdragon 8 Elite (SM8750)", "Qualcomm Snapdragon X Plus (X1P-42-100)"], ""),
    ("6xCortex-A53+2xCortex-A73", &["Samsung Exynos 7885", "Samsung Exynos 7884", "Samsung Exynos 7904"], ""),
    // Samsung Mongoose: M1 (Exynos 8890, r1p1) and M2 (Exynos 8895) share part number 0x001.
    ("4xCortex-A53+*xexynos-m1/r1p1", &["Samsung Exynos 8890"], "Mongoose M1 cores (r1p1)"),
    ("4xCortex-A53+*xexynos-m1", &["Samsung Exynos 8890", "Samsung Exynos 8895"], "Mongoose M1 and M2 share the part number"),
    ("4xCortex-A55+4xexynos-m3", &["Samsung Exynos 9810"], "Mongoose M3 cores"),
    ("4xCortex-A55+2xCortex-A75+2xexynos-m4", &["Samsung Exynos 9820", "Samsung Exynos 9825"], ""),
    // Sets only one SoC (or one die) is known to have.
    ("4xCortex-A17", &["Rockchip RK3288"], ""),
    ("2xCortex-A53+4xCortex-A73", &["Amlogic S922X or A311D"], "G12B: both have 4×A73 + 2×A53"),
    ("2xCortex-A53+2xCortex-A72", &["MediaTek MT8173"], ""),
    ("8xCortex-A53+2xCortex-A72", &["MediaTek Helio X20/X25 (MT6797)"], ""),
    ("4xCortex-A35+4xCortex-A53+2xCortex-A73", &["MediaTek Helio X30 (MT6799)"], ""),
    ("8xCortex-A76", &["Samsung Exynos Auto V9"], ""),
    ("4xCortex-A55+2xCortex-A76+2xCortex-X1", &["Google Tensor G1"], ""),
    ("4xCortex-A55+2xCortex-A78+2xCortex-X1", &["Google Tensor G2"], ""),
    ("4xCortex-A510+4xCortex-A715+1xCortex-X3", &["Google Tensor G3"], ""),
    ("4xKryo-4XX-Silver+4xCortex-A77", &["Qualcomm Snapdragon 865 (SM8250)"], "870 is the same die"),
    ("2xCortex-A520+5xCortex-A720+1xCortex-X4", &["Qualcomm Snapdragon 8 Gen 3 (SM8650)"], ""),
    ("12xOryon", &["Qualcomm Snapdragon X Elite (X1E)"], ""),
    ("4xIcestorm-M1+4xFirestorm-M1", &["Apple M1"], ""),
    ("8xCortex-A720+4xCortex-A520", &["Cix P1 (CD8180)"], ""),
    ("*xCarmel", &["NVIDIA Xavier (T194)"], "Carmel cores"),
    ("*xCortex-A78AE", &["NVIDIA Orin (T234)"], "Cortex-A78AE cores"),
    ("2xDenver", &["NVIDIA Tegra K1 (T132, Denver)"], ""),
    ("4xCortex-A57/r1p1", &["NVIDIA Tegra X1 (T210)"], "Cortex-A57 r1p1"),
    ("4xCortex-A57/r1p3", &["NVIDIA Tegra X2 (T186) with the Denver cores off"], "Cortex-A57 r1p3"),
    ("2xDenver 2+4xCortex-A57", &["NVIDIA Tegra X2 (T186)"], ""),
    ("*xKunpeng-920", &["HiSilicon Kunpeng 920"], ""),
    ("4xFTC663", &["Phytium FT-2000/4"], ""),
    ("64xFTC662", &["Phytium FT-2000+/64"], ""),
    ("8x0x70:0x862", &["Phytium D3000"], "Phytium part 0x862"),
    // Servers and cloud
    ("*xNeoverse-V1", &["AWS Graviton3"], "Neoverse-V1 cores"),
    ("128xNeoverse-N1", &["Ampere Altra Max"], ""),
    ("96xNeoverse-N1", &["Ampere Altra Max"], ""),
    ("80xNeoverse-N1", &["Ampere Altra"], ""),
    ("32xX-Gene", &["Ampere eMAG (X-Gene 3)"], ""),
    ("*xThunderX-88XX", &["Cavium ThunderX CN88xx"], ""),
    ("*xAzure-Cobalt-100", &["Microsoft Azure Cobalt 100"], ""),
    ("*xAmpere-1", &["AmpereOne"], ""),
    ("*xAmpere-1a", &["AmpereOne"], ""),
    // RISC-V (core name = uarch, else isa)
    ("1xthead,c906", &["Allwinner D1", "Allwinner D1s", "Sophgo CV1800B", "Sophgo SG2002", "Bouffalo BL808"], "one T-Head C906 visible to Linux"),
    ("4xsifive,u74-mc", &["StarFive JH7110", "SiFive FU740"], ""),
    ("2xsifive,u74-mc", &["StarFive JH7100"], ""),
    ("4xsifive,u54-mc", &["SiFive FU540", "Microchip PolarFire SoC (MPFS)"], ""),
    ("4xsifive,rocket0", &["SiFive FU540"], "early kernels name the U54 \"rocket0\""),
    ("1xandestech,ax45mp", &["Renesas RZ/Five"], ""),
    ("4xthead,c910", &["T-Head TH1520"], ""),
    ("64xrv64imafdcv", &["Sophgo SG2042"], "64 RISC-V harts with vector extension"),
];

/// The name of a guess that fits several SoCs.
fn one_of(candidates: &[&str]) -> String {
    match candidates {
        [one] => (*one).to_string(),
        _ => format!("one of: {}", candidates.join(", ")),
    }
}

/// Per core type: (core key, count, distinct steppings), sorted by key. The key is the core
/// name, or "0xII:0xPPP" for unnamed ARM parts.
#[derive(Debug, Default)]
struct Signature {
    groups: Vec<(String, usize, Vec<String>)>,
    /// False when the file does not say which CPU has which core (old MIDR-once format).
    per_cpu: bool,
}

impl Signature {
    fn of(c: &CpuInfo) -> Signature {
        let mut groups: Vec<(String, usize, Vec<String>)> = Vec::new();
        for p in &c.processors {
            let key = match (&p.core_name, &p.arm) {
                (Some(n), _) => n.clone(),
                (None, Some(a)) => format!("{}:{}", a.implementer, a.part),
                (None, None) => continue,
            };
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => {
                    g.1 += 1;
                    let new_stepping = p.stepping.as_ref().filter(|s| !g.2.contains(s));
                    g.2.extend(new_stepping.cloned());
                }
                None => groups.push((key, 1, p.stepping.iter().cloned().collect())),
            }
        }
        groups.sort();
        Signature {
            groups,
            // One processor: the MIDR printed once describes it.
            per_cpu: c.shared_cores.is_empty() || c.processors.len() == 1,
        }
    }

    /// The single core type, if there is one.
    fn only_core(&self) -> Option<&str> {
        match self.groups.as_slice() {
            [(k, _, _)] => Some(k),
            _ => None,
        }
    }

    /// Whether `spec` ("4xCortex-A55+4xCortex-A76", "*xCarmel", "4xCortex-A57/r1p1") describes
    /// exactly these core groups.
    fn matches(&self, spec: &str) -> bool {
        let items: Vec<&str> = spec.split('+').collect();
        items.len() == self.groups.len()
            && items.iter().all(|item| {
                let Some((count, rest)) = item.split_once('x') else {
                    return false;
                };
                let (name, stepping) = match rest.split_once('/') {
                    Some((n, s)) => (n, Some(s)),
                    None => (rest, None),
                };
                self.groups.iter().any(|(k, n, st)| {
                    k == name
                        && (count == "*" || count.parse() == Ok(*n))
                        && stepping.is_none_or(|s| st.len() == 1 && st[0] == s)
                })
            })
    }

    fn describe(&self) -> String {
        self.groups
            .iter()
            .map(|(k, n, _)| format!("{n}×{k}"))
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

fn from_topology(sig: &Signature, max_khz: &[u64]) -> Option<SocGuess> {
    if !sig.per_cpu || sig.groups.is_empty() {
        return None;
    }
    let (_, candidates, note) = TOPOLOGY.iter().find(|(spec, _, _)| sig.matches(spec))?;
    let mut why = format!("core types only: {}", sig.describe());
    if !max_khz.is_empty() {
        let mhz: Vec<String> = max_khz.iter().map(|k| (k / 1000).to_string()).collect();
        why.push_str(&format!(", cluster max {} MHz", mhz.join("/")));
    }
    if candidates.len() > 1 {
        why.push_str(", a core set several SoCs have");
    }
    if !note.is_empty() {
        why.push_str(&format!(" ({note})"));
    }
    found(one_of(candidates), why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpuinfo::parse;

    fn dt(compat: &[&str]) -> Option<SocGuess> {
        let c = CpuInfo::default();
        let v: Vec<String> = compat.iter().map(|s| s.to_string()).collect();
        guess(&SocHints {
            dt_compatible: &v,
            dt_model: None,
            cpuinfo: &c,
            max_khz_per_cluster: &[],
        })
    }

    fn name(g: Option<SocGuess>) -> Option<String> {
        g.map(|g| g.name)
    }

    #[test]
    fn device_tree_names_the_soc() {
        let cases: &[(&[&str], &str)] = &[
            (&["radxa,rock-5b", "rockchip,rk3588"], "Rockchip RK3588"),
            // RK3588S is the catalogue's RK3588 (same die and cores).
            (&["radxa,rock-5a", "rockchip,rk3588s"], "Rockchip RK3588"),
            (
                &["xunlong,orangepi-zero2", "allwinner,sun50i-h616"],
                "Allwinner H616",
            ),
            (
                &["raspberrypi,4-model-b", "brcm,bcm2711"],
                "Broadcom BCM2711",
            ),
            (
                &["raspberrypi,5-model-b", "brcm,bcm2712"],
                "Broadcom BCM2712",
            ),
            (
                &["hardkernel,odroid-n2", "amlogic,s922x", "amlogic,g12b"],
                "Amlogic S922X",
            ),
            (
                &["khadas,vim3", "amlogic,a311d", "amlogic,g12b"],
                "Amlogic A311D",
            ),
            (&["foo,bar", "amlogic,g12b"], "Amlogic S922X or A311D"),
            (
                &["nvidia,p3450-0000", "nvidia,jetson-nano", "nvidia,tegra210"],
                "NVIDIA Tegra X1 (T210)",
            ),
            (&["fsl,imx8mp-evk", "fsl,imx8mp"], "NXP i.MX8MP"),
            (
                &[
                    "hardkernel,odroid-xu4",
                    "samsung,exynos5800",
                    "samsung,exynos5",
                ],
                "Samsung Exynos 5800",
            ),
            (
                &["starfive,visionfive-2-v1.3b", "starfive,jh7110"],
                "StarFive JH7110",
            ),
            (
                &["qcom,qcs6490-rb3gen2", "qcom,qcs6490"],
                "Qualcomm QCS6490",
            ),
            // H2+ is the catalogue's H3 (same die and cores).
            (&["allwinner,sun8i-h2-plus"], "Allwinner H3"),
        ];
        for (compat, want) in cases {
            assert_eq!(name(dt(compat)).as_deref(), Some(*want), "{compat:?}");
        }
        let g = dt(&["foo,bar", "amlogic,g12b"]).unwrap();
        assert!(g.why.contains("share"), "{}", g.why);
        assert_eq!(
            dt(&["radxa,rock-5b"]),
            None,
            "a board compatible alone names nothing"
        );
        assert_eq!(dt(&[]), None);
    }

    #[test]
    fn device_tree_model_names_known_boards() {
        let c = CpuInfo::default();
        let g = |m: &str| {
            guess(&SocHints {
                dt_compatible: &[],
                dt_model: Some(m),
                cpuinfo: &c,
                max_khz_per_cluster: &[],
            })
            .map(|g| g.name)
        };
        assert_eq!(
            g("Raspberry Pi 4 Model B Rev 1.4").as_deref(),
            Some("Broadcom BCM2711")
        );
        assert_eq!(
            g("Raspberry Pi Zero 2 W Rev 1.0").as_deref(),
            Some("Broadcom BCM2710A1 (RP3A0)")
        );
        assert_eq!(g("Khadas VIM3L").as_deref(), Some("Amlogic S905D3"));
        assert_eq!(g("Some Unknown Board").as_deref(), None);
    }

    fn cpus(text: &str) -> Option<SocGuess> {
        let c = parse(text);
        guess(&SocHints {
            dt_compatible: &[],
            dt_model: None,
            cpuinfo: &c,
            max_khz_per_cluster: &[1_800_000, 2_352_000, 2_352_000],
        })
    }

    fn arm_cpu(i: u32, part: &str, variant: &str) -> String {
        format!(
            "processor\t: {i}\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\n\
             CPU variant\t: {variant}\nCPU part\t: {part}\nCPU revision\t: 0\n\n"
        )
    }

    #[test]
    fn topology_signature_rk3588() {
        let t: String = (0..8)
            .map(|i| {
                if i < 4 {
                    arm_cpu(i, "0xd05", "0x2")
                } else {
                    arm_cpu(i, "0xd0b", "0x4")
                }
            })
            .collect();
        let g = cpus(&t).unwrap();
        assert!(g.name.contains("RK3588"), "{g:?}");
        assert!(g.why.contains("4×Cortex-A55 + 4×Cortex-A76"), "{}", g.why);
        assert!(g.why.contains("1800/2352/2352 MHz"), "{}", g.why);
        // A common signature names nothing.
        let t: String = (0..4).map(|i| arm_cpu(i, "0xd03", "0x0")).collect();
        assert_eq!(cpus(&t), None);
    }

    #[test]
    fn hardware_line_and_raspberry_pi() {
        let pi = "processor : 0\nCPU implementer : 0x41\nCPU part : 0xd08\n\nHardware\t: BCM2835\n\
                  Revision\t: c03111\nModel\t: Raspberry Pi 4 Model B Rev 1.1\n";
        assert_eq!(name(cpus(pi)).as_deref(), Some("Broadcom BCM2711"));
        let old = "processor : 0\n\nHardware\t: BCM2709\nRevision\t: 0010\n";
        assert_eq!(
            name(cpus(old)),
            None,
            "no revision code, no core type: no guess"
        );
        let aw = "processor : 0\n\nHardware\t: sun50iw9\n";
        assert_eq!(
            name(cpus(aw)).as_deref(),
            Some("one of: Allwinner H616, Allwinner H618, Allwinner T507")
        );
        let mtk = "processor : 0\n\nHardware\t: MT6771V/C\n";
        assert_eq!(name(cpus(mtk)).as_deref(), Some("MediaTek MT6771V"));
        let qc =
            "processor : 0\n\nHardware\t: Qualcomm MSM 8974 HAMMERHEAD (Flattened Device Tree)\n";
        assert_eq!(name(cpus(qc)).as_deref(), Some("Qualcomm MSM8974"));
        let sam = "processor : 0\n\nHardware\t: SAMSUNG JF\n";
        assert_eq!(name(cpus(sam)), None, "a phone codename is not a SoC");
    }

    /// The cases of a wrong single name: evidence several SoCs fit gives all of them.
    #[test]
    fn shared_evidence_gives_every_candidate() {
        let big_little = |little: (&str, &str), big: (&str, &str)| -> String {
            (0..8)
                .map(|i| {
                    let (part, variant) = if i < 4 { little } else { big };
                    arm_cpu(i, part, variant)
                })
                .collect()
        };
        // Kirin 980 has RK3588's core set; a MediaTek Genio 1200 a QCS6490's.
        let kirin980 = name(cpus(&big_little(("0xd05", "0x1"), ("0xd0b", "0x1")))).unwrap();
        assert!(kirin980.starts_with("one of: "), "{kirin980}");
        assert!(kirin980.contains("HiSilicon Kirin 980") && kirin980.contains("RK3588"));
        let genio = name(cpus(&big_little(("0xd05", "0x2"), ("0xd41", "0x1")))).unwrap();
        assert!(
            genio.contains("Genio 1200") && genio.contains("QCS6490"),
            "{genio}"
        );
        // Kirin 950's 4×A53 + 4×A72 is RK3576's too.
        let kirin950 = name(cpus(&big_little(("0xd03", "0x0"), ("0xd08", "0x0")))).unwrap();
        assert!(kirin950.contains("Kirin 950") && kirin950.contains("RK3576"));
        // Exynos 8895's Mongoose M2 has the M1's part number: only the M1 stepping is 8890.
        let mongoose = |variant: &str, rev: &str| -> String {
            (0..8)
                .map(|i| {
                    if i < 4 {
                        arm_cpu(i, "0xd03", "0x0")
                    } else {
                        format!(
                            "processor\t: {i}\nFeatures\t: fp asimd\nCPU implementer\t: 0x53\n\
                             CPU variant\t: {variant}\nCPU part\t: 0x001\nCPU revision\t: {rev}\n\n"
                        )
                    }
                })
                .collect()
        };
        assert_eq!(
            name(cpus(&mongoose("0x1", "1"))).as_deref(),
            Some("Samsung Exynos 8890")
        );
        assert_eq!(
            name(cpus(&mongoose("0x4", "0"))).as_deref(),
            Some("one of: Samsung Exynos 8890, Samsung Exynos 8895")
        );
        // Armbian prints the A64's ID on an H5.
        let h5 =
            "processor : 0\nCPU implementer : 0x41\nCPU part : 0xd03\n\nHardware\t: sun50iw1p1\n";
        let h5 = name(cpus(h5)).unwrap();
        assert!(
            h5.contains("Allwinner H5") && h5.contains("Allwinner A64"),
            "{h5}"
        );
        // SMDK6410 is Samsung's S3C6410 reference board, not an Exynos.
        let s3c = "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nCPU implementer\t: 0x41\n\
                   CPU part\t: 0xb76\n\nHardware\t: SMDK6410\n";
        assert_eq!(name(cpus(s3c)).as_deref(), Some("Samsung S3C6410"));
        let smdk = "processor : 0\n\nHardware\t: SMDK4210\n";
        assert_eq!(name(cpus(smdk)).as_deref(), Some("Samsung Exynos 4210"));
    }

    /// 2.6/3.x-era Raspberry Pi kernels: one `Processor` block, `Hardware : BCM2708`.
    #[test]
    fn old_raspberry_pi_kernel_is_bcm2835() {
        let t = "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nBogoMIPS\t: 697.95\n\
                 CPU implementer\t: 0x41\nCPU architecture: 7\nCPU variant\t: 0x0\n\
                 CPU part\t: 0xb76\nCPU revision\t: 7\n\nHardware\t: BCM2708\nRevision\t: 000e\n";
        let g = cpus(t).unwrap();
        assert_eq!(g.name, "Broadcom BCM2835");
        assert!(g.why.contains("BCM2708"), "{}", g.why);
        // Without the Hardware line the single ARM1176 says nothing distinctive.
        let bare = t.replace("Hardware\t: BCM2708\n", "");
        assert_eq!(cpus(&bare), None);
    }

    #[test]
    fn amlogic_serial_chip_id() {
        let t = "processor : 0\nCPU implementer : 0x41\nCPU part : 0xd03\n\nHardware\t: Amlogic\n\
                 Serial\t\t: 1f0c13003209a3a1\n";
        let g = cpus(t).unwrap();
        assert_eq!(g.name, "Amlogic S905");
        assert!(g.why.contains("GXBB"));
    }

    proptest::proptest! {
        /// Arbitrary compatible strings, board models and cpuinfo text never panic the guess.
        #[test]
        fn never_panics(
            compat in proptest::collection::vec("[a-z0-9,.+-]{0,24}|\\PC{0,12}", 0..5),
            model in proptest::option::of("\\PC{0,30}"),
            text in "(processor\t: [0-9]\n|Hardware\t: [ -~]{0,20}\n|Serial\t: [0-9a-f]{0,8}\n|Revision\t: [0-9a-f]{0,8}\n|CPU part\t: 0x[0-9a-f]{3}\n|CPU implementer\t: 0x4[18]\n|\n){0,30}",
            khz in proptest::collection::vec(0u64..5_000_000, 0..4),
        ) {
            let c = parse(&text);
            let _ = guess(&SocHints {
                dt_compatible: &compat,
                dt_model: model.as_deref(),
                cpuinfo: &c,
                max_khz_per_cluster: &khz,
            });
        }
    }
}
