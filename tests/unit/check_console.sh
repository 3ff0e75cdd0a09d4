#!/bin/sh
# check_console.sh SYSNODE_SIM IMAGE: the image's console reaches stdout
# byte for byte, NUL and 0xFF included, when stdout is a file; on a terminal
# (util-linux `script` provides one) the same bytes are shown escaped.
set -eu
out=$(mktemp)
trap 'rm -f "$out" "$out.want"' EXIT
"$1" "$2" > "$out"
printf 'A\000B\377\n' > "$out.want"
head -c 5 "$out" | cmp - "$out.want"
script -qec "$1 $2" /dev/null | head -n 1 | tr -d '\r' > "$out"
printf 'A\\x00B\\xff\n' > "$out.want"
cmp "$out" "$out.want"
