//! What /proc/cpuinfo says about each processor. Filled by `probe::cpuinfo`.

use serde::{Deserialize, Serialize};

/// A parsed /proc/cpuinfo.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuInfo {
    /// Architecture family the file describes: "arm", "x86", "riscv", "loongarch", "mips".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// "aarch64", "arm32", "x86_64", "riscv64", "loongarch64" … as far as the file tells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_mode: Option<String>,
    pub processors: Vec<Processor>,
    /// `Hardware` line (32-bit ARM and Android kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hardware: Option<String>,
    /// `Model` line (Raspberry Pi kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// One `processor : N` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Processor {
    pub index: u32,
    /// Vendor of the core design: "ARM", "Qualcomm", "Apple", "AMD", "Intel", "SiFive", "T-Head" …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// Core name: "Cortex-A76", "Zen 5"-style model name on x86, RISC-V `uarch` ("sifive,u74-mc").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_name: Option<String>,
    /// ARM variant/revision as "r4p0".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepping: Option<String>,
    /// ARM MIDR fields as written in the file (hex strings: "0x41", "0xd0b", "0x4", "0").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm: Option<ArmId>,
    /// x86 / LoongArch / MIPS `model name` (or `cpu model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    /// RISC-V / LoongArch `isa` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isa: Option<String>,
    /// Feature flags (`Features` on ARM, `flags` on x86).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bogomips: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmId {
    pub implementer: String,
    pub part: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
}

impl Processor {
    /// "Cortex-A76 / r4p0" as sbc-bench's topology table shows it (name alone without stepping).
    pub fn core_label(&self) -> Option<String> {
        let name = self.core_name.clone()?;
        Some(match &self.stepping {
            Some(s) => format!("{name} / {s}"),
            None => name,
        })
    }
}
