setenv optargs
if fatload virtio 0:1 ${loadaddr} /optargs.env; then env import -t ${loadaddr} ${filesize}; fi
setenv bootargs "console=ttyS0,115200 ${optargs}"
fatload virtio 0:1 0x3000000 /vmlinuz
fatload virtio 0:1 0x6000000 /initramfs.cpio.gz
zboot 0x3000000 0 0x6000000 ${filesize}
