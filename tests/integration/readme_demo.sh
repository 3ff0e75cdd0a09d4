#!/bin/sh
# readme_demo.sh SYSNODE README CASES_DIR: the verdict line the README's quick
# start promises is the line `sysnode run` prints for vadd128, to the byte.
set -eu
want=$(grep '^vadd128: ' "$2")
got=$("$1" run "$3/vadd128")
[ "$got" = "$want" ] || { echo "README says:  $want"; echo "sysnode run: $got"; exit 1; }
echo "$got"
