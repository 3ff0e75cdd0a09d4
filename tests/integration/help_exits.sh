#!/usr/bin/env bash
# help_exits.sh SYSNODE SYSNODE_SIM SYSNODE_BENCH (and scripts/ beside tests/)
# Every command answers -h and --help with its usage on stdout, nothing on
# stderr and exit 0; an unknown option or command gets the usage on stderr,
# with a line naming the word it did not know, and exit 2 (docs/user-guide.md
# "Exit statuses": one convention for every command).
set -u
sysnode=$1 sim=$2 bench=$3
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check WANT_RC STREAM NAME COMMAND...: COMMAND exits WANT_RC and "usage:"
# is on STREAM (stdout or stderr) while the other stream is empty.
check() {
    local want=$1 stream=$2 name=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? other=err
    [ "$stream" = err ] && other=out
    if [ $rc -ne "$want" ]; then
        echo "FAIL: $name exited $rc, want $want"; failed=1
    elif ! grep -q '^usage: ' "$tmp/$stream"; then
        echo "FAIL: $name printed no usage on std$stream"; failed=1
    elif [ -s "$tmp/$other" ]; then
        echo "FAIL: $name wrote to std$other: $(head -c 200 "$tmp/$other")"; failed=1
    elif [ "$want" -eq 2 ] && ! grep -qF -- "${!#}" "$tmp/err"; then
        echo "FAIL: $name did not name '${!#}'"; failed=1
    else
        echo "ok: $name exit $rc, usage on std$stream"
    fi
}

for flag in -h --help; do
    check 0 out "sysnode $flag" "$sysnode" $flag
    for cmd in header run flash pack dump; do
        check 0 out "sysnode $cmd $flag" "$sysnode" $cmd $flag
    done
    check 0 out "sysnode-sim $flag" "$sim" $flag
    check 0 out "sysnode-bench $flag" "$bench" $flag
done
check 2 err "sysnode --no-such-option" "$sysnode" --no-such-option
check 2 err "sysnode no-such-command" "$sysnode" no-such-command
for cmd in header run flash pack dump; do
    check 2 err "sysnode $cmd --no-such-option" "$sysnode" $cmd --no-such-option
done
check 2 err "sysnode-sim --no-such-option" "$sim" --no-such-option
check 2 err "sysnode-bench --no-such-option" "$bench" --no-such-option
# The scripts of the quick start answer the same way before doing anything:
# the tools they would run are stubs that fail here (a script that ignored
# its arguments would install, build or test instead of printing its usage).
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
mkdir "$tmp/stub"
for tool in cmake ctest dpkg-query apt-get sudo clang nproc; do
    printf '#!/bin/sh\necho "stub %s ran" >&2\nexit 97\n' "$tool" > "$tmp/stub/$tool"
    chmod +x "$tmp/stub/$tool"
done
for script in demo setup test fuzz; do
    for flag in -h --help; do
        check 0 out "scripts/$script $flag" env PATH="$tmp/stub:$PATH" "$scripts/$script" $flag
    done
    check 2 err "scripts/$script --no-such-option" env PATH="$tmp/stub:$PATH" "$scripts/$script" --no-such-option
done
[ $failed -eq 0 ] && echo "PASS: every command's help exits 0, usage errors exit 2"
exit $failed
