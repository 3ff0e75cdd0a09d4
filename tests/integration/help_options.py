"""What a tool's --help says about its options, read back from the text a
user sees (not from the option table): the tests check the table through it.

help_options(argv) -> [Option]: one per entry under "Options:", in order."""
import re
import subprocess
from dataclasses import dataclass

HEAD = re.compile(r"^  (?:-(\w), |    )--([a-z][a-z0-9-]*)(?: ([^ ]+))?(?: {2,}(.*))?$")
RANGE = re.compile(r"\((\d+)\.\.(\d+); default ([^)]*)\)")


@dataclass
class Option:
    name: str          # the long name, without "--"
    short: str         # the one-letter name, or ""
    value: str         # the value as usage shows it ("N", "ADDR=FILE"), "" for a flag
    text: str          # the description, joined into one line
    min: int = None    # a number's range, when the help gives one
    max: int = None
    default: str = None


def help_options(argv):
    out = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30)
    if out.returncode != 0 or out.stderr:
        raise SystemExit(f"{' '.join(argv)} --help: exit {out.returncode}, stderr {out.stderr!r}")
    lines = out.stdout.split("\n")
    if "Options:" not in lines:
        raise SystemExit(f"{' '.join(argv)} --help has no Options: section")
    options = []
    for line in lines[lines.index("Options:") + 1:]:
        m = HEAD.match(line)
        if m:
            options.append(Option(m.group(2), m.group(1) or "", m.group(3) or "", m.group(4) or ""))
        elif line.startswith("    ") and options:
            options[-1].text = (options[-1].text + " " + line.strip()).strip()
        elif line.strip():
            raise SystemExit(f"{' '.join(argv)} --help: a line that is no option: {line!r}")
    for o in options:
        r = RANGE.search(o.text)
        if r:
            o.min, o.max, o.default = int(r.group(1)), int(r.group(2)), r.group(3)
    return options
