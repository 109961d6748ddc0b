#!/usr/bin/env python3
"""Builds the review's fixture root trees under this directory (run from anywhere; output
committed).

Each tree starts from the probe's tree of the same board (crates/probe/tests/roots/generate.py,
imported, not changed: CPUs, cpufreq, devfreq, thermal zones, memory, identity) and adds what
the review reads, laid out as the kernel's sysfs ABI documents it
(Documentation/ABI/testing/sysfs-bus-pci, sysfs-bus-usb, sysfs-block, sysfs-bus-mmc-card*,
sysfs-class-thermal; the mmc CID/CSD layouts of the SD Physical Layer Simplified Spec):

- rk3588-nvme: Radxa ROCK 5B. A Gen3 x4 NVMe SSD that trained at Gen2 x1 behind the Gen3 x4
  root port (downgraded), an ASM1061 SATA controller on a Gen2 x1 port, an ASM2362 USB NVMe
  enclosure (10 Gbps capable) on the 5 Gbps port with UAS, eMMC, NTFS through FUSE,
  ASPM powersave, fan and trip points.
- rpi4-usb-sata: Raspberry Pi 4. A JMicron JMS578 USB-SATA bridge on usb-storage (UAS disabled
  by a quirk although the bridge offers it), a USB 3 stick in a USB 2 port, a genuine SanDisk
  SD card holding the root filesystem and the swap file, ondemand with io_is_busy=0, and the
  probe tree's recorded vcgencmd (under-voltage).
- rpi4-fake-sd: the same Pi with a counterfeit SD card.
- x86-tidy: AMD desktop with a Gen4 NVMe at full link, a SATA HDD, zram swap: nothing to fix.

Symlinks are relative, as in sysfs, so a copied tree stays self-contained.
"""
import importlib.util
import os
import shutil
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE_GEN = HERE.parents[2] / "probe" / "tests" / "roots" / "generate.py"

spec = importlib.util.spec_from_file_location("probe_generate", PROBE_GEN)
pg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pg)
# The probe's Tree writes below its module's HERE: point it here for our trees.
pg.HERE = HERE

CPUFREQ = "sys/devices/system/cpu/cpufreq"


def base(builder, probe_name, name):
    """Builds the probe's tree `probe_name` here and renames it to `name`."""
    builder()
    dst = HERE / name
    if dst.exists():
        shutil.rmtree(dst)
    (HERE / probe_name).rename(dst)
    t = pg.Tree.__new__(pg.Tree)
    t.root = dst
    return t


def rel_link(t, link, target):
    """A relative symlink from machine path `link` to machine path `target`."""
    lp = t.root / link.lstrip("/")
    lp.parent.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(t.root / target.lstrip("/"), lp.parent)
    if lp.is_symlink() or lp.exists():
        lp.unlink()
    os.symlink(rel, lp)


def pci(t, real_dir, addr, cls, vendor, device, cur=None, maxl=None, driver=None, aspm=()):
    """A PCI function at `real_dir/addr`, linked from /sys/bus/pci/devices."""
    d = f"{real_dir}/{addr}"
    t.w(f"{d}/class", f"0x{cls:06x}")
    t.w(f"{d}/vendor", f"0x{vendor:04x}")
    t.w(f"{d}/device", f"0x{device:04x}")
    if cur:
        t.w(f"{d}/current_link_speed", cur[0])
        t.w(f"{d}/current_link_width", str(cur[1]))
    if maxl:
        t.w(f"{d}/max_link_speed", maxl[0])
        t.w(f"{d}/max_link_width", str(maxl[1]))
    for state in ("l0s_aspm", "l1_aspm", "l1_1_aspm", "l1_2_aspm", "clkpm"):
        if aspm:
            t.w(f"{d}/link/{state}", "1" if state in aspm else "0")
    if driver:
        t.w(f"/sys/bus/pci/drivers/{driver}/.keep", "")
        rel_link(t, f"{d}/driver", f"/sys/bus/pci/drivers/{driver}")
    rel_link(t, f"/sys/bus/pci/devices/{addr}", d)
    return d


def aspm_policy(t, selected):
    opts = ["default", "performance", "powersave", "powersupersave"]
    t.w("/sys/module/pcie_aspm/parameters/policy",
        " ".join(f"[{o}]" if o == selected else o for o in opts))


def device_descriptor(bcd, vid, pid, max_packet=9):
    return struct.pack("<BBHBBBBHHHBBBB", 18, 1, bcd, 0, 0, 0, max_packet, vid, pid, 0x0100,
                       1, 2, 3, 1)


def storage_config(uas):
    """Configuration descriptor of a mass-storage bridge: alt 0 Bulk-Only (0x50) and, when
    `uas`, alt 1 UAS (0x62) with four endpoints and their pipe-usage descriptors."""
    body = bytes([9, 4, 0, 0, 2, 8, 6, 0x50, 0])
    for ep in (0x81, 0x02):
        body += bytes([7, 5, ep, 2, 0x00, 0x04, 0]) + bytes([6, 0x30, 15, 0, 0, 0])
    if uas:
        body += bytes([9, 4, 0, 1, 4, 8, 6, 0x62, 0])
        for ep, pipe in ((0x01, 1), (0x82, 2), (0x83, 3), (0x04, 4)):
            body += bytes([7, 5, ep, 2, 0x00, 0x04, 0]) + bytes([6, 0x30, 15, 0, 0, 0])
            body += bytes([4, 0x24, pipe, 0])
    total = 9 + len(body)
    return struct.pack("<BBHBBBBB", 9, 2, total, 1, 1, 0, 0xC0, 0x01) + body


def bos(ssp_gbps=None):
    """BOS: USB 2.0 extension + SuperSpeed (5 Gbps); with `ssp_gbps` a SuperSpeedPlus
    capability with one symmetric rx/tx pair of sublink speed attributes."""
    caps = bytes([7, 0x10, 2, 0x02, 0, 0, 0])
    caps += bytes([10, 0x10, 3, 0, 0x0E, 0, 1, 10, 0xFF, 0x07])
    if ssp_gbps:
        attrs = [(ssp_gbps << 16) | 0x4000 | 0x30, (ssp_gbps << 16) | 0x4000 | 0xB0]
        ssp = struct.pack("<BBBBIHH", 12 + 4 * len(attrs), 0x10, 0x0A, 0,
                          len(attrs) - 1, 0x1100, 0)
        ssp += b"".join(struct.pack("<I", a) for a in attrs)
        caps += ssp
    return struct.pack("<BBHB", 5, 0x0F, 5 + len(caps), 2 + (1 if ssp_gbps else 0)) + caps


def usb_dev(t, real_dir, name, vid, pid, speed, version, manufacturer=None, product=None,
            bos_bytes=None, descriptors=None):
    d = f"{real_dir}/{name}"
    t.w(f"{d}/idVendor", f"{vid:04x}")
    t.w(f"{d}/idProduct", f"{pid:04x}")
    t.w(f"{d}/speed", speed)
    t.w(f"{d}/version", version)
    t.w(f"{d}/busnum", name.split("-")[0].replace("usb", ""))
    if manufacturer:
        t.w(f"{d}/manufacturer", manufacturer)
    if product:
        t.w(f"{d}/product", product)
    if bos_bytes is not None:
        t.w(f"{d}/bos_descriptors", bos_bytes)
    if descriptors is not None:
        t.w(f"{d}/descriptors", descriptors)
    rel_link(t, f"/sys/bus/usb/devices/{name}", d)
    return d


def usb_iface(t, dev_dir, name, cls, protocol, driver=None):
    d = f"{dev_dir}/{name}"
    t.w(f"{d}/bInterfaceClass", f"{cls:02x}")
    t.w(f"{d}/bInterfaceProtocol", f"{protocol:02x}")
    if driver:
        t.w(f"/sys/bus/usb/drivers/{driver}/.keep", "")
        rel_link(t, f"{d}/driver", f"/sys/bus/usb/drivers/{driver}")
    rel_link(t, f"/sys/bus/usb/devices/{name}", d)
    return d


def disk(t, real_dir, name, sectors, rotational, scheduler, model=None, removable=0,
         parts=(), mmc_card_dir=None):
    """A block device at `real_dir/block/name`, linked from /sys/block."""
    d = f"{real_dir}/block/{name}"
    t.w(f"{d}/size", str(sectors))
    t.w(f"{d}/removable", str(removable))
    t.w(f"{d}/queue/rotational", str(rotational))
    t.w(f"{d}/queue/scheduler", scheduler)
    if mmc_card_dir:
        rel_link(t, f"{d}/device", mmc_card_dir)
    elif model:
        t.w(f"{d}/device/model", model)
    for i, (pname, psize) in enumerate(parts, 1):
        t.w(f"{d}/{pname}/partition", str(i))
        t.w(f"{d}/{pname}/size", str(psize))
    rel_link(t, f"/sys/block/{name}", d)
    return d


def mmc_card(t, host_real, host, card, attrs):
    d = f"{host_real}/{host}/{card}"
    for k, v in attrs.items():
        t.w(f"{d}/{k}", v)
    rel_link(t, f"/sys/class/mmc_host/{host}", f"{host_real}/{host}")
    return d


def trips(t, zone, rows):
    for i, (kind, temp) in enumerate(rows):
        t.w(f"/sys/class/thermal/thermal_zone{zone}/trip_point_{i}_type", kind)
        t.w(f"/sys/class/thermal/thermal_zone{zone}/trip_point_{i}_temp", str(temp))
    t.w(f"/sys/class/thermal/thermal_zone{zone}/mode", "enabled")
    t.w(f"/sys/class/thermal/thermal_zone{zone}/policy", "step_wise")


def cooling(t, n, kind, cur, mx):
    d = f"/sys/class/thermal/cooling_device{n}"
    t.w(f"{d}/type", kind)
    t.w(f"{d}/cur_state", str(cur))
    t.w(f"{d}/max_state", str(mx))


def cur_freq(t, policies, khz):
    for p in policies:
        t.w(f"{CPUFREQ}/policy{p}/scaling_cur_freq", str(khz))


def rk3588_nvme():
    t = base(pg.rk3588, "rk3588", "rk3588-nvme")
    cur_freq(t, (0, 4, 6), 408000)
    for p in (0, 4, 6):
        t.w(f"{CPUFREQ}/policy{p}/schedutil/rate_limit_us", "1000")
    # PCIe: pcie3x4 (Gen3 x4 root port) with the NVMe SSD that trained at Gen2 x1.
    p3 = "/sys/devices/platform/fe150000.pcie/pci0000:00"
    port = pci(t, p3, "0000:00:00.0", 0x060400, 0x1d87, 0x3588, ("8.0 GT/s PCIe", 4),
               ("8.0 GT/s PCIe", 4), "pcieport")
    nvme = pci(t, port, "0000:01:00.0", 0x010802, 0x144d, 0xa808, ("5.0 GT/s PCIe", 1),
               ("8.0 GT/s PCIe", 4), "nvme", aspm=("l1_aspm",))
    # pcie2x1l0 (Gen2 x1) with an ASM1061 SATA controller (M.2 E-key adapter).
    p2 = "/sys/devices/platform/fe170000.pcie/pci0002:20"
    port2 = pci(t, p2, "0002:20:00.0", 0x060400, 0x1d87, 0x3588, ("5.0 GT/s PCIe", 1),
                ("5.0 GT/s PCIe", 1), "pcieport")
    asm = pci(t, port2, "0002:21:00.0", 0x010601, 0x1b21, 0x0612, ("5.0 GT/s PCIe", 1),
              ("5.0 GT/s PCIe", 1), "ahci", aspm=("l1_aspm",))
    # pcie2x1l2 with the board's RTL8125B.
    p4 = "/sys/devices/platform/fe190000.pcie/pci0004:40"
    port4 = pci(t, p4, "0004:40:00.0", 0x060400, 0x1d87, 0x3588, ("5.0 GT/s PCIe", 1),
                ("5.0 GT/s PCIe", 1), "pcieport")
    pci(t, port4, "0004:41:00.0", 0x020000, 0x10ec, 0x8125, ("5.0 GT/s PCIe", 1),
        ("5.0 GT/s PCIe", 1), "r8169", aspm=("l1_aspm", "l1_1_aspm", "l1_2_aspm"))
    aspm_policy(t, "powersave")
    # USB: the 5 Gbps port (RK3588's USB3 OTG controllers are Gen1) with an ASM2362 enclosure.
    xhci = "/sys/devices/platform/usbdrd3_0/fc000000.usb"
    usb_dev(t, xhci, "usb1", 0x1d6b, 0x0002, "480", " 2.00")
    root2 = usb_dev(t, xhci, "usb2", 0x1d6b, 0x0003, "5000", " 3.00")
    enc = usb_dev(t, root2, "2-1", 0x174c, 0x2362, "5000", " 3.20", "ASMT", "ASM2362",
                  bos(10), device_descriptor(0x0320, 0x174c, 0x2362) + storage_config(True))
    iface = usb_iface(t, enc, "2-1:1.0", 0x08, 0x62, "uas")
    scsi = f"{iface}/host0/target0:0:0/0:0:0:0"
    disk(t, scsi, "sda", 1953525168, 0, "mq-deadline [none]", model="Samsung SSD 970 ",
         parts=[("sda1", 1953521664)])
    # Block devices: the NVMe SSD, the SATA disk behind the ASM1061, eMMC.
    disk(t, f"{nvme}/nvme/nvme0", "nvme0n1", 1953525168, 0, "[none] mq-deadline kyber bfq",
         model="Samsung SSD 970 EVO Plus 1TB", parts=[("nvme0n1p1", 1048576),
                                                      ("nvme0n1p2", 1952474112)])
    disk(t, f"{asm}/ata1/host1/target1:0:0/1:0:0:0", "sdb", 15628053168, 1,
         "[mq-deadline] none", model="WDC WD80EFAX-68L", parts=[("sdb1", 15628051456)])
    host = "/sys/devices/platform/fe2e0000.mmc/mmc_host"
    card = mmc_card(t, host, "mmc0", "mmc0:0001", {
        "type": "MMC", "name": "A3A551", "manfid": "0x000088", "oemid": "0x0103",
        "serial": "0x8b3c2a11", "date": "03/2023", "cid": "8801034133413535310b8b3c2a113769",
        "csd": "d0270132075a83ffffffffe7124000e1", "fwrev": "0x0", "hwrev": "0x0",
        "life_time": "0x01 0x01", "pre_eol_info": "0x01"})
    disk(t, card, "mmcblk0", 30539776, 0, "[mq-deadline] none", mmc_card_dir=card,
         parts=[("mmcblk0p1", 30535680)])
    t.w("/proc/mounts", "\n".join([
        "/dev/nvme0n1p2 / ext4 rw,noatime,errors=remount-ro,commit=600 0 0",
        "/dev/nvme0n1p1 /boot vfat rw,relatime,fmask=0022,dmask=0022,codepage=437 0 0",
        "/dev/sda1 /mnt/usb-ntfs fuseblk rw,nosuid,nodev,relatime,user_id=0,group_id=0,"
        "allow_other,blksize=4096 0 0",
        "/dev/sdb1 /srv/backup ext4 rw,relatime 0 0",
        "tmpfs /tmp tmpfs rw,nosuid,nodev 0 0",
        "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0"]))
    t.w("/proc/cmdline", "storagemedia=emmc androidboot.storagemedia=emmc androidboot.mode="
        "normal root=/dev/nvme0n1p2 rootwait rw console=ttyFIQ0,1500000 cgroup_enable=cpuset "
        "cgroup_memory=1 cgroup_enable=memory swapaccount=1 irqchip.gicv3_pseudo_nmi=0")
    trips(t, 0, [("passive", 75000), ("passive", 85000), ("critical", 115000)])
    trips(t, 1, [("passive", 85000), ("critical", 115000)])
    cooling(t, 0, "thermal-cpufreq-0", 0, 8)
    cooling(t, 1, "thermal-cpufreq-4", 0, 11)
    cooling(t, 2, "thermal-cpufreq-6", 0, 11)
    cooling(t, 3, "pwm-fan", 1, 4)
    cooling(t, 4, "thermal-devfreq-0", 0, 4)


def sandisk_card():
    # SanDisk Extreme 64 GB ("SN64G"), revision 8.0, serial 0x7a1c32e9, 04/2022; CSD v2 with
    # C_SIZE 0x01dacb: (121547 + 1) × 512 KiB = 63.7 GB.
    return {
        "type": "SD", "name": "SN64G", "manfid": "0x000003", "oemid": "0x5344",
        "serial": "0x7a1c32e9", "date": "04/2022", "hwrev": "0x8", "fwrev": "0x0",
        "cid": "035344534e363447807a1c32e9016401",
        "csd": "400e0032db790001dacb7f800a400000",
        "scr": "0245848700000000", "ssr": "", "ocr": "0x00300000"}, 124465152


def fake_card():
    # A card sold as 128 GB with the usual signs: manufacturer 0x12, Kingston's OEM ID "42",
    # placeholder name, zero serial and date; CSD v2 with C_SIZE 0x00edc7 (31.9 GB).
    return {
        "type": "SD", "name": "SD128", "manfid": "0x000012", "oemid": "0x3432",
        "serial": "0x00000000", "date": "00/2000", "hwrev": "0x1", "fwrev": "0x0",
        "cid": "12343253443132381000000000000001",
        "csd": "400e00325b590000edc77f800a404000",
        "ocr": "0x00300000"}, 62332928


def rpi4(name="rpi4-usb-sata", card=sandisk_card):
    t = base(pg.rpi4, "rpi4", name)
    cur_freq(t, (0,), 600000)
    # Global ondemand tunables (BCM2711 has one policy; no per-policy governor directory).
    g = f"{CPUFREQ}/ondemand"
    t.w(f"{g}/io_is_busy", "0")
    t.w(f"{g}/up_threshold", "50")
    t.w(f"{g}/sampling_down_factor", "50")
    t.w(f"{g}/sampling_rate", "100000")
    t.w(f"{g}/ignore_nice_load", "0")
    t.w(f"{g}/powersave_bias", "0")
    # PCIe: the BCM2711 root port (Gen2 x1) and the VL805 USB 3 controller.
    pc = "/sys/devices/platform/scb/fd500000.pcie/pci0000:00"
    port = pci(t, pc, "0000:00:00.0", 0x060400, 0x14e4, 0x2711, ("5.0 GT/s PCIe", 1),
               ("5.0 GT/s PCIe", 1), "pcieport")
    vl = pci(t, port, "0000:01:00.0", 0x0c0330, 0x1106, 0x3483, ("5.0 GT/s PCIe", 1),
             ("5.0 GT/s PCIe", 1), "xhci_hcd", aspm=("l1_aspm",))
    aspm_policy(t, "default")
    root1 = usb_dev(t, vl, "usb1", 0x1d6b, 0x0002, "480", " 2.00")
    root2 = usb_dev(t, vl, "usb2", 0x1d6b, 0x0003, "5000", " 3.00")
    hub = usb_dev(t, root1, "1-1", 0x2109, 0x3431, "480", " 2.10", None, "USB2.0 Hub")
    # A USB 3 stick in one of the black (USB 2) ports.
    stick = usb_dev(t, hub, "1-1.2", 0x0781, 0x5581, "480", " 3.20", " USB", " SanDisk 3.2Gen1",
                    bos(), device_descriptor(0x0320, 0x0781, 0x5581, 64) + storage_config(False))
    si = usb_iface(t, stick, "1-1.2:1.0", 0x08, 0x50, "usb-storage")
    disk(t, f"{si}/host1/target1:0:0/1:0:0:0", "sdb", 60063744, 0, "[mq-deadline] none",
         model=" SanDisk 3.2Gen1", removable=1, parts=[("sdb1", 60061696)])
    # The JMS578 enclosure in a blue (USB 3) port: UAS offered, disabled by quirk.
    jm = usb_dev(t, root2, "2-1", 0x152d, 0x0578, "5000", " 3.10", "JMicron", "USB to ATA/ATAPI Bridge",
                 bos(), device_descriptor(0x0310, 0x152d, 0x0578) + storage_config(True))
    ji = usb_iface(t, jm, "2-1:1.0", 0x08, 0x50, "usb-storage")
    disk(t, f"{ji}/host0/target0:0:0/0:0:0:0", "sda", 976773168, 0, "[mq-deadline] none",
         model="CT500MX500SSD1  ", parts=[("sda1", 976771072)])
    t.w("/sys/module/usb_storage/parameters/quirks", "152d:0578:u")
    attrs, sectors = card()
    host = "/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host"
    c = mmc_card(t, host, "mmc0", "mmc0:aaaa", attrs)
    disk(t, c, "mmcblk0", sectors, 0, "[mq-deadline] none", mmc_card_dir=c,
         parts=[("mmcblk0p1", 524288), ("mmcblk0p2", sectors - 532480)])
    t.w("/sys/kernel/debug/mmc0/ios", "clock:\t\t50000000 Hz\nactual clock:\t50000000 Hz\n"
        "vdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don't care)\n"
        "power mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\n"
        "signal voltage:\t0 (3.30 V)\ndriver type:\t0 (driver type B)")
    t.w("/proc/mounts", "\n".join([
        "/dev/root / ext4 rw,noatime 0 0",
        "/dev/mmcblk0p1 /boot vfat rw,relatime,fmask=0022,dmask=0022,codepage=437 0 0",
        "/dev/sda1 /mnt/ssd ext4 rw,relatime 0 0",
        "/dev/sdb1 /media/pi/STICK exfat rw,nosuid,nodev,relatime,uid=1000 0 0",
        "proc /proc proc rw,relatime 0 0"]))
    t.w("/proc/cmdline", "coherent_pool=1M 8250.nr_uarts=0 snd_bcm2835.enable_headphones=0 "
        "bcm2708_fb.fbwidth=1920 bcm2708_fb.fbheight=1080 smsc95xx.macaddr=DC:A6:32:00:00:01 "
        "vc_mem.mem_base=0x3ec00000 vc_mem.mem_size=0x40000000 console=ttyS0,115200 "
        "console=tty1 root=/dev/mmcblk0p2 rootfstype=ext4 fsck.repair=yes rootwait "
        "usb-storage.quirks=152d:0578:u")
    t.w("/boot/config.txt", "# For more options and information see\n"
        "dtparam=audio=on\ncamera_auto_detect=1\ndisplay_auto_detect=1\n"
        "dtoverlay=vc4-kms-v3d\nmax_framebuffers=2\narm_64bit=1\n[pi4]\n"
        "arm_boost=1\n[all]\nover_voltage=6\narm_freq=2000\n")
    trips(t, 0, [("critical", 110000)])
    cooling(t, 0, "gpio-fan", 0, 1)


def x86_tidy():
    t = base(pg.amd_desktop, "amd-desktop", "x86-tidy")
    cur_freq(t, range(16), 2200000)
    for p in range(16):
        t.w(f"{CPUFREQ}/policy{p}/schedutil/rate_limit_us", "1000")
    pc = "/sys/devices/pci0000:00"
    port = pci(t, pc, "0000:00:01.1", 0x060400, 0x1022, 0x1483, ("16.0 GT/s PCIe", 4),
               ("16.0 GT/s PCIe", 4), "pcieport")
    nvme = pci(t, port, "0000:01:00.0", 0x010802, 0x144d, 0xa80a, ("16.0 GT/s PCIe", 4),
               ("16.0 GT/s PCIe", 4), "nvme")
    port5 = pci(t, pc, "0000:00:02.1", 0x060400, 0x1022, 0x1483, ("5.0 GT/s PCIe", 1),
                ("16.0 GT/s PCIe", 4), "pcieport")
    pci(t, port5, "0000:05:00.0", 0x020000, 0x10ec, 0x8125, ("5.0 GT/s PCIe", 1),
        ("5.0 GT/s PCIe", 1), "r8169")
    sata = pci(t, pc, "0000:0a:00.0", 0x010601, 0x1022, 0x7901, ("16.0 GT/s PCIe", 4),
               ("16.0 GT/s PCIe", 4), "ahci")
    aspm_policy(t, "default")
    xhci = pci(t, pc, "0000:0c:00.3", 0x0c0330, 0x1022, 0x149c, ("16.0 GT/s PCIe", 16),
               ("16.0 GT/s PCIe", 16), "xhci_hcd")
    r1 = usb_dev(t, xhci, "usb1", 0x1d6b, 0x0002, "480", " 2.00")
    usb_dev(t, xhci, "usb2", 0x1d6b, 0x0003, "10000", " 3.10")
    kb = usb_dev(t, r1, "1-2", 0x046d, 0xc31c, "1.5", " 1.10", "Logitech", "USB Keyboard")
    usb_iface(t, kb, "1-2:1.0", 0x03, 0x01, "usbhid")
    disk(t, f"{nvme}/nvme/nvme0", "nvme0n1", 1953525168, 0, "[none] mq-deadline kyber bfq",
         model="Samsung SSD 980 PRO 1TB", parts=[("nvme0n1p1", 1228800), ("nvme0n1p2", 2097152),
                                                 ("nvme0n1p3", 1950197760)])
    disk(t, f"{sata}/ata2/host1/target1:0:0/1:0:0:0", "sda", 15628053168, 1,
         "[mq-deadline] kyber bfq none", model="ST8000VN004-3CP1", parts=[("sda1", 15628051456)])
    t.w("/proc/mounts", "\n".join([
        "/dev/nvme0n1p3 / btrfs rw,relatime,seclabel,compress=zstd:1,ssd,discard=async,"
        "space_cache=v2,subvolid=257,subvol=/root 0 0",
        "/dev/nvme0n1p2 /boot ext4 rw,relatime,seclabel 0 0",
        "/dev/nvme0n1p1 /boot/efi vfat rw,relatime,fmask=0077,dmask=0077 0 0",
        "/dev/sda1 /data xfs rw,relatime,seclabel,attr2,inode64,logbufs=8,noquota 0 0",
        "tmpfs /tmp tmpfs rw,nosuid,nodev,seclabel,nr_inodes=1048576 0 0"]))
    t.w("/proc/cmdline", "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.10.6-200.fc40.x86_64 "
        "root=UUID=5b1e7a52-3c0f-4d62-9a6e-2f0c4d8e9a11 ro rootflags=subvol=root rhgb quiet")


if __name__ == "__main__":
    rk3588_nvme()
    rpi4()
    rpi4("rpi4-fake-sd", card=fake_card)
    x86_tidy()
