#!/usr/bin/env python3
"""Generates the kernel-info fixture roots (run from this directory; output is committed).

Each root holds only what `boardbench kernel` reads: /proc/sys/kernel (uname fields),
/proc/version, optionally /proc/version_signature, the kernel configuration
(/proc/config.gz or /boot/config-<release>) and the device tree. The contents follow the
formats of real systems; the values are representative, not captures of a particular machine.
"""
import gzip
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def write(root, path, data, mode="w"):
    p = os.path.join(HERE, root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, mode) as f:
        f.write(data)


def uname(root, release, version, arch):
    write(root, "/proc/sys/kernel/ostype", "Linux\n")
    write(root, "/proc/sys/kernel/osrelease", release + "\n")
    write(root, "/proc/sys/kernel/version", version + "\n")
    write(root, "/proc/sys/kernel/arch", arch + "\n")


def dt(root, model, compatible):
    write(root, "/proc/device-tree/model", model + "\0")
    write(root, "/proc/device-tree/compatible", "\0".join(compatible) + "\0")


def config(lines):
    return "#\n# Automatically generated file; DO NOT EDIT.\n#\n" + "\n".join(lines) + "\n"


def gz(text):
    # mtime=0 keeps the file byte-identical between runs.
    return gzip.compress(text.encode(), mtime=0)


for r in ["debian-arm64", "rk3588-bsp", "ubuntu-raspi", "bad-config"]:
    shutil.rmtree(os.path.join(HERE, r), ignore_errors=True)

# Debian 12 on an arm64 board: /boot/config-<release>, the point release only in uname -v.
rel = "6.1.0-27-arm64"
ver = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)"
uname("debian-arm64", rel, ver, "aarch64")
write("debian-arm64", "/proc/version",
      f"Linux version {rel} (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, "
      f"GNU ld (GNU Binutils for Debian) 2.40) {ver}\n")
write("debian-arm64", f"/boot/config-{rel}", config([
    'CONFIG_LOCALVERSION=""', "CONFIG_HZ_250=y", "CONFIG_HZ=250", "CONFIG_PREEMPT_BUILD=y",
    "CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_PREEMPT_DYNAMIC=y", "CONFIG_CPU_FREQ=y",
    "CONFIG_CPU_FREQ_STAT=y"]))
dt("debian-arm64", "Radxa ROCK Pi 4B", ["radxa,rockpi4b", "radxa,rockpi4", "rockchip,rk3399"])

# A Rockchip BSP kernel on RK3588 with /proc/config.gz (IKCONFIG_PROC) and no CPU_FREQ_STAT.
rel = "5.10.160-rockchip-rk3588"
ver = "#1.0.0 SMP Mon Jul 15 10:23:45 CST 2024"
uname("rk3588-bsp", rel, ver, "aarch64")
write("rk3588-bsp", "/proc/version",
      f"Linux version {rel} (build@ubuntu) (aarch64-linux-gnu-gcc (GNU Toolchain for the A-profile "
      f"Architecture 10.3-2021.07 (arm-10.29)) 10.3.1 20210621, GNU ld 2.36.1.20210621) {ver}\n")
write("rk3588-bsp", "/proc/config.gz", gz(config([
    'CONFIG_LOCALVERSION="-rockchip-rk3588"', "CONFIG_HZ_300=y", "CONFIG_HZ=300",
    "CONFIG_PREEMPT=y", "CONFIG_CPU_FREQ=y", "# CONFIG_CPU_FREQ_STAT is not set"])), "wb")
dt("rk3588-bsp", "Orange Pi 5", ["rockchip,rk3588s-orangepi-5", "rockchip,rk3588"])

# Ubuntu 22.04 on a Raspberry Pi 4: the stable base release is in /proc/version_signature.
rel = "5.15.0-1034-raspi"
ver = "#37-Ubuntu SMP PREEMPT Mon Jul 10 14:36:32 UTC 2023"
uname("ubuntu-raspi", rel, ver, "aarch64")
write("ubuntu-raspi", "/proc/version",
      f"Linux version {rel} (buildd@bos02-arm64-052) (gcc (Ubuntu 11.3.0-1ubuntu1~22.04.1) 11.3.0, "
      f"GNU ld (GNU Binutils for Ubuntu) 2.38) {ver}\n")
write("ubuntu-raspi", "/proc/version_signature", "Ubuntu 5.15.0-1034.37-raspi 5.15.98\n")
dt("ubuntu-raspi", "Raspberry Pi 4 Model B Rev 1.4", ["raspberrypi,4-model-b", "brcm,bcm2711"])

# A /proc/config.gz that is not gzip: reported, and /boot/config-<release> used instead.
rel = "6.12.1"
ver = "#1 SMP PREEMPT_DYNAMIC Sun Nov 24 10:00:00 UTC 2024"
uname("bad-config", rel, ver, "x86_64")
write("bad-config", "/proc/config.gz", "this is not gzip\n")
write("bad-config", f"/boot/config-{rel}", config(["CONFIG_HZ=1000", "CONFIG_PREEMPT_RT=y"]))
