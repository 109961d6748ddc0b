//! The DRAM devices where SMBIOS or EDAC state them: a type 17 structure built byte by byte as
//! the SMBIOS specification lays it out (as the kernel exposes it in
//! /sys/firmware/dmi/entries/17-N/raw), and EDAC's dimm directories, in a tree the test writes.

use probe::memory::parse_smbios_memory_device;
use probe::{Notes, Root};

/// A type 17 structure: formatted area of `len` bytes, then its strings.
fn type17(size: u16, mem_type: u8, speed: u16, configured: u16, locator: &str) -> Vec<u8> {
    let len = 0x28usize;
    let mut raw = vec![0u8; len];
    raw[0] = 17;
    raw[1] = len as u8;
    raw[0x0C..0x0E].copy_from_slice(&size.to_le_bytes());
    raw[0x10] = 1; // Device Locator: string 1
    raw[0x11] = 2; // Bank Locator: string 2
    raw[0x12] = mem_type;
    raw[0x15..0x17].copy_from_slice(&speed.to_le_bytes());
    raw[0x20..0x22].copy_from_slice(&configured.to_le_bytes());
    raw.extend_from_slice(locator.as_bytes());
    raw.push(0);
    raw.extend_from_slice(b"BANK 0\0\0");
    raw
}

#[test]
fn an_smbios_memory_device_gives_type_size_and_data_rate() {
    let d = parse_smbios_memory_device(&type17(8192, 0x1E, 4266, 3733, "LPDDR4_A")).unwrap();
    assert_eq!(d.source, "smbios");
    assert_eq!(d.mem_type.as_deref(), Some("LPDDR4"));
    assert_eq!(d.size_mib, Some(8192));
    assert_eq!(d.speed_mts, Some(4266));
    assert_eq!(d.configured_mts, Some(3733));
    assert_eq!(d.locator.as_deref(), Some("LPDDR4_A"));
    // An empty slot (size 0), another structure type, a truncated one: nothing.
    assert_eq!(
        parse_smbios_memory_device(&type17(0, 0x1A, 3200, 3200, "DIMM 1")),
        None
    );
    let mut other = type17(8192, 0x1A, 3200, 3200, "DIMM 1");
    other[0] = 16;
    assert_eq!(parse_smbios_memory_device(&other), None);
    assert_eq!(parse_smbios_memory_device(&[17, 0x28, 0, 0]), None);
    // Sizes in KiB (bit 15), the extended size, unknown speeds.
    let kib = parse_smbios_memory_device(&type17(0x8000 | 2048, 0x1A, 0, 0xFFFF, "X")).unwrap();
    assert_eq!(
        (kib.size_mib, kib.speed_mts, kib.configured_mts),
        (Some(2), None, None)
    );
    let mut ext = type17(0x7FFF, 0x22, 5600, 5600, "DIMM A1");
    ext[0x1C..0x20].copy_from_slice(&65536u32.to_le_bytes());
    let ext = parse_smbios_memory_device(&ext).unwrap();
    assert_eq!(
        (ext.size_mib, ext.mem_type.as_deref()),
        (Some(65536), Some("DDR5"))
    );
}

#[test]
fn smbios_and_edac_devices_are_read_from_the_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let w = |rel: &str, bytes: &[u8]| {
        let p = tmp.path().join(rel.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    w("/proc/meminfo", b"MemTotal:       16000000 kB\n");
    w(
        "/sys/firmware/dmi/entries/17-0/raw",
        &type17(8192, 0x1A, 3200, 2933, "DIMM A1"),
    );
    w(
        "/sys/firmware/dmi/entries/17-1/raw",
        &type17(0, 0x1A, 0, 0, "DIMM A2"),
    );
    w("/sys/firmware/dmi/entries/16-0/raw", &[16, 4, 0, 0]);
    w(
        "/sys/devices/system/edac/mc/mc0/dimm0/dimm_mem_type",
        b"Unbuffered-DDR4\n",
    );
    w(
        "/sys/devices/system/edac/mc/mc0/dimm0/dimm_label",
        b"mc#0csrow#0channel#0\n",
    );
    w("/sys/devices/system/edac/mc/mc0/dimm0/size", b"8192\n");
    w(
        "/sys/devices/system/edac/mc/mc0/dimm1/dimm_mem_type",
        b"Unknown\n",
    );
    w("/sys/devices/system/edac/mc/mc0/dimm1/size", b"0\n");
    let mut notes = Notes::default();
    let m = probe::memory::read(&Root::new(tmp.path()), &mut notes);
    assert_eq!(m.dram.len(), 2, "{:?}", m.dram);
    assert_eq!(m.dram[0].source, "smbios");
    assert_eq!(m.dram[0].mem_type.as_deref(), Some("DDR4"));
    assert_eq!(m.dram[0].configured_mts, Some(2933));
    assert_eq!(m.dram[1].source, "edac");
    assert_eq!(m.dram[1].mem_type.as_deref(), Some("Unbuffered-DDR4"));
    assert_eq!(m.dram[1].size_mib, Some(8192));
    assert_eq!(m.dram[1].locator.as_deref(), Some("mc#0csrow#0channel#0"));
    // A board with neither (most): nothing, and no note.
    let bare = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(bare.path().join("proc")).unwrap();
    std::fs::write(bare.path().join("proc/meminfo"), "MemTotal: 1000 kB\n").unwrap();
    let mut notes = Notes::default();
    let m = probe::memory::read(&Root::new(bare.path()), &mut notes);
    assert!(m.dram.is_empty());
    assert!(
        !format!("{notes:?}").contains("dmi") && !format!("{notes:?}").contains("edac"),
        "{notes:?}"
    );
}
