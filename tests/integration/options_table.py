#!/usr/bin/env python3
"""options_table.py SOURCE_DIR SYSNODE SYSNODE_SIM SYSNODE_BENCH IMAGE WORKDIR

The one option table (common/options.c), checked from outside:
- every tool's --help describes each of its options (help_options.py), and
  each option it lists is one the tool takes: given with a value of its
  shape, it is never "unknown", and one given twice (unless repeatable) or
  without its value is bad usage naming it;
- an option of another tool, or a prefix of a long name, is unknown;
- the user guide's options table of each tool (docs/user-guide.md) lists
  exactly the options its --help lists, so the two cannot drift;
- no program reads argv by hand: no loop over argc, no argv[i], in the
  programs' sources (host/ and sim/harness/main.cpp)."""
import os
import re
import shutil
import subprocess
import sys

from help_options import help_options

src, sysnode, sim, bench, image, work = sys.argv[1:7]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
none = os.path.join(work, "none")  # a path that is not there: each command fails after its options
failed = []


def fail(msg):
    failed.append(msg)
    print("FAIL:", msg)


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


# Each tool: how it starts (with what it needs besides options) and its user guide section.
TOOLS = {
    "sysnode": ([sysnode], None),
    "sysnode run": ([sysnode, "run", none], "sysnode run"),
    "sysnode flash": ([sysnode, "flash", none + ".elf"], "On a card"),
    "sysnode pack": ([sysnode, "pack", none], None),
    "sysnode header": ([sysnode, "header", none], None),
    "sysnode dump": ([sysnode, "dump", none], None),
    "sysnode-sim": ([sim, none + ".elf"], "sysnode-sim"),
    "sysnode-bench": ([bench, none], "sysnode-bench"),
}


def sample(o):
    """A value of the option's shape."""
    if o.min is not None:
        return str(o.min)
    if re.fullmatch(r"[A-Z]+=[A-Za-z.]+", o.value):
        return "0x1000=" + none
    if re.fullmatch(r"[A-Z]+:[A-Z]+", o.value):
        return "1:2"
    if o.name == "device":
        return "sim"
    if o.name == "inject":
        return "go-drop"
    ext = re.search(r"(\.[a-z]+)", o.value)
    return os.path.join(work, "out" + (ext.group(1) if ext else ""))


def guide_options(section):
    """The --names in the first column of the options table under ## section."""
    text = open(os.path.join(src, "docs", "user-guide.md"), encoding="utf-8").read()
    body = text.split("\n## " + section + "\n", 1)[1].split("\n## ", 1)[0]
    rows = [l for l in body.split("\n") if l.startswith("| `-")]
    return {n for row in rows for n in re.findall(r"--([a-z][a-z0-9-]*)", row.split(" | ")[0])}


every = {}
for tool, (base, section) in TOOLS.items():
    options = help_options(base[:2] if base[0] == sysnode and tool != "sysnode" else base[:1])
    names = [o.name for o in options]
    every[tool] = set(names)
    for want in ("help", "version"):
        if want not in names:
            fail(f"{tool} --help lists no --{want}")
    for o in options:
        if len(o.text) < 10:
            fail(f"{tool} --{o.name}: no description in --help ({o.text!r})")
        if o.name in ("help", "version") or tool == "sysnode":
            continue
        args = ["--" + o.name] + ([sample(o)] if o.value else [])
        r = run(base + args)
        if "unknown option" in r.stderr or r.returncode == 0:
            fail(f"{tool} {' '.join(args)}: not taken (exit {r.returncode}: {r.stderr.splitlines()[:1]})")
        if o.short:
            r = run(base + ["-" + o.short] + args[1:])
            if "unknown option" in r.stderr:
                fail(f"{tool} -{o.short}: not taken: {r.stderr.splitlines()[:1]}")
        if "repeatable" not in o.text:
            r = run(base + args + args)
            if r.returncode != 2 or f"--{o.name} given twice" not in r.stderr:
                fail(f"{tool} {' '.join(args)} twice: exit {r.returncode}, {r.stderr.splitlines()[:1]}")
        if o.value:
            r = run(base + ["--" + o.name])
            if r.returncode != 2 or f"--{o.name}: no value after it" not in r.stderr:
                fail(f"{tool} --{o.name} without its value: exit {r.returncode}, {r.stderr.splitlines()[:1]}")
        if len(o.name) > 3:
            prefix = "--" + o.name[:-1]
            r = run(base + [prefix] + args[1:])
            if r.returncode != 2 or f"{prefix}: unknown option" not in r.stderr:
                fail(f"{tool} {prefix} (a prefix): exit {r.returncode}, {r.stderr.splitlines()[:1]}")
    if section:
        documented = guide_options(section)
        listed = set(names) - {"help", "version"}
        for n in sorted(listed - documented):
            fail(f"docs/user-guide.md \"{section}\": no row for --{n}, which {tool} --help lists")
        for n in sorted(documented - listed):
            fail(f"docs/user-guide.md \"{section}\": --{n} is no option of {tool}")

# An option of another tool is unknown here.
for tool, (base, _) in TOOLS.items():
    for other in sorted(set().union(*every.values()) - every[tool]):
        r = run(base + ["--" + other, "1"])
        if r.returncode != 2 or f"--{other}: unknown option" not in r.stderr:
            fail(f"{tool} --{other} (not its option): exit {r.returncode}, {r.stderr.splitlines()[:1]}")

# No argv loop by hand in the programs.
LOOP = re.compile(r"for\s*\([^;]*;[^;]*<\s*argc|argv\s*\[\s*(?:i|j|k|\+\+\w+|\w+\s*\+\+)\s*\]|while\s*\([^)]*argc")
programs = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(src, "host")) for f in fs
            if f.endswith((".c", ".cpp"))] + [os.path.join(src, "sim", "harness", "main.cpp")]
for path in programs:
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if LOOP.search(line):
            fail(f"{os.path.relpath(path, src)}:{n}: reads argv by hand: {line.strip()}")
if failed:
    sys.exit(f"{len(failed)} failures")
print(f"PASS: {sum(len(v) for v in every.values())} options of {len(TOOLS)} tools: each described, taken, "
      "documented; no argv loop by hand")
