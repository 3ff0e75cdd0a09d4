#!/usr/bin/env bash
# text_budget.sh CC LINKER_SCRIPT WORKDIR IFACE_DIR
# The link-time code budget of linker/sysnode.ld holds: an image with
# 7 KiB of code links, one with a byte more fails with the budget's message.
# IFACE_DIR holds the generated sn_addrs.ld the script includes.
set -u
cc=$1 lds=$2 work=$3 iface=$4
mkdir -p "$work"
link() { # link BYTES: an image whose .text is BYTES long
    printf '    .section .text.init, "ax"\n    .globl _start\n_start:\n    .space %s\n' "$1" >"$work/code.S"
    "$cc" -march=rv64ima_zicsr_zifencei -mabi=lp64 -nostdlib -nostartfiles -L "$iface" -T "$lds" \
        "$work/code.S" -o "$work/image.elf" 2>&1
}
out=$(link 7168) || { echo "FAIL: 7168 bytes of code did not link: $out"; exit 1; }
out=$(link 7169) && { echo "FAIL: 7169 bytes of code linked"; exit 1; }
grep -q "over its 7 KiB budget" <<<"$out" || { echo "FAIL: no budget message: $out"; exit 1; }
echo "PASS: 7168 bytes link, 7169 fail: $out"
