#!/usr/bin/env bash
# check_outputs.sh SYSNODE SYSNODE_BENCH CASE_DIR IMAGE: an output that would
# replace an input or a non-regular file, two outputs naming one file, an
# output in a missing directory, and --fst-window without --fst are refused
# before the run (no verdict printed), and the inputs keep their bytes.
set -u
sysnode=$1 bench=$2 src=$3 image=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/case"
cp "$image" "$work/image.elf"
mkfifo "$work/fifo"
sums() { md5sum "$work"/case/* "$work/image.elf"; }
before=$(sums)
fail=0
# refuse EXIT PATTERN ARGS...: sysnode run exits EXIT, prints PATTERN and no verdict
refuse() {
    local want=$1 pattern=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    if [ $rc -ne "$want" ] || ! grep -Eq -- "$pattern" <<<"$out" || grep -q "flits" <<<"$out"; then
        echo "FAIL ($rc): $* -> $out"
        fail=1
    fi
}
run() { refuse "$1" "$2" "$sysnode" run "$work/case" --image "$work/image.elf" "${@:3}"; }
run 1 "--report $work/case/manifest.json is the input" --report "$work/case/manifest.json"
run 1 "--timeline .*artifact.json is the input" --timeline "$work/case/artifact.json"
run 1 "--fst .*manifest.json is the input" --fst "$work/case/manifest.json"
run 1 "--trace .*manifest.json is the input" --trace "$work/case/manifest.json"
run 1 "--report $work/image.elf is the input" --report "$work/image.elf"
run 1 "--fst $work/fifo: exists and is not a regular file" --fst "$work/fifo"
run 1 "--report /dev/full: exists and is not a regular file" --report /dev/full
run 1 "--report $work/r.json and --timeline $work/./r.json: the same file" --report "$work/r.json" \
    --timeline "$work/./r.json"
run 1 "--report $work/none/r.json: its directory is not there" --report "$work/none/r.json"
run 2 "--fst-window 1:5 without --fst" --fst-window 1:5
run 2 "--fst-window wants FROM:TO" --fst "$work/x.fst" --fst-window 1:99999999999999999999999
refuse 1 "--json $work/image.elf is the input" "$bench" "$work/case" --image "$work/image.elf" \
    --json "$work/image.elf"
refuse 1 "--json .*manifest.json is the input" "$bench" "$work/case" \
    --json "$work/case/manifest.json"
ln -s "$work/case/manifest.json" "$work/link.txt"
run 1 "--report $work/link.txt: exists and is not a regular file" --report "$work/link.txt"
run 1 "--trace $work/link.txt: exists and is not a regular file" --trace "$work/link.txt"
# a window past the end of the run is named, not left as a silent empty dump
out=$("$sysnode" run "$work/case" --image "$work/image.elf" --fst "$work/late.fst" --fst-window 99999999:100000000 2>&1)
grep -Eq -- "--fst: the run ended at cycle [0-9]+, before the window 99999999:100000000: .*late.fst holds no cycle" \
    <<<"$out" || { echo "FAIL: late window: $out"; fail=1; }
[ -p "$work/fifo" ] || { echo "FAIL: the FIFO was replaced"; fail=1; }
[ "$(sums)" = "$before" ] || { echo "FAIL: an input changed"; fail=1; }
ls "$work" | grep -q "^r.json" && { echo "FAIL: r.json written"; fail=1; }
exit $fail
