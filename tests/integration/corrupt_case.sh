#!/usr/bin/env bash
# corrupt_case.sh SYSNODE CASE_DIR FILE OFFSET PATTERN
# Copies a case, flips every bit of one byte of FILE at OFFSET, replays it,
# and passes only if the replay fails and its verdict matches PATTERN.
set -u
sysnode=$1 case_dir=$2 file=$3 offset=$4 pattern=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$case_dir")
cp -r "$case_dir" "$tmp/$name"
chmod -R u+w "$tmp/$name"
python3 - "$tmp/$name/$file" "$offset" <<'PY'
import sys
path, off = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
data[off] ^= 0xFF
open(path, 'wb').write(data)
PY
out=$("$sysnode" run "$tmp/$name" 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 0 ]; then echo "FAIL: replay of a corrupted case exited 0"; exit 1; fi
if ! grep -Eq "MISMATCH at .*$pattern" <<<"$out"; then echo "FAIL: verdict does not match /$pattern/"; exit 1; fi
echo "PASS: exit $rc, verdict names the offset"
