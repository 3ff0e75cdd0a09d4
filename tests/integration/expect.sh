#!/usr/bin/env bash
# expect.sh ok|fail PATTERN COMMAND [ARGS...]
# Passes only when COMMAND exits 0 (ok) or nonzero (fail) and its output
# (stdout and stderr) matches the extended regular expression PATTERN, read
# as one text ('$' is its end; write no newline in PATTERN: grep takes one
# as "or"). ctest's PASS_REGULAR_EXPRESSION alone ignores the exit code.
set -u
want=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
echo "$out"
case $want in
ok)   [ $rc -eq 0 ] || { echo "FAIL: exited $rc"; exit 1; } ;;
fail) [ $rc -ne 0 ] || { echo "FAIL: exited 0"; exit 1; } ;;
*)    echo "expect.sh: first argument is ok or fail, not '$want'"; exit 2 ;;
esac
if ! printf "%s" "$out" | grep -Ezq -- "$pattern"; then echo "FAIL: output does not match /$pattern/"; exit 1; fi
echo "PASS: exit $rc, output matches"
