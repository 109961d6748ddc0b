//! The review (sbc-bench's `-r` / `-R`): every performance-relevant setting and bottleneck that
//! can be read, each turned into a finding that says why it matters.
//!
//! Everything reads through a [`probe::Root`] (fixture trees replay a machine) and builds on the
//! probe's snapshot ([`MachineInfo`]): policies, devfreq, memory, identity and the Raspberry Pi
//! firmware are not read twice. [`review`] is a pure function of the root and the snapshot;
//! [`text::render`] renders its result. [`clocks`] reads the clocks around the switch to maximum
//! performance (the switch is the one tuning plan of the `tune` crate, written by the binary
//! through its session's restorer) and [`window`] judges a monitored window (throttling,
//! devices that changed).

pub mod clocks;
pub mod governors;
pub mod mmc;
pub mod pcie;
pub mod storage;
pub mod system;
pub mod text;
pub mod thermal;
pub mod usb;
pub mod util;
pub mod window;

use document::Finding;
use document::machine::MachineInfo;
use probe::Root;
use serde::{Deserialize, Serialize};

/// Everything the review read, and its findings (most severe first).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Device name (device-tree model or DMI product), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub governors: Vec<governors::PolicyGovernor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspm_policy: Option<pcie::AspmPolicy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pcie: Vec<pcie::PciDevice>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usb: Vec<usb::UsbDevice>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disks: Vec<storage::BlockDevice>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<storage::Mount>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swap: Vec<storage::SwapPlacement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mmc: Vec<mmc::MmcCard>,
    #[serde(default)]
    pub thermal: thermal::ThermalConfig,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmdline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpi_config: Option<system::RpiConfig>,
    pub findings: Vec<Finding>,
}

impl Review {
    /// Findings of one kind.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Finding> + 'a {
        self.findings.iter().filter(move |f| f.kind == kind)
    }
}

/// Reviews the machine behind `root`, whose snapshot is `m`.
pub fn review(root: &Root, m: &MachineInfo) -> Review {
    let cmdline = system::read_cmdline(root);
    let governors = governors::read(root, m);
    let aspm_policy = pcie::read_aspm_policy(root);
    let pcie = pcie::read(root);
    let usb = usb::read(root, cmdline.as_deref());
    let disks = storage::read_disks(root);
    let mounts = storage::read_mounts(root, &disks, cmdline.as_deref());
    let swap = storage::swap_placement(m, &disks, &mounts);
    let mmc = mmc::read(root);
    let thermal = thermal::read(root);
    let rpi_config = m
        .rpi
        .is_some()
        .then(|| system::read_rpi_config(root))
        .flatten();

    let mut findings = Vec::new();
    findings.extend(governors::findings(&governors, m));
    findings.extend(pcie::findings(&pcie, aspm_policy.as_ref()));
    findings.extend(usb::findings(&usb));
    findings.extend(storage::findings(&disks, &mounts, &swap));
    findings.extend(mmc::findings(&mmc));
    findings.extend(system::memory_findings(m));
    findings.extend(system::load_findings(root, m));
    findings.extend(thermal::findings(&thermal, m));
    if let Some(c) = &cmdline {
        findings.extend(system::cmdline_findings(c));
    }
    findings.extend(system::rpi_findings(m, rpi_config.as_ref()));
    // Most severe first; the order within a severity is the reading order above.
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));

    Review {
        device: headline::device::device_name(m),
        governors,
        aspm_policy,
        pcie,
        usb,
        disks,
        mounts,
        swap,
        mmc,
        thermal,
        cmdline,
        rpi_config,
        findings,
    }
}
