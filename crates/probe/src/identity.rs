//! Who the machine is: kernel (uname fields), distribution, userland architecture,
//! virtualisation, DMI and device tree — and the one rule that turns these into the device's
//! name, so the run document, the log, review and `info` never disagree about it.
//!
//! Everything is read through the root; only on the live system (`Root::is_host`) is
//! `uname(2)` asked for the machine name when /proc/sys/kernel/arch (Linux 6.1+) is missing,
//! and the CPU for its hypervisor signature, so fixture trees give the same answer on every
//! host.

use document::cpu::CpuInfo;
use document::machine::{DeviceTree, Distro, Dmi, Kernel, Userland, Virtualization};

use crate::{Notes, Root};

/// uname fields from /proc/sys/kernel.
pub fn read_kernel(root: &Root, notes: &mut Notes, cpuinfo: &CpuInfo) -> Kernel {
    let k =
        |notes: &mut Notes, n: &str| notes.keep(root.read_value(&format!("/proc/sys/kernel/{n}")));
    let mut kernel = Kernel {
        ostype: k(notes, "ostype"),
        release: k(notes, "osrelease"),
        version: k(notes, "version"),
        ..Kernel::default()
    };
    if let Some(a) = notes.keep_optional(root.read_value("/proc/sys/kernel/arch")) {
        kernel.arch = Some(a);
        kernel.arch_source = Some("/proc/sys/kernel/arch".into());
    } else if let Some(a) = root.is_host().then(host_machine).flatten() {
        kernel.arch = Some(a);
        kernel.arch_source = Some("uname".into());
    } else if let Some(a) = cpuinfo
        .kernel_mode
        .as_deref()
        .and_then(arch_from_kernel_mode)
    {
        kernel.arch = Some(a.into());
        kernel.arch_source = Some("cpuinfo".into());
    }
    kernel
}

/// The cpuinfo helper's kernel mode mapped to `uname -m` spelling, where that is unambiguous.
fn arch_from_kernel_mode(mode: &str) -> Option<&'static str> {
    Some(match mode {
        "aarch64" => "aarch64",
        "x86_64" => "x86_64",
        "riscv64" => "riscv64",
        "loongarch64" => "loongarch64",
        "mips64" => "mips64",
        _ => return None,
    })
}

/// `uname -m` of the running kernel.
fn host_machine() -> Option<String> {
    // SAFETY: uname fills a zeroed struct; the fields are NUL-terminated C strings.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid utsname for uname to fill.
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    // c_char is i8 on x86 and u8 on ARM: CStr avoids a cast that is a no-op on one of them.
    // SAFETY: uname succeeded, so `machine` is a NUL-terminated string inside `u`.
    let machine = unsafe { std::ffi::CStr::from_ptr(u.machine.as_ptr()) };
    Some(machine.to_string_lossy().into_owned()).filter(|s| !s.is_empty())
}

/// os-release: /etc/os-release, falling back to /usr/lib/os-release when the first is missing
/// or has no usable name.
pub fn read_distro(root: &Root, notes: &mut Notes) -> Option<Distro> {
    for source in ["/etc/os-release", "/usr/lib/os-release"] {
        let Some(text) = notes.keep_optional(root.read(source)) else {
            continue;
        };
        let kv = parse_os_release(&text);
        let get = |k: &str| {
            kv.iter()
                .find(|(n, v)| n == k && !v.is_empty())
                .map(|(_, v)| v.clone())
        };
        let d = Distro {
            pretty_name: get("PRETTY_NAME"),
            name: get("NAME"),
            id: get("ID"),
            version_id: get("VERSION_ID"),
            version_codename: get("VERSION_CODENAME"),
            source: source.to_string(),
        };
        if d.pretty_name.is_some() || d.name.is_some() || d.id.is_some() {
            return Some(d);
        }
        notes.push(crate::Absent {
            path: source.into(),
            reason: "no NAME, PRETTY_NAME or ID".into(),
        });
    }
    None
}

/// `KEY=value` lines with shell quoting ('…', "…" with backslash escapes).
pub fn parse_os_release(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            let (k, v) = l.split_once('=')?;
            let k = k.trim();
            if k.is_empty() || !k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
                return None;
            }
            let v = v.trim();
            let v = if let Some(inner) = v.strip_prefix('"') {
                let mut out = String::new();
                let mut chars = inner.chars();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        c => out.push(c),
                    }
                }
                out
            } else if let Some(inner) = v.strip_prefix('\'') {
                inner.split('\'').next().unwrap_or("").to_string()
            } else {
                v.to_string()
            };
            Some((k.to_string(), v))
        })
        .collect()
}

/// Debian architecture name from an ELF header: class (32/64), byte order, machine, flags.
pub fn elf_arch(head: &[u8]) -> Option<(String, u32)> {
    if head.len() < 20 || &head[..4] != b"\x7fELF" {
        return None;
    }
    let bits = match head[4] {
        1 => 32,
        2 => 64,
        _ => return None,
    };
    let le = match head[5] {
        1 => true,
        2 => false,
        _ => return None,
    };
    let u16_at = |o: usize| -> Option<u16> {
        let b: [u8; 2] = head.get(o..o + 2)?.try_into().ok()?;
        Some(if le {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    };
    let u32_at = |o: usize| -> Option<u32> {
        let b: [u8; 4] = head.get(o..o + 4)?.try_into().ok()?;
        Some(if le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    let machine = u16_at(18)?;
    // e_flags: offset 36 in 32-bit headers, 48 in 64-bit ones.
    let flags = u32_at(if bits == 32 { 36 } else { 48 });
    let name = match (machine, bits) {
        (3, 32) => "i386",
        (62, 64) => "amd64",
        (62, 32) => "x32",
        (183, 64) => "arm64",
        (183, 32) => "arm64ilp32",
        // EF_ARM_ABI_FLOAT_HARD (0x400) marks the hard-float ABI.
        (40, 32) if flags.is_some_and(|f| f & 0x400 != 0) => "armhf",
        (40, 32) if flags.is_some() => "armel",
        (40, _) => "arm",
        (243, 64) => "riscv64",
        (243, 32) => "riscv32",
        (258, 64) => "loong64",
        (8, 64) if le => "mips64el",
        (8, 64) => "mips64",
        (8, 32) if le => "mipsel",
        (8, 32) => "mips",
        (21, 64) if le => "ppc64el",
        (21, 64) => "ppc64",
        (20, 32) => "powerpc",
        (22, 64) => "s390x",
        _ => return Some((format!("elf-machine-{machine}"), bits)),
    };
    Some((name.to_string(), bits))
}

/// The userland's architecture, from the ELF header of /bin/sh (else /usr/bin/env) followed
/// through links inside the root, plus /var/lib/dpkg/arch if present.
pub fn read_userland(root: &Root, notes: &mut Notes, kernel: &Kernel) -> Option<Userland> {
    let mut u = Userland::default();
    for bin in ["/bin/sh", "/usr/bin/env"] {
        match root.read_head(bin, 64) {
            Ok(head) => match elf_arch(&head) {
                Some((arch, bits)) => {
                    u.arch = Some(arch);
                    u.bits = Some(bits);
                    u.binary = Some(bin.to_string());
                    break;
                }
                None => notes.push(crate::Absent {
                    path: bin.into(),
                    reason: "not an ELF file".into(),
                }),
            },
            Err(a) if a.reason == "missing" => {}
            Err(a) => notes.push(a),
        }
    }
    if let Some(t) = notes.keep_optional(root.read("/var/lib/dpkg/arch")) {
        u.dpkg_architectures = t
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
    }
    if u.arch.is_none() && u.dpkg_architectures.is_empty() {
        return None;
    }
    let kernel64 = kernel
        .arch
        .as_deref()
        .is_some_and(|a| a.contains("64") || a == "s390x");
    u.mixed = kernel64 && u.bits == Some(32);
    Some(u)
}

/// /sys/class/dmi/id fields.
pub fn read_dmi(root: &Root, notes: &mut Notes) -> Dmi {
    let f = |notes: &mut Notes, n: &str| {
        notes.keep_optional(root.read_value(&format!("/sys/class/dmi/id/{n}")))
    };
    Dmi {
        sys_vendor: f(notes, "sys_vendor"),
        product_name: f(notes, "product_name"),
        product_version: f(notes, "product_version"),
        board_vendor: f(notes, "board_vendor"),
        board_name: f(notes, "board_name"),
        bios_vendor: f(notes, "bios_vendor"),
        bios_version: f(notes, "bios_version"),
        bios_date: f(notes, "bios_date"),
    }
}

/// Device-tree model and compatible, from /proc/device-tree or /sys/firmware/devicetree/base.
pub fn read_device_tree(root: &Root, notes: &mut Notes) -> Option<DeviceTree> {
    let base = ["/proc/device-tree", "/sys/firmware/devicetree/base"]
        .into_iter()
        .find(|b| root.exists(b))?;
    let model = notes
        .keep_optional(root.read_dt_strings(&format!("{base}/model")))
        .map(|v| v.join(" "));
    let compatible = notes
        .keep_optional(root.read_dt_strings(&format!("{base}/compatible")))
        .unwrap_or_default();
    if model.is_none() && compatible.is_empty() {
        return None;
    }
    Some(DeviceTree { model, compatible })
}

/// Whether the device tree says this is a Raspberry Pi (compatible `raspberrypi,…`).
pub fn is_raspberry_pi(dt: Option<&DeviceTree>) -> bool {
    dt.is_some_and(|d| d.compatible.iter().any(|c| c.starts_with("raspberrypi,")))
}

/// Where fixture trees keep the hypervisor's CPUID signature (leaf 0x40000000, the 12 bytes of
/// EBX, ECX, EDX as text), relative to the root.
pub const CPUID_FIXTURE: &str = "/.fixture/cpuid/0x40000000.txt";

/// The hypervisor's CPUID vendor signature (leaf 0x40000000), on x86 only: from the CPU on the
/// live system (when CPUID.1:ECX bit 31 says a hypervisor is present), from [`CPUID_FIXTURE`]
/// in a fixture tree.
fn hypervisor_signature(root: &Root) -> Option<String> {
    let raw = if root.is_host() {
        live_hypervisor_signature()?
    } else {
        root.read(CPUID_FIXTURE).ok()?
    };
    let sig = raw.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!sig.is_empty()).then(|| sig.to_string())
}

#[cfg(target_arch = "x86_64")]
fn live_hypervisor_signature() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86_64 CPU; leaf 1 is always valid, and leaf 0x40000000 is
    // only asked when the hypervisor-present bit says a hypervisor answers it.
    #[allow(unused_unsafe)]
    let (present, regs) = unsafe {
        let present = __cpuid(1).ecx & (1 << 31) != 0;
        (present, present.then(|| __cpuid(0x4000_0000)))
    };
    let r = regs.filter(|_| present)?;
    let bytes: Vec<u8> = [r.ebx, r.ecx, r.edx]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(not(target_arch = "x86_64"))]
fn live_hypervisor_signature() -> Option<String> {
    None
}

/// CPUID hypervisor signature → kind. Sources: each hypervisor's documentation (KVM
/// Documentation/virt/kvm/x86/cpuid.rst, Hyper-V TLFS, VMware KB 1009458, Xen's cpuid.h).
fn hypervisor_kind(sig: &str) -> &'static str {
    match sig {
        "KVMKVMKVM" | "Linux KVM Hv" => "kvm",
        "Microsoft Hv" => "hyperv",
        "VMwareVMware" => "vmware",
        "XenVMMXenVMM" => "xen",
        "TCGTCGTCGTCG" => "qemu",
        "VBoxVBoxVBox" => "virtualbox",
        "bhyve bhyve" => "bhyve",
        "lrpepyh  vr" | "prl hyperv" => "parallels",
        "ACRNACRNACRN" => "acrn",
        "QNXQVMBSQG" => "qnx",
        "Apple VZ" | "VirtualApple" => "apple",
        _ => "vm",
    }
}

/// Whether the root file system is one a container runtime mounts (overlay, aufs, a Docker
/// devicemapper volume), from /proc/self/mountinfo. `None` when it cannot be read.
fn root_fs_of_a_container(root: &Root) -> Option<(bool, String)> {
    let text = root.read("/proc/self/mountinfo").ok()?;
    // Fields: id parent major:minor root mountpoint options… - fstype source superoptions.
    let line = text
        .lines()
        .rev()
        .find(|l| l.split(' ').nth(4) == Some("/"))?;
    let (_, after) = line.split_once(" - ")?;
    let mut f = after.split(' ');
    let (fstype, source) = (f.next()?, f.next().unwrap_or(""));
    let container = matches!(fstype, "overlay" | "aufs" | "fuse-overlayfs" | "vfs")
        || source.starts_with("/dev/mapper/docker");
    Some((container, format!("{fstype} on {source}")))
}

/// Signs of a hypervisor or container. `None` when there are none.
///
/// Evidence, each recorded: the hypervisor's CPUID signature (x86 leaf 0x40000000: KVM,
/// Hyper-V, VMware, Xen, QEMU TCG …), the x86 `hypervisor` cpuinfo flag (set by every x86
/// hypervisor), /sys/hypervisor/type (Xen), DMI vendor/product (QEMU, KVM, VMware, Hyper-V,
/// VirtualBox, Xen, Parallels, bhyve, Amazon EC2 unless a `.metal` instance, Google), the
/// device tree's /hypervisor node (KVM, Xen, Qualcomm Gunyah) and container markers
/// (/.dockerenv, /run/.containerenv, /run/systemd/container). The kind comes from the most
/// specific hypervisor evidence; a container is noted separately and is the kind only without
/// one. A marker file counts only if the root file system is one a runtime mounts: VM images
/// built from container images keep a stale /.dockerenv on their ext4 root.
pub fn read_virtualization(
    root: &Root,
    notes: &mut Notes,
    cpuinfo: &CpuInfo,
    dmi: &Dmi,
) -> Option<Virtualization> {
    let mut evidence = Vec::new();
    let mut kind: Option<&str> = None;
    let set = |k: &'static str, kind: &mut Option<&str>| {
        if kind.is_none() || *kind == Some("vm") {
            *kind = Some(k);
        }
    };
    if let Some(sig) = hypervisor_signature(root) {
        evidence.push(format!("CPUID 0x40000000 \"{sig}\""));
        set(hypervisor_kind(&sig), &mut kind);
    }
    if let Some(t) = notes.keep_optional(root.read_value("/sys/hypervisor/type")) {
        evidence.push(format!("/sys/hypervisor/type {t}"));
        set(if t == "xen" { "xen" } else { "vm" }, &mut kind);
    }
    let vendor = dmi.sys_vendor.as_deref().unwrap_or("");
    let product = dmi.product_name.as_deref().unwrap_or("");
    let dmi_kind = match (vendor, product) {
        (_, p) if p.contains(".metal") => None,
        (v, _) if v.starts_with("QEMU") => Some("qemu"),
        (_, "KVM") | ("KVM", _) => Some("kvm"),
        (v, _) if v.starts_with("VMware") => Some("vmware"),
        ("Microsoft Corporation", "Virtual Machine") => Some("hyperv"),
        ("innotek GmbH", _) | (_, "VirtualBox") => Some("virtualbox"),
        ("Xen", _) | (_, "HVM domU") => Some("xen"),
        (v, _) if v.starts_with("Parallels") => Some("parallels"),
        ("BHYVE", _) => Some("bhyve"),
        ("Amazon EC2", _) => Some("amazon"),
        ("Google", "Google Compute Engine") => Some("google"),
        ("OpenStack Foundation", _) | (_, "OpenStack Nova") => Some("openstack"),
        _ => None,
    };
    if let Some(k) = dmi_kind {
        evidence.push(format!("DMI {vendor} / {product}"));
        set(k, &mut kind);
    }
    for dt in [
        "/proc/device-tree/hypervisor",
        "/sys/firmware/devicetree/base/hypervisor",
    ] {
        if root.exists(dt) {
            let compat = notes
                .keep_optional(root.read_dt_strings(&format!("{dt}/compatible")))
                .unwrap_or_default();
            evidence.push(if compat.is_empty() {
                "device-tree /hypervisor node".to_string()
            } else {
                format!("device-tree /hypervisor node {}", compat.join(" "))
            });
            let k = if compat.iter().any(|c| c.contains("gunyah")) {
                "gunyah"
            } else if compat.iter().any(|c| c.starts_with("xen")) {
                "xen"
            } else if compat.iter().any(|c| c.contains("kvm")) {
                "kvm"
            } else {
                "vm"
            };
            set(k, &mut kind);
            break;
        }
    }
    let flagged = cpuinfo
        .processors
        .iter()
        .any(|p| p.flags.iter().any(|f| f == "hypervisor"));
    if flagged {
        evidence.push("cpuinfo flag hypervisor".into());
        set("vm", &mut kind);
    }
    // A container is recorded beside the hypervisor (a container in a VM is both); it is the
    // kind only when there is no sign of a hypervisor.
    let mut container = None;
    let root_fs = root_fs_of_a_container(root);
    for (p, what) in [
        ("/.dockerenv", "docker"),
        ("/run/.containerenv", "podman"),
        ("/run/systemd/container", ""),
    ] {
        if root.exists(p) {
            let name = match what {
                "" => notes
                    .keep_optional(root.read_value(p))
                    .unwrap_or_else(|| "container".into()),
                w => w.to_string(),
            };
            // systemd writes its file only after detecting a container; the runtimes' marker
            // files are also left behind in VM images made from container images.
            if let Some((false, fs)) = root_fs.as_ref().filter(|_| !what.is_empty()) {
                evidence.push(format!(
                    "{p} exists, but / is {fs}: left over from an image, not a container"
                ));
                continue;
            }
            evidence.push(format!("{p} exists ({name})"));
            container.get_or_insert(name);
        }
    }
    if container.is_some() && kind.is_none() {
        kind = Some("container");
    }
    Some(Virtualization {
        kind: kind?.to_string(),
        evidence,
        container,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_release_quoting() {
        let kv = parse_os_release(
            "# c\nPRETTY_NAME=\"Debian \\\"x\\\" 12\"\nID=debian\nNAME='Deb ian'\nbad line\n=x\n",
        );
        assert_eq!(kv[0], ("PRETTY_NAME".into(), "Debian \"x\" 12".into()));
        assert_eq!(kv[1], ("ID".into(), "debian".into()));
        assert_eq!(kv[2], ("NAME".into(), "Deb ian".into()));
        assert_eq!(kv.len(), 3);
    }

    fn header(class: u8, machine: u16, flags: u32) -> Vec<u8> {
        let mut h = vec![0u8; 64];
        h[..4].copy_from_slice(b"\x7fELF");
        h[4] = class;
        h[5] = 1;
        h[18..20].copy_from_slice(&machine.to_le_bytes());
        let off = if class == 1 { 36 } else { 48 };
        h[off..off + 4].copy_from_slice(&flags.to_le_bytes());
        h
    }

    #[test]
    fn elf_headers() {
        assert_eq!(elf_arch(&header(2, 183, 0)), Some(("arm64".into(), 64)));
        assert_eq!(
            elf_arch(&header(1, 40, 0x0500_0400)),
            Some(("armhf".into(), 32))
        );
        assert_eq!(
            elf_arch(&header(1, 40, 0x0500_0200)),
            Some(("armel".into(), 32))
        );
        assert_eq!(elf_arch(&header(2, 62, 0)), Some(("amd64".into(), 64)));
        assert_eq!(elf_arch(&header(1, 3, 0)), Some(("i386".into(), 32)));
        assert_eq!(elf_arch(b"#!/bin/sh\n"), None);
        assert_eq!(elf_arch(&header(2, 183, 0)[..10]), None);
    }
}
