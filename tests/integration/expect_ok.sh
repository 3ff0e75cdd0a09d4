#!/usr/bin/env bash
# expect_ok.sh PATTERN COMMAND [ARGS...]
# Passes only when COMMAND exits 0 and its output (stdout and stderr)
# matches the extended regular expression PATTERN, read as one text ('$' is
# its end; write no newline in PATTERN: grep takes one as "or"). ctest's
# PASS_REGULAR_EXPRESSION alone ignores the exit code.
set -u
pattern=$1
shift
out=$("$@" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then echo "FAIL: exited $rc"; exit 1; fi
if ! printf "%s" "$out" | grep -Ezq -- "$pattern"; then echo "FAIL: output does not match /$pattern/"; exit 1; fi
echo "PASS: exit 0, output matches"
