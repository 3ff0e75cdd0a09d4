#!/usr/bin/env bash
# numbers_one_way.sh SYSNODE SYSNODE_SIM SYSNODE_BENCH CASE_DIR IMAGE: every
# numeric option of every program reads decimal or 0x hex and nothing else
# (common/number.h): "010" is ten, a sign, a space, an exponent or a word is
# bad usage (exit 2); every tool prints the one version for --version; a
# --device that is no device spec is bad usage too.
set -u
sysnode=$1 sim=$2 bench=$3 case=$4 image=$5
fail() { echo "FAIL: $*"; exit 1; }
usage_error() { # ARGS...: exit 2, nothing run (a number misread as a port would listen: bounded)
    timeout 20 "$@" >/dev/null 2>&1 </dev/null
    rc=$?
    [ $rc -eq 2 ] || fail "$* exited $rc, want 2"
}
out=$("$bench" --host-load 010 "$case") || fail "bench --host-load 010: exit $?"
case $out in *"over 10 runs"*) ;; *) fail "--host-load 010 is not ten: $out" ;; esac
out=$("$bench" --host-load 0x0a "$case") || fail "bench --host-load 0x0a: exit $?"
case $out in *"over 10 runs"*) ;; *) fail "--host-load 0x0a is not ten: $out" ;; esac
for bad in +5 " 5" -5 5e3 0x ten 99999999999999999999; do
    usage_error "$sysnode" run "$case" --max-cycles "$bad"
    usage_error "$sysnode" run "$case" --jobs "$bad"
    usage_error "$sysnode" flash "$image" --device sim --max-cycles "$bad"
    usage_error "$sim" "$image" --max-cycles "$bad"
    usage_error "$bench" --host-load "$bad" "$case"
    usage_error "$sysnode" run "$case" --dram-latency "$bad"
    usage_error "$bench" --dram-latency "$bad" "$case"
    usage_error "$sim" "$image" --dram-latency "$bad"
    usage_error "$sim" "$image" --gdb "$bad"
done
"$sysnode" run "$case" --max-cycles 0x100000 >/dev/null || fail "--max-cycles 0x100000 refused"
usage_error "$sysnode" run "$case" --device foo
usage_error "$sysnode" flash "$image" --device foo
want=$(cat "$(dirname "$0")/../../python/VERSION")
[ -n "$want" ] || fail "no version in python/VERSION"
for tool in "$sysnode" "$sysnode run" "$sim" "$bench"; do
    got=$($tool --version) || fail "$tool --version: exit $?"
    [ "$got" = "$(basename "${tool%% *}") $want" ] || fail "$tool --version: '$got', want '$(basename "${tool%% *}") $want'"
done
echo "PASS: numbers one way, one version"
