//! SoC guess from device-tree `compatible`, the cpuinfo `Hardware` line and the core-type
//! topology signature. (Tables being filled in.)

use model::cpu::CpuInfo;

/// What the guess may look at.
pub struct SocHints<'a> {
    /// /proc/device-tree/compatible strings, most specific first.
    pub dt_compatible: &'a [String],
    /// /proc/device-tree/model.
    pub dt_model: Option<&'a str>,
    pub cpuinfo: &'a CpuInfo,
    /// Highest cpuinfo_max_freq of each cpufreq cluster (kHz), in policy order; may be empty.
    pub max_khz_per_cluster: &'a [u64],
}

/// A named SoC and the evidence for it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SocGuess {
    /// "Rockchip RK3588".
    pub name: String,
    /// The evidence, for the reader ("device-tree compatible rockchip,rk3588").
    pub why: String,
}

/// Best guess of the SoC, or `None` when nothing distinctive is known.
pub fn guess(_h: &SocHints) -> Option<SocGuess> {
    None
}
