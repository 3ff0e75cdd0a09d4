#!/usr/bin/env bash
# bound.sh CORE_CALIB EXPECTED.tsv ELF_DIR WORKDIR: core_calib's bound is
# ±2%. loop_empty's rows with the whole-run cycles moved by +1.5% must pass,
# and by +2.5% must fail, naming the cycles (so the hart must match the row
# itself within 0.5%, as calibration.loop_empty holds it to 2%).
set -euo pipefail
calib=$1 expected=$2 elfs=$3 work=$4
mkdir -p "$work"
for pct in 15 25; do
    awk -v pct="$pct" 'BEGIN { FS = OFS = "\t" } NR == 1 || $1 == "loop_empty" {
        if (NR > 1) $3 = int($3 * (1000 + pct) / 1000); print }' "$expected" >"$work/moved_$pct.tsv"
done
"$calib" "$work/moved_15.tsv" "$elfs" loop_empty
if out=$("$calib" "$work/moved_25.tsv" "$elfs" loop_empty); then
    echo "$out"; echo "FAIL: cycles 2.5% off passed"; exit 1
fi
echo "$out"
grep -q "loop_empty L=0: cycles expected" <<<"$out" || { echo "FAIL: the cycles are not named"; exit 1; }
echo "PASS: +1.5% within the bound, +2.5% outside it"
