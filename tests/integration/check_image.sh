#!/usr/bin/env bash
# check_image.sh IMAGE.elf: the runner image is RV64 with no RVC flag and no
# floating-point ABI (ELF e_flags == 0), as the SysNode core requires
# (sysnode-facts §1.1). Prints the section sizes for the record.
set -eu
flags=$(riscv64-unknown-elf-readelf -h "$1" | awk '/Flags:/ {print $2}')
riscv64-unknown-elf-size -A "$1" | grep -E '^\.(text|rodata|data|bss|sn_status|stack) '
if [ "$flags" != "0x0" ]; then echo "FAIL: e_flags $flags (RVC 0x1 / float ABI 0x6 must be clear)"; exit 1; fi
echo "PASS: e_flags 0x0"
