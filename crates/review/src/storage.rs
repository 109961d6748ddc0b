//! Block devices (`/sys/block/*`), mounts (`/proc/mounts`) and where swap lives.
//!
//! The transport of a disk is read from its real sysfs path (…/nvme/…, …/usb2/2-1/…,
//! …/mmc_host/…, …/ata1/…), which also names the USB device or PCIe function behind it, so the
//! storage findings can point at the bridge or link that limits the disk.

use document::machine::{MachineInfo, SwapKind};
use document::{Finding, Severity};
use probe::Root;
use serde::{Deserialize, Serialize};

use crate::util::{finding, human_bytes, opt, opt_u64, selected};

pub const BLOCK: &str = "/sys/block";

/// One disk.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockDevice {
    /// "sda", "nvme0n1", "mmcblk0".
    pub name: String,
    /// "nvme", "usb", "mmc", "sata", "virtio", "scsi", "other".
    pub transport: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotational: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removable: Option<bool>,
    /// The active I/O scheduler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// MMC card type: "SD", "MMC" (eMMC), "SDIO".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mmc_type: Option<String>,
    /// USB device path ("2-1") for USB disks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usb_path: Option<String>,
    /// PCI function ("0000:01:00.0") behind the disk (NVMe, AHCI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci_address: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<String>,
}

impl BlockDevice {
    /// "SD card", "eMMC", "NVMe SSD", "USB disk", "HDD" …
    pub fn kind(&self) -> String {
        match (self.transport.as_str(), self.mmc_type.as_deref()) {
            ("mmc", Some("SD")) => "SD card".into(),
            ("mmc", Some("MMC")) => "eMMC".into(),
            ("mmc", _) => "MMC device".into(),
            ("nvme", _) => "NVMe SSD".into(),
            ("usb", _) => "USB disk".into(),
            ("virtio", _) => "virtual disk".into(),
            (t, _) => match self.rotational {
                Some(true) => format!("{} HDD", t.to_uppercase()),
                Some(false) => format!("{} SSD", t.to_uppercase()),
                None => format!("{} disk", t.to_uppercase()),
            },
        }
    }
}

/// One line of /proc/mounts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub device: String,
    pub mountpoint: String,
    pub fstype: String,
    pub options: Vec<String>,
    /// The disk it lives on, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<String>,
}

/// Where a swap area lives.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwapPlacement {
    pub path: String,
    /// The disk ("mmcblk0"), "zram" for compressed RAM, `None` when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_kind: Option<String>,
}

fn skip_block(name: &str) -> bool {
    ["loop", "ram", "zram", "sr", "fd", "nbd", "mtdblock"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// "2-1.4" (a USB device path).
fn is_usb_path(s: &str) -> bool {
    let Some((bus, port)) = s.split_once('-') else {
        return false;
    };
    !bus.is_empty()
        && bus.bytes().all(|b| b.is_ascii_digit())
        && !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

fn is_pci_address(s: &str) -> bool {
    s.len() == 12 && s.as_bytes()[4] == b':' && s.as_bytes()[7] == b':' && s.as_bytes()[10] == b'.'
}

/// Reads every disk (loop, ram, zram and optical drives left out).
pub fn read_disks(root: &Root) -> Vec<BlockDevice> {
    let names = root.list_dir(BLOCK).unwrap_or_default();
    names
        .iter()
        .filter(|n| !skip_block(n))
        .map(|n| read_disk(root, n))
        .filter(|d| d.size_bytes != Some(0))
        .collect()
}

fn read_disk(root: &Root, name: &str) -> BlockDevice {
    let dir = format!("{BLOCK}/{name}");
    let f = |n: &str| opt(root, &format!("{dir}/{n}"));
    let real = root.resolve(&dir).unwrap_or_default();
    let comps: Vec<&str> = real.split('/').collect();
    let transport = if name.starts_with("nvme") || real.contains("/nvme/") {
        "nvme"
    } else if name.starts_with("mmcblk") || real.contains("/mmc_host/") {
        "mmc"
    } else if real.contains("/usb") {
        "usb"
    } else if name.starts_with("vd") || real.contains("/virtio") {
        "virtio"
    } else if real.contains("/ata") {
        "sata"
    } else if name.starts_with("sd") {
        "scsi"
    } else {
        "other"
    };
    let partitions = root
        .list_dir(&dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.starts_with(name) && root.exists(&format!("{dir}/{p}/partition")))
        .collect();
    // nvme0n1's model is on the controller (device/model); SCSI/USB disks have device/model too.
    let model = f("device/model")
        .or_else(|| f("device/name"))
        .map(|m| m.trim().to_string());
    BlockDevice {
        name: name.to_string(),
        transport: transport.into(),
        size_bytes: opt_u64(root, &format!("{dir}/size")).map(|s| s.saturating_mul(512)),
        rotational: f("queue/rotational").map(|v| v == "1"),
        removable: f("removable").map(|v| v == "1"),
        scheduler: f("queue/scheduler").as_deref().and_then(selected),
        model,
        mmc_type: (transport == "mmc").then(|| f("device/type")).flatten(),
        usb_path: comps
            .iter()
            .rev()
            .find(|c| is_usb_path(c))
            .map(|c| c.to_string()),
        pci_address: comps
            .iter()
            .rev()
            .find(|c| is_pci_address(c))
            .map(|c| c.to_string()),
        partitions,
    }
}

/// The disk a /dev node belongs to ("/dev/mmcblk0p2" → "mmcblk0").
fn disk_of(dev: &str, disks: &[BlockDevice]) -> Option<String> {
    let node = dev.strip_prefix("/dev/")?;
    disks
        .iter()
        .find(|d| d.name == node || d.partitions.iter().any(|p| p == node))
        .map(|d| d.name.clone())
}

/// Parses /proc/mounts, keeping filesystems on devices (and FUSE block mounts). `/dev/root`
/// is mapped through the kernel command line's `root=/dev/…`.
pub fn read_mounts(root: &Root, disks: &[BlockDevice], cmdline: Option<&str>) -> Vec<Mount> {
    let text = root.read("/proc/mounts").unwrap_or_default();
    let root_dev = cmdline.and_then(|c| {
        c.split_whitespace()
            .find_map(|w| w.strip_prefix("root="))
            .filter(|r| r.starts_with("/dev/"))
            .map(str::to_string)
    });
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let (device, mountpoint, fstype, opts) =
                (it.next()?, it.next()?, it.next()?, it.next()?);
            if !device.starts_with("/dev/") && fstype != "fuseblk" {
                return None;
            }
            let lookup = if device == "/dev/root" {
                root_dev.as_deref().unwrap_or(device)
            } else {
                device
            };
            Some(Mount {
                device: device.to_string(),
                // /proc/mounts escapes spaces as \040.
                mountpoint: mountpoint.replace("\\040", " "),
                fstype: fstype.to_string(),
                options: opts.split(',').map(str::to_string).collect(),
                disk: disk_of(lookup, disks),
            })
        })
        .collect()
}

/// Where each active swap area lives.
pub fn swap_placement(
    m: &MachineInfo,
    disks: &[BlockDevice],
    mounts: &[Mount],
) -> Vec<SwapPlacement> {
    m.memory
        .swaps
        .iter()
        .map(|s| {
            let disk = match s.kind {
                SwapKind::Zram => Some("zram".to_string()),
                SwapKind::Partition | SwapKind::Unknown => disk_of(&s.path, disks),
                SwapKind::File => mounts
                    .iter()
                    .filter(|mt| {
                        let p = mt.mountpoint.trim_end_matches('/');
                        s.path.starts_with(&format!("{p}/"))
                    })
                    .max_by_key(|mt| mt.mountpoint.len())
                    .and_then(|mt| mt.disk.clone()),
            };
            let disk_kind = match disk.as_deref() {
                Some("zram") => Some("compressed RAM".to_string()),
                Some(d) => disks.iter().find(|x| x.name == d).map(BlockDevice::kind),
                None => None,
            };
            SwapPlacement {
                path: s.path.clone(),
                disk,
                disk_kind,
            }
        })
        .collect()
}

/// Findings about disks, mounts and swap.
pub fn findings(disks: &[BlockDevice], mounts: &[Mount], swaps: &[SwapPlacement]) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in disks {
        let size = d.size_bytes.map(human_bytes).unwrap_or_default();
        let ev = vec![format!(
            "{BLOCK}/{}: {} {size}, scheduler {}, rotational {}",
            d.name,
            d.kind(),
            d.scheduler.as_deref().unwrap_or("?"),
            d.rotational.map_or("?", |r| if r { "1" } else { "0" })
        )];
        match (d.transport.as_str(), d.scheduler.as_deref(), d.rotational) {
            ("nvme", Some(s @ ("bfq" | "cfq")), _) => out.push(finding(
                "io-scheduler",
                Severity::Info,
                format!("{} (NVMe) uses the {s} I/O scheduler", d.name),
                "an NVMe drive queues and orders requests itself; a fair-queueing scheduler \
                 costs CPU time per request and limits IOPS on small cores",
                ev,
            )),
            (_, Some("none"), Some(true)) => out.push(finding(
                "io-scheduler",
                Severity::Info,
                format!("{} (rotating disk) has no I/O scheduler", d.name),
                "a spinning disk benefits from request ordering (mq-deadline or bfq)",
                ev,
            )),
            _ => {}
        }
    }
    for mt in mounts {
        let kind = mt
            .disk
            .as_ref()
            .and_then(|n| disks.iter().find(|d| &d.name == n))
            .map(BlockDevice::kind);
        let ev = vec![format!(
            "{} on {} type {} ({}){}",
            mt.device,
            mt.mountpoint,
            mt.fstype,
            mt.options.join(","),
            kind.as_ref().map_or(String::new(), |k| format!(", {k}"))
        )];
        let has = |o: &str| mt.options.iter().any(|x| x == o);
        if mt.fstype == "fuseblk" {
            out.push(finding(
                "ntfs-fuse",
                Severity::Warning,
                format!(
                    "{} is mounted through FUSE (fuseblk: NTFS via ntfs-3g, or exFAT)",
                    mt.mountpoint
                ),
                "every read and write goes through a user-space driver: on small ARM cores \
                 this is CPU-bound and far slower than a native filesystem (sbc-bench: \
                 https://tinyurl.com/mv7wvzct)",
                ev.clone(),
            ));
        } else if mt.fstype == "ntfs" || mt.fstype == "ntfs3" {
            out.push(finding(
                "ntfs",
                Severity::Info,
                format!("{} is NTFS ({} kernel driver)", mt.mountpoint, mt.fstype),
                "NTFS on Linux is slower and less robust than a native filesystem",
                ev.clone(),
            ));
        }
        if has("sync") {
            out.push(finding(
                "mount-sync",
                Severity::Warning,
                format!("{} is mounted with sync", mt.mountpoint),
                "every write waits for the device: write throughput collapses",
                ev.clone(),
            ));
        }
        if !has("noatime")
            && !has("relatime")
            && !has("lazytime")
            && mt.fstype != "fuseblk"
            && mt.fstype != "vfat"
            && mt.fstype != "exfat"
        {
            out.push(finding(
                "mount-strictatime",
                Severity::Info,
                format!(
                    "{} updates access times on every read (strictatime)",
                    mt.mountpoint
                ),
                "each read causes a metadata write; relatime or noatime avoid it",
                ev.clone(),
            ));
        }
        if let Some(c) = mt.options.iter().find_map(|o| o.strip_prefix("commit=")) {
            out.push(finding(
                "mount-commit",
                Severity::Info,
                format!(
                    "{} commits the journal every {c} s (commit={c})",
                    mt.mountpoint
                ),
                "a long commit interval batches writes (less flash wear, faster small writes) \
                 but up to that many seconds of data are lost on a power cut",
                ev.clone(),
            ));
        }
        if mt.mountpoint == "/" && kind.as_deref() == Some("SD card") {
            out.push(finding(
                "rootfs-on-sd",
                Severity::Info,
                "The root filesystem is on an SD card",
                "SD cards are slow at small random writes: package installs, compiles and \
                 anything with many small files are limited by the card",
                ev.clone(),
            ));
        }
    }
    for s in swaps {
        let ev = vec![format!(
            "{} on {}",
            s.path,
            match (&s.disk, &s.disk_kind) {
                (Some(d), Some(k)) => format!("{d} ({k})"),
                (Some(d), None) => d.clone(),
                _ => "an unknown device".into(),
            }
        )];
        let kind = s.disk_kind.as_deref().unwrap_or("");
        if kind == "SD card" {
            out.push(finding(
                "swap-on-sd",
                Severity::Warning,
                format!("Swap {} lives on an SD card", s.path),
                "paging to an SD card is extremely slow (random 4K writes) and wears the \
                 card out; zram or swap on SSD is far better",
                ev,
            ));
        } else if kind.ends_with("HDD") {
            out.push(finding(
                "swap-on-hdd",
                Severity::Info,
                format!("Swap {} lives on a rotating disk", s.path),
                "paging to an HDD costs a seek per page: once the machine swaps it crawls",
                ev,
            ));
        } else if kind == "USB disk" {
            out.push(finding(
                "swap-on-usb",
                Severity::Info,
                format!("Swap {} lives on a USB disk", s.path),
                "paging competes with the disk's other I/O through the USB bridge",
                ev,
            ));
        }
    }
    out
}
