#!/usr/bin/env python3
"""Runs every command block of the project's documentation (README.md,
docs/*.md and the other pages in PAGES), so the pages stay true: a ```sh block runs in bash (-e, pipefail)
from a scratch folder that holds the tree's artifacts/, docs/, python/ and
the build as build/, so outputs the pages write land there, not in the tree.
The blocks of one page run in order in one folder (a later block may use an
earlier one's file). An ```output block right after a ```sh block lists lines
its stdout and stderr must hold, in that order, exactly (an ellipsis "…"
stands for text that differs between machines, such as an absolute path): so
a cycle figure a page shows is the figure the tools print. A block is left out only with a
`<!-- docs-test: skip (why) -->` line right above its fence; every skip must
say why, and the count run is printed. Every relative link must name a file
of the tree and, after #, one of its headings.

usage: run_blocks.py SOURCE_DIR BUILD_DIR [PAGE.md...]"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( *)```(\S*)\s*$")  # indented too: a block inside a list item
SKIP = re.compile(r"^<!-- docs-test: skip \((.+)\) -->$")
# The project's pages besides docs/*.md (the fact sheets in docs/reference/ are not the project's).
PAGES = ("README.md", "sim/README.md", "artifacts/FORMAT.md", "artifacts/kohakutpu/README.md", "firmware/bench/README.md")
LINKED = ("artifacts", "docs", "python", "firmware", "CMakeLists.txt", "cmake", "VERSION")


def blocks(path):
    """(line, info, text, skip reason or None) per fenced block of path."""
    out, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, indent, info = i, m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and lines[j] != indent + "```":
            j += 1
        if j == len(lines):
            sys.exit(f"{path}:{start + 1}: a fenced block that never closes")
        prev = lines[start - 1].strip() if start > 0 else ""
        skip = SKIP.match(prev)
        if prev.startswith("<!-- docs-test") and not skip:
            sys.exit(f"{path}:{start}: a docs-test marker must read '<!-- docs-test: skip (why) -->'")
        body = [l[len(indent):] if l.startswith(indent) else l for l in lines[start + 1:j]]
        out.append((start + 1, info, "\n".join(body), skip.group(1) if skip else None))
        i = j + 1
    return out


def line_matches(got, want):
    """got is want, where each "…" of want stands for any text."""
    pattern = ".*".join(re.escape(part) for part in want.rstrip().split("\u2026"))
    return re.fullmatch(pattern, got.rstrip()) is not None


LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def link_failures(page):
    """Every relative link of page names a file of the tree and, after #, a heading of it."""
    failures, text = [], open(page, encoding="utf-8").read()
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(full):
            failures.append(f"{page}: the link {target} names no file")
        elif anchor and full.endswith(".md"):
            headings = [slug(l.lstrip("#")) for l in open(full, encoding="utf-8") if l.startswith("#")]
            if anchor not in headings:
                failures.append(f"{page}: the link {target} names no heading of {path or 'this page'}")
    return failures


def contains_in_order(got, want):
    """The first line of want not found in got (in order), or None."""
    pos = 0
    for w in want:
        while pos < len(got) and not line_matches(got[pos], w):
            pos += 1
        if pos == len(got):
            return w
        pos += 1
    return None


def run_page(page, source, build):
    failures, ran, skipped = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="docs-") as scratch:
        for name in LINKED:
            if os.path.exists(os.path.join(source, name)):
                os.symlink(os.path.join(source, name), os.path.join(scratch, name))
        os.symlink(build, os.path.join(scratch, "build"))
        found = blocks(page)
        for k, (line, info, text, skip) in enumerate(found):
            if info == "output":
                if k == 0 or found[k - 1][1] != "sh":
                    failures.append(f"{page}:{line}: an output block must follow a sh block")
                continue
            if info != "sh":
                continue
            if skip is not None:
                skipped += 1
                continue
            ran += 1
            env = dict(os.environ, LC_ALL="C")
            env.pop("PYTHONPATH", None)
            p = subprocess.run(["bash", "-eo", "pipefail", "-c", text], cwd=scratch, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
            got = p.stdout.decode("utf-8", "replace").split("\n")
            if p.returncode != 0:
                failures.append(f"{page}:{line}: exit {p.returncode}\n" + "\n".join(got[-15:]))
                continue
            nxt = found[k + 1] if k + 1 < len(found) else None
            if nxt and nxt[1] == "output":
                missing = contains_in_order(got, nxt[2].split("\n"))
                if missing is not None:
                    failures.append(f"{page}:{nxt[0]}: the output lacks the line\n  {missing}\nit printed:\n"
                                    + "\n".join(got[-15:]))
    return failures, ran, skipped


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source, build = (os.path.abspath(a) for a in sys.argv[1:3])
    pages = sys.argv[3:] or [os.path.join(source, p) for p in PAGES] + sorted(
        os.path.join(source, "docs", f) for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    failures, ran, skipped = [], 0, 0
    for page in pages:
        f, r, s = run_page(page, source, build)
        failures += link_failures(page) + f
        ran += r
        skipped += s
        print(f"{os.path.relpath(page, source)}: {r} blocks run, {s} skipped")
    for f in failures:
        print("FAIL " + f)
    if ran == 0:
        sys.exit("no command block ran")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
