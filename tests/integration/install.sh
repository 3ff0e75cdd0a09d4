#!/bin/sh
# install.sh BUILD_DIR SOURCE_DIR WORK_DIR: `cmake --install` into a fresh
# prefix under WORK_DIR (docs/user-guide.md "Installing"), then from there
# alone: the installed sysnode replays vadd128 with no --image (the verdict
# line the build tree's gives), a picolibc program built outside the tree
# with find_package(SysNode) and sn_picolibc_image() runs on the installed
# sysnode-sim, a C program built with pkg-config's flags replays a case
# through the installed libsysnode, the installed Python package loads the
# installed library and replays a case, and each tool has its man page,
# which names every option the tool's --help lists (sysnode's: each
# command's too).
set -eu
build=$1 src=$2 work=$3
prefix=$work/prefix
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
case_dir=$src/artifacts/compiler/vadd128

want=$("$build/bin/sysnode" run "$case_dir")
got=$("$prefix/bin/sysnode" run "$case_dir")
[ "$got" = "$want" ] || { echo "installed sysnode: $got; the build's: $want"; exit 1; }
echo "installed sysnode: $got"

mkdir -p "$work/myprog"
cat >"$work/myprog/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(myprog C ASM)
find_package(SysNode 1 REQUIRED)
sn_picolibc_image(myprog.elf main.c)
CMAKE
cat >"$work/myprog/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int *v = malloc(4 * sizeof *v);
    for (int i = 0; i < 4; i++)
        v[i] = i * i;
    printf("myprog: %d %d %d %d\n", v[0], v[1], v[2], v[3]);
    return 0;
}
C
cmake -S "$work/myprog" -B "$work/myprog/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/SysNode/riscv64-unknown-elf.cmake" >"$work/myprog.log"
cmake --build "$work/myprog/build" >>"$work/myprog.log"
out=$("$prefix/bin/sysnode-sim" "$work/myprog/build/myprog.elf")
case "$out" in
*"myprog: 0 1 4 9"*) echo "out-of-tree program on the installed sysnode-sim: myprog: 0 1 4 9" ;;
*) echo "myprog printed: $out"; exit 1 ;;
esac

cat >"$work/host.c" <<'C'
#include <stdio.h>
#include "sysnode.h"
int main(int argc, char **argv)
{
    sysnode_device *d;
    sysnode_result r;
    char err[512];
    if (argc != 2 || sysnode_open(NULL, &d, err, sizeof err) != 0) {
        fprintf(stderr, "open: %s\n", err);
        return 1;
    }
    int st = sysnode_run_case(d, argv[1], 0);
    sysnode_last_result(d, &r);
    printf("status %d match %d flits %u cycles %llu\n", st, r.match, r.flits, (unsigned long long)r.cycles);
    sysnode_close(d);
    return st != 0;
}
C
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs sysnode)
# shellcheck disable=SC2086 # the flags are words
cc -o "$work/host" "$work/host.c" $flags -Wl,-rpath,"$prefix/lib"
"$work/host" "$case_dir"

PYTHONPATH=$prefix/lib/python3/dist-packages python3 - "$prefix" "$case_dir" <<'PY'
import os, sys
import sysnode, sysnode._lib as lib
prefix, case = sys.argv[1:3]
path = next(lib._candidates())
assert path.startswith(os.path.realpath(prefix)), f"the installed package loaded {path}"
r = sysnode.Device().run_case(case)
assert r.match and r.flits == 26, r
print(f"installed Python package ({path}): {r}")
PY

for tool in sysnode sysnode-sim sysnode-bench; do
    head -1 "$prefix/share/man/man1/$tool.1" | grep -q "^\.TH " || { echo "no man page for $tool"; exit 1; }
done
grep -q "usage: sysnode run CASE_DIR" "$prefix/share/man/man1/sysnode.1"
for tool in sysnode "sysnode run" "sysnode flash" "sysnode pack" "sysnode header" "sysnode dump" sysnode-sim sysnode-bench; do
    page=$prefix/share/man/man1/${tool%% *}.1
    for opt in $($prefix/bin/$tool --help | sed -n 's/^  \(-., \|    \)\(--[a-z0-9-]*\).*/\2/p'); do
        roff=$(printf '%s' "$opt" | sed 's/-/\\-/g') # the page writes each hyphen as \-
        grep '^\.B ' "$page" | grep -qF -- "$roff" || { echo "$page has no entry for $opt, which $tool --help lists"; exit 1; }
    done
done
echo "man pages: sysnode.1 sysnode-sim.1 sysnode-bench.1"
