#!/bin/sh
# check_console.sh SYSNODE_SIM IMAGE: the image's console reaches stdout
# byte for byte, NUL and 0xFF included (stdout is a file here, not a
# terminal, so nothing is escaped).
set -eu
out=$(mktemp)
trap 'rm -f "$out" "$out.want"' EXIT
"$1" "$2" > "$out"
printf 'A\000B\377\n' > "$out.want"
head -c 5 "$out" | cmp - "$out.want"
