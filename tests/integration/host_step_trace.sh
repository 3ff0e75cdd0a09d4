#!/usr/bin/env bash
# host_step_trace.sh SYSNODE CASE_DIR TRACE BOOTS
# Replays CASE_DIR with --trace and passes when the host window saw exactly
# BOOTS BOOT pulses: 1 for a case with host steps (the runner holds at its
# sync points, no reboot), 0 for a case refused before anything runs (then
# the trace must be empty and the exit status 1).
set -u
sysnode=$1 case_dir=$2 trace=$3 boots=$4
rm -f "$trace"
"$sysnode" run "$case_dir" --trace "$trace"
rc=$?
got=$(grep -c '^boot' "$trace")
echo "exit $rc, $got boot(s), $(grep -c '^spad_read' "$trace") scratchpad read(s)"
if [ "$boots" -eq 0 ]; then
    [ $rc -eq 1 ] && [ ! -s "$trace" ] && exit 0
    echo "FAIL: wanted exit 1 and an empty trace"; exit 1
fi
[ $rc -eq 0 ] && [ "$got" -eq "$boots" ] && grep -q '^spad_read' "$trace" && exit 0
echo "FAIL: wanted exit 0, $boots boot(s) and the held word read"; exit 1
