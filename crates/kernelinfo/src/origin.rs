//! Who made the kernel: kernel.org sources (possibly built by a distribution that follows
//! kernel.org's point releases), a distribution's own maintained branch, a downstream tree that
//! merges kernel.org stable (Raspberry Pi), or a vendor's board support package (BSP).
//!
//! sbc-bench decides this with a case table of exact versions × guessed SoC and stays silent for
//! distribution kernels, x86 and VMs; here every kernel gets an origin with the evidence for it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::version::{Release, version_after};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Built from kernel.org sources; the version is a real kernel.org point release.
    Mainline,
    /// A distribution's own maintained branch: fixes come from the distribution.
    Distro,
    /// A vendor tree that regularly merges kernel.org point releases (Raspberry Pi).
    Downstream,
    /// A SoC vendor's or board maker's fork (BSP): fixes depend on the vendor.
    Vendor,
}

impl Kind {
    pub fn words(self) -> &'static str {
        match self {
            Kind::Mainline => "mainline (kernel.org sources)",
            Kind::Distro => "distribution kernel",
            Kind::Downstream => "downstream tree following kernel.org stable",
            Kind::Vendor => "vendor (BSP) kernel",
        }
    }
}

/// The verdict on who made the kernel, with the reasons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    pub kind: Kind,
    /// "Debian", "Ubuntu", "Raspberry Pi", "Rockchip", "Armbian" …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintainer: Option<String>,
    /// The kernel.org point release of the series this kernel contains, when it is known
    /// (Debian's "6.1.0-27" ABI name hides it; uname -v has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_point: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_point_source: Option<String>,
    pub evidence: Vec<String>,
}

/// Everything the classification looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clues<'a> {
    /// `uname -v`.
    pub version: Option<&'a str>,
    /// /proc/version_signature (Ubuntu: "Ubuntu 5.15.0-1034.38-raspi 5.15.92").
    pub version_signature: Option<&'a str>,
    pub dt_compatible: &'a [String],
    pub dt_model: Option<&'a str>,
}

/// A late-mainlined SoC (data/soc-mainline.tsv).
#[derive(Debug, Clone)]
struct SocBound {
    compatible: String,
    soc: String,
    vendor: String,
    bound: (u32, u32),
}

fn soc_bounds() -> &'static [SocBound] {
    static T: OnceLock<Vec<SocBound>> = OnceLock::new();
    T.get_or_init(|| parse_soc_bounds(include_str!("../data/soc-mainline.tsv")))
}

fn parse_soc_bounds(text: &str) -> Vec<SocBound> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.trim_end().split('\t').collect();
            let [compatible, soc, vendor, series] = f[..] else {
                return None;
            };
            let (a, b) = series.split_once('.')?;
            Some(SocBound {
                compatible: compatible.to_string(),
                soc: soc.to_string(),
                vendor: vendor.to_string(),
                bound: (a.parse().ok()?, b.parse().ok()?),
            })
        })
        .collect()
}

/// Suffix words that name a vendor kernel (BSP names carry the SoC or the vendor).
fn vendor_token(t: &str) -> Option<&'static str> {
    let digits_after = |p: &str| {
        t.strip_prefix(p)
            .is_some_and(|r| r.len() >= 3 && r.as_bytes()[0].is_ascii_digit())
    };
    Some(match t {
        _ if digits_after("rk3") || t.starts_with("rk35") || t.starts_with("rk33") => "Rockchip",
        _ if t.starts_with("sun")
            && t.contains("iw")
            && t[3..].starts_with(|c: char| c.is_ascii_digit()) =>
        {
            "Allwinner"
        }
        "allwinner" => "Allwinner",
        "amlogic" => "Amlogic",
        "tegra" | "l4t" => "NVIDIA",
        "ti" => "Texas Instruments",
        "xilinx" => "AMD Xilinx",
        _ if t.starts_with("imx") => "NXP",
        "starfive" => "StarFive",
        "thead" | "th1520" => "T-Head",
        "spacemit" => "SpacemiT",
        "sophgo" | "cvitek" => "Sophgo",
        "cix" => "CIX",
        "mtk" | "mediatek" => "MediaTek",
        "qcom" | "qli" => "Qualcomm",
        _ if t.starts_with("odroid") => "Hardkernel",
        _ => return None,
    })
}

/// Armbian's family names: their current/edge kernels are kernel.org based, their "legacy"
/// kernels were the vendors' BSPs, recognisable by the series.
fn armbian_family(t: &str) -> Option<(&'static str, &'static [(u32, u32)])> {
    Some(match t {
        "rockchip64" | "rockchip" => ("Rockchip", &[(3, 10), (4, 4), (4, 19)]),
        "meson64" | "meson" => ("Amlogic", &[(3, 10), (3, 14), (4, 9)]),
        "sunxi64" | "sunxi" => ("Allwinner", &[(3, 4), (3, 10), (4, 9)]),
        _ => return None,
    })
}

const DEBIAN_FLAVOURS: &[&str] = &[
    "amd64",
    "arm64",
    "armmp",
    "armmp-lpae",
    "686",
    "686-pae",
    "cloud-amd64",
    "cloud-arm64",
    "rt-amd64",
    "rt-arm64",
    "rt-686-pae",
    "rt-armmp",
    "rpi",
    "marvell",
    "riscv64",
    "loong64",
    "powerpc64le",
    "s390x",
    "4kc-malta",
    "5kc-malta",
    "octeon",
    "mips64r2el",
    "mips32r2el",
    "loongson-3",
    "m68k",
    "sparc64",
    "alpha-generic",
    "parisc",
    "parisc64",
    "powerpc64",
];

const UBUNTU_FLAVOURS: &[&str] = &[
    "generic",
    "lowlatency",
    "raspi",
    "raspi-nolpae",
    "aws",
    "azure",
    "gcp",
    "gke",
    "gkeop",
    "oracle",
    "kvm",
    "ibm",
    "nvidia",
    "nvidia-tegra",
    "nvidia-lowlatency",
    "intel-iotg",
    "oem",
    "realtime",
    "xilinx-zynqmp",
    "mtk",
    "riscv",
    "allwinner",
    "starfive",
    "generic-64k",
    "generic-lpae",
    "lowlatency-64k",
    "intel",
    "fips",
    "bluefield",
];

/// "-27-arm64" → Some(("27", "arm64")): Debian/Ubuntu ABI number and flavour.
fn abi_and_flavour(local: &str) -> Option<(&str, &str)> {
    let r = local.strip_prefix('-')?;
    let (abi, flavour) = r.split_once('-')?;
    (!abi.is_empty() && abi.bytes().all(|c| c.is_ascii_digit())).then_some((abi, flavour))
}

/// Classifies the kernel.
pub fn classify(rel: &Release, c: &Clues) -> Origin {
    let local = rel.local.to_ascii_lowercase();
    let tokens: Vec<&str> = local
        .split(['-', '+', '.', '_', '~'])
        .filter(|t| !t.is_empty())
        .collect();
    let uname_v = c.version.unwrap_or("");
    let own_point = if rel.rc.is_some() { None } else { rel.patch };
    let mk = |kind: Kind, who: &str, evidence: Vec<String>| Origin {
        kind,
        maintainer: (!who.is_empty()).then(|| who.to_string()),
        upstream_point: own_point,
        upstream_point_source: own_point.map(|_| "release".to_string()),
        evidence,
    };
    let has = |t: &str| tokens.contains(&t);

    // Android kernels (GKI or vendor) are never kernel.org releases.
    if local.contains("android") || uname_v.to_ascii_lowercase().contains("android") {
        return mk(
            Kind::Vendor,
            "Android",
            vec!["the version names Android".into()],
        );
    }

    // Distributions that maintain their own branch.
    let abi = abi_and_flavour(&local);
    if uname_v.contains("Ubuntu")
        || c.version_signature.is_some_and(|s| s.starts_with("Ubuntu"))
        || abi.is_some_and(|(_, f)| UBUNTU_FLAVOURS.contains(&f) && !uname_v.contains("Debian"))
    {
        let mut o = mk(
            Kind::Distro,
            "Ubuntu",
            vec![if uname_v.contains("Ubuntu") {
                "uname -v names Ubuntu".into()
            } else {
                format!("Ubuntu's ABI-numbered flavour \"{}\"", rel.local)
            }],
        );
        // Ubuntu's "X.Y.0-N" hides the stable release it contains; the signature has it.
        o.upstream_point = None;
        o.upstream_point_source = None;
        if let Some(sig) = c.version_signature
            && let Some(last) = sig.split_whitespace().last()
            && let Some(r) = crate::version::parse_release(last)
            && (r.major, r.minor) == (rel.major, rel.minor)
            && let Some(p) = r.patch
        {
            o.upstream_point = Some(p);
            o.upstream_point_source = Some("/proc/version_signature".into());
            o.evidence
                .push(format!("/proc/version_signature: based on {last}"));
        }
        return o;
    }
    let debian_abi = abi.is_some_and(|(_, f)| DEBIAN_FLAVOURS.contains(&f));
    let debian_named = debian_abi || tokens.iter().any(|t| is_numbered(t, "deb") || t == &"bpo");
    if !has("rpt")
        && ((uname_v.contains("Debian") && debian_named) || (c.version.is_none() && debian_abi))
    {
        let why = if uname_v.contains("Debian") {
            "uname -v names Debian".to_string()
        } else {
            format!("Debian's ABI-numbered flavour \"{}\"", rel.local)
        };
        let mut o = mk(Kind::Distro, "Debian", vec![why]);
        if abi.is_some() {
            // "6.1.0-27-arm64": the .0 is not a point release; uname -v carries the real one.
            o.upstream_point = None;
            o.upstream_point_source = None;
            if let Some((a, b, p)) = version_after(uname_v, "Debian ")
                && (a, b) == (rel.major, rel.minor)
            {
                o.upstream_point = Some(p);
                o.upstream_point_source = Some("Debian package version in uname -v".into());
                o.evidence
                    .push(format!("Debian package version {a}.{b}.{p} in uname -v"));
            }
        }
        return o;
    }
    if tokens.iter().any(|t| is_numbered(t, "el")) {
        let mut o = mk(
            Kind::Distro,
            "Red Hat Enterprise Linux family",
            vec![format!(
                "\"{}\" names an Enterprise Linux release",
                rel.local
            )],
        );
        // RHEL freezes the base version and backports; its point number says nothing.
        o.upstream_point = None;
        o.upstream_point_source = None;
        return o;
    }
    if tokens.iter().any(|t| is_numbered(t, "amzn")) {
        return mk(
            Kind::Distro,
            "Amazon Linux",
            vec!["\"amzn\" in the release".into()],
        );
    }
    if has("default") && tokens.first().is_some_and(|t| t.starts_with("150")) {
        let mut o = mk(
            Kind::Distro,
            "SUSE Linux Enterprise",
            vec!["SLE 15 package numbering (\"-150…-default\")".into()],
        );
        o.upstream_point = None;
        o.upstream_point_source = None;
        return o;
    }
    if local.contains("-cip") {
        return mk(
            Kind::Distro,
            "CIP (Civil Infrastructure Platform, super-long-term)",
            vec!["\"-cip\" names a CIP SLTS kernel, maintained beyond kernel.org's EOL".into()],
        );
    }

    // Vendor kernels.
    let mut vendor: Option<(String, Vec<String>)> = None;
    let mut add_vendor = |who: &str, why: String| match &mut vendor {
        Some((_, ev)) => ev.push(why),
        None => vendor = Some((who.to_string(), vec![why])),
    };
    for t in &tokens {
        if let Some(v) = vendor_token(t) {
            add_vendor(
                v,
                format!("\"{t}\" in the release names a vendor kernel ({v})"),
            );
        }
    }
    if let Some(b) = ["legacy", "vendor", "bsp"].into_iter().find(|b| has(b)) {
        let who = tokens
            .iter()
            .find_map(|t| vendor_token(t).or(armbian_family(t).map(|f| f.0)))
            .unwrap_or("vendor");
        add_vendor(
            who,
            format!("\"{b}\" in the release: a vendor (BSP) branch"),
        );
    }
    for s in soc_bounds() {
        if c.dt_compatible.iter().any(|x| x == &s.compatible) && (rel.major, rel.minor) < s.bound {
            add_vendor(
                &s.vendor,
                format!(
                    "device tree: {} ({}), which kernel.org sources support only from {}.{} on",
                    s.soc, s.compatible, s.bound.0, s.bound.1
                ),
            );
        }
    }
    if let Some(x) = c
        .dt_compatible
        .iter()
        .find(|x| x.starts_with("allwinner,sun") && x.contains("iw"))
    {
        add_vendor(
            "Allwinner",
            format!("device tree compatible \"{x}\" uses Allwinner's BSP naming"),
        );
    }
    for t in &tokens {
        if let Some((who, bsp)) = armbian_family(t)
            && bsp.contains(&(rel.major, rel.minor))
        {
            add_vendor(
                who,
                format!(
                    "\"{t}\" with series {}: only {who}'s BSP was built as {}",
                    rel.series(),
                    rel.series()
                ),
            );
        }
    }
    if let Some((who, evidence)) = vendor {
        return mk(Kind::Vendor, &who, evidence);
    }

    // Raspberry Pi's own tree (also inside Raspberry Pi OS's Debian-style packages).
    let rpi_dt = c
        .dt_compatible
        .iter()
        .any(|x| x.starts_with("raspberrypi,"))
        || c.dt_model.is_some_and(|m| m.starts_with("Raspberry Pi"));
    let rpi_local = has("rpt")
        || tokens.iter().any(|t| t.starts_with("rpi"))
        || ["-v7+", "-v7l+", "-v8+", "-v8-16k+", "-2712", "+"].contains(&local.as_str());
    if rpi_local && (rpi_dt || local != "+") {
        let mut ev = vec![format!("\"{}\" is Raspberry Pi's kernel naming", rel.local)];
        if rpi_dt {
            ev.push("device tree: a Raspberry Pi".into());
        }
        return mk(Kind::Downstream, "Raspberry Pi", ev);
    }

    // Distributions and builders that ship kernel.org point releases.
    let builders: [(TokenTest, &str); 6] = [
        (|t| is_numbered(t, "fc"), "Fedora"),
        (|t| is_numbered(t, "arch"), "Arch Linux"),
        (|t| t == "manjaro", "Manjaro"),
        (|t| t == "gentoo", "Gentoo"),
        (|t| t == "current" || t == "edge", "Armbian"),
        (|t| armbian_family(t).is_some(), "Armbian"),
    ];
    for (test, who) in builders {
        if let Some(t) = tokens.iter().find(|t| test(t)) {
            return mk(
                Kind::Mainline,
                who,
                vec![format!(
                    "\"{t}\": {who} builds kernel.org releases (with its own patches)"
                )],
            );
        }
    }
    if has("default") {
        return mk(
            Kind::Mainline,
            "openSUSE",
            vec!["\"-default\": openSUSE's kernel flavour".into()],
        );
    }
    if local.is_empty() || local == "+" {
        return mk(
            Kind::Mainline,
            "",
            vec!["no local version: a kernel.org release as published".into()],
        );
    }
    mk(
        Kind::Mainline,
        "",
        vec![format!(
            "local version \"{}\" names no known distribution or vendor: assumed built from kernel.org sources",
            rel.local
        )],
    )
}

/// Whether a release token names a builder.
type TokenTest = fn(&str) -> bool;

/// "fc40", "el9", "el9_4", "amzn2023", "arch1": a name followed by a number.
fn is_numbered(t: &str, name: &str) -> bool {
    t.strip_prefix(name)
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}
