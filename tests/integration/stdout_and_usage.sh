#!/usr/bin/env bash
# stdout_and_usage.sh SYSNODE SYSNODE_BENCH CASE_DIR BIG_CASE_DIR: standard
# output that cannot be written fails the command with exit 1 (README
# "Output files"): sysnode-bench into /dev/full, and sysnode dump and
# sysnode-bench into a pipe closed early (exit 1, not death by SIGPIPE);
# --jobs past the cores is warned about; a missing --image is named by its
# option.
set -u
sysnode=$1 bench=$2 case=$3 big=$4
fail() { echo "FAIL: $*"; exit 1; }
out=$("$bench" --host-load 1 "$case" 2>&1 >/dev/full)
rc=$?
[ $rc -eq 1 ] || fail "sysnode-bench > /dev/full exited $rc, want 1"
case $out in *"writing to standard output failed"*) ;; *) fail "sysnode-bench > /dev/full: $out" ;; esac
"$sysnode" dump "$big" 2>/dev/null | head -c 1 >/dev/null
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] || fail "sysnode dump into a closed pipe exited $rc, want 1"
"$bench" --host-load 1 "$case" "$case" "$case" "$case" 2>/dev/null | head -c 1 >/dev/null
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] || [ $rc -eq 0 ] || fail "sysnode-bench into a closed pipe exited $rc, want 1 (or 0 if it was done first)"
jobs=$(( $(nproc) + 1 ))
out=$("$sysnode" run "$case" "$case" --jobs "$jobs" 2>&1 >/dev/null) || fail "--jobs $jobs: exit $?"
case $out in *"--jobs $jobs is more than the $(nproc) cores here"*) ;; *) fail "--jobs $jobs: no warning: $out" ;; esac
out=$("$sysnode" run "$case" --image /nonexistent/runner.elf 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "--image /nonexistent: exit $rc"
case $out in *"--image /nonexistent/runner.elf: No such file or directory"*) ;; *) fail "--image: $out" ;; esac
echo "PASS: failed stdout is exit 1, --jobs warns, --image named"
