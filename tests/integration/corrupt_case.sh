#!/usr/bin/env bash
# corrupt_case.sh SYSNODE CASE_DIR FILE OFFSET PATTERN [--rehash]
# Copies a case, flips every bit of one byte of FILE at OFFSET (with
# --rehash, also rewrites that file's sha256 in the manifest, as a user who
# meant the new bytes would), replays it, and passes only if the replay fails
# and its output matches PATTERN.
set -u
sysnode=$1 case_dir=$2 file=$3 offset=$4 pattern=$5 rehash=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$case_dir")
cp -r "$case_dir" "$tmp/$name"
chmod -R u+w "$tmp/$name"
"${SN_PYTHON3:-python3}" - "$tmp/$name" "$file" "$offset" "$rehash" <<'PY'
import hashlib, json, os, sys
case, name, off, rehash = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
path = os.path.join(case, name)
data = bytearray(open(path, 'rb').read())
data[off] ^= 0xFF
open(path, 'wb').write(data)
if rehash:
    mpath = os.path.join(case, "manifest.json")
    m = json.load(open(mpath))
    for region in m["uploads_before_round0"] + m["expected_outputs_after_last_round"]:
        if region["file"] == name and "sha256" in region:
            region["sha256"] = hashlib.sha256(data).hexdigest()
    json.dump(m, open(mpath, "w"))
PY
out=$("$sysnode" run "$tmp/$name" 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 0 ]; then echo "FAIL: replay of a corrupted case exited 0"; exit 1; fi
if ! grep -Eq -- "$pattern" <<<"$out"; then echo "FAIL: output does not match /$pattern/"; exit 1; fi
echo "PASS: exit $rc, output matches /$pattern/"
