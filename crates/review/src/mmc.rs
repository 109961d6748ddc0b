//! SD cards and eMMC (`/sys/class/mmc_host/mmcN/mmcN:RCA/`): identity from the CID and CSD
//! registers the kernel exposes, wear estimates of eMMC, and the signs of counterfeit cards
//! sbc-bench knows (zeroed or odd manufacturer/OEM IDs, placeholder names and serials) plus
//! checks it does not make (brand vs OEM ID, the name's capacity vs the card's, impossible
//! manufacturing dates, the CSD capacity vs the block device).
//!
//! SD CID layout (SD Physical Layer spec, public part): MID [127:120], OID [119:104], PNM
//! [103:64], PRV [63:56], PSN [55:24], MDT [19:8] (year since 2000 in [19:12], month [11:8]).
//! SD CSD: structure [127:126]; v1 capacity = (C_SIZE[73:62]+1) · 2^(C_SIZE_MULT[49:47]+2) ·
//! 2^READ_BL_LEN[83:80]; v2 (SDHC/SDXC) = (C_SIZE[69:48]+1) · 512 KiB; v3 (SDUC) C_SIZE[75:48].

use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, human_bytes, opt, opt_u64, parse_hex};

pub const MMC_HOSTS: &str = "/sys/class/mmc_host";

/// Fields decoded from an SD card's CID.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SdCid {
    pub manfid: u8,
    /// Two ASCII characters ("SD").
    pub oemid: String,
    pub name: String,
    /// Product revision "n.m".
    pub revision: String,
    pub serial: u32,
    pub year: u32,
    pub month: u32,
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if s.len() & 1 != 0 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

fn ascii(b: &[u8]) -> String {
    b.iter()
        .map(|&c| {
            if c.is_ascii_graphic() || c == b' ' {
                c as char
            } else {
                '?'
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Decodes an SD card's 128-bit CID (32 hex digits as sysfs shows it).
pub fn decode_sd_cid(hex: &str) -> Option<SdCid> {
    let b = hex_bytes(hex)?;
    if b.len() != 16 {
        return None;
    }
    let mdt = (((b[13] & 0x0f) as u32) << 8) | b[14] as u32;
    Some(SdCid {
        manfid: b[0],
        oemid: ascii(&b[1..3]),
        name: ascii(&b[3..8]),
        revision: format!("{}.{}", b[8] >> 4, b[8] & 0x0f),
        serial: u32::from_be_bytes([b[9], b[10], b[11], b[12]]),
        year: 2000 + (mdt >> 4),
        month: mdt & 0x0f,
    })
}

fn bits(v: u128, hi: u32, lo: u32) -> u128 {
    (v >> lo) & ((1u128 << (hi - lo + 1)) - 1)
}

/// Capacity in bytes and CSD structure version (1, 2 or 3) of an SD card's CSD.
pub fn sd_csd_capacity(hex: &str) -> Option<(u64, u32)> {
    let b = hex_bytes(hex)?;
    if b.len() != 16 {
        return None;
    }
    let v = u128::from_be_bytes(b.try_into().ok()?);
    match bits(v, 127, 126) {
        0 => {
            let c_size = bits(v, 73, 62) as u64;
            let mult = bits(v, 49, 47) as u32;
            let bl_len = bits(v, 83, 80) as u32;
            if !(9..=11).contains(&bl_len) {
                return None;
            }
            Some(((c_size + 1) << (mult + 2 + bl_len), 1))
        }
        1 => Some(((bits(v, 69, 48) as u64 + 1) * 512 * 1024, 2)),
        2 => Some(((bits(v, 75, 48) as u64 + 1) * 512 * 1024, 3)),
        _ => None,
    }
}

/// SD card manufacturer IDs (public lists compiled by the community; sbc-bench uses the same).
pub fn sd_manufacturer(id: u8) -> Option<&'static str> {
    Some(match id {
        0x01 => "Panasonic",
        0x02 => "Toshiba/Kioxia",
        0x03 => "SanDisk",
        0x1b => "Samsung",
        0x1d => "ADATA",
        0x27 => "Phison",
        0x28 => "Lexar",
        0x31 => "Silicon Power",
        0x41 => "Kingston",
        0x74 => "Transcend",
        0x76 => "Patriot",
        0x82 => "Sony",
        0x9f => "Kingston/Texas Instruments",
        0xad => "Longsys (used by both Amazon Basics and Raspberry Pi Ltd.)",
        _ => return None,
    })
}

/// eMMC manufacturer IDs (JEDEC assignments as the kernel's quirk tables name them).
pub fn emmc_manufacturer(id: u64) -> Option<&'static str> {
    Some(match id {
        0x11 => "Toshiba/Kioxia",
        0x13 => "Micron",
        0x15 => "Samsung",
        0x45 => "SanDisk",
        0x70 => "Kingston",
        0x88 => "Foresee (Longsys)",
        0x90 => "SK hynix",
        0x9b => "YMTC",
        0xfe => "Micron",
        _ => return None,
    })
}

/// Brands whose OEM ID is fixed: a card claiming the manufacturer with another OEM ID was
/// re-labelled.
fn expected_oem(manfid: u8) -> Option<&'static str> {
    Some(match manfid {
        0x01 => "PA",
        0x02 => "TM",
        0x03 => "SD",
        0x1b => "SM",
        0x41 => "42",
        _ => return None,
    })
}

/// How sure the counterfeit verdict is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counterfeit {
    Definite,
    Probable,
}

/// One SD card or eMMC.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmcCard {
    /// "mmc0".
    pub host: String,
    /// "mmc0:aaaa".
    pub card: String,
    /// "SD", "MMC" (eMMC), "SDIO".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manfid: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oemid: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial: Option<u64>,
    /// "06/2021" as sysfs shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manufacturer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cid: Option<SdCid>,
    /// Capacity from the CSD (SD only) and the CSD version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csd_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csd_version: Option<u32>,
    /// The block device and its size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_bytes: Option<u64>,
    /// eMMC wear: life_time (type A, type B) and pre_eol_info.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub life_time: Vec<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_eol: Option<u64>,
    /// The bus timing from debugfs ios ("sd uhs SDR104"), root only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterfeit: Option<Counterfeit>,
    /// Odd or counterfeit signs found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signs: Vec<String>,
}

/// Reads every card of every MMC host.
pub fn read(root: &Root) -> Vec<MmcCard> {
    let mut out = Vec::new();
    for host in root.list_dir(MMC_HOSTS).unwrap_or_default() {
        let hdir = format!("{MMC_HOSTS}/{host}");
        let prefix = format!("{host}:");
        for card in root
            .list_dir(&hdir)
            .unwrap_or_default()
            .into_iter()
            .filter(|c| c.starts_with(&prefix))
        {
            out.push(read_card(root, &host, &card));
        }
    }
    out
}

fn read_card(root: &Root, host: &str, card: &str) -> MmcCard {
    let dir = format!("{MMC_HOSTS}/{host}/{card}");
    let f = |n: &str| opt(root, &format!("{dir}/{n}"));
    let card_type = f("type");
    let is_sd = card_type.as_deref() == Some("SD");
    let cid = if is_sd {
        f("cid").as_deref().and_then(decode_sd_cid)
    } else {
        None
    };
    let (csd_bytes, csd_version) = match is_sd.then(|| f("csd")).flatten() {
        Some(c) => sd_csd_capacity(&c).map_or((None, None), |(b, v)| (Some(b), Some(v))),
        None => (None, None),
    };
    let block = root
        .list_dir(&format!("{dir}/block"))
        .ok()
        .and_then(|v| v.into_iter().next());
    let block_bytes = block
        .as_ref()
        .and_then(|b| opt_u64(root, &format!("{dir}/block/{b}/size")))
        .map(|s| s.saturating_mul(512));
    let manfid = f("manfid").as_deref().and_then(parse_hex);
    let timing = opt(root, &format!("/sys/kernel/debug/{host}/ios")).and_then(|ios| {
        ios.lines().find_map(|l| {
            let v = l.strip_prefix("timing spec:")?;
            // "6 (sd uhs SDR104)" → "sd uhs SDR104"
            let inner = v
                .split_once('(')
                .map_or(v, |(_, r)| r.trim_end_matches(')'));
            Some(inner.trim().to_string())
        })
    });
    let mut c = MmcCard {
        host: host.to_string(),
        card: card.to_string(),
        card_type: card_type.clone(),
        name: f("name"),
        manfid,
        oemid: f("oemid").as_deref().and_then(parse_hex),
        serial: f("serial").as_deref().and_then(parse_hex),
        date: f("date"),
        manufacturer: manfid.and_then(|m| {
            if is_sd {
                u8::try_from(m).ok().and_then(sd_manufacturer)
            } else {
                emmc_manufacturer(m)
            }
            .map(str::to_string)
        }),
        cid,
        csd_bytes,
        csd_version,
        block,
        block_bytes,
        life_time: f("life_time")
            .map(|s| s.split_whitespace().filter_map(parse_hex).collect())
            .unwrap_or_default(),
        pre_eol: f("pre_eol_info").as_deref().and_then(parse_hex),
        timing,
        counterfeit: None,
        signs: Vec::new(),
    };
    if is_sd {
        judge(&mut c);
    }
    c
}

/// The OEM ID as its two ASCII characters (0x5344 → "SD").
fn oem_text(oemid: u64) -> String {
    let b = [(oemid >> 8) as u8, oemid as u8];
    ascii(&b)
}

/// Fills `counterfeit` and `signs` of an SD card.
fn judge(c: &mut MmcCard) {
    let mut definite = Vec::new();
    let mut probable = Vec::new();
    let name = c.name.clone().unwrap_or_default();
    let serial_text = c.serial.map(|s| format!("0x{s:08x}"));
    match c.manfid {
        Some(0x00) => definite.push("manufacturer ID 0x000000 (no real vendor)".to_string()),
        Some(m @ (0x12 | 0xdf)) => definite.push(format!(
            "manufacturer ID 0x{m:06x} is only seen on counterfeit cards"
        )),
        _ => {}
    }
    if let (Some(0x3432), Some(m)) = (c.oemid, c.manfid)
        && m != 0x41
    {
        definite.push(format!(
            "OEM ID 0x3432 (\"42\", Kingston's) on a card from manufacturer 0x{m:06x}"
        ));
    }
    if ["00000", "SMI", "ASTC", "AS"].contains(&name.as_str()) {
        definite.push(format!("placeholder product name {name:?}"));
    }
    match c.serial {
        Some(0) => definite.push("serial number 0x00000000".into()),
        Some(s) if s <= 0xffff => probable.push(format!(
            "serial number {} starts with 0x0000",
            serial_text.clone().unwrap_or_default()
        )),
        _ => {}
    }
    if let (Some(m), Some(o)) = (c.manfid, c.oemid)
        && let Some(exp) = u8::try_from(m).ok().and_then(expected_oem)
    {
        let got = oem_text(o);
        if got != exp {
            probable.push(format!(
                "manufacturer {} but OEM ID {got:?} (genuine cards say {exp:?})",
                sd_manufacturer(m as u8).unwrap_or("?")
            ));
        }
    }
    if let Some(cid) = &c.cid {
        if cid.month == 0 || cid.month > 12 {
            probable.push(format!("manufacturing month {} does not exist", cid.month));
        }
        if c.csd_version.unwrap_or(0) >= 2 && cid.year < 2006 {
            probable.push(format!(
                "an SDHC/SDXC card dated {} (SDHC exists since 2006)",
                cid.year
            ));
        }
    }
    let size = c.csd_bytes.or(c.block_bytes);
    if let (Some(claimed), Some(size)) = (name_capacity_gb(&name), size) {
        let real_gb = size as f64 / 1e9;
        if real_gb < claimed as f64 * 0.8 || real_gb > claimed as f64 * 1.25 {
            probable.push(format!(
                "the name {name:?} says {claimed} GB but the card holds {}",
                human_bytes(size)
            ));
        }
    }
    if let (Some(csd), Some(blk)) = (c.csd_bytes, c.block_bytes)
        && (csd as f64 - blk as f64).abs() > csd as f64 * 0.01
    {
        probable.push(format!(
            "CSD says {} but the block device has {}",
            human_bytes(csd),
            human_bytes(blk)
        ));
    }
    c.counterfeit = if !definite.is_empty() {
        Some(Counterfeit::Definite)
    } else if !probable.is_empty() {
        Some(Counterfeit::Probable)
    } else {
        None
    };
    c.signs = definite.into_iter().chain(probable).collect();
}

/// The capacity a product name states ("SR64G" → 64, "SD128G" → 128), when it ends in
/// digits and G.
fn name_capacity_gb(name: &str) -> Option<u64> {
    let n = name.trim().strip_suffix('G')?;
    let digits: String = n
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok().filter(|&g| g > 0)
}

/// Findings about cards.
pub fn findings(cards: &[MmcCard]) -> Vec<Finding> {
    let mut out = Vec::new();
    for c in cards {
        let t = c.card_type.as_deref().unwrap_or("?");
        if t == "SDIO" {
            continue;
        }
        let kind = if t == "SD" { "SD card" } else { "eMMC" };
        let mut ev = vec![format!(
            "{MMC_HOSTS}/{}/{}: name {}, manfid {}, oemid {}{}, serial {}, date {}",
            c.host,
            c.card,
            c.name.as_deref().unwrap_or("?"),
            c.manfid.map_or("?".into(), |m| format!("0x{m:06x}")),
            c.oemid.map_or("?".into(), |o| format!("0x{o:04x}")),
            c.oemid
                .filter(|_| t == "SD")
                .map_or(String::new(), |o| format!(" ({:?})", oem_text(o))),
            c.serial.map_or("?".into(), |s| format!("0x{s:08x}")),
            c.date.as_deref().unwrap_or("?"),
        )];
        if let Some(b) = c.csd_bytes {
            ev.push(format!(
                "CSD v{} capacity {}",
                c.csd_version.unwrap_or(0),
                human_bytes(b)
            ));
        }
        if let Some(tm) = &c.timing {
            ev.push(format!("bus timing {tm}"));
        }
        let size = c.block_bytes.or(c.csd_bytes).map(human_bytes);
        out.push(finding(
            "mmc-card",
            Severity::Info,
            format!(
                "{kind} {}: {} {}{}",
                c.block.as_deref().unwrap_or(&c.card),
                c.manufacturer.as_deref().unwrap_or("unknown manufacturer"),
                c.name.as_deref().unwrap_or("?"),
                size.map_or(String::new(), |s| format!(", {s}"))
            ),
            "storage speed of SD/eMMC depends on the card model; the identity tells which \
             card the figures belong to",
            ev.clone(),
        ));
        if let Some(v) = c.counterfeit {
            let mut e = ev.clone();
            e.extend(c.signs.iter().cloned());
            out.push(finding(
                "sd-counterfeit",
                if v == Counterfeit::Definite {
                    Severity::Invalid
                } else {
                    Severity::Warning
                },
                format!(
                    "{} counterfeit {kind}: {}",
                    if v == Counterfeit::Definite {
                        "Definite"
                    } else {
                        "Probable"
                    },
                    c.signs.first().cloned().unwrap_or_default()
                ),
                "counterfeit cards are slow, often smaller than they claim and lose data once \
                 written beyond their real capacity: storage figures and data are at risk",
                e,
            ));
        }
        let worst_life = c.life_time.iter().copied().max();
        if worst_life.is_some_and(|l| l >= 0x09) || c.pre_eol.is_some_and(|p| p >= 2) {
            let mut e = ev.clone();
            e.push(format!(
                "life_time {:?} (0x01 = 0-10 % used … 0x0b = exceeded), pre_eol_info {:?}",
                c.life_time, c.pre_eol
            ));
            out.push(finding(
                "emmc-worn",
                Severity::Warning,
                format!("{kind} {} is near the end of its rated life", c.card),
                "worn flash slows down (more error correction, fewer spare blocks) and will \
                 turn read-only or fail",
                e,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sd_cid_decodes() {
        // SanDisk "SR64G", rev 8.0, serial 0x1a2b3c4d, June 2021.
        assert!(
            decode_sd_cid("035344535236344780").is_none(),
            "a short CID is rejected"
        );
        let cid = decode_sd_cid("0353445352363447801a2b3c4d015601").unwrap();
        assert_eq!(cid.manfid, 0x03);
        assert_eq!(cid.oemid, "SD");
        assert_eq!(cid.name, "SR64G");
        assert_eq!(cid.revision, "8.0");
        assert_eq!(cid.serial, 0x1a2b3c4d);
        assert_eq!((cid.year, cid.month), (2021, 6));
        assert_eq!(decode_sd_cid("zz"), None);
    }

    #[test]
    fn csd_capacities() {
        // CSD v2, C_SIZE 0x00edc7 → (60871+1) × 512 KiB.
        let csd = "400e00325b590000edc77f800a404000";
        assert_eq!(sd_csd_capacity(csd), Some(((0xedc7 + 1) * 512 * 1024, 2)));
        // CSD v1 (1 GB SDSC): READ_BL_LEN 10, C_SIZE 0xf1f, C_SIZE_MULT 6.
        let v1 = "005e00325f5a83c7f5db7fbf16800000";
        let (b, v) = sd_csd_capacity(v1).unwrap();
        assert_eq!(v, 1);
        assert_eq!(b, (0xf1f + 1) << (6 + 2 + 10));
        assert_eq!(sd_csd_capacity("00"), None);
    }

    #[test]
    fn name_capacities() {
        assert_eq!(name_capacity_gb("SR64G"), Some(64));
        assert_eq!(name_capacity_gb("SD128G"), Some(128));
        assert_eq!(name_capacity_gb("SMI"), None);
        assert_eq!(name_capacity_gb("G"), None);
    }
}
