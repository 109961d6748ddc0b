//! What /proc/cpuinfo says about each processor. Filled by `probe::cpuinfo`.

use serde::{Deserialize, Serialize};

/// A parsed /proc/cpuinfo.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuInfo {
    /// The file read instead of this machine's /proc/cpuinfo (`--cpuinfo-file`, sbc-bench's
    /// `CPUINFOFILE`): the processors are another machine's, the topology is not theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreign_file: Option<String>,
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
    /// `Revision` line (ARM kernels; on a Raspberry Pi the board revision code, which names the
    /// SoC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// First byte (two hex digits, lower case) of the `Serial` line; on Amlogic SoCs it is the
    /// chip's major ID. The rest is deliberately not kept: it identifies the device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial_prefix: Option<String>,
    /// `system type` line (MIPS and LoongArch kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_type: Option<String>,
    /// ARM core IDs the file prints once for all processors instead of per processor. Old 32-bit
    /// kernels print the MIDR of the CPU that read the file (one entry; it is then also copied
    /// into every processor, see `midr_note`); a vendor kernel joins several with `&` (several
    /// entries; no processor gets one, since the mapping is unknown). Empty for normal files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_cores: Vec<ArmCore>,
    /// Why the per-processor core IDs are uncertain (set together with `shared_cores`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub midr_note: Option<String>,
}

/// A decoded ARM core ID printed once for the whole file (see [`CpuInfo::shared_cores`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArmCore {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepping: Option<String>,
    pub arm: ArmId,
}

/// One `processor : N` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// RISC-V machine IDs and `uarch` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub riscv: Option<RiscvId>,
}

/// RISC-V identification lines, as written in the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RiscvId {
    /// `uarch` ("sifive,u74-mc"), newer kernels only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uarch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mvendorid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marchid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mimpid: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArmId {
    pub implementer: String,
    pub part: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// `CPU architecture` ("7", "8", "AArch64").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
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
