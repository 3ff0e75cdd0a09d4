#!/usr/bin/env python3
"""check_stop_timeline.py SYSNODE CASES LOOP_IMAGE WORK HOST_STEP_DIR: every way a run ends
leaves its --timeline, JSON and SVG, drawn up to the stop, and the stop is
marked with the run's own message (docs/user-guide.md "Seeing what
happened"): a hang the runner reports, a unit fault, a table the runner
refuses, the --max-cycles cap, SIGINT, a host step's mismatch (which stops
the run at its sync point); a match has no stop mark. At the cap
the message gives the runner's place with its phase in words and the live
counts, and those agree with what the program could have sent by then,
computed from the artifacts themselves: at least every flit of the rounds
before the one it names, at most every flit up to its end, per node too.
The SVG's marks are checked against the verdict line: one GO tick per flit,
one completion tick per completion, a busy span per payload, the rounds and
the cycles; its axis is labelled at round numbers."""
import json, os, re, signal, subprocess, sys, time
import xml.etree.ElementTree as ET

sysnode, cases, loop_image, work, host_steps = sys.argv[1:6]
os.makedirs(work, exist_ok=True)
SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run([sysnode, "run", *args], capture_output=True, text=True)


def events(path):
    return json.load(open(path))["traceEvents"]


def svg_marks(path):
    root = ET.parse(path).getroot()
    marks = {}
    for e in root.iter():
        cls = e.get("class")
        if cls:
            marks.setdefault(cls, []).append(e)
    return root, marks


def stop_of(path):
    stops = [e for e in events(path) if e.get("cat") == "stop"]
    assert len(stops) <= 1, stops
    return stops[0] if stops else None


def message(err):
    """The error line of sysnode run's stderr (before any injection report)."""
    return next(l for l in err.splitlines() if l.startswith("sysnode run: ") and "injected" not in l)[13:]


# A match: no stop mark; the SVG against the verdict line.
case = os.path.join(cases, "mm_silu_32x128x64")
tl_json, tl_svg = os.path.join(work, "match.json"), os.path.join(work, "match.svg")
r = run(case, "--timeline", tl_json)
assert r.returncode == 0 and stop_of(tl_json) is None, r.stdout + r.stderr
r = run(case, "--timeline", tl_svg)
m = re.match(r"mm_silu_32x128x64: (\d+) rounds, (\d+) flits, (\d+) completions, (\d+) cycles", r.stdout)
assert r.returncode == 0 and m, r.stdout + r.stderr
rounds, flits, completions, cycles = map(int, m.groups())
root, marks = svg_marks(tl_svg)
assert int(root.get("data-cycles")) == cycles and int(root.get("data-rounds")) == rounds, root.attrib
assert len(marks["go"]) == flits and len(marks["completion"]) == completions, \
    (len(marks["go"]), len(marks["completion"]))
assert len(marks["busy"]) == flits and len(marks["round"]) == rounds and "stop" not in marks, \
    {k: len(v) for k, v in marks.items()}
assert all(int(g.get("data-cycle")) <= cycles for g in marks["go"])
# The axis labels: 0 and multiples of a 1, 2 or 5 times 10^k step, at most 10 steps, up to the end.
labels = [int(t.text) for t in root.iter(SVG + "text") if t.get("text-anchor") == "middle"]
step = labels[1] - labels[0]
assert labels[0] == 0 and labels == list(range(0, cycles + 1, step)) and cycles // step <= 10, labels
assert int(str(step).rstrip("0") or "0") in (1, 2, 5) and len(labels) >= 5, labels
print(f"match: the SVG has {flits} GOs, {completions} completions, {rounds} rounds, {cycles} cycles, no stop, "
      f"axis every {step} cycles")

# Failures the runner reports, and the cap (halfway through matmul_512x256x512's whole run, so mid-round):
# each timeline ends at the stop, marked with the message.
vadd = os.path.join(cases, "vadd128")
big = os.path.join(cases, "matmul_512x256x512")
whole = int(re.search(r", (\d+) cycles,", run(big).stdout).group(1))
cap = whole // 2
for name, args, says in (
        ("hang", [vadd, "--inject", "unit-stuck"], "hang: no completion for "),
        ("fault", [vadd, "--inject", "unit-fault:3"], "SIG_FAULT, argument 3"),
        ("refused table", [vadd, "--inject", "table-flip"], "exited with 0x15 "),
        ("host step", [os.path.join(host_steps, "host_step_wrong")], "after round 0: expected_after_round0.bin"),
        ("cap", [big, "--max-cycles", str(cap)], f"stopped at the --max-cycles cap after {cap} cycles: runner at round ")):
    for ext in ("json", "svg"):
        out = os.path.join(work, f"{name.replace(' ', '_')}.{ext}")
        r = run(*args, "--timeline", out)
        if name == "host step":  # a mismatch: the verdict line on stdout, the cycles in it
            msg = r.stdout.splitlines()[0].split("MISMATCH ", 1)[1]
            stopped_at = int(re.search(r", (\d+) cycles,", r.stdout).group(1))
            msg = None if ext == "svg" else msg
        else:
            msg = message(r.stderr)
            stopped_at = int(re.search(r"after (\d+) cycles", msg).group(1))
        assert r.returncode == 1 and os.path.exists(out) and (msg is None or says in msg or name == "host step"), \
            (name, r.returncode, r.stdout, r.stderr)
        if ext == "json":
            stop = stop_of(out)
            how = stop and stop["args"]["how"].split("\n")[0]
            assert stop and stop["ts"] == stopped_at and (how == msg or (name == "host step" and says in how)), \
                (name, stop, msg)
            assert all(e.get("ts", 0) <= stopped_at for e in events(out)), name
        else:
            root, marks = svg_marks(out)
            (line,) = [e for e in marks["stop"] if e.tag == SVG + "line"]
            assert int(line.get("data-cycle")) == stopped_at == int(root.get("data-cycles")), (name, line.attrib)
            assert line.find(SVG + "title").text.startswith(msg or says), name
    print(f"{name}: JSON and SVG timelines end at cycle {stopped_at}, the stop marked: {how[:60]}...")

# The cap's live counts against the program: rounds before the one named were sent whole.
case = big
m = re.search(r"runner at round (\d+) step (\d+), ([a-z (),]+?); the mailbox accepted (\d+) payload GOs, "
              r"the core popped (\d+) completions \((.*)\)$", msg)
assert m, msg
at_round, gos, popped = int(m.group(1)), int(m.group(4)), int(m.group(5))
per_node = {n: (int(g), int(p)) for n, g, p in re.findall(r"node (\(\d,\d\)): (\d+) GOs, (\d+) popped", m.group(6))}
manifest = json.load(open(os.path.join(case, "manifest.json")))
sent_before, sent_through = {}, {}
for rnd, art in enumerate(manifest["artifacts_in_order"]):
    for step in json.load(open(os.path.join(case, art)))["steps"]:
        if step[0] == "kick":
            node = f"({step[1]},{step[2]})"
            if rnd < at_round:
                sent_before[node] = sent_before.get(node, 0) + step[4]
            if rnd <= at_round:
                sent_through[node] = sent_through.get(node, 0) + step[4]
assert m.group(3) in ("sending payloads", "awaiting completions", "at a barrier",
                      "ending the round (drain, settle)"), m.group(3)
assert sum(sent_before.values()) <= gos <= sum(sent_through.values()) and popped <= gos, (gos, sent_before)
for node in sent_through:
    g, p = per_node.get(node, (0, 0))
    assert sent_before.get(node, 0) <= g <= sent_through[node] and p <= g, (node, g, p)
assert sum(g for g, _ in per_node.values()) == gos and sum(p for _, p in per_node.values()) == popped
tl = events(os.path.join(work, "cap.json"))
assert sum(e.get("name") == "GO" for e in tl) == gos and sum(e.get("name") == "completion" for e in tl) == popped
print(f"cap: round {at_round}, {m.group(3)}; {gos} GOs (program: {sum(sent_before.values())}.."
      f"{sum(sent_through.values())}), {popped} popped, as the timeline has them")

# SIGINT: the run stops at the next mesh cycle; the timeline is written and says so.
out = os.path.join(work, "sigint.json")
if os.path.exists(out):
    os.unlink(out)
proc = subprocess.Popen([sysnode, "run", vadd, "--image", loop_image, "--timeline", out],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
while True:  # signal once sysnode catches it (SigCgt), so it lands as a stop, not a kill
    assert proc.poll() is None, "the run ended before catching SIGINT"
    with open(f"/proc/{proc.pid}/status") as f:
        mask = next(int(l.split()[1], 16) for l in f if l.startswith("SigCgt:"))
    if mask >> (signal.SIGINT - 1) & 1:
        break
    time.sleep(0.01)
time.sleep(0.2)
proc.send_signal(signal.SIGINT)
_, err = proc.communicate()
assert proc.returncode == 130, (proc.returncode, err)
stop = stop_of(out)
assert stop and "interrupted (SIGINT)" in stop["args"]["how"], stop
print(f"SIGINT: exit 130, the timeline written up to cycle {stop['ts']}, marked: {stop['args']['how'][:60]}...")
