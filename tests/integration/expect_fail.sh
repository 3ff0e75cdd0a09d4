#!/usr/bin/env bash
# expect_fail.sh PATTERN COMMAND [ARGS...]
# Passes only when COMMAND exits nonzero and its output (stdout and stderr)
# matches the extended regular expression PATTERN.
set -u
pattern=$1
shift
out=$("$@" 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 0 ]; then echo "FAIL: exited 0"; exit 1; fi
if ! grep -Ezq -- "$pattern" <<<"$out"; then echo "FAIL: output does not match /$pattern/"; exit 1; fi
echo "PASS: exit $rc, output matches"
