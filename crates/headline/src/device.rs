//! The device's name: one rule for every output (the log, the summary row, `info`, the
//! results database, review). It is a rule over the machine snapshot, not a reading of the
//! machine, so the renderers share it without depending on the probe.

use document::ResultDocument;
use document::machine::MachineInfo;

/// Values some firmware puts in DMI fields instead of a name.
pub fn dmi_placeholder(v: &str) -> bool {
    let l = v.trim().to_ascii_lowercase();
    l.is_empty()
        || [
            "to be filled by o.e.m.",
            "system product name",
            "system manufacturer",
            "default string",
            "not applicable",
            "not specified",
            "none",
            "o.e.m.",
            "oem",
            "unknown",
            "x.x",
            "0123456789",
            "type1productconfigid",
        ]
        .contains(&l.as_str())
}

/// Where the device name came from (see [`device_name_with_source`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceNameSource {
    DeviceTree,
    CpuinfoModel,
    Dmi,
    Soc,
    CpuModel,
}

impl DeviceNameSource {
    pub fn label(self) -> &'static str {
        match self {
            DeviceNameSource::DeviceTree => "device tree",
            DeviceNameSource::CpuinfoModel => "cpuinfo Model",
            DeviceNameSource::Dmi => "DMI",
            DeviceNameSource::Soc => "SoC guess",
            DeviceNameSource::CpuModel => "CPU model",
        }
    }
}

/// The device's name as its user knows it — the one rule every output uses: the device-tree
/// model ("Radxa ROCK 5B"), the Raspberry Pi `Model` line of cpuinfo, DMI's product name with
/// its vendor ("LENOVO 21CBCTO1WW", placeholders such as "To Be Filled By O.E.M." skipped), a
/// SoC guess that names one SoC, else the CPU model ("AMD EPYC 9B45 128-Core Processor"). Never
/// the host name: a VM called "vm" is not a device.
pub fn device_name(m: &MachineInfo) -> Option<String> {
    device_name_with_source(m).map(|(n, _)| n)
}

/// The device a result document is about — the one rule for every output of a document (log,
/// summary row, database columns, report titles, upload labels): what the user called it (or
/// the run recorded), else what an imported log said, else [`device_name`] of its machine
/// snapshot. Blank values are skipped; the name is trimmed.
pub fn of_document(doc: &ResultDocument) -> Option<String> {
    let given = |s: Option<&String>| {
        s.map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    given(doc.device.as_ref())
        .or_else(|| given(doc.imported.as_ref().and_then(|i| i.device.as_ref())))
        .or_else(|| given(doc.machine.as_ref().and_then(device_name).as_ref()))
}

/// [`device_name`] and where it came from.
pub fn device_name_with_source(m: &MachineInfo) -> Option<(String, DeviceNameSource)> {
    let clean = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let id = &m.identity;
    let dt = id.device_tree.as_ref().and_then(|d| d.model.as_deref());
    let dmi = id
        .dmi
        .product_name
        .as_deref()
        .filter(|p| !dmi_placeholder(p))
        .map(|p| match id.dmi.sys_vendor.as_deref() {
            Some(v) if !dmi_placeholder(v) && !p.starts_with(v.trim()) => {
                format!("{} {p}", v.trim())
            }
            _ => p.to_string(),
        });
    let soc = id
        .soc
        .as_ref()
        .map(|s| s.name.as_str())
        .filter(|n| !n.starts_with("one of:") && !n.contains("family"));
    let cpu_model = m
        .cpuinfo
        .processors
        .iter()
        .filter_map(|p| p.model_name.as_deref())
        // ARM kernels' "ARMv7 Processor rev 5 (v7l)" names an architecture, not a CPU.
        .find(|_| m.cpuinfo.family.as_deref() != Some("arm"))
        .map(str::to_string);
    [
        (dt.map(str::to_string), DeviceNameSource::DeviceTree),
        (m.cpuinfo.model.clone(), DeviceNameSource::CpuinfoModel),
        (dmi, DeviceNameSource::Dmi),
        (soc.map(str::to_string), DeviceNameSource::Soc),
        (cpu_model, DeviceNameSource::CpuModel),
    ]
    .into_iter()
    .find_map(|(name, source)| {
        let name = clean(&name?);
        (!name.is_empty()).then_some((name, source))
    })
}
