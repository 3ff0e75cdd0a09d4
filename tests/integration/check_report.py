#!/usr/bin/env python3
"""check_report.py SYSNODE SCHEMA CASE_DIR WORKDIR [RUN ARGS...]

`sysnode run CASE_DIR --report FILE [RUN ARGS]`, then: the report validates
against docs/run-report.schema.json; its verdict, payloads, completions and
cycles are the verdict line's; per-node payloads and per-round payloads are
the ones the case's artifacts kick (counted here from the artifact JSON);
per-node completions add up to the runner's count; the boot and round cycles
add up to the run's cycles; each matmul cluster's cost-model cycles are the
compiler's cost model (artifacts-facts §7: FILL n -> 8n, GEMM ->
ceil(gm*4 * nk*32 * gn*4 / 512), DRAIN n -> n), computed here from the
payload fields (sysnode-facts §3.3, read through sysnode_iface, generated
from sysnode/words.h; ctest puts it on PYTHONPATH); each unit's arrivals lie
between the first GO and the run's end, and its busy cycles after the first."""
import json, os, re, subprocess, sys
import jsonschema
import sysnode_iface as iface

sysnode, schema_path, case, work = sys.argv[1:5]
extra = sys.argv[5:]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, "report.json")
run = subprocess.run([sysnode, "run", case, "--report", path, *extra], capture_output=True, text=True)
report = json.load(open(path))
jsonschema.validate(report, json.load(open(schema_path)))

manifest = json.load(open(os.path.join(case, "manifest.json")))
kicked, per_round = {}, []
mg_cost = {}
mask = (1 << 256) - 1
def field(p, name):
    return iface.get("mg", name, p)
mg_nodes = {tuple(c) for c in manifest.get("mesh", {}).get("MG", [[1, 1], [2, 1]])}
for name in manifest["artifacts_in_order"]:
    art = json.load(open(os.path.join(case, name)))
    n = 0
    for step in art["steps"]:
        if step[0] != "kick":
            continue
        _, x, y, base, count = step
        kicked[(x, y)] = kicked.get((x, y), 0) + count
        n += count
        if (x, y) not in mg_nodes:
            continue
        for slot in range(base, base + count):
            p = int(art["flits"][slot]) & mask
            op = field(p, "op")
            if op == 1:
                cost = 8 * field(p, "n")
            elif op == 2:
                gm, gn, nk = field(p, "gm"), field(p, "gn"), field(p, "nk")
                cost = -(-(gm * 4 * nk * 32 * gn * 4) // 512)
            elif op == 3:
                cost = field(p, "n")
            else:
                cost = 1
            mg_cost[(x, y)] = mg_cost.get((x, y), 0) + cost
    per_round.append(n)

if run.returncode != 0:
    assert report["verdict"] in ("error", "mismatch", "digest mismatch") and report["exit_code"] == 1, report
    assert report["message"] and report["message"] in run.stderr + run.stdout, (report["message"], run.stderr)
    print(f"error report: {report['message'][:120]}")
    sys.exit(0)

m = re.match(r"\S+: (\d+) rounds?, (\d+) flits, (\d+) completions, (\d+) cycles, .*: match\n$", run.stdout)
assert m, run.stdout + run.stderr
rounds, flits, completions, cycles = (int(v) for v in m.groups())
assert (report["verdict"], report["exit_code"], report["message"]) == ("match", 0, ""), report
assert (report["rounds"], report["payloads"], report["completions"], report["cycles"]) == \
       (rounds, flits, completions, cycles), report
assert sum(kicked.values()) == flits
nodes = {(n["x"], n["y"]): n for n in report["nodes"]}
for xy, n in nodes.items():
    assert n["payloads"] == kicked.get(xy, 0), (xy, n, kicked)
if report["device"].startswith("xdma:"):
    sys.exit(0)
assert sum(n["completions"] for n in nodes.values()) == completions, nodes
assert [r["payloads"] for r in report["round_cycles"]] == per_round, report["round_cycles"]
assert report["boot_cycles"] == report["round_cycles"][0]["start"]
assert report["boot_cycles"] + sum(r["cycles"] for r in report["round_cycles"]) == cycles
assert sum(r["completions"] for r in report["round_cycles"]) == completions
for u in report["units"]:
    xy = (u["x"], u["y"])
    assert u["payloads"] == kicked[xy], u
    assert u["difference"] == u["busy_cycles"] - u["cost_model_cycles"], u
    # busy is the union of [arrive + 1, completion - 1]; service the sum of
    # (max(arrive, previous completion), completion]: one cycle more per run
    # of back-to-back payloads at most
    assert u["busy_cycles"] <= u["service_cycles"] <= u["busy_cycles"] + u["payloads"], u
    # arrivals follow the run's first GO; busy counts from the first arrival
    # to a completion inside the run
    assert report["boot_cycles"] < u["first_arrival"] <= u["last_arrival"] < cycles, u
    assert u["busy_cycles"] < cycles - u["first_arrival"], u
    if u["cu_type"] == "MG":
        assert u["cost_model_cycles"] == mg_cost[xy], (u, mg_cost)
assert {(u["x"], u["y"]) for u in report["units"]} == {xy for xy, n in kicked.items() if n}
print(f"{report['case']}: report holds ({len(report['units'])} units, {rounds} rounds)")
