#!/usr/bin/env python3
"""Builds the fixture root trees under this directory (run it from anywhere; output committed).

Each tree holds only the files the probe reads, modelled on the public sysfs layout of a real
board. /proc/cpuinfo comes from the shared sbc-bench capture set where one matches (BSD-3,
see README.md), otherwise it is written here. `vm` is a copy of the development VM's files.
Git cannot store "permission denied" or EBUSY: tests create those cases in a tempdir.
"""
import os
import shutil
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
# shared/fixtures/cpuinfo beside the checkout (a git worktree sits one level deeper).
SHARED = next((p / "shared" / "fixtures" / "cpuinfo" for p in HERE.parents
               if (p / "shared" / "fixtures" / "cpuinfo").is_dir()),
              HERE.parents[4] / "shared" / "fixtures" / "cpuinfo")
CPU = "sys/devices/system/cpu"


class Tree:
    def __init__(self, name):
        self.root = HERE / name
        if self.root.exists():
            shutil.rmtree(self.root)
        self.root.mkdir(parents=True)

    def w(self, path, content, nl=True):
        p = self.root / path.lstrip("/")
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content + ("\n" if nl and not content.endswith("\n") else ""))

    def link(self, path, target):
        p = self.root / path.lstrip("/")
        p.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, p)

    def cpuinfo_shared(self, name, keep=None):
        text = (SHARED / name).read_text()
        if keep is not None:  # keep only the first `keep` processor blocks (offline CPUs)
            blocks = text.split("\n\n")
            text = "\n\n".join(blocks[:keep]) + "\n"
        self.w("/proc/cpuinfo", text, nl=False)

    def cpus(self, possible, online=None):
        self.w(f"{CPU}/possible", possible)
        self.w(f"{CPU}/present", possible)
        self.w(f"{CPU}/online", online or possible)
        self.w(f"{CPU}/offline", "" if online is None else online_complement(possible, online))

    def cpu(self, n, package, core, capacity=None, cluster=None):
        t = f"{CPU}/cpu{n}/topology"
        self.w(f"{t}/physical_package_id", str(package))
        self.w(f"{t}/core_id", str(core))
        if cluster is not None:
            self.w(f"{t}/cluster_id", str(cluster))
        if capacity is not None:
            self.w(f"{CPU}/cpu{n}/cpu_capacity", str(capacity))

    def cache(self, n, caches):
        for i, (level, kind, size, shared) in enumerate(caches):
            d = f"{CPU}/cpu{n}/cache/index{i}"
            self.w(f"{d}/level", str(level))
            self.w(f"{d}/type", kind)
            self.w(f"{d}/size", size)
            self.w(f"{d}/shared_cpu_list", shared)

    def policy(self, n, related, lo, hi, governor, driver, avail=None, tis=None, boost=None,
               governors="conservative ondemand userspace powersave performance schedutil"):
        d = f"{CPU}/cpufreq/policy{n}"
        # cpufreq prints CPU lists space separated ("0 1 2 3 "), unlike the range lists of
        # /sys/devices/system/cpu/online.
        spaced = " ".join(map(str, sorted(expand(related)))) + " "
        self.w(f"{d}/related_cpus", spaced)
        self.w(f"{d}/affected_cpus", spaced)
        self.w(f"{d}/cpuinfo_min_freq", str(lo))
        self.w(f"{d}/cpuinfo_max_freq", str(hi))
        self.w(f"{d}/scaling_min_freq", str(lo))
        self.w(f"{d}/scaling_max_freq", str(hi))
        self.w(f"{d}/scaling_governor", governor)
        self.w(f"{d}/scaling_available_governors", governors)
        self.w(f"{d}/scaling_driver", driver)
        if avail:
            self.w(f"{d}/scaling_available_frequencies", " ".join(map(str, avail)) + " ")
        if tis:
            self.w(f"{d}/stats/time_in_state", "".join(f"{f} {t}\n" for f, t in tis), nl=False)
        if boost:
            self.w(f"{d}/scaling_boost_frequencies", " ".join(map(str, boost)) + " ")

    def devfreq(self, name, governor, governors, lo, hi, cur):
        d = f"/sys/class/devfreq/{name}"
        self.w(f"{d}/governor", governor)
        self.w(f"{d}/available_governors", governors)
        self.w(f"{d}/min_freq", str(lo))
        self.w(f"{d}/max_freq", str(hi))
        self.w(f"{d}/cur_freq", str(cur))

    def zone(self, n, kind, temp):
        self.w(f"/sys/class/thermal/thermal_zone{n}/type", kind)
        self.w(f"/sys/class/thermal/thermal_zone{n}/temp", str(temp))

    def hwmon(self, n, name, temps):
        d = f"/sys/class/hwmon/hwmon{n}"
        self.w(f"{d}/name", name)
        for i, label, value in temps:
            self.w(f"{d}/temp{i}_input", str(value))
            if label:
                self.w(f"{d}/temp{i}_label", label)

    def meminfo(self, total, free, avail, swap_total=0, swap_free=0):
        self.w("/proc/meminfo", "\n".join([
            f"MemTotal:       {total:>8} kB", f"MemFree:        {free:>8} kB",
            f"MemAvailable:   {avail:>8} kB", "Buffers:           12812 kB",
            f"SwapTotal:      {swap_total:>8} kB", f"SwapFree:       {swap_free:>8} kB"]))

    def swaps(self, rows):
        lines = ["Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority"]
        lines += [f"{p:<40}{t}\t{s}\t\t{u}\t\t{pr}" for p, t, s, u, pr in rows]
        self.w("/proc/swaps", "\n".join(lines))

    def zram(self, n, disksize, algos, mm):
        d = f"/sys/block/zram{n}"
        self.w(f"{d}/disksize", str(disksize))
        self.w(f"{d}/comp_algorithm", algos)
        self.w(f"{d}/mm_stat", " ".join(f"{v:>8}" for v in mm))

    def zswap(self, enabled, compressor, zpool, pct=20):
        d = "/sys/module/zswap/parameters"
        self.w(f"{d}/enabled", enabled)
        self.w(f"{d}/compressor", compressor)
        self.w(f"{d}/zpool", zpool)
        self.w(f"{d}/max_pool_percent", str(pct))

    def kernel(self, release, version, arch=None):
        self.w("/proc/sys/kernel/ostype", "Linux")
        self.w("/proc/sys/kernel/osrelease", release)
        self.w("/proc/sys/kernel/version", version)
        if arch:
            self.w("/proc/sys/kernel/arch", arch)

    def os_release(self, pretty, name, id_, version_id, codename, path="/etc/os-release"):
        self.w(path, f'PRETTY_NAME="{pretty}"\nNAME="{name}"\nVERSION_ID="{version_id}"\n'
                     f"VERSION_CODENAME={codename}\nID={id_}\n")

    def shell(self, bits, machine, flags=0, merged_usr=True):
        """A stub ELF header (64 bytes) standing in for /bin/sh: enough for the probe."""
        h = bytearray(64)
        h[0:4] = b"\x7fELF"
        h[4] = 2 if bits == 64 else 1
        h[5] = 1  # little endian
        h[6] = 1  # ELF version
        struct.pack_into("<HH", h, 16, 3, machine)  # e_type ET_DYN, e_machine
        struct.pack_into("<I", h, 36 if bits == 32 else 48, flags)
        if merged_usr:
            self.w("/usr/bin/dash", bytes(h))
            self.link("/usr/bin/sh", "dash")
            self.link("/bin", "usr/bin")
        else:
            self.w("/bin/dash", bytes(h))
            self.link("/bin/sh", "dash")

    def dt(self, model, compatible):
        self.w("/proc/device-tree/model", model.encode() + b"\0")
        self.w("/proc/device-tree/compatible", b"".join(c.encode() + b"\0" for c in compatible))

    def dmi(self, **kv):
        for k, v in kv.items():
            self.w(f"/sys/class/dmi/id/{k}", v)

    def vcgencmd(self, args, output):
        self.w(f"/.fixture/vcgencmd/{args}.txt", output)


def expand(s):
    out = set()
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def online_complement(possible, online):
    rest = sorted(expand(possible) - expand(online))
    return ",".join(map(str, rest))


A53 = [(1, "Data", "32K", None), (1, "Instruction", "32K", None), (2, "Unified", "512K", "0-3")]


def arm_caches(t, cpus, l1d, l1i, l2, l2_shared, l3=None, l3_shared=None, l2_private=False):
    for c in cpus:
        rows = [(1, "Data", l1d, str(c)), (1, "Instruction", l1i, str(c)),
                (2, "Unified", l2, str(c) if l2_private else l2_shared)]
        if l3:
            rows.append((3, "Unified", l3, l3_shared))
        t.cache(c, rows)


def rk3399(name="rk3399", big_offline=False):
    t = Tree(name)
    if big_offline:
        # sbc-bench #138: both A72 cores unplugged. Their cpuinfo entries and topology
        # directories vanish; policy4 still exists but answers EBUSY (here: no readable files).
        t.cpuinfo_shared("RK3399-5.15.5-rockchip64.cpuinfo", keep=4)
        t.cpus("0-5", "0-3")
        # Git keeps no empty directory: a placeholder that no reader opens stands for the
        # EBUSY attributes of the inactive policy.
        t.w(f"{CPU}/cpufreq/policy4/.gitkeep", "")
        for c in range(1, 6):
            t.w(f"{CPU}/cpu{c}/online", "1" if c < 4 else "0")
    else:
        t.cpuinfo_shared("RK3399-5.15.5-rockchip64.cpuinfo")
        t.cpus("0-5")
    little = [408000, 600000, 816000, 1008000, 1200000, 1416000]
    big = little + [1608000, 1800000]
    for c in range(4):
        t.cpu(c, 0, c, 485)
    arm_caches(t, range(4), "32K", "32K", "512K", "0-3")
    t.policy(0, "0-3", 408000, 1416000, "schedutil", "cpufreq-dt", avail=little,
             tis=[(f, 1000 * i) for i, f in enumerate(little)])
    if not big_offline:
        for c in (4, 5):
            t.cpu(c, 1, c - 4, 1024)
        arm_caches(t, (4, 5), "32K", "48K", "1024K", "4-5")
        t.policy(4, "4-5", 408000, 1800000, "schedutil", "cpufreq-dt", avail=big,
                 tis=[(f, 500 * i) for i, f in enumerate(big)])
    t.zone(0, "cpu-thermal", 45000)
    t.zone(1, "gpu-thermal", 44375)
    t.hwmon(0, "cpu_thermal", [(1, None, 45000)])
    t.hwmon(1, "gpu_thermal", [(1, None, 44375)])
    t.meminfo(3952768, 3100000, 3500000, 1976384, 1976384)
    t.swaps([("/dev/zram0", "partition", 1976384, 0, 5)])
    t.zram(0, 2023817216, "lzo lzo-rle lz4 lz4hc 842 [zstd]", [4096, 74, 12288, 0, 12288, 0, 0, 0, 0])
    t.zswap("N", "lzo", "zbud")
    t.kernel("5.15.5-rockchip64", "#21.11.1 SMP PREEMPT Mon Nov 29 08:53:08 UTC 2021", "aarch64")
    t.os_release("Armbian 21.11.1 Bullseye", "Debian GNU/Linux", "debian", "11", "bullseye")
    t.shell(64, 183)
    t.w("/var/lib/dpkg/arch", "arm64")
    t.dt("Pine64 RockPro64 v2.1", ["pine64,rockpro64-v2.1", "pine64,rockpro64", "rockchip,rk3399"])
    # A stray vcgencmd (sbc-bench PR #13): must be ignored on a board that is no Raspberry Pi.
    t.vcgencmd("measure_clock arm", "frequency(48)=1800000000")
    t.vcgencmd("measure_volts core", "volt=1.2000V")
    t.vcgencmd("get_throttled", "throttled=0x0")


def rk3588():
    t = Tree("rk3588")
    t.cpuinfo_shared("RK3588-5.10.66.cpuinfo")
    t.cpus("0-7")
    opp = [408000, 600000, 816000, 1008000, 1200000, 1416000, 1608000, 1800000]
    big = opp + [2016000, 2208000, 2400000]
    for c in range(8):
        pkg = 0 if c < 4 else (1 if c < 6 else 2)
        t.cpu(c, pkg, c % 4 if c < 4 else c % 2, 414 if c < 4 else 1024)
    arm_caches(t, range(4), "32K", "32K", "128K", None, "3072K", "0-7", l2_private=True)
    arm_caches(t, range(4, 8), "64K", "64K", "512K", None, "3072K", "0-7", l2_private=True)
    t.policy(0, "0-3", 408000, 1800000, "schedutil", "cpufreq-dt", avail=opp,
             tis=[(f, 100) for f in opp])
    t.policy(4, "4-5", 408000, 2400000, "schedutil", "cpufreq-dt", avail=big,
             tis=[(f, 100) for f in big])
    t.policy(6, "6-7", 408000, 2400000, "schedutil", "cpufreq-dt", avail=big,
             tis=[(f, 100) for f in big])
    # The vendor kernel's DRAM controller and GPU (sbc-bench's "DMC gov").
    t.devfreq("dmc", "dmc_ondemand", "dmc_ondemand userspace powersave performance "
              "simple_ondemand", 528000000, 2112000000, 528000000)
    t.devfreq("fb000000.gpu", "simple_ondemand", "dmc_ondemand userspace powersave "
              "performance simple_ondemand", 300000000, 1000000000, 300000000)
    for n, (kind, temp) in enumerate([("soc-thermal", 36076), ("bigcore0-thermal", 35153),
                                      ("bigcore1-thermal", 35153), ("littlecore-thermal", 36076),
                                      ("center-thermal", 34230), ("gpu-thermal", 34230),
                                      ("npu-thermal", 35153)]):
        t.zone(n, kind, temp)
    t.meminfo(16145796, 15100000, 15600000, 8388604, 8388604)
    t.swaps([("/swapfile", "file", 8388604, 0, -2)])
    t.zswap("Y", "zstd", "zsmalloc", 25)
    t.kernel("5.10.110-rockchip-rk3588", "#1 SMP Wed Sep 27 12:00:00 UTC 2023", "aarch64")
    t.os_release("Ubuntu 22.04.3 LTS", "Ubuntu", "ubuntu", "22.04", "jammy")
    t.shell(64, 183)
    t.w("/var/lib/dpkg/arch", "arm64")
    t.dt("Radxa ROCK 5 Model B", ["radxa,rock-5b", "rockchip,rk3588"])


def rpi4():
    t = Tree("rpi4")
    t.cpuinfo_shared("BCM2711B0-5.10.63-v8.cpuinfo")
    t.cpus("0-3")
    opp = [600000, 700000, 800000, 900000, 1000000, 1100000, 1200000, 1300000, 1400000, 1500000]
    for c in range(4):
        t.cpu(c, 0, c)
    arm_caches(t, range(4), "32K", "48K", "1024K", "0-3")
    # raspberrypi-cpufreq registers through cpufreq-dt; Raspberry Pi OS kernels have no stats.
    t.policy(0, "0-3", 600000, 1500000, "ondemand", "cpufreq-dt", avail=opp)
    t.zone(0, "cpu-thermal", 51121)
    t.hwmon(0, "rpi_volt", [])
    t.w("/sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0")
    t.meminfo(3919808, 3300000, 3600000, 102396, 102396)
    t.swaps([("/var/swap", "file", 102396, 0, -2)])
    # Raspberry Pi OS 32-bit userland on the 64-bit kernel (arm_64bit=1).
    t.kernel("5.10.63-v8+", "#1459 SMP PREEMPT Wed Oct 6 16:42:49 BST 2021", "aarch64")
    t.os_release("Raspbian GNU/Linux 11 (bullseye)", "Raspbian GNU/Linux", "raspbian", "11",
                 "bullseye")
    t.shell(32, 40, flags=0x05000400, merged_usr=False)
    t.w("/var/lib/dpkg/arch", "armhf\narm64")
    t.dt("Raspberry Pi 4 Model B Rev 1.4", ["raspberrypi,4-model-b", "brcm,bcm2711"])
    t.vcgencmd("measure_clock arm", "frequency(48)=1500398464")
    t.vcgencmd("measure_volts core", "volt=0.8563V")
    t.vcgencmd("get_throttled", "throttled=0x50005")


def s922x():
    t = Tree("s922x")
    t.cpuinfo_shared("Amlogic-S922X-5.10.81-meson64.cpuinfo")
    t.cpus("0-5")
    little = [100000, 250000, 500000, 667000, 1000000, 1200000, 1398000, 1512000, 1608000,
              1704000, 1896000, 1908000]
    big = little[:-2] + [1800000, 1908000, 2016000, 2108000, 2208000, 2304000, 2400000]
    for c in range(6):
        t.cpu(c, 0 if c < 2 else 1, c if c < 2 else c - 2)
    arm_caches(t, (0, 1), "32K", "32K", "256K", "0-1")
    arm_caches(t, range(2, 6), "32K", "64K", "1024K", "2-5")
    # meson's cpufreq-dt build without scaling_available_frequencies: the OPPs come from
    # stats/time_in_state.
    t.policy(0, "0-1", 100000, 1908000, "ondemand", "cpufreq-dt",
             tis=[(f, 10 * i) for i, f in enumerate(little)])
    t.policy(2, "2-5", 100000, 2400000, "ondemand", "cpufreq-dt",
             tis=[(f, 10 * i) for i, f in enumerate(sorted(set(big)))])
    t.zone(0, "cpu-thermal", 42000)
    t.zone(1, "ddr-thermal", 41000)
    t.meminfo(3882312, 3000000, 3400000, 1941156, 1900000)
    t.swaps([("/dev/zram0", "partition", 1941156, 41156, 5)])
    t.zram(0, 1987743744, "lzo [lzo-rle] lz4 lz4hc 842 zstd",
           [42143744, 12550144, 13631488, 0, 13631488, 120, 0, 3, 3])
    t.zswap("N", "lzo", "zbud")
    t.kernel("5.10.81-meson64", "#21.11.2 SMP PREEMPT Fri Dec 3 08:56:43 UTC 2021")
    t.os_release("Armbian 21.11.2 Focal", "Ubuntu", "ubuntu", "20.04", "focal")
    t.shell(64, 183)
    t.dt("Hardkernel ODROID-N2Plus", ["hardkernel,odroid-n2-plus", "amlogic,s922x",
                                      "amlogic,g12b"])


INTEL_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts "
               "acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art "
               "arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf "
               "tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma "
               "cx16 xtpr pdcm sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx "
               "f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb ssbd ibrs ibpb stibp "
               "ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 "
               "smep bmi2 erms invpcid rdseed adx smap clflushopt clwb intel_pt sha_ni xsaveopt "
               "xsavec xgetbv1 xsaves split_lock_detect avx_vnni dtherm ida arat pln pts hwp "
               "hwp_notify hwp_act_window hwp_epp hwp_pkg_req hfi vnmi umip pku ospke waitpkg gfni "
               "vaes vpclmulqdq rdpid movdiri movdir64b fsrm md_clear serialize arch_lbr ibt "
               "flush_l1d arch_capabilities")


def x86_cpuinfo(n, vendor, family, model, name, stepping, mhz, flags, cores, core_of, cache_kb):
    out = []
    for i in range(n):
        out.append("\n".join([
            f"processor\t: {i}", f"vendor_id\t: {vendor}", f"cpu family\t: {family}",
            f"model\t\t: {model}", f"model name\t: {name}", f"stepping\t: {stepping}",
            f"cpu MHz\t\t: {mhz}", f"cache size\t: {cache_kb} KB", "physical id\t: 0",
            f"siblings\t: {n}", f"core id\t\t: {core_of(i)}", f"cpu cores\t: {cores}",
            f"apicid\t\t: {i}", "fpu\t\t: yes", "fpu_exception\t: yes", "cpuid level\t: 32",
            "wp\t\t: yes", f"flags\t\t: {flags}", "bogomips\t: 4992.00", "clflush size\t: 64",
            "cache_alignment\t: 64", "address sizes\t: 39 bits physical, 48 bits virtual",
            "power management:"]) + "\n")
    return "\n".join(out)


def intel_hybrid():
    """Alder Lake i7-1260P laptop: 4 P-cores with HT (cpu0-7) + 8 E-cores (cpu8-15),
    intel_pstate with one policy per CPU, two favoured P-cores (Turbo Boost Max 3.0)."""
    t = Tree("intel-hybrid")
    p_core = lambda i: (i // 2) * 4 if i < 8 else 32 + (i - 8)
    t.w("/proc/cpuinfo", x86_cpuinfo(16, "GenuineIntel", 6, 154,
                                     "12th Gen Intel(R) Core(TM) i7-1260P", 3, "2500.000",
                                     INTEL_FLAGS, 12, p_core, 18432), nl=False)
    t.cpus("0-15")
    t.w("/sys/devices/cpu_core/cpus", "0-7")
    t.w("/sys/devices/cpu_atom/cpus", "8-15")
    for c in range(16):
        t.cpu(c, 0, p_core(c), cluster=(c // 2 if c < 8 else 8 + (c - 8) // 4) * 8)
        if c < 8:
            sib = f"{c - c % 2}-{c - c % 2 + 1}"
            t.cache(c, [(1, "Data", "48K", sib), (1, "Instruction", "32K", sib),
                        (2, "Unified", "1280K", sib), (3, "Unified", "18432K", "0-15")])
        else:
            grp = f"{8 + (c - 8) // 4 * 4}-{8 + (c - 8) // 4 * 4 + 3}"
            t.cache(c, [(1, "Data", "32K", str(c)), (1, "Instruction", "64K", str(c)),
                        (2, "Unified", "2048K", grp), (3, "Unified", "18432K", "0-15")])
        hi = (4700000 if c in (4, 5) else 4600000) if c < 8 else 3400000
        t.policy(c, str(c), 400000, hi, "powersave", "intel_pstate",
                 governors="performance powersave")
    t.w(f"{CPU}/intel_pstate/status", "active")
    t.w(f"{CPU}/intel_pstate/no_turbo", "0")
    for n, (kind, temp) in enumerate([("acpitz", 45000), ("INT3400 Thermal", 20000),
                                      ("SEN1", 41050), ("x86_pkg_temp", 52000),
                                      ("iwlwifi_1", 40000)]):
        t.zone(n, kind, temp)
    t.hwmon(0, "acpitz", [(1, None, 45000)])
    t.hwmon(1, "nvme", [(1, "Composite", 38850), (2, "Sensor 1", 38850)])
    t.hwmon(2, "coretemp", [(1, "Package id 0", 52000), (2, "Core 0", 50000),
                            (3, "Core 4", 49000), (10, "Core 8", 47000)])
    t.hwmon(3, "iwlwifi_1", [(1, None, 40000)])
    t.meminfo(16063864, 9000000, 12000000, 4194300, 4194300)
    t.swaps([("/swap.img", "file", 4194300, 0, -2)])
    t.zswap("N", "lzo", "zbud")
    t.kernel("6.8.0-45-generic", "#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024",
             "x86_64")
    t.os_release("Ubuntu 24.04.1 LTS", "Ubuntu", "ubuntu", "24.04", "noble")
    t.shell(64, 62)
    t.w("/var/lib/dpkg/arch", "amd64\ni386")
    t.dmi(sys_vendor="LENOVO", product_name="21CBCTO1WW",
          product_version="ThinkPad X1 Carbon Gen 10", board_vendor="LENOVO",
          board_name="21CBCTO1WW", bios_vendor="LENOVO", bios_version="N3AET75W (1.40 )",
          bios_date="05/23/2023")


AMD_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx "
             "fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good "
             "nopl nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma "
             "cx16 sse4_1 sse4_2 movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm "
             "extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce "
             "topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate "
             "ssbd mba ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm "
             "rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves "
             "cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr rdpru "
             "wbnoinvd arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid "
             "decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif v_spec_ctrl umip pku "
             "ospke vaes vpclmulqdq rdpid overflow_recov succor smca fsrm")


def amd_desktop():
    """Ryzen 7 5800X desktop: acpi-cpufreq with per-CPU policies and global boost, k10temp."""
    t = Tree("amd-desktop")
    t.w("/proc/cpuinfo", x86_cpuinfo(16, "AuthenticAMD", 25, 33,
                                     "AMD Ryzen 7 5800X 8-Core Processor", 0, "3800.000",
                                     AMD_FLAGS, 8, lambda i: i % 8, 512), nl=False)
    t.cpus("0-15")
    for c in range(16):
        t.cpu(c, 0, c % 8)
        sib = f"{c % 8},{c % 8 + 8}"
        t.cache(c, [(1, "Data", "32K", sib), (1, "Instruction", "32K", sib),
                    (2, "Unified", "512K", sib), (3, "Unified", "32768K", "0-15")])
        t.policy(c, str(c), 2200000, 3800000, "schedutil", "acpi-cpufreq",
                 avail=[3800000, 2800000, 2200000])
    t.w(f"{CPU}/cpufreq/boost", "1")
    t.hwmon(0, "nvme", [(1, "Composite", 37850)])
    t.hwmon(1, "k10temp", [(1, "Tctl", 48500), (3, "Tccd1", 42000)])
    t.hwmon(2, "nct6798", [(1, "SYSTIN", 32000), (2, "CPUTIN", 40500), (3, "AUXTIN0", 25000)])
    t.hwmon(3, "amdgpu", [(1, "edge", 39000)])
    t.meminfo(32768000, 28000000, 30000000, 8388604, 8388604)
    t.swaps([("/dev/zram0", "partition", 8388604, 0, 100)])
    t.zram(0, 8589934592, "lzo lzo-rle lz4 lz4hc 842 [zstd]", [0, 0, 0, 0, 0, 0, 0, 0, 0])
    t.zswap("N", "lzo", "zbud")
    t.kernel("6.10.6-200.fc40.x86_64", "#1 SMP PREEMPT_DYNAMIC Thu Aug 19 14:09:30 UTC 2024",
             "x86_64")
    t.os_release("Fedora Linux 40 (Workstation Edition)", "Fedora Linux", "fedora", "40", "",
                 path="/usr/lib/os-release")
    t.shell(64, 62)
    t.dmi(sys_vendor="Micro-Star International Co., Ltd.", product_name="MS-7C91",
          product_version="1.0", board_vendor="Micro-Star International Co., Ltd.",
          board_name="MAG B550 TOMAHAWK (MS-7C91)", bios_vendor="American Megatrends Inc.",
          bios_version="A.G0", bios_date="03/12/2024")


def arm_cpuinfo(parts):
    out = []
    for i, (part, variant, rev) in enumerate(parts):
        out.append("\n".join([
            f"processor\t: {i}", "BogoMIPS\t: 2000.00",
            "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid "
            "asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat "
            "ilrcpc flagm ssbs sb paca pacg dcpodp sve2 sveaes svepmull svebitperm svesha3 "
            "svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 dgh bti",
            "CPU implementer\t: 0x41", "CPU architecture: 8", f"CPU variant\t: {variant}",
            f"CPU part\t: {part}", f"CPU revision\t: {rev}"]) + "\n")
    return "\n".join(out)


def arm64_20_policies():
    """ACPI arm64 machine with 20 per-core CPPC policies (policy0 … policy19) and two core
    types, modelled on NVIDIA GB10 (10× Cortex-A725 + 10× Cortex-X925); 12 ACPI zones."""
    t = Tree("arm64-20-policies")
    parts = [("0xd87", "0x0", 1)] * 10 + [("0xd85", "0x0", 1)] * 10
    t.w("/proc/cpuinfo", arm_cpuinfo(parts), nl=False)
    t.cpus("0-19")
    for c in range(20):
        t.cpu(c, 0, c, 600 if c < 10 else 1024, cluster=0 if c < 10 else 1)
        l2 = "512K" if c < 10 else "2048K"
        t.cache(c, [(1, "Data", "64K", str(c)), (1, "Instruction", "64K", str(c)),
                    (2, "Unified", l2, str(c)),
                    (3, "Unified", "16384K", "0-9" if c < 10 else "10-19")])
        t.policy(c, str(c), 338000, 2808000 if c < 10 else 3900000, "schedutil",
                 "cppc_cpufreq", governors="conservative ondemand userspace powersave "
                 "performance schedutil")
    for n in range(12):
        t.zone(n, "acpitz", 40000 + 500 * n)
    t.meminfo(127543264, 120000000, 124000000, 0, 0)
    t.swaps([])
    t.kernel("6.11.0-1016-nvidia", "#16-Ubuntu SMP PREEMPT_DYNAMIC Tue Aug 12 19:24:11 UTC 2025",
             "aarch64")
    t.os_release("Ubuntu 24.04.3 LTS", "Ubuntu", "ubuntu", "24.04", "noble")
    t.shell(64, 183)
    t.w("/var/lib/dpkg/arch", "arm64")
    t.dmi(sys_vendor="NVIDIA", product_name="NVIDIA DGX Spark", product_version="A.7",
          board_vendor="NVIDIA", board_name="P4242", bios_vendor="NVIDIA",
          bios_version="5.36_0ACUM018", bios_date="07/16/2025")


def vm():
    """The development VM (Firecracker-style KVM guest, 2 vCPUs): copied from its /proc and
    /sys. No cpufreq, no thermal zones, no hwmon, no DMI; a zram device that is not swap."""
    t = Tree("vm")
    # Captured once from the VM's /proc/cpuinfo (kept beside this script, so regenerating
    # on another machine gives the same tree).
    t.w("/proc/cpuinfo", (HERE / "vm-cpuinfo.txt").read_text(), nl=False)
    t.cpus("0-1")
    for c in range(2):
        t.cpu(c, 0, c, 1024, cluster=65535)
        t.cache(c, [(1, "Data", "32K", str(c)), (1, "Instruction", "32K", str(c)),
                    (2, "Unified", "512K", str(c)), (3, "Unified", "32768K", "0-1")])
    t.meminfo(24683656, 20596492, 23831952)
    t.swaps([])
    t.zram(0, 0, "[lzo-rle] lzo lz4", [0] * 9)
    t.zswap("N", "lzo", "zbud", 20)
    t.kernel("6.18.44-fc-v782", "#1 SMP PREEMPT_DYNAMIC @0", "x86_64")
    t.w("/etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
        'VERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
        'HOME_URL="https://www.debian.org/"\n')
    t.shell(64, 62, merged_usr=False)
    # The VM image was made from a container image: a stale /.dockerenv on an ext4 root. KVM
    # answers CPUID leaf 0x40000000 with its signature.
    t.w("/.dockerenv", "", nl=False)
    t.w("/proc/self/mountinfo",
        "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
        "28 27 0:5 / /dev rw,nosuid - devtmpfs devtmpfs rw,size=12341828k\n", nl=False)
    t.w("/.fixture/cpuid/0x40000000.txt", "KVMKVMKVM")


def rpi1_armv6():
    """A Raspberry Pi 1 Model B on a 3.6 kernel of 2013: the old uniprocessor ARM cpuinfo (one
    `Processor` block, no `processor : N`), `Hardware : BCM2708`, an old-style revision code,
    no device tree, no DMI."""
    t = Tree("rpi1-armv6")
    t.w("/proc/cpuinfo", "Processor\t: ARMv6-compatible processor rev 7 (v6l)\n"
        "BogoMIPS\t: 697.95\n"
        "Features\t: swp half thumb fastmult vfp edsp java tls \n"
        "CPU implementer\t: 0x41\nCPU architecture: 7\nCPU variant\t: 0x0\n"
        "CPU part\t: 0xb76\nCPU revision\t: 7\n\n"
        "Hardware\t: BCM2708\nRevision\t: 000e\nSerial\t\t: 00000000a1b2c3d4\n", nl=False)
    t.cpus("0")
    t.cpu(0, 0, 0)
    t.policy(0, "0", 700000, 700000, "powersave", "BCM2708 cpufreq",
             governors="ondemand userspace powersave conservative performance")
    t.zone(0, "bcm2835_thermal", 44388)
    t.meminfo(448748, 380000, 410000, 102396, 102396)
    t.swaps([("/var/swap", "file", 102396, 0, -1)])
    t.kernel("3.6.11+", "#538 PREEMPT Fri Aug 30 20:42:08 BST 2013")
    t.os_release("Raspbian GNU/Linux 7 (wheezy)", "Raspbian GNU/Linux", "raspbian", "7",
                 "wheezy")
    t.shell(32, 40, flags=0x05000400, merged_usr=False)
    t.w("/var/lib/dpkg/arch", "armhf")


def broken():
    """Every kind of malformed input: empty, garbage, truncated, non-numbers, odd lists."""
    t = Tree("broken")
    t.w("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: xx\nCPU implementer\t: 0x4", nl=False)
    t.w(f"{CPU}/possible", "0-")
    t.w(f"{CPU}/online", "garbage")
    t.w(f"{CPU}/cpu0/topology/physical_package_id", "")
    t.w(f"{CPU}/cpu0/topology/core_id", "zero")
    t.w(f"{CPU}/cpu0/cpu_capacity", "99999999999999999999999")
    t.w(f"{CPU}/cpu1/topology/core_id", "1")
    t.w(f"{CPU}/cpu0/cache/index0/level", "one")
    t.w(f"{CPU}/cpu0/cache/index1/level", "2")
    t.w(f"{CPU}/cpu0/cache/index1/size", "big")
    t.w(f"{CPU}/cpu0/cache/index1/shared_cpu_list", "0-x")
    d = f"{CPU}/cpufreq/policy0"
    t.w(f"{d}/related_cpus", "0-1")
    t.w(f"{d}/cpuinfo_min_freq", "")
    t.w(f"{d}/cpuinfo_max_freq", "1800000000000000000000000")
    t.w(f"{d}/scaling_min_freq", "abc")
    t.w(f"{d}/scaling_available_frequencies", "408000 6000x")
    t.w(f"{d}/stats/time_in_state", "408000 12\n600000\nzzz 4\n", nl=False)
    t.w(f"{d}/scaling_governor", "\0\0")
    t.w(f"{CPU}/cpufreq/policyX/related_cpus", "0")
    t.w(f"{CPU}/cpufreq/policy12/related_cpus", "")
    t.w(f"{CPU}/cpufreq/boost", "maybe")
    t.w("/sys/class/thermal/thermal_zone0/type", "")
    t.w("/sys/class/thermal/thermal_zone0/temp", "")
    t.w("/sys/class/thermal/thermal_zone1/type", "cpu-thermal")
    t.w("/sys/class/thermal/thermal_zone1/temp", "-274000000000000000000")
    t.w("/sys/class/thermal/thermal_zone2/type", "soc-thermal")
    t.w("/sys/class/thermal/thermal_zone2/temp", "9999999")
    t.w("/sys/class/hwmon/hwmon0/name", "k10temp")
    t.w("/sys/class/hwmon/hwmon0/temp1_input", "garbage")
    t.w("/sys/class/hwmon/hwmon0/temp1_label", "")
    t.w("/proc/meminfo", "MemTotal:   12", nl=False)
    t.w("/proc/swaps", "Filename Type Size Used Priority\n/dev/zram0\n/dev/sda2 partition x y z\n")
    t.w("/sys/block/zram0/disksize", "lots")
    t.w("/sys/block/zram0/comp_algorithm", "")
    t.w("/sys/block/zram0/mm_stat", "1 2 three")
    t.w("/sys/block/zramX/disksize", "1")
    t.w("/sys/module/zswap/parameters/enabled", "perhaps")
    t.w("/proc/sys/kernel/ostype", "")
    t.w("/proc/sys/kernel/osrelease", "6.1.0\0\0")
    t.w("/etc/os-release", "", nl=False)
    t.w("/usr/lib/os-release", "PRETTY_NAME=\"unterminated\nID=\n", nl=False)
    t.w("/bin/sh", "#!/bin/busybox\n")
    t.w("/usr/bin/env", b"\x7fELF\x02")
    t.w("/var/lib/dpkg/arch", "", nl=False)
    t.w("/sys/class/dmi/id/sys_vendor", "")
    t.w("/proc/device-tree/model", b"")
    t.w("/proc/device-tree/compatible", b"raspberrypi,4-model-b\0\0\0")
    t.w("/proc/device-tree/hypervisor/compatible", b"")
    t.vcgencmd("measure_clock arm", "error=1 error_msg=\"Command not registered\"")
    t.vcgencmd("get_throttled", "throttled=0xZZ")


if __name__ == "__main__":
    rk3399()
    rk3399("rk3399-big-offline", big_offline=True)
    rk3588()
    rpi4()
    s922x()
    intel_hybrid()
    amd_desktop()
    arm64_20_policies()
    vm()
    rpi1_armv6()
    broken()
