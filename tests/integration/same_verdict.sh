#!/bin/sh
# same_verdict.sh SYSNODE CASE_DIR DEVICE [ARGS...]
# Replays CASE_DIR in-process and on DEVICE (sysnode run --device) with the
# same ARGS: both must match, and print the same verdict line (same flits,
# completions and cycles).
sysnode=$1 case=$2 device=$3
shift 3
here=$("$sysnode" run "$case" "$@") || { echo "in-process: $here"; exit 1; }
there=$("$sysnode" run "$case" --device "$device" "$@") || { echo "--device $device: $there"; exit 1; }
echo "$there"
[ "$here" = "$there" ] || { echo "differs from the in-process verdict: $here"; exit 1; }
