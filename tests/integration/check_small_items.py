#!/usr/bin/env python3
"""check_small_items.py SYSNODE SYSNODE_BENCH SYSNODE_SIM CASES WORK: what a
user reads in a few corner cases. A GDB port already in use is said in one
line on stderr, naming --gdb, before the image runs (not as a "simulation
stopped after 0 cycles" with an empty console, nor as sysnode-sim's
"simulation error" on stdout with exit 125), and a --save-output folder made
for that run is gone again; the report names the runner image by its
resolved path (no "bin/../firmware"), as does sysnode-bench's header; a
sysnode copied out of the tree says where it looked for its image and how to
name one; a signal before a debugger connects says so; a command after '--' is told to come first; a --load past 2^64 is
named by its size; the cap on the simulated card says what a card's host
can know."""
import json, os, shutil, signal, socket, subprocess, sys

sysnode, bench, sim, cases, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
vadd = os.path.join(cases, "vadd128")

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    s.listen()
    port = s.getsockname()[1]
    r = subprocess.run([sysnode, "run", vadd, "--gdb", str(port)], capture_output=True, text=True)
    busy = f"--gdb {port}: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert r.returncode == 1 and r.stderr == "sysnode run: " + busy and r.stdout == "", (r.stdout, r.stderr)
    print("a busy GDB port: sysnode run: " + busy.strip())
    # A run that never starts leaves no --save-output folder behind.
    saved = os.path.join(work, "saved")
    r = subprocess.run([sysnode, "run", vadd, "--gdb", str(port), "--save-output", saved], capture_output=True,
                       text=True)
    assert r.returncode == 1 and not os.path.exists(saved), (r.stderr, os.path.exists(saved))

report = os.path.join(work, "report.json")
r = subprocess.run([sysnode, "run", vadd, "--report", report], capture_output=True, text=True)
image = json.load(open(report))["image"]
assert r.returncode == 0 and image == os.path.realpath(image) and "/../" not in image, image
r = subprocess.run([bench, vadd], capture_output=True, text=True)
assert r.returncode == 0 and "/../" not in r.stdout and os.path.realpath(image) in r.stdout, r.stdout
print(f"the default image as a resolved path: {image}")

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    s.listen()
    port = s.getsockname()[1]
    r = subprocess.run([sim, image, "--gdb", str(port)], capture_output=True, text=True)
    busy = f"--gdb {port}: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert r.returncode == 2 and r.stderr == "sysnode-sim: " + busy and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    print("a busy GDB port: sysnode-sim: " + busy.strip())

# SIGTERM (as SIGINT) while waiting for a debugger is the user's stop, not a socket fault.
p = subprocess.Popen([sim, image, "--gdb", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
assert p.stderr.readline().startswith("gdb: listening on 127.0.0.1:")
p.send_signal(signal.SIGTERM)
out, err = p.communicate(timeout=60)
assert p.returncode == 143 and "interrupted by a signal while waiting for a debugger to connect" in out and \
    "accept" not in out, (p.returncode, out, err)
print("SIGTERM before a debugger connects: " + out.strip())

copy = os.path.join(work, "bin", "sysnode")
os.makedirs(os.path.dirname(copy))
shutil.copy(sysnode, copy)
r = subprocess.run([copy, "run", vadd], capture_output=True, text=True)
assert r.returncode == 1 and r.stderr.endswith("/lib/sysnode/runner.elf); pass --image ELF\n") and \
    f"looked for {work}/bin/../firmware/runner.elf and " in r.stderr, r.stderr
print("a copied sysnode: " + r.stderr.strip())

r = subprocess.run([sysnode, "--", "run", vadd], capture_output=True, text=True)
want = "sysnode: 'run': a command comes first, before any option or '--'\n"
assert r.returncode == 2 and r.stderr.startswith(want), r.stderr
print("a command after '--': " + want.strip())

# A --load whose end passes 2^64 is named by its size, not by an end that wrapped to 0x0.
upload = os.path.join(vadd, "upload_00_00001000.bin")
spec = f"0xffffffffffffff00={upload}"
r = subprocess.run([sysnode, "flash", image, "--device", "sim", "--load", spec], capture_output=True, text=True)
want = f"sysnode flash: '{spec}': {os.path.getsize(upload)} bytes at 0xffffffffffffff00 pass the end of DRAM"
assert r.returncode == 126 and r.stderr.startswith(want) and "0x0)" not in r.stderr, r.stderr
print("a --load past 2^64: " + r.stderr.strip())

# The cap on the simulated card says what a card's host can know (the status copy, not the scratchpad);
# the in-process simulator gives its own view of where the runner was.
card = subprocess.run([sysnode, "run", vadd, "--device", "sim", "--max-cycles", "9000"], capture_output=True,
                      text=True)
sim_run = subprocess.run([sysnode, "run", vadd, "--max-cycles", "9000"], capture_output=True, text=True)
assert card.returncode == 1 and "a card shows the runner's counts only as it copies them to DRAM" in card.stderr \
    and "runner at round" not in card.stderr, card.stderr
assert sim_run.returncode == 1 and "runner at round 0 step 1" in sim_run.stderr, sim_run.stderr
print("the cap on a card: " + card.stderr.strip())
