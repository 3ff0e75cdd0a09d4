#!/usr/bin/env python3
"""check_fst.py SYSNODE FST_SUMMARY CASES_DIR WORKDIR

`sysnode run --fst` read back with GTKWave's reader (fst_summary): after a
match (the mesh's accepted_go counter ends at the flits plus the runner's 4
unit probes, one typed CU_CTRL GO per unit of the 4-unit mesh; the dump ends
at the exit, time 2c+1 for mesh cycle c), inside --fst-window (first and last
times are the window's), after the cycle cap (a hang) and after SIGINT (exit
130, the file whole, no temporary left); on the simulated card
(--device sim) the dump spans the same times with the same GOs."""
import glob, os, re, signal, subprocess, sys, time

sysnode, summary, cases, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)

def read(path):
    out = subprocess.run([summary, path, "accepted_go"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    m = re.match(r"start (\d+) end (\d+) vars (\d+) accepted_go (\d+) changes (\d+)", out.stdout)
    start, end, nvars, gos, _ = (int(v) for v in m.groups())
    assert nvars > 100, out.stdout
    assert not glob.glob(path + ".partial-*"), "a temporary dump was left behind"
    return start, end, gos

full = os.path.join(work, "vadd128.fst")
run = subprocess.run([sysnode, "run", f"{cases}/vadd128", "--fst", full], capture_output=True, text=True)
m = re.match(r"vadd128: 1 round, (\d+) flits, \d+ completions, (\d+) cycles, .*: match\n$", run.stdout)
assert run.returncode == 0 and m, run.stdout + run.stderr
flits, cycles = int(m.group(1)), int(m.group(2))
start, end, gos = read(full)
assert start == 0 and gos == flits + 4, (start, gos)
assert 2 * (cycles - 64) <= end <= 2 * cycles + 1, (end, cycles)

# the simulated card runs the same mesh: the same span and the same GOs
card = os.path.join(work, "vadd128.card.fst")
subprocess.run([sysnode, "run", f"{cases}/vadd128", "--device", "sim", "--fst", card], check=True,
               stdout=subprocess.DEVNULL)
assert read(card) == (start, end, gos), (read(card), (start, end, gos))

window = os.path.join(work, "window.fst")
subprocess.run([sysnode, "run", f"{cases}/vadd128", "--fst", window, "--fst-window", "10000:11000"], check=True,
               stdout=subprocess.DEVNULL)
assert read(window)[:2] == (20000, 21999)
bad = subprocess.run([sysnode, "run", f"{cases}/vadd128", "--fst", window, "--fst-window", "5:5"],
                     capture_output=True, text=True)
assert bad.returncode == 2 and "FROM < TO" in bad.stderr, bad.stderr

hang = os.path.join(work, "hang.fst")
run = subprocess.run([sysnode, "run", f"{cases}/mm4x32", "--fst", hang, "--max-cycles", "5000"],
                     capture_output=True, text=True)
assert run.returncode == 1 and "stopped at the --max-cycles cap" in run.stderr, run.stderr
start, end, _ = read(hang)
# the mesh is brought to the hart's cycle at a block start once it trails by
# more than 64 cycles (ADVANCE_QUANTUM, sim/hart/hart.c), and the limit stops
# the hart at the start of the block after the one that crosses it: the mesh
# may trail the limit by 64 cycles plus that block (a runner loop, under 64)
assert 2 * (5000 - 128) <= end <= 2 * 5000 + 1, end

# SIGINT once the dump is being written (its temporary exists and grows)
stopped = os.path.join(work, "sigint.fst")
for stale in glob.glob(stopped + ".partial-*"):  # a temporary an earlier, killed run left would end the wait at once
    os.remove(stale)
proc = subprocess.Popen([sysnode, "run", f"{cases}/matmul_512x256x512", "--fst", stopped],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
while proc.poll() is None and not any(os.path.getsize(p) > 0 for p in glob.glob(f"{stopped}.partial-{proc.pid}*")):
    time.sleep(0.05)
proc.send_signal(signal.SIGINT)
out, err = proc.communicate()
assert proc.returncode == 128 + signal.SIGINT and "interrupted (SIGINT)" in err, (proc.returncode, err)
start, end, gos = read(stopped)
assert start == 0 and 0 < end < 2 * 2354710, end
print(f"FST readable after a match (end {end}), a window, a hang and SIGINT")
