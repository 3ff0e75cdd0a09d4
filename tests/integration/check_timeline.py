#!/usr/bin/env python3
"""check_timeline.py SYSNODE CASE_DIR WORKDIR [RUN ARGS...]

`sysnode run CASE_DIR --timeline FILE [RUN ARGS]`, loaded with Python's json
as Perfetto and chrome://tracing read it (trace events: X spans, i instants,
M names, C counters), then checked against the verdict line and the case's artifacts:
one GO instant per flit, each naming round, step, slot, node and txn, in
program order (the artifacts' kicks, counted here), txns consecutive mod 256;
one completion instant per completion; one round span per round; per unit
track, one busy span per payload the artifacts send that unit; every step
span inside its round's span; per unit, its busy counter at each completion,
never falling, and growing by at most the cycles since the previous one."""
import json, os, re, subprocess, sys

sysnode, case, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, "timeline.json")
run = subprocess.run([sysnode, "run", case, "--timeline", path, *sys.argv[4:]], capture_output=True, text=True)
m = re.match(r"\S+: (\d+) rounds?, (\d+) flits, (\d+) completions, (\d+) cycles, .*: match\n$", run.stdout)
assert run.returncode == 0 and m, run.stdout + run.stderr
rounds, flits, completions, cycles = (int(v) for v in m.groups())
events = json.load(open(path))["traceEvents"]
assert all(e["ph"] in ("X", "i", "M", "C") for e in events)

manifest = json.load(open(os.path.join(case, "manifest.json")))
program = []  # (round, step, slot, x, y) in kick order
for r, name in enumerate(manifest["artifacts_in_order"]):
    for s, step in enumerate(json.load(open(os.path.join(case, name)))["steps"]):
        if step[0] == "kick":
            _, x, y, base, count = step
            program += [(r, s, base + k, x, y) for k in range(count)]

gos = [e for e in events if e.get("cat") == "go"]
assert len(gos) == flits == len(program), (len(gos), flits, len(program))
got = [(g["args"]["round"], g["args"]["step"], g["args"]["slot"]) + tuple(int(v) for v in g["args"]["node"].strip("()").split(","))
       for g in gos]
assert got == program, "GOs are not the artifacts' kicks in order"
txns = [g["args"]["txn"] for g in gos]
assert all((b - a) % 256 == 1 for a, b in zip(txns, txns[1:])), txns[:20]
assert [g["ts"] for g in gos] == sorted(g["ts"] for g in gos) and gos[-1]["ts"] < cycles
done = [e for e in events if e.get("cat") == "completion"]
assert len(done) == completions
# every flit's BATCH_COMPLETE names the GO it completes: same round, step, slot, txn and node
go_keys = {(g["args"]["round"], g["args"]["step"], g["args"]["slot"], g["args"]["txn"], g["args"]["node"]): g["ts"]
           for g in gos}
matched = [c for c in done if "slot" in c["args"]]
assert len(matched) == flits, (len(matched), flits)
for c in matched:
    a = c["args"]
    key = (a["round"], a["step"], a["slot"], a["txn"], a["node"])
    assert key in go_keys and go_keys[key] < c["ts"], c

round_spans = [e for e in events if e.get("cat") == "round"]
assert [e["args"]["round"] for e in round_spans] == list(range(rounds))
assert round_spans[-1]["ts"] + round_spans[-1]["dur"] == cycles
for s in (e for e in events if e.get("cat") == "step"):
    rd = round_spans[s["args"]["round"]]
    assert rd["ts"] <= s["ts"] and s["ts"] + s["dur"] <= rd["ts"] + rd["dur"], (s, rd)

names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
for tid, name in names.items():
    if tid == 0:
        continue
    x, y = (int(v) for v in name.split("(")[1].rstrip(")").split(","))
    busy = [e for e in events if e.get("cat") == "busy" and e["tid"] == tid]
    assert len(busy) == sum(1 for p in program if (p[3], p[4]) == (x, y)), (name, len(busy))
    assert all(a["ts"] + a["dur"] <= b["ts"] for a, b in zip(busy, busy[1:])), f"{name}: spans overlap"
    counter = [e for e in events if e["ph"] == "C" and e["name"] == "busy " + name]
    assert len(counter) == len(busy), (name, len(counter), len(busy))
    values = [e["args"]["CU_COUNTERS busy"] for e in counter]
    for a, b, c, d in zip(values, values[1:], counter, counter[1:]):
        assert 0 <= b - a <= d["ts"] - c["ts"], (name, a, b, c["ts"], d["ts"])
print(f"{os.path.basename(case)}: {len(gos)} GOs, {completions} completions, {rounds} rounds, {len(names) - 1} unit tracks")
