#!/usr/bin/env python3
"""Runs sysnode-bench on the given cases with --json and checks its relations
against each case's manifest.json, read here independently: rounds and
payloads equal the manifest's "rounds" and "total_flits" (or, for a
recorded case without it, the flits its artifacts' kicks send); all three images
matched the expected bytes and the simulator saw exactly total_flits payload
GOs from each; the floor's steady cycles per payload is at most the runner's;
send-and-wait spends at least 10 MMIO operations per payload in steady rounds
(its loop: a STAT read before GO, DST, ARG0..ARG3 and GO, a STAT read that
shows the completion, a HEAD read and a HEAD pop) and the floor no more than
it; the first payload GO comes before the run's end; the busiest unit was
busy for some but not all of the run's cycles, and run_over_busiest_unit is
their quotient. No timing is checked.

usage: check_bench.py SYSNODE_BENCH OUT_DIR CU_VERSION CASE_DIR..."""
import json
import os
import subprocess
import sys


def kicked(case_dir, manifest):
    """The flits the kicks of the case's artifacts send."""
    total = 0
    for name in manifest["artifacts_in_order"]:
        with open(os.path.join(case_dir, name)) as f:
            total += sum(step[4] for step in json.load(f)["steps"] if step[0] == "kick")
    return total


def main():
    bench, out_dir, version, cases = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "bench.json")
    if os.path.exists(out):
        os.remove(out)
    run = subprocess.run([bench, "--cu-version", str(version), "--json", out] + cases, capture_output=True, text=True)
    print(run.stdout, run.stderr, sep="")
    if run.returncode != 0:
        sys.exit(f"sysnode-bench exited {run.returncode}")
    with open(out) as f:
        report = json.load(f)
    if report["cu_version"] != version:
        sys.exit(f"report is for CU_VERSION {report['cu_version']}, not {version}")
    rows = report["cases"]
    if len(rows) != len(cases):
        sys.exit(f"{len(rows)} rows for {len(cases)} cases")
    for case_dir, row in zip(cases, rows):
        with open(os.path.join(case_dir, "manifest.json")) as f:
            manifest = json.load(f)
        name = manifest["name"]
        if "total_flits" not in manifest:
            manifest["total_flits"] = kicked(case_dir, manifest)
        checks = [
            (row["case"] == os.path.basename(os.path.normpath(case_dir)), "case name"),
            (row["rounds"] == manifest["rounds"], f"rounds {row['rounds']} != manifest {manifest['rounds']}"),
            (row["payloads"] == manifest["total_flits"],
             f"payloads {row['payloads']} != manifest total_flits {manifest['total_flits']}"),
        ]
        for image in ("runner", "floor", "sendwait"):
            fig = row[image]
            checks += [
                (fig["output"] == "match", f"{image}: output"),
                (fig["payload_gos"] == manifest["total_flits"], f"{image}: payload GOs {fig['payload_gos']}"),
                (fig["steady_rounds"] >= 1, f"{image}: no steady round"),
                (0 < fig["boot_to_first_go"] < fig["cycles"], f"{image}: boot to first GO"),
                (fig["steady_mmio_per_payload"] >= 1, f"{image}: fewer than one MMIO (the GO) per payload"),
                (0 < fig["busiest_unit_busy_cycles"] < fig["cycles"], f"{image}: busiest unit's busy cycles"),
                (abs(fig["run_over_busiest_unit"] - fig["cycles"] / fig["busiest_unit_busy_cycles"])
                 < 1e-3 * fig["run_over_busiest_unit"], f"{image}: run_over_busiest_unit is not the quotient"),
            ]
        runner, floor, sendwait = row["runner"], row["floor"], row["sendwait"]
        checks += [
            (floor["steady_cycles_per_payload"] <= runner["steady_cycles_per_payload"],
             f"floor {floor['steady_cycles_per_payload']} > runner {runner['steady_cycles_per_payload']} cycles/payload"),
            (sendwait["steady_mmio_per_payload"] >= 10, f"send-and-wait MMIO/payload {sendwait['steady_mmio_per_payload']}"),
            (floor["steady_mmio_per_payload"] <= sendwait["steady_mmio_per_payload"], "floor MMIO > send-and-wait"),
            (abs(row["runner_over_floor"] - runner["steady_cycles_per_payload"] / floor["steady_cycles_per_payload"])
             < 1e-3 * row["runner_over_floor"], "runner_over_floor is not the quotient"),
        ]
        failed = [what for ok, what in checks if not ok]
        if failed:
            sys.exit(f"{name}: " + "; ".join(failed))
        print(f"{name}: relations hold")


if __name__ == "__main__":
    main()
