#!/usr/bin/env python3
"""numbers_one_way.py SYSNODE SYSNODE_SIM SYSNODE_BENCH CASE_DIR IMAGE

Every numeric option of every program reads decimal or 0x hex and nothing
else (common/number.h), refused in one words everywhere: the numeric
options are the ones each tool's --help gives a range (help_options.py),
so an option added later is covered too. "010" is ten; a sign, a space, an
exponent, a word, a bare 0x, a value past 64 bits or outside the range is
bad usage (exit 2) named "TOOL: --NAME wants a number in MIN..MAX (decimal
or 0x hex), got 'TEXT'", with nothing run. The bounds and a leading zero are
taken. The numbers inside ADDR=FILE and A:B values follow the same rule.
Every tool prints the one version for --version; a --device that is no
device spec is bad usage too."""
import os
import re
import subprocess
import sys

from help_options import help_options

sysnode, sim, bench, case, image = sys.argv[1:6]
BAD = ["+5", " 5", "5 ", "-5", "-1", "5e3", "1e3", "0x", "0x0x5", "0x+5", "0x 5", "ten", "99999999999999999999",
       "0x10000000000000000", ""]
failed = []


def run(argv):
    # bounded: a number misread as a port would listen
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def fail(msg):
    failed.append(msg)
    print("FAIL:", msg)


# Each tool: its name in messages, how it starts, and a refusal that comes
# only after every option was read (so a value taken is seen to be taken).
TOOLS = [
    ("sysnode run", [sysnode, "run", case], ["--fst-window", "1:5"], "without --fst"),
    ("sysnode flash", [sysnode, "flash", image, "--device", "sim"], ["--expect", "x"], "checks the runner's"),
    ("sysnode-sim", [sim, image], ["--inject", "no-such-kind"], "no-such-kind"),
    ("sysnode-bench", [bench, case], ["--json", ""], "--json wants FILE, got ''"),
]
covered = 0
for name, base, after, after_says in TOOLS:
    for o in help_options(base[:2] if base[0] == sysnode else base[:1]):
        flag = "--" + o.name
        if o.min is not None:
            covered += 1
            for bad in BAD + [str(o.max + 1)] + ([str(o.min - 1)] if o.min > 0 else []):
                r = run(base + [flag, bad])
                want = f"{name}: {flag} wants a number in {o.min}..{o.max} (decimal or 0x hex), got '{bad}'"
                if r.returncode != 2 or r.stderr.split("\n")[0] != want or r.stdout:
                    fail(f"{name} {flag} {bad!r}: exit {r.returncode}, {r.stderr.splitlines()[:1]}, want 2 and {want!r}")
            for good in ["0" + str(o.min), hex(o.max), str(o.max)]:
                r = run(base + [flag, good] + after)
                if r.returncode != 2 or after_says not in r.stderr:
                    fail(f"{name} {flag} {good}: not taken (exit {r.returncode}: {r.stderr.splitlines()[:1]})")
        elif re.fullmatch(r"[A-Z]+[=:][A-Za-z.]+", o.value):  # ADDR=FILE, A:B
            covered += 1
            sep = "=" if "=" in o.value else ":"
            for bad in BAD:
                text = f"{bad}{sep}1" if sep == ":" else f"{bad}={case}/manifest.json"
                r = run(base + [flag, text])
                want = f"{name}: {flag} wants {o.value} ("
                if r.returncode != 2 or not r.stderr.startswith(want) or not r.stderr.split("\n")[0].endswith(f"got '{text}'"):
                    fail(f"{name} {flag} {text!r}: exit {r.returncode}, {r.stderr.splitlines()[:1]}, want 2 and {want!r}...")
print(f"{covered} numeric options checked")
if covered < 12:
    fail(f"only {covered} numeric options found in the tools' --help")

# "010" is ten, never octal (and not an error), through the one reading.
for text in ("010", "0x0a", "0X0A"):
    r = run([bench, "--host-load", text, case])
    if r.returncode != 0 or "over 10 runs" not in r.stdout:
        fail(f"--host-load {text} is not ten: exit {r.returncode}: {r.stdout}{r.stderr}")
r = run([sysnode, "run", case, "--max-cycles", "0x100000"])
if r.returncode != 0:
    fail(f"--max-cycles 0x100000 refused: {r.stderr}")
for argv in ([sysnode, "run", case, "--device", "foo"], [sysnode, "flash", image, "--device", "foo"]):
    r = run(argv)
    if r.returncode != 2 or "--device foo: not a device" not in r.stderr:
        fail(f"{' '.join(argv)}: exit {r.returncode}, {r.stderr!r}")

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "VERSION")
m = re.match(r"([0-9.]+)\n?$", open(top).read())
if not m:
    fail("no version in python/VERSION")
for tool, word in ([sysnode], "sysnode"), ([sysnode, "run"], "sysnode"), ([sysnode, "flash"], "sysnode"), \
        ([sysnode, "pack"], "sysnode"), ([sysnode, "header"], "sysnode"), ([sysnode, "dump"], "sysnode"), \
        ([sim], "sysnode-sim"), ([bench], "sysnode-bench"):
    r = run(tool + ["--version"])
    if m and (r.returncode != 0 or r.stdout != f"{word} {m.group(1)}\n" or r.stderr):
        fail(f"{' '.join(tool)} --version: exit {r.returncode}, {r.stdout!r}, want '{word} {m.group(1)}'")
if failed:
    sys.exit(f"{len(failed)} failures")
print("PASS: numbers one way, one version")
