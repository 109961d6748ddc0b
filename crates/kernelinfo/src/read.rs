//! Reads what the kernel check needs from a machine, through the probe's root. The uname
//! fields and the device tree come from the probe's snapshot; this adds /proc/version,
//! Ubuntu's /proc/version_signature and the kernel configuration.

use std::io::Read as _;

use document::machine::MachineInfo;
use probe::Root;

use crate::Input;
use crate::config::{self, Config};

/// Largest configuration accepted (a real one is 100-300 KiB unpacked): a corrupted or hostile
/// file cannot make the check allocate without bound.
const MAX_CONFIG: u64 = 16 << 20;
/// Largest /proc/config.gz read (real ones are 30-70 KiB; the reader allocates this much).
const MAX_CONFIG_GZ: usize = 1 << 20;

pub fn gather(root: &Root, m: &MachineInfo) -> Input {
    let id = &m.identity;
    let opt = |p: &str| root.read_value(p).ok();
    let release = id.kernel.release.clone();
    Input {
        release: release.clone(),
        version: id.kernel.version.clone(),
        proc_version: opt("/proc/version"),
        version_signature: opt("/proc/version_signature"),
        arch: id.kernel.arch.clone(),
        dt_compatible: id
            .device_tree
            .as_ref()
            .map(|d| d.compatible.clone())
            .unwrap_or_default(),
        dt_model: id.device_tree.as_ref().and_then(|d| d.model.clone()),
        config: read_config(root, release.as_deref()),
    }
}

/// /proc/config.gz (CONFIG_IKCONFIG_PROC), else /boot/config-<release>.
pub fn read_config(root: &Root, release: Option<&str>) -> Config {
    let mut problems = Vec::new();
    match root.read_head("/proc/config.gz", MAX_CONFIG_GZ) {
        Ok(gz) => match gunzip(&gz) {
            Ok(text) => {
                let mut c = config::parse(&text);
                c.source = Some("/proc/config.gz".into());
                return c;
            }
            Err(e) => problems.push(format!("/proc/config.gz: {e}")),
        },
        Err(a) if a.reason == "missing" => {}
        Err(a) => problems.push(a.to_string()),
    }
    if let Some(r) = release
        .map(str::trim)
        .filter(|r| !r.is_empty() && !r.contains('/'))
    {
        let path = format!("/boot/config-{r}");
        match root.read(&path) {
            Ok(text) => {
                let mut c = config::parse(&text);
                c.source = Some(path);
                c.problem = (!problems.is_empty()).then(|| problems.join("; "));
                return c;
            }
            Err(a) if a.reason == "missing" => {}
            Err(a) => problems.push(a.to_string()),
        }
    }
    Config {
        problem: (!problems.is_empty()).then(|| problems.join("; ")),
        ..Config::default()
    }
}

fn gunzip(gz: &[u8]) -> Result<String, String> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .take(MAX_CONFIG)
        .read_to_end(&mut out)
        .map_err(|e| format!("not a readable gzip file ({e})"))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
