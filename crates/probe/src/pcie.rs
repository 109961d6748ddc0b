//! The PCIe ASPM policy: the one global power-management switch of PCIe links, read by
//! review (what it is) and by the tuning plan (switched to `performance` in review's tune-up).

use serde::{Deserialize, Serialize};

use crate::Root;
use crate::choice::selected;

/// The kernel's global ASPM policy file (`[default] performance powersave powersupersave`).
pub const ASPM_POLICY: &str = "/sys/module/pcie_aspm/parameters/policy";

/// The global ASPM policy and what the kernel offers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AspmPolicy {
    pub selected: String,
    pub available: Vec<String>,
}

/// Reads the ASPM policy; `None` without the file (no PCIe, or ASPM not built in) or without
/// a selected word.
pub fn read_aspm_policy(root: &Root) -> Option<AspmPolicy> {
    let raw = root.read_value(ASPM_POLICY).ok()?;
    Some(AspmPolicy {
        selected: selected(&raw)?,
        available: raw
            .split_whitespace()
            .map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string())
            .collect(),
    })
}
