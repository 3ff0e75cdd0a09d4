#!/usr/bin/env python3
"""Every citation in the tree resolves inside the clone (issue 9, DESIGN.md
§4): a section cited as `DESIGN.md §N`, `FORMAT.md §N`, `sysnode-facts §N.M`
or `artifacts-facts §N` names a numbered heading of that document, and a
project path cited in code, comments or docs (firmware/, sim/, host/, ...)
names a tracked file or folder (or, cited as a module, that path with a
source suffix). KohakuTPU paths (`path@commit`, and the source keys of the
fact sheets in docs/reference/) and built images (*.elf) are not project
paths. No file cites a path outside the clone (the dot-dot shared folder
of the original brief).

usage: citations.py REPO_ROOT"""
import os
import re
import sys

from tree_files import tree_files

root = sys.argv[1]
DOCS = {"DESIGN.md": "docs/DESIGN.md", "FORMAT.md": "artifacts/FORMAT.md",
        "sysnode-facts": "docs/reference/sysnode-facts.md", "artifacts-facts": "docs/reference/artifacts-facts.md",
        "unit-timing": "docs/reference/unit-timing.md"}
OUTSIDE = "../" + "shared"  # spelled apart so this file does not cite it
SUFFIXES = (".c", ".h", ".cpp", ".sv", ".py", ".sh", ".S", ".ld", ".md", ".cmake")
TOP = ("iface", "firmware", "sim", "host", "common", "docs", "artifacts", "tests", "linker", "cmake", "scripts", "python")

files = tree_files(root)
tracked = set(files)
folders = {os.path.dirname(f) for f in files}
while any(os.path.dirname(d) not in folders and os.path.dirname(d) for d in folders):
    folders |= {os.path.dirname(d) for d in folders}


def sections(doc):
    heads = set()
    for line in open(os.path.join(root, doc), encoding="utf-8"):
        m = re.match(r"#+\s+(\d+(?:\.\d+)*)\.?\s", line)
        if m:
            heads.add(m.group(1))
    return heads


heads = {name: sections(path) for name, path in DOCS.items()}
cite = re.compile(r"\b(DESIGN\.md|FORMAT\.md|sysnode-facts|artifacts-facts|unit-timing)\s?§\s?(\d+(?:\.\d+)*)")
path = re.compile(r"(?<![\w./@-])(?:%s)/[\w./-]+" % "|".join(TOP))
bad = []
for f in files:
    full = os.path.join(root, f)
    if f.endswith((".bin", ".json")) or f.startswith("artifacts/compiler/"):
        continue
    try:
        text = open(full, encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    for n, line in enumerate(text.splitlines(), 1):
        if OUTSIDE in line:
            bad.append(f"{f}:{n}: cites {OUTSIDE}, which a clone does not have")
        for doc, sec in cite.findall(line):
            if sec not in heads[doc]:
                bad.append(f"{f}:{n}: {doc} §{sec}: no such section in {DOCS[doc]}")
        for m in path.finditer(line):
            if line[m.end():m.end() + 1] == "@":
                continue  # a KohakuTPU path@commit
            p = m.group(0).rstrip("./")
            if p.endswith(".elf") or f.startswith("docs/reference/"):
                continue
            if p not in tracked and p not in folders and not any(p + x in tracked for x in SUFFIXES):
                bad.append(f"{f}:{n}: {p}: no such file or folder in the tree")
for b in bad:
    print(b)
print(f"citations: {len(bad)} unresolved" if bad else "citations: all resolve")
sys.exit(1 if bad else 0)
